package shard_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/shard"
)

// partition returns the parts of a partition of ids over n shards, each
// named "shard-K".
func partition(t *testing.T, ids []string, n int) []shard.Part {
	t.Helper()
	items, _ := shard.Items(ids, nil)
	parts := make([]shard.Part, n)
	for k := range parts {
		spec := shard.Spec{Index: k, Count: n}
		share, err := shard.Share(items, spec)
		require.NoError(t, err)
		parts[k] = shard.Part{Name: fmt.Sprintf("shard-%d", k), Record: shard.NewRecord(spec, items), IDs: share}
	}
	return parts
}

func TestCheckPartition(t *testing.T) {
	ids := []string{"p.BenchmarkA", "p.BenchmarkB", "p.BenchmarkC", "p.BenchmarkD", "p.BenchmarkE"}
	tests := []struct {
		name    string
		edit    func(ps []shard.Part) []shard.Part
		byItems bool
		want    string // "" for no error
	}{
		{"whole partition", nil, true, ""},
		{"given in any order", func(ps []shard.Part) []shard.Part { return []shard.Part{ps[2], ps[0], ps[1]} }, true, ""},
		{"no parts", func([]shard.Part) []shard.Part { return nil }, true, ""},
		{"not a shard", func(ps []shard.Part) []shard.Part { ps[1].Record.Index = 3; return ps }, true, "shard-1: shard 3 of 3 (5 benchmarks) is not a shard"},
		{"different N", func(ps []shard.Part) []shard.Part { ps[2].Record.Count = 4; return ps }, true, "shard-0 is shard 0/3 but shard-2 is shard 2/4"},
		{"different digest", func(ps []shard.Part) []shard.Part { ps[1].Record.Digest = "sha256:00"; return ps }, true, "shard-0 and shard-1 partitioned different benchmarks or costs"},
		{"different total", func(ps []shard.Part) []shard.Part { ps[1].Record.Total = 6; return ps }, true, "(5 benchmarks, sha256:"},
		{"index twice", func(ps []shard.Part) []shard.Part { ps[2].Record.Index = 1; return ps }, true, "shard-1 and shard-2 are both shard 1/3 (overlapping shards)"},
		{"shard missing", func(ps []shard.Part) []shard.Part { return ps[:2] }, true, "missing 1 shard of 3: shard 2/3 (given: shard-0, shard-1)"},
		{"two missing", func(ps []shard.Part) []shard.Part { return ps[1:2] }, true, "missing 2 shards of 3: shard 0/3, 2/3 (given: shard-1)"},
		{"item in two shares", func(ps []shard.Part) []shard.Part {
			ps[1].IDs = append(ps[1].IDs, ps[0].IDs[0])
			return ps
		}, true, "benchmark p.BenchmarkA is in both shard-0 and shard-1 (overlapping shards)"},
		{"item lost", func(ps []shard.Part) []shard.Part { ps[2].IDs = ps[2].IDs[1:]; return ps }, true, "the shards in shard-0, shard-1, shard-2 hold 4 benchmarks, but 5 were partitioned"},
		{"items not checked when the shards split something else", func(ps []shard.Part) []shard.Part {
			for i := range ps {
				ps[i].IDs = nil
			}
			return ps
		}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := partition(t, ids, 3)
			if tt.edit != nil {
				ps = tt.edit(ps)
			}
			err := shard.CheckPartition(ps, tt.byItems)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, errors.Is(err, shard.ErrPartition), "%v matches ErrPartition", err)
			assert.NotContains(t, err.Error(), shard.ErrPartition.Error(), "the message leaves the context to the merge")
		})
	}
}

func TestRecordValid(t *testing.T) {
	tests := []struct {
		r    shard.Record
		want bool
	}{
		{shard.Record{Index: 0, Count: 1}, true},
		{shard.Record{Index: 2, Count: 3, Total: 7}, true},
		{shard.Record{Index: 3, Count: 3}, false},
		{shard.Record{Index: -1, Count: 3}, false},
		{shard.Record{Index: 0, Count: 0}, false},
		{shard.Record{Index: 0, Count: 2, Total: -1}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.r.Valid(), "%+v", tt.r)
	}
}

// TestFileCopy: File.Copy copies a file and refuses one whose recorded
// size or SHA-256 differs, checking only what was recorded.
func TestFileCopy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "raw.txt")
	data := []byte("BenchmarkA 1 100 ns/op\n")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	good := shard.FileOf(data)
	other := shard.FileOf([]byte("BenchmarkA 1 101 ns/op\n"))
	for _, tc := range []struct {
		name    string
		f       shard.File
		path    string
		changed bool
		err     bool
	}{
		{"as recorded", good, path, false, false},
		{"other contents, same size", other, path, true, true},
		{"other size", shard.File{Size: good.Size - 1, SHA256: good.SHA256}, path, true, true},
		{"size only", shard.File{Size: good.Size}, path, false, false},
		{"hash only", shard.File{Size: -1, SHA256: good.SHA256}, path, false, false},
		{"wrong hash only", shard.File{Size: -1, SHA256: other.SHA256}, path, true, true},
		{"nothing recorded", shard.File{Size: -1}, path, false, false},
		{"missing", good, filepath.Join(dir, "none.txt"), false, true},
		{"a directory", good, dir, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := tc.f.Copy(&buf, tc.path)
			if (err != nil) != tc.err || errors.Is(err, shard.ErrChanged) != tc.changed {
				t.Fatalf("err = %v, want error %v, shard.ErrChanged %v", err, tc.err, tc.changed)
			}
			if tc.changed && !strings.Contains(err.Error(), tc.path) {
				t.Errorf("err = %v, want it to name %s", err, tc.path)
			}
			if err == nil && !bytes.Equal(buf.Bytes(), data) {
				t.Errorf("copied %q, want %q", buf.Bytes(), data)
			}
		})
	}
}

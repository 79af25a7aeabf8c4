package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/shard"
)

// TestPlanRefused: a plan whose sharding or Bench pattern cannot run is an
// *mbopt.Error on the field at fault before anything runs (no repository
// needed: Dir is never looked at).
func TestPlanRefused(t *testing.T) {
	s := Schedule{Trials: 3, Runs: 1, Count: 1, BenchTime: "1x"}
	for _, tc := range []struct {
		name  string
		plan  Plan
		field mbopt.Field
	}{
		{"both shardings", Plan{Shard: shard.Spec{Index: 0, Count: 2}, TrialShard: shard.Spec{Index: 0, Count: 2}}, FieldTrialShard},
		{"shard index out of range", Plan{Shard: shard.Spec{Index: 2, Count: 2}}, FieldShard},
		{"trial shard index out of range", Plan{TrialShard: shard.Spec{Index: -1, Count: 2}}, FieldTrialShard},
		{"more trial shards than trials", Plan{TrialShard: shard.Spec{Index: 0, Count: 4}}, FieldTrialShard},
		{"until-stable with trial shards", Plan{TrialShard: shard.Spec{Index: 0, Count: 2}, Schedule: Schedule{Trials: 3, UntilStable: 0.01}}, FieldTrialShard},
		{"bad pattern", Plan{Bench: "("}, FieldBench},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.plan
			if p.Schedule.Trials == 0 {
				p.Schedule = s
			}
			p.Dir = t.TempDir() // not a repository: a check that passed would fail on Dir
			raw, err := Run(context.Background(), p)
			var ie *mbopt.Error
			if !errors.As(err, &ie) || ie.Field != tc.field {
				t.Fatalf("Run = %v, %v; want an *mbopt.Error on %s", raw, err, tc.field)
			}
		})
	}
}

// TestTrialsOf: a trial shard runs the trials t with (t − 1) mod Count ==
// Index; without sharding every trial runs.
func TestTrialsOf(t *testing.T) {
	for _, tc := range []struct {
		trials int
		s      shard.Spec
		want   []int
	}{
		{3, shard.Spec{}, []int{1, 2, 3}},
		{5, shard.Spec{Index: 0, Count: 2}, []int{1, 3, 5}},
		{5, shard.Spec{Index: 1, Count: 2}, []int{2, 4}},
		{2, shard.Spec{Index: 1, Count: 2}, []int{2}},
	} {
		if got := trialsOf(tc.trials, tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("trialsOf(%d, %v) = %v, want %v", tc.trials, tc.s, got, tc.want)
		}
	}
}

// TestComparisonDir: an output directory is named by the UTC start time
// and the two short commits, "+dirty" after a worktree's.
func TestComparisonDir(t *testing.T) {
	start := time.Date(2026, 1, 2, 4, 4, 5, 0, time.FixedZone("CET", 3600))
	base := Revision{Commit: "0123456789abcdef0123"}
	for _, tc := range []struct {
		name string
		head Revision
		want string
	}{
		{"commits", Revision{Commit: "fedcba9876543210fedc"}, "20260102-030405-0123456789ab-fedcba987654"},
		{"dirty head", Revision{Commit: "fedcba9876543210fedc", Dirty: true}, "20260102-030405-0123456789ab-fedcba987654+dirty"},
		{"short commit", Revision{Commit: "abc"}, "20260102-030405-0123456789ab-abc"},
	} {
		if got := comparisonDir(start, base, tc.head); got != tc.want {
			t.Errorf("%s: comparisonDir = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestParseBenchTime: a -test.benchtime is a positive duration or
// iteration count.
func TestParseBenchTime(t *testing.T) {
	for _, tc := range []struct {
		in    string
		d     time.Duration
		iters int
		ok    bool
	}{
		{"1s", time.Second, 0, true},
		{"100ms", 100 * time.Millisecond, 0, true},
		{"100x", 0, 100, true},
		{"0x", 0, 0, false},
		{"0s", 0, 0, false},
		{"-1s", 0, 0, false},
		{"fast", 0, 0, false},
	} {
		d, iters, err := ParseBenchTime(tc.in)
		if (err == nil) != tc.ok || d != tc.d || iters != tc.iters {
			t.Errorf("ParseBenchTime(%q) = %v, %d, %v; want %v, %d, ok %v", tc.in, d, iters, err, tc.d, tc.iters, tc.ok)
		}
	}
}

// TestCloseKeepsNothing: Close on a Raw that Run did not make does nothing.
func TestCloseKeepsNothing(t *testing.T) {
	(&Raw{}).Close()
}

// TestClaimConcurrent: comparisons that start in the same second, at the
// same moment, each get an output directory of their own (two A/A runs
// started together wrote into one).
func TestClaimConcurrent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".mbopt", "compare", "20261129-061737-c3095e7e578d-f14e6620b220")
	const n = 8
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := claim(dir)
			if err != nil {
				t.Error(err)
			}
			got[i] = d
		}()
	}
	wg.Wait()
	slices.Sort(got)
	if u := slices.Compact(slices.Clone(got)); len(u) != n {
		t.Fatalf("%d comparisons claimed %d directories: %q", n, len(u), got)
	}
	for _, d := range got {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("%s: not created (%v)", d, err)
		}
		if d != dir && !strings.HasPrefix(d, dir+"-") {
			t.Errorf("%s: not named after %s", d, dir)
		}
	}
	// A name that cannot be a directory is an error, not an endless search.
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := claim(filepath.Join(file, "x")); err == nil {
		t.Error("claim under a file: no error")
	}
}

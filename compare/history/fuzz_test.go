package history

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/detect"
)

// historySeeds returns the bytes of small databases for the fuzz
// corpus: a current history (with a bridge, an impact and an A/A
// comparison), one of schema version 1 and 3, and someone else's.
func historySeeds(f *testing.F) [][]byte { return historySeedsT(f) }

// historySeedsT is historySeeds for any test.
func historySeedsT(f testing.TB) [][]byte {
	f.Helper()
	ctx := context.Background()
	dir := f.TempDir()
	read := func(path string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		return data
	}
	cur := filepath.Join(dir, "cur.db")
	s, err := Open(ctx, cur)
	if err != nil {
		f.Fatal(err)
	}
	r := report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0.05, "BenchmarkB": -0.02})
	r.Results[0].Impact = &callgraph.Impact{Attributed: 0.3, Flat: 0.2}
	for _, add := range []func() error{
		func() error { _, err := s.Add(ctx, r, testMachine); return err },
		func() error {
			_, err := s.AddBridge(ctx, report('a', 'm', 2, 0.01, map[string]float64{"BenchmarkA": 0.1}), testMachine)
			return err
		},
		func() error {
			_, err := s.Add(ctx, report('m', 'c', 3, 0.01, map[string]float64{"BenchmarkA": 0.01}), testMachine)
			return err
		},
		func() error {
			_, err := s.Add(ctx, report('c', 'c', 3, 0.02, map[string]float64{"BenchmarkA": 0}), testMachine)
			return err
		},
	} {
		if err := add(); err != nil {
			f.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		f.Fatal(err)
	}
	// The same history in 512-byte pages and rollback-journal mode: a
	// tenth of the bytes, so the fuzzer mutates and minimizes faster.
	small := filepath.Join(dir, "small.db")
	sqliteFileF(f, cur, `PRAGMA journal_mode = DELETE`, `VACUUM INTO '`+small+`'`)
	sqliteFileF(f, small, `PRAGMA page_size = 512`, `VACUUM`)
	seeds := [][]byte{read(cur), read(small)}
	for _, v := range []string{"v1", "v3"} {
		sql, err := os.ReadFile(filepath.Join("testdata", v+".sql"))
		if err != nil {
			f.Fatal(err)
		}
		path := filepath.Join(dir, v+".db")
		sqliteFileF(f, path, `PRAGMA page_size = 512`, string(sql))
		seeds = append(seeds, read(path))
	}
	foreign := filepath.Join(dir, "foreign.db")
	sqliteFileF(f, foreign, `PRAGMA page_size = 512`, `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)`, `INSERT INTO users VALUES (1, 'a')`)
	return append(seeds, read(foreign), nil, []byte(sqliteMagic), []byte("not a database"))
}

// FuzzOpenReadOnly gives mbopt history's reader arbitrary files: a
// damaged, truncated or foreign database must give an error or a result,
// never a panic, and the file must stay as it was (mbopt history never
// writes its input).
func FuzzOpenReadOnly(f *testing.F) {
	for _, seed := range historySeeds(f) {
		f.Add(seed)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "h.db")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := OpenReadOnly(ctx, path)
		if err == nil {
			if set, err := s.Series(ctx, Query{}); err == nil {
				if _, err := set.Detect(detectOptionsForFuzz, nil); err != nil {
					t.Errorf("Detect on what Series returned: %v", err)
				}
				for _, b := range set.Bridges {
					_, _ = s.Benchmarks(ctx, b.From.Commit)
				}
			}
			_, _ = s.Instabilities(ctx, Filter{})
			_, _ = s.Series(ctx, Query{Baseline: "a", Benchmarks: []string{"BenchmarkA", "m.BenchmarkA"}, Unit: "sec/op"})
			_ = s.Check(ctx)
			if err := s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, after) {
			t.Errorf("the reader changed the file (%d bytes, now %d)", len(data), len(after))
		}
	})
}

// detectOptionsForFuzz are the detectors' default options, E-divisive
// included, so that every detector sees what Series returns.
var detectOptionsForFuzz = func() detect.Options {
	o := detect.DefaultOptions
	o.Detectors = []detect.Kind{detect.Jump, detect.Trend, detect.EDivisive}
	return o
}()

package compare_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/relevance/measure"
)

// endingModule is a module whose sub-benchmarks end their process, so
// that the sub-benchmarks after them do not run there:
//
//   - BenchmarkBoth/b calls os.Exit(0) in both versions: no process ever
//     shows BenchmarkBoth/c;
//   - BenchmarkOnce/b calls os.Exit(0) in every process of a version but
//     the first, which writes marker (one per version);
//   - BenchmarkAdd/b calls os.Exit(1) in the base only; the head adds
//     BenchmarkAdd/new before it.
func endingModule(head bool, marker string) string {
	return fmt.Sprintf(`package e

import (
	"os"
	"strconv"
	"testing"
)

`+workSource(500)+`
const head = %t

func BenchmarkBoth(b *testing.B) {
	b.Run("a", work)
	b.Run("b", func(b *testing.B) { os.Exit(0) })
	b.Run("c", work)
}

// once exits unless this process is the first to get here.
func once() {
	pid := strconv.Itoa(os.Getpid())
	if data, err := os.ReadFile(%q); err == nil && string(data) != pid {
		os.Exit(0)
	}
	os.WriteFile(%[2]q, []byte(pid), 0o644)
}

func BenchmarkOnce(b *testing.B) {
	b.Run("a", work)
	b.Run("b", func(b *testing.B) { once(); work(b) })
	b.Run("c", work)
}

func BenchmarkAdd(b *testing.B) {
	b.Run("a", work)
	if head {
		b.Run("new", work)
	}
	b.Run("b", func(b *testing.B) {
		if !head {
			os.Exit(1)
		}
		work(b)
	})
	b.Run("c", work)
}
`, head, marker)
}

// TestEndedProcesses: every sub-benchmark that an exit kept from running
// ends as failed, saying so (issue 31: every selected benchmark ends as
// compared, failed with why, added or removed), under time and
// instructions. One that any process of either version showed is failed
// in the version where a process ended before it, with the benchmark it
// ended in: BenchmarkOnce/c under time, where the first process of each
// version ran it (it was compared, from that process alone: nothing said
// that the others never got to it), and BenchmarkAdd/c in the base, where
// only the head ran it; BenchmarkAdd/new, which only the head has and
// runs before the exit, is added, not failed. When no process showed the
// later names (BenchmarkBoth/c), the failure of the one that ended the
// process says that those after it did not run (it said only "panic:
// unexpected call to os.Exit(0) during test"). Under instructions the
// first normal run of BenchmarkOnce lists its benchmarks and each is
// then measured in a process of its own: /b fails there and /c is
// compared.
func TestEndedProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two comparisons; skipped with -short")
	}
	markers := t.TempDir()
	r := twoVersions(t, "e/e_test.go", func(head bool) string {
		side := "base"
		if head {
			side = "head"
		}
		return endingModule(head, filepath.Join(markers, side))
	})
	cache := t.TempDir()
	const bothEnded = "panic: unexpected call to os.Exit(0) during test; it ended the process: the benchmarks of BenchmarkBoth after it, if any, did not run (no process showed their names)"
	for _, metric := range []measure.Metric{measure.Time, measure.Instructions} {
		t.Run(string(metric), func(t *testing.T) {
			s := compare.Settings{Trials: 2, Runs: 1, Count: 2, BenchTime: "20x", Seed: 1, Resamples: 200, Metric: metric, TargetMDE: -1}
			onceB := "panic: unexpected call to os.Exit(0) during test"
			onceC := []string{"failed", "both", "did not run: the process ended in BenchmarkOnce/b before it (panic: unexpected call to os.Exit(0) during test)"}
			if metric == measure.Instructions {
				needValgrind(t)
				s.Count = 1
				// Measured alone, under Valgrind: each version's own
				// message, with the process's.
				onceB = "base: BenchmarkOnce/b: exit status 2"
				onceC = []string{"compared", "", ""}
			}
			for _, side := range []string{"base", "head"} {
				if err := os.Remove(filepath.Join(markers, side)); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
			}
			rep, err := compare.Run(context.Background(), compare.Options{Dir: r.Dir, Base: "base", Head: "HEAD", Settings: s, CacheDir: cache, Out: t.TempDir()})
			if err != nil {
				t.Fatalf("the comparison ended: %v", err)
			}
			got := map[string]compare.Result{}
			for _, res := range rep.Results {
				if res.Unit == metric.Unit() || res.Unit == "" {
					got[res.Name] = res
				}
			}
			for _, tc := range []struct {
				name string
				want []string // status, side, the error's first line (a prefix)
			}{
				{"BenchmarkBoth/a", []string{"compared", "", ""}},
				{"BenchmarkBoth/b", []string{"failed", "both", bothEnded}},
				{"BenchmarkOnce/a", []string{"compared", "", ""}},
				{"BenchmarkOnce/b", []string{"failed", "both", onceB}},
				{"BenchmarkOnce/c", onceC},
				{"BenchmarkAdd/a", []string{"compared", "", ""}},
				{"BenchmarkAdd/new", []string{"added", "", ""}},
				{"BenchmarkAdd/b", []string{"failed", "base", ""}},
				{"BenchmarkAdd/c", []string{"failed", "base", "did not run: the process ended in BenchmarkAdd/b before it ("}},
			} {
				res, ok := got[tc.name]
				first, _, _ := strings.Cut(res.Error, "\n")
				switch {
				case !ok:
					t.Errorf("%s: no result", tc.name)
				case string(res.Status) != tc.want[0] || res.Side != tc.want[1] || !strings.HasPrefix(first, tc.want[2]) || (tc.want[2] == bothEnded && first != bothEnded):
					t.Errorf("%s: %s in %q: %q; want %s in %q: %q", tc.name, res.Status, res.Side, first, tc.want[0], tc.want[1], tc.want[2])
				}
			}
			if res, ok := got["BenchmarkBoth/c"]; ok {
				t.Errorf("BenchmarkBoth/c, which no process showed, has a result: %+v", res)
			}
			if t.Failed() {
				for _, res := range rep.Results {
					t.Logf("%s %s %s %s %q", res.Name, res.Unit, res.Status, res.Side, res.Error)
				}
			}
		})
	}
}

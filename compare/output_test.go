package compare_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/relevance/measure"
)

// misbehavingModule is a module whose benchmarks misbehave as a pull
// request's can: BenchmarkNoisy prints lines that look like results of a
// benchmark that does not exist, one of them with a non-numeric iteration
// count, and one of a sub-benchmark of its own that has no count; with
// headFails, BenchmarkSubs/fatal calls b.Fatal, BenchmarkSubs/late calls
// it after the first run (b.N > 1) and BenchmarkExit/exit ends the
// process with os.Exit(0).
func misbehavingModule(headFails bool) string {
	return fmt.Sprintf(`package h

import (
	"fmt"
	"os"
	"testing"
)

`+workSource(2000)+`
const headFails = %t

func BenchmarkNoisy(b *testing.B) {
	fmt.Println("BenchmarkGhost-2  100  5 ns/op")
	fmt.Println("BenchmarkGhost-2  many  5 ns/op")
	fmt.Println("BenchmarkNoisy/odd-2  many  5 ns/op")
	work(b)
}

func BenchmarkSubs(b *testing.B) {
	b.Run("a", work)
	b.Run("fatal", func(b *testing.B) {
		if headFails {
			b.Fatal("boom")
		}
		work(b)
	})
	b.Run("late", func(b *testing.B) {
		if headFails && b.N > 1 {
			b.Fatal("late boom")
		}
		work(b)
	})
	b.Run("c", work)
}

func BenchmarkExit(b *testing.B) {
	b.Run("a", work)
	b.Run("exit", func(b *testing.B) {
		if headFails {
			os.Exit(0)
		}
		work(b)
	})
	b.Run("c", work)
}
`, headFails)
}

// TestMisbehavingBenchmarks: a benchmark's own output and its failures
// never cost the comparison or the results of other benchmarks (issue 31
// items 3, 4 and 13), under time and cpu alike.
//
//   - Lines a benchmark prints that look like results of a benchmark it was
//     not asked to run, or have a non-numeric iteration count, are not
//     results (under time they ended the comparison, exit 1; under cpu
//     the printed name was a failed benchmark, and a line of its own
//     family's name took its cut result line: "did not run"): a note
//     names them.
//   - A b.Fatal in one sub-benchmark fails only that one; its siblings are
//     compared (they all failed, "exit status 1"). After the first run go
//     test names the failure with the -GOMAXPROCS suffix: under time it was
//     a failed BenchmarkSubs/late-2 beside a removed BenchmarkSubs/late.
//   - A sub-benchmark that ends the process with os.Exit(0) is failed,
//     saying so, and so are the siblings its exit kept from running; the
//     ones before it are compared (under cpu it was neither compared nor
//     failed: the report looked complete).
func TestMisbehavingBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two comparisons; skipped with -short")
	}
	r := twoVersions(t, "h/h_test.go", misbehavingModule)
	cache := t.TempDir()
	for _, metric := range []measure.Metric{measure.Time, measure.CPU} {
		t.Run(string(metric), func(t *testing.T) {
			s := compare.Settings{Trials: 2, Runs: 1, Count: 4, BenchTime: "20x", Seed: 1, Resamples: 200, Metric: metric}
			if metric == measure.CPU {
				s.Count = 1
			}
			rep, err := compare.Run(context.Background(), compare.Options{Dir: r.Dir, Base: "base", Head: "HEAD", Settings: s, CacheDir: cache, Out: t.TempDir()})
			if err != nil {
				t.Fatalf("the comparison ended: %v", err)
			}
			unit := metric.Unit()
			got := map[string]compare.Result{}
			for _, res := range rep.Results {
				if res.Unit == unit || res.Unit == "" {
					got[res.Name] = res
				}
				if strings.Contains(res.Name, "Ghost") {
					t.Errorf("a result of the ghost: %+v", res)
				}
			}
			for _, tc := range []struct {
				name   string
				status compare.Status
				error  string
			}{
				{"BenchmarkNoisy", compare.Compared, ""},
				{"BenchmarkSubs/a", compare.Compared, ""},
				{"BenchmarkSubs/fatal", compare.Failed, "boom"},
				{"BenchmarkSubs/late", compare.Failed, "late boom"},
				{"BenchmarkSubs/c", compare.Compared, ""},
				{"BenchmarkExit/a", compare.Compared, ""},
				{"BenchmarkExit/exit", compare.Failed, "os.Exit(0)"},
				{"BenchmarkExit/c", compare.Failed, "BenchmarkExit/exit"},
			} {
				res, ok := got[tc.name]
				switch {
				case !ok:
					t.Errorf("%s: no result", tc.name)
				case res.Status != tc.status || !strings.Contains(res.Error, tc.error) || (tc.status == compare.Failed && res.Side != "head"),
					tc.error != "" && strings.Count(res.Error, tc.error) > 1: // the log once, whatever -test.count
					t.Errorf("%s: %s in the %q: %q; want %s, with %q", tc.name, res.Status, res.Side, res.Error, tc.status, tc.error)
				}
			}
			if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, "BenchmarkGhost") {
				t.Errorf("no note names the ignored lines of BenchmarkGhost:\n%s", notes)
			}
			if t.Failed() {
				for _, res := range rep.Results {
					t.Logf("%s %s %s %s %q", res.Name, res.Unit, res.Status, res.Side, res.Error)
				}
			}
		})
	}
}

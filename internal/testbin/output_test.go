package testbin

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParseOutput: only the results of the benchmark asked for and its
// sub-benchmarks count; lines a benchmark prints that look like other
// benchmarks' results, or are malformed, are ignored and named; a result
// line cut by the benchmark's own output is joined again; failures name
// the innermost benchmark; with -test.v the benchmark that was running
// when the process ended is known (issue 31 items 3, 4 and 13); a
// benchmark that skips itself is Skipped with what it logged, not failed
// (a top-level benchmark, or a sub-benchmark beside siblings that run).
func TestParseOutput(t *testing.T) {
	head := "goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: AMD EPYC\n"
	for _, tc := range []struct {
		name, top, out string
		want           Output
	}{
		{"plain", "BenchmarkA", head + "BenchmarkA\nBenchmarkA-2 \t 100\t 5.0 ns/op\t 0 B/op\t 0 allocs/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkA-2 \t 100\t 5.0 ns/op\t 0 B/op\t 0 allocs/op\n")}},
		{"a ghost printed before the header", "BenchmarkNoisy",
			"BenchmarkGhost-2  100  5 ns/op\nBenchmarkOther-2  abc  5 ns/op\n" + head + "BenchmarkNoisy\nBenchmarkNoisy-2 \t  10\t 1897 ns/op\n",
			Output{Results: []byte(head + "BenchmarkNoisy-2 \t  10\t 1897 ns/op\n"), Ignored: []string{"BenchmarkGhost", "BenchmarkOther"}}},
		{"printed while running: the result line is cut", "BenchmarkNoisy",
			head + "BenchmarkNoisy\nBenchmarkNoisy-2   \tBenchmarkGhost-2  100  5 ns/op\nBenchmarkOther-2  abc  5 ns/op\n      10\t      1897 ns/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkNoisy-2\t10\t1897\tns/op\n"), Ignored: []string{"BenchmarkGhost", "BenchmarkOther"}}},
		{"printed while running without -test.v: a line of the family's name with no count does not take the cut result", "BenchmarkChatty",
			head + "BenchmarkChatty \tBenchmarkGhost-2  100  5 ns/op\nBenchmarkChatty/odd-2  many  7 ns/op\n     100\t       315.8 ns/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkChatty\t100\t315.8\tns/op\n"), Ignored: []string{"BenchmarkChatty/odd", "BenchmarkGhost"}}},
		{"a sub-benchmark's ghost of a sibling's name is a result", "BenchmarkS",
			head + "BenchmarkS/a-2 \t 10\t 3 ns/op\n",
			Output{Results: []byte(head + "BenchmarkS/a-2 \t 10\t 3 ns/op\n")}},
		{"a benchmark's own configuration-like lines", "BenchmarkA",
			"seed: 42\n" + head + "BenchmarkA-2 \t 100\t 5.0 ns/op\n",
			Output{Results: []byte(head + "BenchmarkA-2 \t 100\t 5.0 ns/op\n")}},
		{"b.Fatal in one sub-benchmark", "BenchmarkSubs",
			head + "BenchmarkSubs\nBenchmarkSubs/a\nBenchmarkSubs/a-2 \t 10\t 66.10 ns/op\nBenchmarkSubs/fail\n--- FAIL: BenchmarkSubs/fail\n    g_test.go:25: boom\nBenchmarkSubs/c\nBenchmarkSubs/c-2 \t 10\t 27.10 ns/op\n--- FAIL: BenchmarkSubs\nFAIL\n",
			Output{Results: []byte(head + "BenchmarkSubs/a-2 \t 10\t 66.10 ns/op\nBenchmarkSubs/c-2 \t 10\t 27.10 ns/op\n"),
				Failed: []BenchFailure{{Name: "BenchmarkSubs/fail", Message: "g_test.go:25: boom"}}}},
		{"b.Fatal with -test.v: the log comes first", "BenchmarkSubs",
			head + "BenchmarkSubs\nBenchmarkSubs/a\nBenchmarkSubs/a \t 10\t 6.000 ns/op\nBenchmarkSubs/fail\n    g_test.go:25: boom\n--- FAIL: BenchmarkSubs/fail\nBenchmarkSubs/c\nBenchmarkSubs/c \t 10\t 7.000 ns/op\n--- FAIL: BenchmarkSubs\nFAIL\n",
			Output{Results: []byte(head + "BenchmarkSubs/a \t 10\t 6.000 ns/op\nBenchmarkSubs/c \t 10\t 7.000 ns/op\n"),
				Failed: []BenchFailure{{Name: "BenchmarkSubs/fail", Message: "g_test.go:25: boom"}}}},
		{"b.Fatal after the first run, with -test.v and -test.count 2: the failure line has the -GOMAXPROCS suffix, the next log is the next failure's", "BenchmarkSubs",
			head + "BenchmarkSubs\nBenchmarkSubs/a\nBenchmarkSubs/a-2 \t 10\t 6.000 ns/op\nBenchmarkSubs/fail\n    g_test.go:25: boom\n--- FAIL: BenchmarkSubs/fail-2\n    g_test.go:25: boom\n--- FAIL: BenchmarkSubs/fail-2\nBenchmarkSubs/c\nBenchmarkSubs/c-2 \t 10\t 7.000 ns/op\n--- FAIL: BenchmarkSubs\nFAIL\n",
			Output{Results: []byte(head + "BenchmarkSubs/a-2 \t 10\t 6.000 ns/op\nBenchmarkSubs/c-2 \t 10\t 7.000 ns/op\n"),
				Failed: []BenchFailure{{Name: "BenchmarkSubs/fail", Message: "g_test.go:25: boom"}}}},
		{"os.Exit(0) in a sub-benchmark with -test.paniconexit0", "BenchmarkSubs",
			head + "BenchmarkSubs\nBenchmarkSubs/a\nBenchmarkSubs/a-2 \t 10\t 25.00 ns/op\nBenchmarkSubs/exit\npanic: unexpected call to os.Exit(0) during test\n\ngoroutine 18 [running]:\n",
			Output{Results: []byte(head + "BenchmarkSubs/a-2 \t 10\t 25.00 ns/op\n"), Running: "BenchmarkSubs/exit"}},
		{"os.Exit(0) after the first run: go test printed the name before the panic, which is no ignored line", "BenchmarkSubs",
			head + "BenchmarkSubs\nBenchmarkSubs/a\nBenchmarkSubs/a-2 \t 10\t 25.00 ns/op\nBenchmarkSubs/exit\nBenchmarkSubs/exit-2   \tpanic: unexpected call to os.Exit(0) during test\n\ngoroutine 18 [running]:\n",
			Output{Results: []byte(head + "BenchmarkSubs/a-2 \t 10\t 25.00 ns/op\n"), Running: "BenchmarkSubs/exit"}},
		{"a skipped sub-benchmark is not running; without -test.v its log follows", "BenchmarkS",
			head + "BenchmarkS\nBenchmarkS/a\nBenchmarkS/a-2 \t 10\t 3 ns/op\nBenchmarkS/skip\n--- SKIP: BenchmarkS/skip\n    x_test.go:9: not here\nPASS\n",
			Output{Results: []byte(head + "BenchmarkS/a-2 \t 10\t 3 ns/op\n"), Skipped: []BenchSkip{{Name: "BenchmarkS/skip", Message: "x_test.go:9: not here"}}}},
		{"a top-level benchmark skips itself (github.com/golang/snappy without its test data)", "Benchmark_UFlat0",
			head + "Benchmark_UFlat0\n    snappy_test.go:1335: test data not found; skipping benchmark without the -download flag\n--- SKIP: Benchmark_UFlat0\nPASS\n",
			Output{Results: []byte(head), Skipped: []BenchSkip{{Name: "Benchmark_UFlat0", Message: "snappy_test.go:1335: test data not found; skipping benchmark without the -download flag"}}}},
		{"a sub-benchmark skips beside siblings that run, with -test.v and -test.count 2: its log lines come first", "BenchmarkSubs",
			head + "BenchmarkSubs\nBenchmarkSubs/a\nBenchmarkSubs/a-2 \t 1\t 591.0 ns/op\nBenchmarkSubs/a-2 \t 1\t 941.0 ns/op\nBenchmarkSubs/skip\n    fx_test.go:14: first line\n    fx_test.go:15: skip 1\n--- SKIP: BenchmarkSubs/skip\nBenchmarkSubs/c\nBenchmarkSubs/c-2 \t 1\t 240.0 ns/op\nBenchmarkSubs/c-2 \t 1\t 401.0 ns/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkSubs/a-2 \t 1\t 591.0 ns/op\nBenchmarkSubs/a-2 \t 1\t 941.0 ns/op\nBenchmarkSubs/c-2 \t 1\t 240.0 ns/op\nBenchmarkSubs/c-2 \t 1\t 401.0 ns/op\n"),
				Skipped: []BenchSkip{{Name: "BenchmarkSubs/skip", Message: "fx_test.go:14: first line\nfx_test.go:15: skip 1"}}}},
		{"b.SkipNow: no message; the skip after the first run has the -GOMAXPROCS suffix and is the same benchmark's", "BenchmarkS",
			head + "BenchmarkS\nBenchmarkS/x\n--- SKIP: BenchmarkS/x\n--- SKIP: BenchmarkS/x-2\nBenchmarkS/y\nBenchmarkS/y-2 \t 10\t 3 ns/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkS/y-2 \t 10\t 3 ns/op\n"), Skipped: []BenchSkip{{Name: "BenchmarkS/x"}}}},
		{"b.Skip after the first run (b.N > 1), with -test.v and -test.count 2: its log, then a result of 0 iterations, no SKIP line (go1.26)", "BenchmarkLateSkip",
			head + "BenchmarkLateSkip\n    fx_test.go:18: too slow\nBenchmarkLateSkip-2        \t       0\t               NaN ns/op\t       0 B/op\t       0 allocs/op\n    fx_test.go:18: too slow\nBenchmarkLateSkip-2        \t       0\t               NaN ns/op\t       0 B/op\t       0 allocs/op\nPASS\n",
			Output{Results: []byte(head), Skipped: []BenchSkip{{Name: "BenchmarkLateSkip", Message: "fx_test.go:18: too slow"}}}},
		{"b.SkipNow after the first run of a sub-benchmark beside a sibling that runs, at -test.cpu 1,2", "BenchmarkLateSkipSub",
			head + "BenchmarkLateSkipSub\nBenchmarkLateSkipSub/a\nBenchmarkLateSkipSub/a     \t  404571\t        29.39 ns/op\nBenchmarkLateSkipSub/a-2   \t  425972\t        28.56 ns/op\nBenchmarkLateSkipSub/b\nBenchmarkLateSkipSub/b     \t       0\t               NaN ns/op\nBenchmarkLateSkipSub/b-2   \t       0\t               NaN ns/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkLateSkipSub/a     \t  404571\t        29.39 ns/op\nBenchmarkLateSkipSub/a-2   \t  425972\t        28.56 ns/op\n"),
				Skipped: []BenchSkip{{Name: "BenchmarkLateSkipSub/b"}}}},
		{"b.Skipf after the first run without -test.v: the log follows in a BENCH block", "BenchmarkLateSkipReset",
			head + "BenchmarkLateSkipReset-2   \t       0\t               NaN ns/op\n--- BENCH: BenchmarkLateSkipReset-2\n    fx_test.go:29: no more than 100\nBenchmarkLateSkipReset-2   \t       0\t               NaN ns/op\n--- BENCH: BenchmarkLateSkipReset-2\n    fx_test.go:29: no more than 100\nPASS\n",
			Output{Results: []byte(head), Skipped: []BenchSkip{{Name: "BenchmarkLateSkipReset", Message: "fx_test.go:29: no more than 100"}}}},
		{"a benchmark that runs at the first count and skips at the second keeps its result and is skipped", "BenchmarkX",
			head + "BenchmarkX\nBenchmarkX-2 \t 10\t 5.0 ns/op\n    x_test.go:7: the input is gone\nBenchmarkX-2 \t 0\t NaN ns/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkX-2 \t 10\t 5.0 ns/op\n"), Skipped: []BenchSkip{{Name: "BenchmarkX", Message: "x_test.go:7: the input is gone"}}}},
		{"a skip at the second count, at b.N = 1, with -test.v: a SKIP block after the first result, then a result of 0 iterations", "BenchmarkSecond",
			head + "BenchmarkSecond\nBenchmarkSecond-2   \t      10\t       230.3 ns/op\n    second_test.go:10: no second count\n--- SKIP: BenchmarkSecond\n    second_test.go:10: no second count\nBenchmarkSecond-2   \t       0\t               NaN ns/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkSecond-2   \t      10\t       230.3 ns/op\n"), Skipped: []BenchSkip{{Name: "BenchmarkSecond", Message: "second_test.go:10: no second count"}}}},
		{"another benchmark's skip", "BenchmarkA", head + "BenchmarkB\n    b_test.go:1: no\n--- SKIP: BenchmarkB\nBenchmarkA\nBenchmarkA-2 \t 100\t 5.0 ns/op\n",
			Output{Results: []byte(head + "BenchmarkA-2 \t 100\t 5.0 ns/op\n")}},
		{"a sub-benchmark whose name ends in a number, at -test.cpu 1", "BenchmarkH",
			head + "BenchmarkH\nBenchmarkH/x-2\nBenchmarkH/x-2 \t 10\t 3 ns/op\nBenchmarkH/y-7\n--- FAIL: BenchmarkH/y-7\n    h_test.go:3: no\nPASS\n",
			Output{Results: []byte(head + "BenchmarkH/x-2 \t 10\t 3 ns/op\n"), Failed: []BenchFailure{{Name: "BenchmarkH/y-7", Message: "h_test.go:3: no"}}}},
		{"a sub-benchmark whose name ends in a number, with a suffix", "BenchmarkH",
			head + "BenchmarkH\nBenchmarkH/x-2\nBenchmarkH/x-2-2 \t 10\t 3 ns/op\nPASS\n",
			Output{Results: []byte(head + "BenchmarkH/x-2-2 \t 10\t 3 ns/op\n")}},
		{"another benchmark's failure", "BenchmarkA", head + "--- FAIL: BenchmarkB\n    x_test.go:1: no\nBenchmarkA-2 \t 100\t 5.0 ns/op\n",
			Output{Results: []byte(head + "BenchmarkA-2 \t 100\t 5.0 ns/op\n")}},
		{"indented numbers without a cut result", "BenchmarkA", head + "BenchmarkA-2 \t 100\t 5.0 ns/op\n    1 2 3\n",
			Output{Results: []byte(head + "BenchmarkA-2 \t 100\t 5.0 ns/op\n")}},
		{"a prefix of the name is another benchmark", "BenchmarkA", head + "BenchmarkAB-2 \t 100\t 5.0 ns/op\n",
			Output{Results: []byte(head), Ignored: []string{"BenchmarkAB"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseOutput([]byte(tc.out), tc.top)
			assert.Equal(t, string(tc.want.Results), string(got.Results))
			assert.Equal(t, tc.want.Ignored, got.Ignored)
			assert.Equal(t, tc.want.Failed, got.Failed)
			assert.Equal(t, tc.want.Skipped, got.Skipped)
			assert.Equal(t, tc.want.Running, got.Running)
		})
	}
}

// TestParseOutputStarted: Started lists the benchmarks asked for whose
// start line (-test.v) the output shows, each once, in order, a parent
// before its sub-benchmarks; a process that ended early shows those up to
// the one it ended in.
func TestParseOutputStarted(t *testing.T) {
	head := "goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: AMD EPYC\n"
	for _, tc := range []struct {
		name, top, out string
		want           []string
	}{
		{"without -test.v", "BenchmarkA", head + "BenchmarkA-2 \t 100\t 5.0 ns/op\n", nil},
		{"sub-benchmarks at -test.count 2, beside another benchmark", "BenchmarkP",
			head + "BenchmarkQ\nBenchmarkQ-2 \t 1\t 3 ns/op\nBenchmarkP\nBenchmarkP/a\nBenchmarkP/a-2 \t 1\t 3 ns/op\nBenchmarkP/a-2 \t 1\t 3 ns/op\nBenchmarkP/b\n--- SKIP: BenchmarkP/b\nBenchmarkP/c\nBenchmarkP/c-2 \t 1\t 3 ns/op\nPASS\n",
			[]string{"BenchmarkP", "BenchmarkP/a", "BenchmarkP/b", "BenchmarkP/c"}},
		{"os.Exit(1) in BenchmarkP/b (go1.26): the process ends there", "BenchmarkP",
			head + "BenchmarkP\nBenchmarkP/a\nBenchmarkP/a-2 \t 1\t 3 ns/op\nBenchmarkP/b\n",
			[]string{"BenchmarkP", "BenchmarkP/a", "BenchmarkP/b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ParseOutput([]byte(tc.out), tc.top).Started)
		})
	}
}

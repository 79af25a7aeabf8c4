package collect

import (
	"errors"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseResults(t *testing.T) {
	tests := []struct {
		name string
		out  string
		want []result
	}{
		{"plain", "BenchmarkFast-8   \t 1000000\t      1234 ns/op\n",
			[]result{{"BenchmarkFast-8", 1000000, 1234}}},
		{"fractional, with memory metrics", "BenchmarkA/n=10-2 \t 500\t 86.00 ns/op\t 16 B/op\t 1 allocs/op\n",
			[]result{{"BenchmarkA/n=10-2", 500, 86}}},
		{"custom metric first", "BenchmarkB 	 10	 3.5 MB/s	 1.5e+06 ns/op\n",
			[]result{{"BenchmarkB", 10, 1.5e6}}},
		{"verbose name line and noise", "goos: linux\nBenchmarkFast\nBenchmarkFast \t       1\t       269.0 ns/op\nPASS\nok  \tx\t0.1s\n",
			[]result{{"BenchmarkFast", 1, 269}}},
		{"no ns/op", "BenchmarkC \t 10\t 3 widgets/op\n", nil},
		{"FAIL line", "--- FAIL: BenchmarkD\n", nil},
		{"CRLF", "BenchmarkE \t 2\t 7 ns/op\r\n", []result{{"BenchmarkE", 2, 7}}},
		{"panic after name", "BenchmarkPanic-2 \tpanic: boom\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, parseResults([]byte(tt.out)))
		})
	}
}

func TestSameBenchmark(t *testing.T) {
	tests := []struct {
		printed, name string
		want          bool
	}{
		{"BenchmarkA", "BenchmarkA", true},
		{"BenchmarkA-8", "BenchmarkA", true},
		{"BenchmarkA-", "BenchmarkA", false},
		{"BenchmarkA-x", "BenchmarkA", false},
		{"BenchmarkAB-8", "BenchmarkA", false},
		{"BenchmarkA/n-1-4", "BenchmarkA/n-1", true},
		{"BenchmarkA/n-1", "BenchmarkA/n", true}, // ambiguous in general; each run has one benchmark
	}
	for _, tt := range tests {
		if got := sameBenchmark(tt.printed, tt.name); got != tt.want {
			t.Errorf("sameBenchmark(%q, %q) = %v, want %v", tt.printed, tt.name, got, tt.want)
		}
	}
}

// verboseSubPanic is -test.v output of a discovery run in which the second
// sub-benchmark panics (from testdata/faults/panics).
const verboseSubPanic = `goos: linux
goarch: amd64
pkg: example.com/faults/panics
cpu: Intel(R) Xeon(R) Processor
BenchmarkSubPanic
BenchmarkSubPanic/ok
BenchmarkSubPanic/ok         	       1	       244.0 ns/op
BenchmarkSubPanic/bad
panic: sub-benchmark boom

goroutine 11 [running]:
example.com/faults/panics.BenchmarkSubPanic.func2(0x116533a34908?)
	/work/main/testdata/faults/panics/panics_test.go:33 +0x25
testing.(*B).runN(0x116533a34908, 0x1)
	/usr/local/go/src/testing/benchmark.go:219 +0x190
`

func TestTrace(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		top     string
		leaves  []string
		running string
	}{
		{"sub panic", verboseSubPanic, "BenchmarkSubPanic",
			[]string{"BenchmarkSubPanic/ok", "BenchmarkSubPanic/bad"}, "BenchmarkSubPanic/bad"},
		{"nested, all done", "BenchmarkN\nBenchmarkN/p\nBenchmarkN/p/q\nBenchmarkN/p/q \t 1\t 5 ns/op\nBenchmarkN/s\nBenchmarkN/s/q\nBenchmarkN/s/q \t 1\t 5 ns/op\nPASS\n",
			"BenchmarkN", []string{"BenchmarkN/p/q", "BenchmarkN/s/q"}, "BenchmarkN/s"},
		{"parent crashed after its subs", "BenchmarkN\nBenchmarkN/p\nBenchmarkN/p/q\nBenchmarkN/p/q \t 1\t 5 ns/op\npanic: x\n",
			"BenchmarkN", []string{"BenchmarkN/p/q"}, "BenchmarkN/p"},
		{"failed and skipped leaves are done", "BenchmarkF\nBenchmarkF/a\n    f_test.go:1: no\n--- FAIL: BenchmarkF/a\nBenchmarkF/b\n--- SKIP: BenchmarkF/b\n--- FAIL: BenchmarkF\nFAIL\n",
			"BenchmarkF", []string{"BenchmarkF/a", "BenchmarkF/b"}, "BenchmarkF"},
		{"other top-level ignored", "BenchmarkFoo\nBenchmarkFooBar\nBenchmarkFoo \t 1\t 5 ns/op\n",
			"BenchmarkFoo", []string{"BenchmarkFoo"}, "BenchmarkFoo"},
		{"nothing printed", "PASS\n", "BenchmarkX", nil, "BenchmarkX"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := parseTrace([]byte(tt.out), tt.top)
			assert.Equal(t, tt.leaves, tr.leaves(), "leaves")
			assert.Equal(t, tt.running, tr.running(tt.top), "running")
		})
	}
}

func TestCrashed(t *testing.T) {
	exit := func(code int) error {
		err := exec.Command("sh", "-c", "exit "+string(rune('0'+code))).Run()
		return err
	}
	tests := []struct {
		name string
		r    procResult
		want bool
	}{
		{"success", procResult{}, false},
		{"benchmark failure", procResult{Err: exit(1), Output: []byte("--- FAIL: BenchmarkA\nFAIL\n")}, false},
		{"panic", procResult{Err: exit(2), Output: []byte("panic: boom\n")}, true},
		{"log.Fatal", procResult{Err: exit(1), Output: []byte("2026/01/01 bad\n")}, true},
		{"timeout", procResult{TimedOut: true, Err: exit(2)}, true},
		{"start failure", procResult{Err: errors.New("exec: no such file")}, true},
	}
	for _, tt := range tests {
		if got := crashed(tt.r); got != tt.want {
			t.Errorf("%s: crashed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestFailBlock(t *testing.T) {
	tests := []struct {
		name, out, tag, bench, want string
	}{
		{"verbose: log before marker", "BenchmarkF\n    f_test.go:12: gave up\n--- FAIL: BenchmarkF\nFAIL\n", "FAIL", "BenchmarkF", "f_test.go:12: gave up"},
		{"plain: log after marker", "--- FAIL: BenchmarkF\n    f_test.go:12: gave up\n    second\nFAIL\n", "FAIL", "BenchmarkF", "f_test.go:12: gave up\nsecond"},
		{"nested marker", "    --- SKIP: BenchmarkS/x\n        s_test.go:3: later\n", "SKIP", "BenchmarkS/x", "s_test.go:3: later"},
		{"marker only", "--- FAIL: BenchmarkF\nFAIL\n", "FAIL", "BenchmarkF", "--- FAIL: BenchmarkF"},
		{"other benchmark", "--- FAIL: BenchmarkFoo2\n", "FAIL", "BenchmarkFoo", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, failBlock([]byte(tt.out), tt.tag, tt.bench))
		})
	}
}

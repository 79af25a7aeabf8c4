package testbin

import (
	"strings"
	"testing"
)

// benchPanic is the output of a benchmark process whose benchmark panics:
// its last 8 lines are all the runtime's and testing's.
const benchPanic = `goos: linux
goarch: amd64
pkg: example.com/faults/panics
cpu: Intel(R) Xeon(R) Processor
BenchmarkSubPanic/ok         	       1	       244.0 ns/op
panic: sub-benchmark boom

goroutine 11 [running]:
example.com/faults/panics.BenchmarkSubPanic.func2(0x116533a34908?)
	/work/main/testdata/faults/panics/panics_test.go:33 +0x25
testing.(*B).runN(0x116533a34908, 0x1)
	/usr/local/go/src/testing/benchmark.go:219 +0x190
testing.(*B).run1.func1()
	/usr/local/go/src/testing/benchmark.go:245 +0x48
created by testing.(*B).run1 in goroutine 10
	/usr/local/go/src/testing/benchmark.go:238 +0x90
exit status 2
`

// TestFailure: a failed process is explained by its panic and the frame
// that raised it, else by the last lines of its output (issue 25: compare
// quoted the last 8 lines of a panic, which cut its message).
func TestFailure(t *testing.T) {
	for _, tc := range []struct{ name, out, want string }{
		{"panic in a benchmark", benchPanic,
			"panic: sub-benchmark boom\n\tat example.com/faults/panics.BenchmarkSubPanic.func2 (/work/main/testdata/faults/panics/panics_test.go:33)"},
		{"CRLF", strings.ReplaceAll(benchPanic, "\n", "\r\n"),
			"panic: sub-benchmark boom\n\tat example.com/faults/panics.BenchmarkSubPanic.func2 (/work/main/testdata/faults/panics/panics_test.go:33)"},
		{"repanicked", "panic: first [recovered]\n\tpanic: second\n\ngoroutine 5 [running]:\nexample.com/m.BenchmarkX(0x1)\n\t/m/x_test.go:9 +0x1\n",
			"panic: first [recovered]\n\tpanic: second\n\tat example.com/m.BenchmarkX (/m/x_test.go:9)"},
		{"after the benchmark's name", "BenchmarkBoom-2   \tpanic: boom\n\ngoroutine 5 [running]:\nexample.com/p.work(...)\n\t/p/p.go:3\nexample.com/p.BenchmarkBoom(0x1)\n\t/p/p_test.go:7 +0x2c\n",
			"panic: boom\n\tat example.com/p.work (/p/p.go:3)"},
		{"not a panic", "BenchmarkA 1 100 ns/op\nsaid panic: no\n", "BenchmarkA 1 100 ns/op\nsaid panic: no"},
		{"fatal error", "fatal error: concurrent map writes\n\ngoroutine 5 [running]:\ninternal/runtime/maps.fatal({0x1, 0x2})\n\t/go/src/runtime/panic.go:1 +0x1\nexample.com/m.Bad(...)\n\t/m/m.go:7 +0x2\n",
			"fatal error: concurrent map writes\n\tat example.com/m.Bad (/m/m.go:7)"},
		{"no panic: the tail", "a\nb\n\nc\n--- FAIL: BenchmarkA\n    a_test.go:3: no\nFAIL\n", "--- FAIL: BenchmarkA\n    a_test.go:3: no\nFAIL"},
		{"nothing", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Failure([]byte(tc.out), 3); got != tc.want {
				t.Errorf("Failure = %q, want %q", got, tc.want)
			}
		})
	}
	if got, want := Tail([]byte(benchPanic), 8), "panic: sub-benchmark boom"; strings.Contains(got, want) {
		t.Errorf("the fixture's tail holds %q: it no longer shows what Failure fixes", want)
	}
}

package collect

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mbopt/mbopt/internal/testbin"
)

// A result is one benchmark result line of go test output.
type result struct {
	name       string // as printed, possibly with a "-N" GOMAXPROCS suffix
	iterations int64
	nsPerOp    float64
}

// resultLine matches "BenchmarkX-8   1000   123.4 ns/op   ...".
var resultLine = regexp.MustCompile(`^(Benchmark\S*)\s+(\d+)\s+(.*)$`)

// parseResults returns the result lines of go test output that report
// ns/op, in output order.
func parseResults(out []byte) []result {
	var rs []result
	for _, line := range lines(out) {
		m := resultLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil {
			continue
		}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			if f[i+1] != "ns/op" {
				continue
			}
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				rs = append(rs, result{name: m[1], iterations: n, nsPerOp: v})
			}
			break
		}
	}
	return rs
}

// sameBenchmark reports whether printed, a name from go test output, is the
// benchmark name, possibly with a "-N" GOMAXPROCS suffix.
func sameBenchmark(printed, name string) bool {
	if printed == name {
		return true
	}
	n, ok := strings.CutPrefix(printed, name+"-")
	if !ok || n == "" {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// findResult returns the result for name in rs.
func findResult(rs []result, name string) (result, bool) {
	for _, r := range rs {
		if sameBenchmark(r.name, name) {
			return r, true
		}
	}
	return result{}, false
}

// lines splits out into lines without their "\n" or "\r\n".
func lines(out []byte) []string {
	var ls []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), len(out)+1)
	for sc.Scan() {
		ls = append(ls, strings.TrimSuffix(sc.Text(), "\r"))
	}
	return ls
}

// A trace is what -test.v output of one benchmark process tells about the
// benchmarks under one top-level benchmark.
type trace struct {
	seen    []string        // names printed as they started, in order
	results []result        // result lines
	failed  map[string]bool // names with a "--- FAIL:" line
	skipped map[string]bool // names with a "--- SKIP:" line
}

// parseTrace reads -test.v benchmark output, keeping the names that are top
// or below it.
func parseTrace(out []byte, top string) trace {
	t := trace{failed: map[string]bool{}, skipped: map[string]bool{}}
	under := func(n string) bool { return n == top || strings.HasPrefix(n, top+"/") }
	for _, line := range lines(out) {
		switch {
		case under(line) && !strings.ContainsAny(line, " \t"):
			t.seen = append(t.seen, line)
		case strings.HasPrefix(line, "--- FAIL: "):
			t.failed[strings.TrimPrefix(line, "--- FAIL: ")] = true
		case strings.HasPrefix(line, "--- SKIP: "):
			t.skipped[strings.TrimPrefix(line, "--- SKIP: ")] = true
		}
	}
	for _, r := range parseResults(out) {
		if under(r.name) || under(stripProcs(r.name)) {
			t.results = append(t.results, r)
		}
	}
	return t
}

// stripProcs removes a "-N" suffix from a printed benchmark name.
func stripProcs(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 && sameBenchmark(name, name[:i]) {
		return name[:i]
	}
	return name
}

// done reports whether the trace shows name completed: it reported a
// result, failed or skipped.
func (t *trace) done(name string) bool {
	if t.failed[name] || t.skipped[name] {
		return true
	}
	_, ok := findResult(t.results, name)
	return ok
}

// leaves returns the seen names that have no seen sub-benchmark, in order.
func (t *trace) leaves() []string {
	var out []string
	for i, n := range t.seen {
		leaf := true
		for _, m := range t.seen[i+1:] {
			if strings.HasPrefix(m, n+"/") {
				leaf = false
				break
			}
		}
		if leaf {
			out = append(out, n)
		}
	}
	return out
}

// running returns the last seen name that did not complete, the benchmark
// a crash or timeout interrupted, or top when every seen name completed.
func (t *trace) running(top string) string {
	for i := len(t.seen) - 1; i >= 0; i-- {
		if !t.done(t.seen[i]) {
			return t.seen[i]
		}
	}
	return top
}

// crashed reports whether the process ended abnormally: timed out, killed,
// panicked or exited with anything but the "FAIL" that follows benchmark
// failures.
func crashed(r procResult) bool {
	if r.TimedOut {
		return true
	}
	if r.Err == nil {
		return false
	}
	var ee *exec.ExitError
	if !errors.As(r.Err, &ee) || ee.ExitCode() != 1 {
		return true
	}
	ls := lines(r.Output)
	for i := len(ls) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(ls[i]); s != "" {
			return s != "FAIL"
		}
	}
	return true
}

// maxErrorLines bounds the lines of output quoted in a manifest entry's Error.
const maxErrorLines = 8

// failBlock returns the message of the "--- FAIL: name" (or SKIP) block:
// the indented lines around the marker line (-test.v prints a benchmark's
// log lines before it, plain output after it), unindented, or the marker
// line itself when there are none. It returns "" when there is no marker.
func failBlock(out []byte, tag, name string) string {
	ls := lines(out)
	marker := "--- " + tag + ": " + name
	indented := func(l string) bool { return strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") }
	for i, l := range ls {
		if strings.TrimLeft(l, " ") != marker {
			continue
		}
		start, end := i, i+1
		for start > 0 && indented(ls[start-1]) && i-start < maxErrorLines {
			start--
		}
		for end < len(ls) && indented(ls[end]) && end-start < maxErrorLines {
			end++
		}
		var msg []string
		for _, m := range append(ls[start:i:i], ls[i+1:end]...) {
			msg = append(msg, strings.TrimSpace(m))
		}
		if len(msg) == 0 {
			return marker
		}
		return strings.Join(msg, "\n")
	}
	return ""
}

// crashMessage explains how a crashed process ended while running name.
// The first line says what happened; later lines add detail.
func crashMessage(r procResult, name string, timeout time.Duration) string {
	if r.TimedOut {
		return fmt.Sprintf("timed out after %v while running %s (killed; goroutine dump in the log)", timeout, name)
	}
	status := "exited"
	if r.Err != nil {
		status = r.Err.Error()
	}
	msg := testbin.PanicMessage(r.Output)
	if msg == "" {
		msg = failBlock(r.Output, "FAIL", name)
	}
	if msg == "" {
		return fmt.Sprintf("%s while running %s\n%s", status, name, testbin.Tail(r.Output, 4))
	}
	return fmt.Sprintf("%s\n(%s while running %s)", msg, status, name)
}

package testbin

import (
	"strings"
)

// failureLines bounds the lines of output a failure message quotes.
const failureLines = 8

// Failure explains in a few lines how a test binary that failed ended,
// from its output: the panic or fatal error with the first frame of the
// code that raised it ([PanicMessage]) when there is one, else the last n
// non-empty lines ([Tail]). It is the one rule by which collection and
// comparison quote a failed benchmark process: the last lines alone would
// show the runtime's and testing's frames and cut the panic's message.
func Failure(out []byte, n int) string {
	if msg := PanicMessage(out); msg != "" {
		return msg
	}
	return Tail(out, n)
}

// Tail returns the last n non-empty lines of out, without "\r".
func Tail(out []byte, n int) string {
	var keep []string
	ls := lines(out)
	for i := len(ls) - 1; i >= 0 && len(keep) < n; i-- {
		if strings.TrimSpace(ls[i]) != "" {
			keep = append(keep, ls[i])
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return strings.Join(keep, "\n")
}

// PanicMessage returns the first panic or fatal error in out: its line
// ("panic: …" or "fatal error: …", also after the name of the benchmark
// that raised it, as go test prints it without -test.v), the lines after it up to the first
// blank line (a recovered and repanicked value, an error's own lines), at
// most 8 in all, and the first stack frame outside the runtime and the
// testing package as "\tat function (file:line)": where the benchmark's
// code raised it. It returns "" when out holds no panic.
func PanicMessage(out []byte) string {
	ls := lines(out)
	for i, l := range ls {
		l, ok := panicLine(l)
		if !ok {
			continue
		}
		msg := []string{l}
		j := i + 1
		for ; j < len(ls) && ls[j] != "" && len(msg) < failureLines; j++ {
			msg = append(msg, ls[j])
		}
		for ; j+1 < len(ls); j++ {
			fn := ls[j]
			if strings.HasPrefix(ls[j+1], "\t") && !strings.HasPrefix(fn, "goroutine ") && !strings.HasPrefix(fn, "panic(") &&
				!strings.HasPrefix(fn, "runtime.") && !strings.HasPrefix(fn, "internal/") && !strings.HasPrefix(fn, "testing.") {
				if k := strings.LastIndexByte(fn, '('); k > 0 {
					fn = fn[:k]
				}
				loc, _, _ := strings.Cut(strings.TrimSpace(ls[j+1]), " +0x")
				msg = append(msg, "\tat "+fn+" ("+loc+")")
				break
			}
		}
		return strings.Join(msg, "\n")
	}
	return ""
}

// panicLine returns the panic or fatal error that starts line, or follows
// the benchmark name go test prints before a benchmark's result without
// -test.v ("BenchmarkX-8   \tpanic: boom").
func panicLine(line string) (string, bool) {
	for _, p := range []string{"panic: ", "fatal error: "} {
		i := strings.Index(line, p)
		if i == 0 {
			return line, true
		}
		if name := line[:max(i, 0)]; i > 0 && strings.HasPrefix(name, "Benchmark") && len(strings.Fields(name)) == 1 && strings.TrimRight(name, " \t") != name {
			return line[i:], true
		}
	}
	return "", false
}

// lines splits out into lines without their "\n" or "\r\n".
func lines(out []byte) []string {
	ls := strings.Split(string(out), "\n")
	if len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

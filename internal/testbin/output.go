package testbin

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// BenchArgs are the arguments every benchmark process of mbopt compare
// gets besides its selection and counts, so that [ParseOutput] can tell
// how the process ended: -test.v prints each benchmark's name on a line of
// its own when it starts (so a crash names the benchmark that was running)
// and -test.paniconexit0 (which go test passes, and a test binary run
// directly does not) turns an os.Exit(0) in a benchmark into a panic: a
// failure, instead of a process that ends early with status 0 and
// silently drops the benchmarks it had not run.
var BenchArgs = []string{"-test.v", "-test.paniconexit0"}

// ConfigKeys are the configuration keys a Go test binary prints before its
// benchmarks. Other "key: value" lines in its output are printed by the
// benchmarks themselves (a benchmark that logs "seed: 42").
var ConfigKeys = []string{"goos", "goarch", "pkg", "cpu"}

// An Output is what one benchmark process printed, read for the
// benchmarks it was asked to run ([ParseOutput]).
type Output struct {
	// Results holds the test binary's configuration lines (ConfigKeys) and
	// the result lines of the benchmarks asked for, in the Go benchmark
	// format, in output order, one per line.
	Results []byte
	// Ignored names the benchmarks of the lines that look like results
	// (a name starting with "Benchmark", then more fields) but are not
	// results of the benchmarks asked for, such as lines a benchmark
	// printed itself, or that are malformed (a non-numeric iteration
	// count); sorted, each once, without the -GOMAXPROCS suffix.
	Ignored []string
	// Failed are the benchmarks that reported a failure ("--- FAIL: name",
	// with the indented lines after it as the message), each once, in
	// output order; a parent whose failure is only its sub-benchmark's is
	// left out.
	Failed []BenchFailure
	// Skipped are the benchmarks that skipped themselves (b.Skip,
	// b.Skipf, b.SkipNow: "--- SKIP: name"), with what they logged as
	// the message, each once, in output order. A benchmark that skips
	// after its first run (b.N > 1) prints no SKIP line but a result of
	// 0 iterations ("0 NaN ns/op", its log before it with -test.v and in
	// a "--- BENCH:" block after it without): it is here too, and that
	// line is not in Results. Its results at other counts, if any, stay
	// in Results.
	Skipped []BenchSkip
	// Started are the benchmarks asked for that the output shows
	// started (-test.v prints each one's name alone on a line when it
	// starts, a parent's before its sub-benchmarks'), each once, in
	// output order: the order the binary runs them in, which a process
	// that ended early shows only up to the benchmark it ended in.
	Started []string
	// Running is the benchmark asked for that the output shows started
	// last (its name alone on a line, with -test.v) when it printed no
	// result or failure after it: the one that was running when the
	// process ended, when it ended early. "" when none, such as when the
	// process ended in a parent's own code between its sub-benchmarks.
	Running string
}

// A BenchFailure is a benchmark that failed and why.
type BenchFailure struct {
	// Name is the benchmark's full name, as go test names it in its
	// "--- FAIL:" line or with -test.v (no -GOMAXPROCS suffix).
	Name string
	// Message is what it logged with its failure (b.Fatal, b.Error), its
	// lines without their indentation; or why it failed otherwise.
	Message string
}

// A BenchSkip is a benchmark that skipped itself and why.
type BenchSkip struct {
	// Name is the benchmark's full name, as go test names it in its
	// "--- SKIP:" line (no -GOMAXPROCS suffix).
	Name string
	// Message is what it logged before or with its skip (b.Skip's
	// arguments, b.Log), its lines without their indentation; "" when
	// it logged nothing (b.SkipNow).
	Message string
}

// ParseOutput reads the output of a test binary that was asked to run
// benchmark top (a top-level benchmark's full name, such as
// "BenchmarkQuery", as -test.list names it) and its sub-benchmarks, with
// [BenchArgs]. Only results of top and of the names under it ("top/…")
// count; every other line that looks like a result is Ignored. A
// benchmark that prints output while it runs splits its own result line:
// go test has printed the name, and the iteration count and values follow
// on a later line, after the printed text; ParseOutput joins the two. A
// "--- FAIL: " line is a failure and a "--- SKIP: " line a skip, each with
// the benchmark's log as its message, and so is a result of 0 iterations
// (a skip after the first run: go test prints the result of a run that
// never finished).
func ParseOutput(out []byte, top string) Output {
	p := &outputParser{top: top, ignored: map[string]bool{}, failed: map[string]int{}, skipped: map[string]bool{}}
	ls := lines(out)
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		before := p.logged
		if strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != "" {
			p.logged = append(p.logged, strings.TrimSpace(l))
		} else if !strings.HasPrefix(l, "--- FAIL: ") && !strings.HasPrefix(l, "--- SKIP: ") {
			p.logged = nil
		}
		if k, _, ok := strings.Cut(l, ": "); ok && slices.Contains(ConfigKeys, k) && !strings.ContainsAny(k, " \t") {
			p.w.WriteString(l + "\n")
			continue
		}
		if name, ok := strings.CutPrefix(l, "--- SKIP: "); ok {
			i = p.skip(name, ls, i)
			continue
		}
		if name, ok := strings.CutPrefix(l, "--- FAIL: "); ok {
			i = p.failure(name, ls, i)
			continue
		}
		if name, ok := strings.CutPrefix(l, "--- BENCH: "); ok {
			i = p.benchLog(name, ls, i)
			continue
		}
		p.benchLine(l, before)
	}
	return p.output()
}

// An outputParser is the state of [ParseOutput] in the output of the
// benchmarks under top.
type outputParser struct {
	top     string
	o       Output
	ignored map[string]bool
	w       bytes.Buffer    // the results
	pending string          // a known name whose result line was cut by printed text
	last    string          // the known name started last, until its result or failure
	started string          // the known name started last (-test.v), after its end too
	failed  map[string]int  // name → index in o.Failed
	skipped map[string]bool // names in o.Skipped
	logged  []string        // the indented lines just before, a benchmark's log
	quiet   string          // a benchmark skipped after its first run without a log before (so far)
}

// known reports whether name is top or a name under it.
func (p *outputParser) known(name string) bool {
	return name == p.top || strings.HasPrefix(name, p.top+"/")
}

// ends notes that the benchmark printed (its result line's name, with
// or without the -GOMAXPROCS suffix) is no longer running.
func (p *outputParser) ends(printed string) {
	if p.last == printed || p.last == trimProcs(printed) {
		p.last = ""
	}
}

// failure reads the failure of benchmark name, from the "--- FAIL: " line
// ls[i] and its log ([outputParser.report]), and returns the index of the
// last line it read.
func (p *outputParser) failure(name string, ls []string, i int) int {
	name, msg, i := p.report(name, ls, i, func(n string) bool { _, ok := p.failed[n]; return ok })
	if _, dup := p.failed[name]; !dup && p.known(name) {
		p.failed[name] = len(p.o.Failed)
		p.o.Failed = append(p.o.Failed, BenchFailure{Name: name, Message: msg})
	}
	return i
}

// skip reads the skip of benchmark name, from the "--- SKIP: " line ls[i]
// and its log ([outputParser.report]), and returns the index of the last
// line it read. A skipped benchmark ends without a result.
func (p *outputParser) skip(name string, ls []string, i int) int {
	name, msg, i := p.report(name, ls, i, func(n string) bool { return p.skipped[n] })
	if !p.skipped[name] && p.known(name) {
		p.skipped[name] = true
		p.o.Skipped = append(p.o.Skipped, BenchSkip{Name: name, Message: msg})
	}
	return i
}

// report reads the "--- FAIL: " or "--- SKIP: " line ls[i] of the
// benchmark printed as name, and returns its name, its message and the
// index of the last line it read. The message is the benchmark's log:
// with -test.v the indented lines before the line, without it those after
// (with a log before, the indented lines after are the next report's,
// such as the same benchmark's at the next -test.count). seen reports
// whether a name was reported so before.
func (p *outputParser) report(name string, ls []string, i int, seen func(string) bool) (string, string, int) {
	name = strings.TrimSpace(name)
	if j := strings.Index(name, " ("); j > 0 {
		name = name[:j] // a test's "(0.00s)"
	}
	if t := trimProcs(name); t != name && (seen(t) || p.last == t) {
		// A report after the benchmark's first run (b.N = 1) is named
		// with the -GOMAXPROCS suffix, which -test.v's start line and
		// the report at b.N = 1 do not have.
		name = t
	}
	msg := p.logged
	for len(p.logged) == 0 && i+1 < len(ls) && (strings.HasPrefix(ls[i+1], "    ") || strings.HasPrefix(ls[i+1], "\t")) {
		i++
		msg = append(msg, strings.TrimSpace(ls[i]))
	}
	p.ends(name)
	return name, strings.Join(msg, "\n"), i
}

// benchLine reads line l, neither a configuration line nor a skip or a
// failure: a benchmark that starts (-test.v), a result, the name of a
// result whose numbers follow later, or the rest of such a result; other
// lines that look like results are ignored. logged are the indented lines
// just before l.
func (p *outputParser) benchLine(l string, logged []string) {
	f := strings.Fields(l)
	if len(f) == 0 {
		return
	}
	if !strings.HasPrefix(f[0], "Benchmark") {
		// A result whose name go test printed before the benchmark's
		// own output: the rest follows on a line of its own.
		if p.pending != "" && (l[0] == ' ' || l[0] == '\t') && isResult(f) {
			p.result(p.pending+"\t"+strings.Join(f, "\t"), p.pending, f[0], nil)
		}
		return
	}
	name := trimProcs(f[0])
	switch {
	case len(f) == 1 && p.known(f[0]):
		// -test.v: the benchmark starts.
		p.last, p.started = f[0], f[0]
		if !slices.Contains(p.o.Started, f[0]) {
			p.o.Started = append(p.o.Started, f[0])
		}
	case len(f) == 1:
	case p.known(name) && isResult(f[1:]):
		p.result(l, f[0], f[1], logged)
	case p.known(name) && !namePrinted(l, f[0]):
		// A line the benchmark printed that starts with a name of its
		// own family but is no result (go test ends the name it prints
		// with a tab): it must not take the place of the cut result.
		p.ignored[name] = true
	case p.known(name):
		// The name, then text the benchmark printed: its numbers
		// follow later. Text that looks like another benchmark's
		// result is noted.
		p.pending = f[0]
		if len(f) > 2 && strings.HasPrefix(f[1], "Benchmark") && !p.known(trimProcs(f[1])) {
			p.ignored[trimProcs(f[1])] = true
		} else if len(f) > 2 && !strings.HasPrefix(f[1], "Benchmark") && !isResult(f[1:]) && strings.HasSuffix(f[len(f)-1], "/op") {
			p.ignored[name] = true
		}
	default:
		p.ignored[name] = true
	}
}

// result reads result line l of the benchmark printed as name, with
// iteration count n and logged the indented lines before it: a result, or
// with 0 iterations a skip after the benchmark's first run (b.Skip when
// b.N > 1 ends the run before go test records it, so the result printed
// is an empty one, "0 NaN ns/op": never a measurement), with logged as
// its message, or else the "--- BENCH:" block after it
// ([outputParser.benchLog]).
func (p *outputParser) result(l, name, n string, logged []string) {
	p.pending = ""
	p.ends(name)
	if n != "0" {
		p.w.WriteString(l + "\n")
		return
	}
	if t := trimProcs(name); t != name && (p.skipped[t] || p.started == t || p.started == "") {
		// The -GOMAXPROCS suffix, as [outputParser.report] tells it;
		// without -test.v (no start line) the suffix is taken as one.
		name = t
	}
	if p.skipped[name] {
		return
	}
	p.skipped[name] = true
	p.o.Skipped = append(p.o.Skipped, BenchSkip{Name: name, Message: strings.Join(logged, "\n")})
	p.quiet = ""
	if len(logged) == 0 {
		p.quiet = name
	}
}

// benchLog reads the "--- BENCH: " line ls[i] of the benchmark printed as
// name, followed by its log without -test.v: the message of the skip
// after its first run just read without one ([outputParser.result]). It
// returns the index of the last line it read.
func (p *outputParser) benchLog(name string, ls []string, i int) int {
	name = strings.TrimSpace(name)
	if p.quiet == "" || (name != p.quiet && trimProcs(name) != p.quiet) {
		return i
	}
	var msg []string
	for i+1 < len(ls) && strings.HasPrefix(ls[i+1], "    ") {
		i++
		msg = append(msg, strings.TrimSpace(ls[i]))
	}
	p.o.Skipped[len(p.o.Skipped)-1].Message = strings.Join(msg, "\n")
	p.quiet = ""
	return i
}

// namePrinted reports whether line l starts with name as go test prints
// a benchmark's name before its numbers: padded with spaces and ended by
// a tab ("%-*s\t").
func namePrinted(l, name string) bool {
	rest, ok := strings.CutPrefix(l, name)
	return ok && strings.HasPrefix(strings.TrimLeft(rest, " "), "\t")
}

// output returns the Output read: a result cut short is ignored, and of a
// parent that fails with its sub-benchmark only the innermost failure is
// kept.
func (p *outputParser) output() Output {
	o := p.o
	if n := trimProcs(p.pending); p.pending != "" && n != p.last && p.pending != p.last {
		// A result cut short: noted, unless it is the benchmark that was
		// running when the process ended (a panic follows its name).
		p.ignored[n] = true
	}
	o.Results = p.w.Bytes()
	o.Ignored = sortedKeys(p.ignored)
	// A parent fails with its sub-benchmark: keep the innermost.
	o.Failed = slices.DeleteFunc(o.Failed, func(fl BenchFailure) bool {
		for _, g := range o.Failed {
			if strings.HasPrefix(g.Name, fl.Name+"/") {
				return true
			}
		}
		return false
	})
	o.Running = p.last
	return o
}

// isResult reports whether f, the fields after a benchmark's name, are a
// result: an iteration count, then value and unit pairs.
func isResult(f []string) bool {
	if len(f) < 3 || len(f)%2 != 1 {
		return false
	}
	if n, err := strconv.Atoi(f[0]); err != nil || n < 0 {
		return false
	}
	for i := 1; i < len(f); i += 2 {
		if _, err := strconv.ParseFloat(f[i], 64); err != nil {
			return false
		}
		if _, err := strconv.ParseFloat(f[i+1], 64); err == nil {
			return false // a unit is not a number
		}
	}
	return true
}

// trimProcs returns a benchmark name without its -GOMAXPROCS suffix ("-8").
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

func sortedKeys(m map[string]bool) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	if len(ks) == 0 {
		return nil
	}
	return ks
}

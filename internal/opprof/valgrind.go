package opprof

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// A Sample is a count at one source line: the symbol Valgrind charged
// (Symbol, the function the machine code belongs to) and the function
// the line belongs to (Function, after [Resolver.Resolve]).
type Sample struct {
	// Function is the function whose body encloses the line, with its
	// package path ("example.com/m/p.helper"); empty until resolved.
	Function string
	// Symbol is the function Valgrind charged ("example.com/m/p.Caller").
	Symbol string
	// File is the source file.
	File string
	// Line is the line in File (1-based; 0 unknown).
	Line int
	// Value is the count (instructions) or, per operation, its share.
	Value float64
}

// ReadValgrind reads a Cachegrind or Callgrind output file and returns the
// self count of the event "Ir" (instructions) per symbol, file and line,
// in the file's order with repeated positions summed. Callgrind's
// inclusive costs of calls (the line after "calls=") are not self costs
// and are skipped; compressed names ("(id) name") and compressed
// positions ("+n", "-n", "*") are read. name names the file in errors.
func ReadValgrind(r io.Reader, name string) ([]Sample, error) {
	vr := &valgrindReader{name: name, idx: map[sampleKey]int{}, files: map[string]string{}, fns: map[string]string{}, irCol: -1, nPos: 1}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for ln := 1; sc.Scan(); ln++ {
		s := sc.Text()
		if s == "" || s[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(s, "="); ok && !strings.ContainsAny(k, " \t") {
			vr.spec(k, v)
			continue
		}
		if k, v, ok := strings.Cut(s, ":"); ok && !strings.ContainsAny(k, " \t") {
			vr.header(k, v)
			continue
		}
		if err := vr.cost(ln, s); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if vr.irCol < 0 {
		return nil, fmt.Errorf("%s: no \"events:\" line naming Ir: not a Cachegrind or Callgrind output file", name)
	}
	return vr.out, nil
}

// A sampleKey is the position of a Sample: symbol, file and line.
type sampleKey struct {
	sym, file string
	line      int
}

// A valgrindReader is the state of [ReadValgrind] in its file: the
// current names, the file's columns, the previous cost line's positions
// and the samples so far.
type valgrindReader struct {
	name string // the file's name in errors
	idx  map[sampleKey]int
	out  []Sample
	// files and fns resolve compressed names by id.
	files, fns map[string]string
	// fl is the current file, fi the file of the current inlined code
	// (fl outside it), fn the current function.
	fl, fi, fn string
	// irCol is the column of the event Ir among the counts, -1 before an
	// "events:" line names it; nPos is the number of positions, linePos
	// the index of the line among them.
	irCol, linePos, nPos int
	last                 []int64 // the previous cost line's positions
	skipNext             bool    // the next cost line is a call's inclusive cost
}

// compressed resolves "(id) name" and "(id)" with the names by id in m,
// recording a name given with its id.
func compressed(m map[string]string, v string) string {
	if !strings.HasPrefix(v, "(") {
		return v
	}
	end := strings.IndexByte(v, ')')
	if end < 0 {
		return v
	}
	id, rest := v[:end+1], strings.TrimSpace(v[end+1:])
	if rest != "" {
		m[id] = rest
		return rest
	}
	return m[id]
}

// spec reads a position specification line, k=v: a file, an inlined
// file, a function, a call's target names, or "calls=", after which
// the next cost line is skipped.
func (vr *valgrindReader) spec(k, v string) {
	switch k {
	case "fl":
		vr.fl = compressed(vr.files, v)
		vr.fi = vr.fl
	case "fi", "fe":
		vr.fi = compressed(vr.files, v)
	case "fn":
		vr.fn = compressed(vr.fns, v)
		vr.fi = vr.fl
	case "cfl", "cfi", "cob", "ob":
		compressed(vr.files, v)
	case "cfn":
		compressed(vr.fns, v)
	case "calls":
		vr.skipNext = true
	}
}

// header reads a header line, k: v; the events and the positions matter.
func (vr *valgrindReader) header(k, v string) {
	switch k {
	case "events":
		vr.irCol = -1
		for i, e := range strings.Fields(v) {
			if e == "Ir" {
				vr.irCol = i
			}
		}
	case "positions":
		pos := strings.Fields(v)
		vr.nPos, vr.linePos = len(pos), 0
		for i, p := range pos {
			if p == "line" {
				vr.linePos = i
			}
		}
	}
}

// cost reads line s, number ln, when it is a cost line: its positions,
// and unless it follows "calls=", its Ir count, added to the sample of
// its position. Other lines are ignored.
func (vr *valgrindReader) cost(ln int, s string) error {
	name, nPos, irCol := vr.name, vr.nPos, vr.irCol
	c := s[0]
	if !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '*' {
		return nil
	}
	f := strings.Fields(s)
	if len(f) < nPos {
		return fmt.Errorf("%s:%d: cost line %q has fewer than %d positions", name, ln, s, nPos)
	}
	if vr.last == nil {
		vr.last = make([]int64, nPos)
	}
	for i := 0; i < nPos; i++ {
		p, err := position(f[i], vr.last[i])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, ln, err)
		}
		vr.last[i] = p
	}
	if vr.skipNext {
		vr.skipNext = false
		return nil
	}
	if irCol < 0 {
		return fmt.Errorf("%s: no \"events:\" line naming Ir before the first cost line: not a Cachegrind or Callgrind output file", name)
	}
	if nPos+irCol >= len(f) {
		return nil // a missing event counts zero
	}
	v, err := strconv.ParseFloat(f[nPos+irCol], 64)
	if err != nil {
		return fmt.Errorf("%s:%d: count %q: %w", name, ln, f[nPos+irCol], err)
	}
	kk := sampleKey{vr.fn, vr.fi, int(vr.last[vr.linePos])}
	if i, ok := vr.idx[kk]; ok {
		vr.out[i].Value += v
		return nil
	}
	vr.idx[kk] = len(vr.out)
	vr.out = append(vr.out, Sample{Symbol: vr.fn, File: vr.fi, Line: kk.line, Value: v})
	return nil
}

// position reads one position of a cost line, absolute or relative to
// the previous line's ("+n", "-n", "*").
func position(s string, prev int64) (int64, error) {
	switch {
	case s == "*":
		return prev, nil
	case strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-"):
		d, err := strconv.ParseInt(s[1:], 0, 64)
		if err != nil {
			return 0, fmt.Errorf("position %q: %w", s, err)
		}
		if s[0] == '-' {
			d = -d
		}
		return prev + d, nil
	}
	p, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("position %q: %w", s, err)
	}
	return p, nil
}

// readValgrindFile reads one Valgrind output file.
func readValgrindFile(path string) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadValgrind(f, path)
}

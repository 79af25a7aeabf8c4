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
	type key struct {
		sym, file string
		line      int
	}
	idx := map[key]int{}
	var out []Sample
	files, fns := map[string]string{}, map[string]string{}
	// compressed resolves "(id) name" and "(id)".
	compressed := func(m map[string]string, v string) string {
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
	var fl, fi, fn string
	irCol, linePos, nPos := -1, 0, 1
	var last []int64
	skipNext := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for ln := 1; sc.Scan(); ln++ {
		s := sc.Text()
		if s == "" || s[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(s, "="); ok && !strings.ContainsAny(k, " \t") {
			switch k {
			case "fl":
				fl = compressed(files, v)
				fi = fl
			case "fi", "fe":
				fi = compressed(files, v)
			case "fn":
				fn = compressed(fns, v)
				fi = fl
			case "cfl", "cfi", "cob", "ob":
				compressed(files, v)
			case "cfn":
				compressed(fns, v)
			case "calls":
				skipNext = true
			}
			continue
		}
		if k, v, ok := strings.Cut(s, ":"); ok && !strings.ContainsAny(k, " \t") {
			switch k {
			case "events":
				irCol = -1
				for i, e := range strings.Fields(v) {
					if e == "Ir" {
						irCol = i
					}
				}
			case "positions":
				pos := strings.Fields(v)
				nPos, linePos = len(pos), 0
				for i, p := range pos {
					if p == "line" {
						linePos = i
					}
				}
			}
			continue
		}
		c := s[0]
		if !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '*' {
			continue
		}
		f := strings.Fields(s)
		if len(f) < nPos {
			return nil, fmt.Errorf("%s:%d: cost line %q has fewer than %d positions", name, ln, s, nPos)
		}
		if last == nil {
			last = make([]int64, nPos)
		}
		for i := 0; i < nPos; i++ {
			p, err := position(f[i], last[i])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, ln, err)
			}
			last[i] = p
		}
		if skipNext {
			skipNext = false
			continue
		}
		if irCol < 0 {
			return nil, fmt.Errorf("%s: no \"events:\" line naming Ir before the first cost line: not a Cachegrind or Callgrind output file", name)
		}
		if nPos+irCol >= len(f) {
			continue // a missing event counts zero
		}
		v, err := strconv.ParseFloat(f[nPos+irCol], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: count %q: %w", name, ln, f[nPos+irCol], err)
		}
		kk := key{fn, fi, int(last[linePos])}
		if i, ok := idx[kk]; ok {
			out[i].Value += v
			continue
		}
		idx[kk] = len(out)
		out = append(out, Sample{Symbol: fn, File: fi, Line: kk.line, Value: v})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if irCol < 0 {
		return nil, fmt.Errorf("%s: no \"events:\" line naming Ir: not a Cachegrind or Callgrind output file", name)
	}
	return out, nil
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

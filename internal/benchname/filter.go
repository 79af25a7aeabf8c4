package benchname

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A Filter is a compiled -bench (or -run) pattern with go test's matching
// rules: the pattern is split at "/" and at "|" outside brackets and
// parentheses; "/"-separated pieces match name elements level by level
// (unanchored, like regexp.MatchString) and "|" separates alternatives.
type Filter struct {
	alts [][]*regexp.Regexp // nil: the empty pattern, which matches everything
}

// CompileFilter compiles pattern with go test's -bench rules. The empty
// pattern matches every name. It fails when a piece is not a valid regular
// expression, naming the piece.
func CompileFilter(pattern string) (*Filter, error) {
	f := &Filter{}
	if pattern == "" {
		return f, nil
	}
	for i, alt := range splitPattern(pattern) {
		var levels []*regexp.Regexp
		for j, piece := range alt {
			re, err := regexp.Compile(Rewrite(piece))
			if err != nil {
				return nil, fmt.Errorf("pattern %q: alternative %d, element %d (%q): %w", pattern, i, j, piece, err)
			}
			levels = append(levels, re)
		}
		f.alts = append(f.alts, levels)
	}
	return f, nil
}

// Match reports whether go test would run the benchmark with the given full
// name. ok is true when the name is selected; partial is true when only a
// prefix of the pattern's levels could be checked, that is the name is a
// parent that go test runs to look for matching sub-benchmarks.
func (f *Filter) Match(name string) (ok, partial bool) {
	if f.alts == nil {
		return true, false
	}
	elems := strings.Split(name, "/")
	for _, alt := range f.alts {
		if ok, partial = matchLevels(alt, elems); ok {
			return ok, partial
		}
	}
	return false, false
}

// Selects reports whether go test would run and report the benchmark named
// name: it matches, and not merely as a parent.
func (f *Filter) Selects(name string) bool {
	ok, partial := f.Match(name)
	return ok && !partial
}

func matchLevels(levels []*regexp.Regexp, elems []string) (ok, partial bool) {
	for i, e := range elems {
		if i >= len(levels) {
			break
		}
		if !levels[i].MatchString(e) {
			return false, false
		}
	}
	return true, len(elems) < len(levels)
}

// splitPattern splits a -bench pattern into alternatives of per-level pieces,
// following testing.splitRegexp: "/" and "|" split only outside brackets and
// parentheses, and a backslash escapes the next byte.
func splitPattern(s string) [][]string {
	var alts [][]string
	var cur []string
	cs, cp := 0, 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '[':
			cs++
		case ']':
			if cs--; cs < 0 {
				cs = 0
			}
		case '(':
			if cs == 0 {
				cp++
			}
		case ')':
			if cs == 0 {
				cp--
			}
		case '\\':
			i++
		case '/', '|':
			if cs == 0 && cp == 0 {
				cur = append(cur, s[:i])
				if s[i] == '|' {
					alts = append(alts, cur)
					cur = nil
				}
				s = s[i+1:]
				i = 0
				continue
			}
		}
		i++
	}
	return append(alts, append(cur, s))
}

// Rewrite returns name as go test prints it: every white-space rune becomes
// "_" and every unprintable rune its Go escape without quotes, as the testing
// package does to sub-benchmark names. It does not add the "#01" suffixes
// that distinguish repeated names.
func Rewrite(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case isSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isSpace is testing's definition of white space, which is not Unicode's Z
// class.
func isSpace(r rune) bool {
	if r < 0x2000 {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680:
			return true
		}
		return false
	}
	if r <= 0x200a {
		return true
	}
	switch r {
	case 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return false
}

// TopPattern returns a -bench pattern that selects, of the benchmarks
// pattern selects, exactly those under the top-level benchmark top: each
// alternative of pattern whose first element matches top, with that
// element replaced by ^top$, joined by "|". It returns "" when no
// alternative matches top, and ^top$ for the empty pattern. An invalid
// pattern matches nothing; check it with [CompileFilter] first.
func TopPattern(pattern, top string) string {
	anchored := "^" + regexp.QuoteMeta(top) + "$"
	if pattern == "" {
		return anchored
	}
	var out []string
	for _, alt := range splitPattern(pattern) {
		re, err := regexp.Compile(Rewrite(alt[0]))
		if err != nil || !re.MatchString(top) {
			continue
		}
		out = append(out, strings.Join(append([]string{anchored}, alt[1:]...), "/"))
		if len(alt) == 1 {
			// This alternative runs every sub-benchmark of top; the
			// others add nothing.
			return anchored
		}
	}
	return strings.Join(out, "|")
}

package benchname

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzPattern checks Pattern's promise: the filter compiled from
// Pattern(set) selects every name of the set and of no name outside it,
// except descendants of a selected name (go test runs every sub-benchmark of
// a benchmark it selects, so no pattern can exclude them).
//
// The fuzz input is split at '\n' into benchmark names: each line is
// "Benchmark" + the line, rewritten as go test prints it ([Rewrite]), with
// "/" separating the elements. A line starting with '-' is not in the set; it
// only joins the universe of names that must not be selected. The universe
// also holds, for every name, its ancestors and siblings and cousins that
// differ by one byte or one prefix or suffix at any level.
func FuzzPattern(f *testing.F) {
	for _, seed := range []string{
		"A",
		"A\nB",
		"A/x\nA/y\n-A/z",
		"Query/sum(cpu)\nQuery/avg_by_host\nSelect",
		"A/a+b\nA/(x|y)\n-A/x",
		"A/[x]\nA/\\d\n-A/1\n-A/x",
		"A/!a\nA/!b\nA/!a/y",
		"A/p/q\nC\n-A/p",
		"A/with space\nA/tab\there\n-A/with_spac",
		"A/héllo\nA/日本\n-A/h.llo",
		"A/\x00\x7f\xff\n-A/x",
		"A/^$\nA/.*\n-A/anything",
		"A/\nA//\nA/x/",
		"Ä/|/|\n-Ä",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var set, others []string
		for _, line := range bytes.Split(data, []byte("\n")) {
			out := false
			if len(line) > 0 && line[0] == '-' {
				out, line = true, line[1:]
			}
			name := Rewrite("Benchmark" + string(line))
			if out {
				others = append(others, name)
			} else {
				set = append(set, name)
			}
		}
		if len(set) > 64 {
			t.Skip("keeps each execution fast")
		}
		pattern := Pattern(set)
		filter, err := CompileFilter(pattern)
		if err != nil {
			t.Fatalf("Pattern(%q) = %q does not compile: %v", set, pattern, err)
		}
		universe := append(slices.Clone(set), others...)
		for _, n := range set {
			universe = append(universe, relatives(n)...)
		}
		for _, n := range universe {
			want := selectedBy(set, n)
			if got := filter.Selects(n); got != want {
				t.Errorf("Pattern(%q) = %q: Selects(%q) = %v, want %v", set, pattern, n, got, want)
			}
		}
	})
}

// selectedBy reports whether go test, asked for exactly the names in set,
// reports the benchmark n: n is in set or descends from a name in set.
func selectedBy(set []string, n string) bool {
	for _, s := range set {
		if n == s || strings.HasPrefix(n, s+"/") {
			return true
		}
	}
	return false
}

// relatives returns names close to n: its ancestors, and for every level the
// names whose element at that level is changed by one rune, cut short,
// extended or replaced by a regexp that would match it unanchored.
func relatives(n string) []string {
	elems := strings.Split(n, "/")
	var out []string
	for i := range elems {
		out = append(out, strings.Join(elems[:i], "/"))
		variants := []string{
			elems[i] + "x", "x" + elems[i], elems[i] + "/x", "", ".*", elems[i] + "_",
		}
		// Cut whole runes: printed names are valid UTF-8, and regexp
		// matches an invalid byte as U+FFFD.
		if r := []rune(elems[i]); len(r) > 0 {
			cut := string(r[:len(r)-1])
			variants = append(variants, cut, string(r[1:]), cut+"?")
		}
		for _, v := range variants {
			c := slices.Clone(elems)
			c[i] = v
			out = append(out, strings.Join(c, "/"))
		}
	}
	return out
}

package benchname_test

import (
	"strings"
	"testing"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/testkit/hostile"
)

func TestFileName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"example.com/m/p.BenchmarkA/n=1", 120, "example.com_m_p.BenchmarkA_n=1"},
		{"a/b c", 120, "a_b_c"},
		{"-x", 120, "_-x"},
		{".hidden", 120, "_.hidden"},
		{"", 120, "_"},
		{"ok=1,2+3", 120, "ok=1,2+3"},
		{"../../etc", 120, "_______etc"},
		{"..", 120, "___"},
		{"a...b", 120, "a__.b"},
		{"é<>", 120, "____"},
		{".abcdef", 4, "_.ab"},
		{strings.Repeat("x", 300), 200, strings.Repeat("x", 200)},
	} {
		if got := benchname.FileName(tc.in, tc.max); got != tc.want {
			t.Errorf("FileName(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// TestFileNameHostile: every hostile name makes a plain, bounded file name,
// and UniqueFileName keeps names that FileName makes alike apart (issue 25:
// file names derived from benchmark names).
func TestFileNameHostile(t *testing.T) {
	seen := map[string]string{}
	for _, name := range append(hostile.Names, "../../etc/", "..\\..\\etc", "a\x00b", strings.Repeat("../", 100)) {
		id := "example.com/m." + hostile.Sub(name)
		hostile.CheckFileName(t, benchname.FileName(name, 120), 120)
		u := benchname.UniqueFileName(id, id, 120)
		hostile.CheckFileName(t, u, 120+1+8)
		if prev, dup := seen[u]; dup {
			t.Errorf("%q and %q share the file name %q", prev, id, u)
		}
		seen[u] = id
	}
}

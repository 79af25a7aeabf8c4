package textutil

import (
	"fmt"
	"os/exec"
	"testing"
)

func TestFirstLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""}, {"one", "one"}, {"one\ntwo", "one"}, {"\ntwo", ""},
	} {
		if got := FirstLine(tt.in); got != tt.want {
			t.Errorf("FirstLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n          int
		noun, want string
	}{
		{0, "benchmark", "0 benchmarks"},
		{1, "benchmark", "1 benchmark"},
		{2, "benchmark", "2 benchmarks"},
		{19, "profile", "19 profiles"},
		{1, "package", "1 package"},
		{-1, "pick", "-1 picks"},
	} {
		if got := Plural(tt.n, tt.noun); got != tt.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tt.n, tt.noun, got, tt.want)
		}
		if got, want := Noun(tt.n, tt.noun), tt.want[len(fmt.Sprint(tt.n))+1:]; got != want {
			t.Errorf("Noun(%d, %q) = %q, want %q", tt.n, tt.noun, got, want)
		}
	}
}

func TestList(t *testing.T) {
	abc := []string{"a", "b", "c", "d", "e"}
	for _, tt := range []struct {
		items []string
		n     int
		want  string
	}{
		{nil, 3, ""},
		{abc[:1], 3, "a"},
		{abc[:3], 3, "a, b, c"},
		{abc[:4], 3, "a, b, c and 1 more"},
		{abc, 3, "a, b, c and 2 more"},
		{abc, 0, "5 more"},
		{abc, -1, "5 more"},
	} {
		if got := List(tt.items, tt.n); got != tt.want {
			t.Errorf("List(%q, %d) = %q, want %q", tt.items, tt.n, got, tt.want)
		}
	}
}

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"go", "go"},
		{"./storage/...", "./storage/..."},
		{"", "''"},
		{"^BenchmarkA$", "'^BenchmarkA$'"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
	}
	for _, tt := range tests {
		if got := ShellQuote(tt.in); got != tt.want {
			t.Errorf("ShellQuote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// The shell reads every quoted word back as the original.
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, in := range []string{"", "a b", "it's", "$HOME", "`x`", "a\nb", `back\slash`, "!*?[]{}~#&;|<>()"} {
		out, err := exec.Command("sh", "-c", "printf %s "+ShellQuote(in)).Output()
		if err != nil || string(out) != in {
			t.Errorf("sh read back %q as %q (err %v)", in, out, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"1073741824", 1 << 30, false},
		{"512MiB", 512 << 20, false},
		{"512mib", 512 << 20, false},
		{"1.5GiB", 3 << 29, false},
		{"2G", 2 << 30, false},
		{"64k", 64 << 10, false},
		{"500MB", 500e6, false},
		{"1 GiB", 1 << 30, false},
		{"100B", 100, false},
		{"0", 0, true},
		{"-1MiB", 0, true},
		{"0.1B", 0, true},
		{"lots", 0, true},
		{"MiB", 0, true},
		{"NaN", 0, true},
		{"1e30", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{256 << 20, "256MiB"},
		{1 << 30, "1GiB"},
		{1536 << 20, "1536MiB"},
		{1000, "1000"},
		{4 << 40, "4TiB"},
	}
	for _, tt := range tests {
		if got := FormatSize(tt.in); got != tt.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEscapeControl(t *testing.T) {
	for _, tc := range []struct{ in, keep, want string }{
		{"plain: <b> @x", "", "plain: <b> @x"},
		{"a\nb\rc\td", "", `a\x0ab\x0dc\x09d`},
		{"a\nb\tc", "\n\t", "a\nb\tc"},
		{"\x1b[31mred\x07", "", `\x1b[31mred\x07`},
		{"del\x7f c1\u0085 ls\u2028 ps\u2029", "", `del\x7f c1\x85 ls\u2028 ps\u2029`},
		{"é ✓ \u200b", "", "é ✓ \u200b"},
	} {
		if got := EscapeControl(tc.in, tc.keep); got != tc.want {
			t.Errorf("EscapeControl(%q, %q) = %q, want %q", tc.in, tc.keep, got, tc.want)
		}
	}
}

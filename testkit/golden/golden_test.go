package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	numbered := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString(strings.Repeat("x", i%3+1) + string(rune('a'+i%26)) + "\n")
		}
		return b.String()
	}
	long := numbered(20)
	lines := strings.SplitAfter(long, "\n")
	changedTwice := strings.Replace(strings.Replace(long, lines[1], "B\n", 1), lines[17], "R\n", 1)
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"changed line", "a\nb\nc\n", "a\nB\nc\n", "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"insert into empty", "", "a\n", "--- old\n+++ new\n@@ -0,0 +1,1 @@\n+a\n"},
		{"delete all", "a\n", "", "--- old\n+++ new\n@@ -1,1 +0,0 @@\n-a\n"},
		{"missing final newline", "a\nb\n", "a\nb", "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"},
		{"changes far apart make two hunks", long, changedTwice, "--- old\n+++ new\n" +
			"@@ -1,5 +1,5 @@\n " + lines[0] + "-" + lines[1] + "+B\n " + lines[2] + " " + lines[3] + " " + lines[4] +
			"@@ -15,6 +15,6 @@\n " + lines[14] + " " + lines[15] + " " + lines[16] + "-" + lines[17] + "+R\n " + lines[18] + " " + lines[19]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff("old", []byte(tt.old), "new", []byte(tt.new))
			if got != tt.want {
				t.Errorf("Diff(%q, %q) =\n%s\nwant\n%s", tt.old, tt.new, got, tt.want)
			}
		})
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msg = format
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = true
	r.msg = format
}

func TestCheck(t *testing.T) {
	defer func(u bool) { *update = u }(*update)
	path := filepath.Join(t.TempDir(), "sub", "case.golden")

	*update = false
	r := &recorder{TB: t}
	Check(r, path, []byte("one\n"))
	if !r.failed {
		t.Fatal("Check with a missing golden file passed")
	}

	*update = true
	r = &recorder{TB: t}
	Check(r, path, []byte("one\n"))
	if r.failed {
		t.Fatalf("Check -update failed: %s", r.msg)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "one\n" {
		t.Fatalf("Check -update wrote %q, %v; want %q", b, err, "one\n")
	}

	*update = false
	for _, tt := range []struct {
		got      string
		wantFail bool
	}{{"one\n", false}, {"two\n", true}} {
		r = &recorder{TB: t}
		Check(r, path, []byte(tt.got))
		if r.failed != tt.wantFail {
			t.Errorf("Check(%q) against %q: failed = %v, want %v", tt.got, "one\n", r.failed, tt.wantFail)
		}
	}
}

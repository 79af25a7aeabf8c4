// Package golden compares test output with golden files, the one helper
// behind every golden test of the module. A mismatch fails the test with a
// line diff; running the tests with the -update flag rewrites the golden
// files instead. Importing the package registers -update, so a test binary
// must not define its own, and only test binaries that import it accept it.
//
// make golden rewrites every golden file of the module in one command: it
// runs the tests whose names contain "Golden" in every package whose tests
// import this one, with -update. Name golden tests accordingly.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files instead of comparing with them")

// Updating reports whether the tests run with -update, that is whether
// [Check] rewrites golden files instead of comparing with them.
func Updating() bool { return *update }

// Check compares got with the golden file at path, relative to the test's
// working directory (its package directory). When they differ it fails t
// with a diff from the file's content to got; with -update it writes got to
// path instead, creating the file's directory if needed. A missing golden
// file fails the test with the command that creates it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("golden: %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (rerun with -update to create it)", err)
	}
	if string(want) == string(got) {
		return
	}
	t.Errorf("output differs from %s (rerun with -update if the change is intended):\n%s",
		path, Diff(path, want, "got", got))
}

// Diff returns a line diff from old to new in the style of diff -u: a
// "--- oldName" and "+++ newName" header, then hunks of changed lines
// ("-" removed, "+" added) with up to three unchanged lines (" ") around
// each, under "@@ -l,n +l,n @@" headers that number lines from 1. A
// missing final newline is marked as diff does. Diff returns "" when old
// and new are equal. Its cost is quadratic in the number of lines between
// the first and the last difference.
func Diff(oldName string, old []byte, newName string, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := splitLines(string(old)), splitLines(string(new))
	ops := editScript(a, b)

	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	const context = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from up to context lines before this change to up to
		// context lines after the last change less than 2*context+1
		// unchanged lines away.
		start := max(i-context, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*context {
				break
			}
		}
		end = min(end+context, len(ops))
		aLine, bLine := ops[start].a+1, ops[start].b+1
		var aCount, bCount int
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aCount++
			}
			if op.kind != '-' {
				bCount++
			}
		}
		// As in diff -u, an empty range names the line before it.
		if aCount == 0 {
			aLine--
		}
		if bCount == 0 {
			bLine--
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aLine, aCount, bLine, bCount)
		for _, op := range ops[start:end] {
			line := b
			idx := op.b
			if op.kind == '-' {
				line, idx = a, op.a
			}
			out.WriteByte(op.kind)
			out.WriteString(line[idx])
			if !strings.HasSuffix(line[idx], "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

// op is one line of an edit script: kind ' ' keeps a[a] (= b[b]), '-'
// removes a[a], '+' inserts b[b]. For '+' the a index is where the insert
// happens, for '-' the b index likewise.
type op struct {
	kind byte
	a, b int
}

// editScript returns a shortest edit script from a to b, found by a
// longest common subsequence over the lines between the common prefix and
// suffix. Ties prefer removals before insertions, as diff prints them.
func editScript(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	// lcs[i][j] is the length of the longest common subsequence of
	// ma[i:] and mb[j:].
	lcs := make([][]int, len(ma)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(mb)+1)
	}
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	for k := 0; k < pre; k++ {
		ops = append(ops, op{' ', k, k})
	}
	i, j := 0, 0
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			ops = append(ops, op{' ', pre + i, pre + j})
			i++
			j++
		case i < len(ma) && (j == len(mb) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', pre + i, pre + j})
			i++
		default:
			ops = append(ops, op{'+', pre + i, pre + j})
			j++
		}
	}
	for k := 0; k < suf; k++ {
		ops = append(ops, op{' ', len(a) - suf + k, len(b) - suf + k})
	}
	return ops
}

// splitLines splits s after each newline; the last line lacks one when s
// does not end in a newline.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

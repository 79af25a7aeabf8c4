package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/testkit/golden"
)

// The command examples of README.md and of this package's documentation
// (doc.go) are run by TestDocExamples, so the manual cannot drift from the
// program. The convention (the README and the manual point here):
//
//   - A block whose first line starts with "$ mbopt " is a tested example:
//     a fenced block in Markdown, an indented code block in a Go doc
//     comment. Each "$ mbopt ARGS" line in it is a command; a line ending
//     in a backslash continues on the next. The lines after a command, up to
//     the next "$ " line or the end of the block, are its exact standard
//     output. The command must exit 0 and write nothing on standard error.
//   - A line "..." on its own in the expected output stands for any number
//     of output lines, to leave out long stretches (used sparingly).
//   - Commands run in-process through Main with the repository's root as
//     working directory, so paths are relative to it. Arguments are split as
//     a shell would (single and double quotes, backslash escapes), but there
//     is no shell: pipes, redirections and variables are errors.
//   - A command that is shown but not run (it profiles, captures from the
//     network or uses placeholder files) is written without the "$ "
//     prompt; in Markdown its fenced block must also carry "not-run" in
//     its info string (```sh not-run), so that every mbopt command line in
//     the README is either tested or deliberately marked.

// docExample is one tested command and its expected standard output.
type docExample struct {
	pos  string   // file:line of the command
	args []string // the arguments after "mbopt"
	want []string // expected stdout lines; "..." matches any number of lines
}

// elision is the expected-output line that matches any number of lines.
const elision = "..."

// docBlock is a code block of a manual: its lines and where it starts.
type docBlock struct {
	file   string
	line   int // line of the block's first content line, from 1
	lines  []string
	notRun bool // a Markdown block marked not-run
}

// markdownBlocks returns the fenced code blocks (``` or ~~~ at the start of
// a line) of a Markdown text.
func markdownBlocks(file, text string) ([]docBlock, error) {
	var blocks []docBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		fence := fenceOf(lines[i])
		if fence == "" {
			continue
		}
		info := strings.Fields(strings.TrimPrefix(lines[i], fence))
		b := docBlock{file: file, line: i + 2}
		for _, w := range info {
			if w == "not-run" {
				b.notRun = true
			}
		}
		closed := false
		for i++; i < len(lines); i++ {
			if strings.HasPrefix(lines[i], fence) && strings.TrimSpace(strings.TrimLeft(lines[i], fence[:1])) == "" {
				closed = true
				break
			}
			b.lines = append(b.lines, lines[i])
		}
		if !closed {
			return nil, fmt.Errorf("%s:%d: code block is not closed", file, b.line-1)
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// fenceOf returns the fence a line opens (``` or ~~~, or longer), or "".
func fenceOf(line string) string {
	for _, c := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, c))
		if n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// goDocBlocks returns the code blocks (indented lines) of a Go doc comment
// that starts at line first of file; text is the comment's text as
// [ast.CommentGroup.Text] returns it.
func goDocBlocks(file string, first int, text string) []docBlock {
	var blocks []docBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "\t") {
			continue
		}
		b := docBlock{file: file, line: first + i}
		for ; i < len(lines) && (strings.HasPrefix(lines[i], "\t") || lines[i] == ""); i++ {
			b.lines = append(b.lines, strings.TrimPrefix(lines[i], "\t"))
		}
		for len(b.lines) > 0 && b.lines[len(b.lines)-1] == "" {
			b.lines = b.lines[:len(b.lines)-1]
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// examples returns the tested examples of blocks, and an error for a block
// that breaks the convention: a "$ mbopt" line that does not start its
// block, or (in Markdown) an mbopt command in a block that neither runs nor
// is marked not-run.
func examples(blocks []docBlock, markdown bool) ([]docExample, error) {
	var exs []docExample
	for _, b := range blocks {
		if b.notRun {
			continue
		}
		if len(b.lines) == 0 || !strings.HasPrefix(b.lines[0], "$ mbopt ") {
			for j, l := range b.lines {
				if strings.HasPrefix(l, "$ mbopt") {
					return nil, fmt.Errorf("%s:%d: %q: a tested example must start its block", b.file, b.line+j, l)
				}
				if markdown && strings.HasPrefix(l, "mbopt ") {
					return nil, fmt.Errorf("%s:%d: %q: a command that is not run needs a block marked not-run (```sh not-run)", b.file, b.line+j, l)
				}
			}
			continue
		}
		for j := 0; j < len(b.lines); {
			cmd := strings.TrimPrefix(b.lines[j], "$ ")
			pos := fmt.Sprintf("%s:%d", b.file, b.line+j)
			for strings.HasSuffix(cmd, "\\") && j+1 < len(b.lines) {
				j++
				cmd = strings.TrimSuffix(cmd, "\\") + " " + strings.TrimSpace(b.lines[j])
			}
			j++
			args, err := splitWords(cmd, false)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", pos, err)
			}
			if len(args) == 0 || args[0] != "mbopt" {
				return nil, fmt.Errorf("%s: %q: a tested command must run mbopt", pos, cmd)
			}
			ex := docExample{pos: pos, args: args[1:], want: []string{}}
			for ; j < len(b.lines) && !strings.HasPrefix(b.lines[j], "$ "); j++ {
				ex.want = append(ex.want, b.lines[j])
			}
			exs = append(exs, ex)
		}
	}
	return exs, nil
}

// stretches splits want at its elision lines: the stretches before, between
// and after them, one more than there are elisions, empty ones included.
func stretches(want []string) [][]string {
	var parts [][]string
	part := []string{}
	for _, w := range want {
		if w == elision {
			parts = append(parts, part)
			part = []string{}
			continue
		}
		part = append(part, w)
	}
	return append(parts, part)
}

// matchOutput reports whether got, a command's output, matches the
// expected lines: line by line, where an elision line matches any number
// (zero included) of lines. Each stretch between elisions matches at its
// first place after the previous one, which finds a match whenever there
// is one.
func matchOutput(want []string, got string) bool {
	if got != "" && !strings.HasSuffix(got, "\n") {
		return false
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if got == "" {
		lines = nil
	}
	parts := stretches(want)
	equal := slices.Equal[[]string]
	if len(parts) == 1 {
		return equal(parts[0], lines)
	}
	first, last := parts[0], parts[len(parts)-1]
	if len(first)+len(last) > len(lines) || !equal(first, lines[:len(first)]) || !equal(last, lines[len(lines)-len(last):]) {
		return false
	}
	rest := lines[len(first) : len(lines)-len(last)]
	for _, p := range parts[1 : len(parts)-1] {
		found := false
		for k := 0; k+len(p) <= len(rest); k++ {
			if equal(p, rest[k:k+len(p)]) {
				rest, found = rest[k+len(p):], true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// expandElisions returns want with each elision replaced by the lines of
// got it most likely stands for, so that a diff of the result against got
// shows only the lines that differ: the stretch after an elision is placed
// where its first line next occurs in got (the last stretch at got's end),
// and the elision takes the lines skipped. An elision whose next stretch
// cannot be placed stands for no lines.
func expandElisions(want []string, got string) []string {
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	parts := stretches(want)
	out := append([]string{}, parts[0]...)
	pos := len(parts[0])
	for k, p := range parts[1:] {
		start := -1
		switch {
		case k == len(parts)-2 && len(lines)-len(p) >= pos:
			start = len(lines) - len(p)
		case len(p) > 0:
			for i := pos; i < len(lines); i++ {
				if lines[i] == p[0] {
					start = i
					break
				}
			}
		}
		if start >= pos {
			out = append(out, lines[pos:start]...)
			pos = start
		}
		out = append(out, p...)
		pos += len(p)
	}
	return out
}

// manualExamples reads the tested examples of README.md and doc.go; root
// is the repository's root relative to the working directory.
func manualExamples(t *testing.T, root string) []docExample {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := markdownBlocks("README.md", string(readme))
	if err != nil {
		t.Fatal(err)
	}
	fromReadme, err := examples(blocks, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromReadme) == 0 {
		t.Fatal("README.md has no tested examples")
	}

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package documentation")
	}
	// The comment's text starts on the line after "/*" or on the line of
	// the first "//".
	fromDoc, err := examples(goDocBlocks("cmd/mbopt/doc.go", fset.Position(f.Doc.Pos()).Line, f.Doc.Text()), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromDoc) == 0 {
		t.Fatal("doc.go has no tested examples")
	}
	return append(fromReadme, fromDoc...)
}

// TestDocExamples runs every tested example of README.md and doc.go and
// compares its output with the text.
func TestDocExamples(t *testing.T) {
	exs := manualExamples(t, "../..")
	t.Chdir("../..")
	for _, ex := range exs {
		t.Run(ex.pos, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(ex.args, strings.NewReader(""), &stdout, &stderr)
			if code != cli.OK || stderr.Len() > 0 {
				t.Fatalf("%s: mbopt %s: exit %d, stderr:\n%s", ex.pos, strings.Join(ex.args, " "), code, stderr.String())
			}
			if !matchOutput(ex.want, stdout.String()) {
				want := strings.Join(expandElisions(ex.want, stdout.String()), "\n") + "\n"
				t.Errorf("%s: the output of mbopt %s differs from the text (%q lines match any lines):\n%s",
					ex.pos, strings.Join(ex.args, " "), elision, golden.Diff(ex.pos, []byte(want), "output", stdout.Bytes()))
			}
		})
	}
}

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		line    string
		want    []string
		wantErr string
	}{
		{"mbopt analyze --app a.pprof", []string{"mbopt", "analyze", "--app", "a.pprof"}, ""},
		{"mbopt  x\t y ", []string{"mbopt", "x", "y"}, ""},
		{`mbopt --bench '^Benchmark(A|B)$' x`, []string{"mbopt", "--bench", "^Benchmark(A|B)$", "x"}, ""},
		{`mbopt --app-cmd "go run . -o {profile}" "a\"b\\c"`, []string{"mbopt", "--app-cmd", "go run . -o {profile}", `a"b\c`}, ""},
		{`mbopt a\ b x#1 ''`, []string{"mbopt", "a b", "x#1", ""}, ""},
		{"mbopt analyze | head", nil, "needs a shell"},
		{"mbopt analyze > out.txt", nil, "needs a shell"},
		{"mbopt --out $HOME", nil, "needs a shell"},
		{`mbopt "$HOME"`, nil, "expansions need a shell"},
		{"mbopt # comment", nil, "needs a shell"},
		{"mbopt 'open", nil, "unterminated single quote"},
		{`mbopt "open`, nil, "unterminated double quote"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := splitWords(tt.line, false)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("splitWords(%q) = %q, %v; want an error containing %q", tt.line, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") || len(got) != len(tt.want) {
				t.Fatalf("splitWords(%q) = %q, %v; want %q", tt.line, got, err, tt.want)
			}
		})
	}
}

func TestMatchOutput(t *testing.T) {
	const out = "a\nb\nc\nd\n"
	tests := []struct {
		name string
		want []string
		got  string
		ok   bool
	}{
		{"exact", []string{"a", "b", "c", "d"}, out, true},
		{"a changed number", []string{"a", "b", "x", "d"}, out, false},
		{"a missing line", []string{"a", "b", "d"}, out, false},
		{"an extra line", []string{"a", "b", "c", "d", "e"}, out, false},
		{"no final newline", []string{"a"}, "a", false},
		{"empty", []string{}, "", true},
		{"elided middle", []string{"a", elision, "d"}, out, true},
		{"elided tail", []string{"a", "b", elision}, out, true},
		{"elided head", []string{elision, "d"}, out, true},
		{"elision of nothing", []string{"a", "b", elision, "c", "d"}, out, true},
		{"two elisions", []string{"a", elision, "c", elision}, out, true},
		{"elision keeps order", []string{elision, "c", elision, "b", elision}, out, false},
		{"elision with a changed line", []string{"a", elision, "x"}, out, false},
		{"overlapping head and tail", []string{"a", "b", "c", elision, "c", "d"}, out, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := matchOutput(tt.want, tt.got); got != tt.ok {
				t.Errorf("matchOutput(%q, %q) = %v, want %v", tt.want, tt.got, got, tt.ok)
			}
		})
	}
}

func TestExpandElisions(t *testing.T) {
	const out = "a\nb\nc\nd\ne\n"
	tests := []struct {
		name string
		want []string
		exp  []string
	}{
		{"no elision", []string{"a", "x"}, []string{"a", "x"}},
		{"changed line before an elision", []string{"x", elision, "e"}, []string{"x", "b", "c", "d", "e"}},
		{"changed line between elisions", []string{"a", elision, "c", "X", elision, "e"}, []string{"a", "b", "c", "X", "e"}},
		{"changed tail", []string{"a", elision, "X"}, []string{"a", "b", "c", "d", "X"}},
		{"stretch not found", []string{"a", elision, "X", "d", elision, "e"}, []string{"a", "X", "d", "d", "e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := expandElisions(tt.want, out); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.exp) {
				t.Errorf("expandElisions(%q, %q) = %q, want %q", tt.want, out, got, tt.exp)
			}
		})
	}
}

func TestDocConvention(t *testing.T) {
	tests := []struct {
		name    string
		md      string
		want    []docExample
		wantErr string
	}{
		{
			name: "two commands, a continuation and output",
			md:   "text\n```console\n$ mbopt a \\\n    --b 'c d'\nout1\n\nout2\n$ mbopt e\n```\n",
			want: []docExample{
				{pos: "R.md:3", args: []string{"a", "--b", "c d"}, want: []string{"out1", "", "out2"}},
				{pos: "R.md:8", args: []string{"e"}, want: []string{}},
			},
		},
		{name: "shown only", md: "```sh not-run\nmbopt run --app-pgo\n```\n", want: nil},
		{name: "not an mbopt block", md: "```sh\nmake demo\ngo install github.com/mbopt/mbopt/cmd/mbopt@latest\n```\n", want: nil},
		{name: "unmarked command", md: "```sh\nmbopt run\n```\n", wantErr: "R.md:2: \"mbopt run\": a command that is not run needs a block marked not-run"},
		{name: "prompt not first", md: "```\nsome text\n$ mbopt x\n```\n", wantErr: "R.md:3"},
		{name: "unclosed block", md: "```\n$ mbopt x\n", wantErr: "R.md:1: code block is not closed"},
		{name: "pipe", md: "```\n$ mbopt x | wc -l\n```\n", wantErr: "needs a shell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blocks, err := markdownBlocks("R.md", tt.md)
			var got []docExample
			if err == nil {
				got, err = examples(blocks, true)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("examples(%q) error = %v, want one containing %q", tt.md, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
				t.Errorf("examples(%q) =\n%q\nwant\n%q", tt.md, got, tt.want)
			}
		})
	}

	// A Go doc comment: tab-indented code blocks.
	doc := "Intro.\n\n\t$ mbopt a\n\tline 1\n\n\tline 3\n\nMore text.\n\n\tmbopt shown only\n"
	got, err := examples(goDocBlocks("d.go", 10, doc), false)
	want := []docExample{{pos: "d.go:12", args: []string{"a"}, want: []string{"line 1", "", "line 3"}}}
	if err != nil || fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Errorf("examples of Go doc %q = %q, %v; want %q", doc, got, err, want)
	}
}

// renderedManual returns this command's documentation as go doc prints it:
// the package comment that go/doc finds in the package's files (the comment
// group right above a package clause, as go doc picks it), rendered as text.
// Checking the rendered text, not doc.go's source, catches what only
// rendering shows: a blank line that cuts the comment in two leaves go doc
// only the part after it.
func renderedManual(t *testing.T) string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/mbopt/mbopt/cmd/mbopt")
	require.NoError(t, err)
	return string(p.Text(p.Doc))
}

// manualSections splits the rendered manual at its headings ("# Title"
// lines): the text before the first heading is the overview, keyed "".
func manualSections(text string) map[string]string {
	sections := map[string]string{}
	title := ""
	for _, line := range strings.SplitAfter(text, "\n") {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			title = strings.TrimSpace(h)
			continue
		}
		sections[title] += line
	}
	return sections
}

// commandTree returns mbopt's commands, the root first, each before its
// subcommands.
func commandTree(root *cobra.Command) []*cobra.Command {
	cmds := []*cobra.Command{root}
	for _, c := range root.Commands() {
		cmds = append(cmds, commandTree(c)...)
	}
	return cmds
}

// TestManualShowsEveryCommand checks that go doc ./cmd/mbopt begins like a
// command's documentation and shows every command: in the overview's list
// of commands and as a section of its own ("# mbopt compare merge").
func TestManualShowsEveryCommand(t *testing.T) {
	text := renderedManual(t)
	if !strings.HasPrefix(text, "Mbopt ") && !strings.HasPrefix(text, "Command mbopt ") {
		first, _, _ := strings.Cut(text, "\n")
		t.Fatalf("go doc ./cmd/mbopt begins %q, want \"Mbopt …\" or \"Command mbopt …\" (is the package comment cut by a blank line?)", first)
	}
	sections := manualSections(text)
	root := newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	for _, c := range commandTree(root)[1:] {
		path := c.CommandPath()
		assert.Regexp(t, `(?m)^\s*`+regexp.QuoteMeta(path)+`( |$)`, sections[""], "the overview's list of commands shows %s", path)
		assert.Contains(t, sections, path, "the manual has a section # %s", path)
	}
}

// TestManualNamesEveryFlag walks the real command tree and checks that the
// manual explains every flag of every command (local and persistent,
// hidden ones included), by its --name and its -shorthand: in the command's
// own section, or in a section that is not a command's ("Analysis flags")
// whose title the command's section names. The root's section is the
// overview.
func TestManualNamesEveryFlag(t *testing.T) {
	sections := manualSections(renderedManual(t))
	root := newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	for _, c := range commandTree(root) {
		title := c.CommandPath()
		if c == root {
			title = ""
		}
		own, ok := sections[title]
		if !ok {
			continue // TestManualShowsEveryCommand reports it
		}
		text := own
		for h, body := range sections {
			if h != "" && !strings.HasPrefix(h, "mbopt ") && strings.Contains(own, h) {
				text += body
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !regexp.MustCompile(`(^|[^-\w])--` + regexp.QuoteMeta(f.Name) + `([^-\w]|$)`).MatchString(text) {
				t.Errorf("go doc ./cmd/mbopt does not explain --%s of %s: name it in # %s or in a shared section that section names", f.Name, c.CommandPath(), title)
			}
			if f.Shorthand != "" && !regexp.MustCompile(`(^|[^-\w])-`+regexp.QuoteMeta(f.Shorthand)+`([^-\w]|$)`).MatchString(text) {
				t.Errorf("go doc ./cmd/mbopt does not name -%s (--%s) of %s", f.Shorthand, f.Name, c.CommandPath())
			}
		})
	}
}

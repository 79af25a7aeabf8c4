// Package render holds the text and Markdown primitives the documents of
// package report and its subpackages share: aligned text tables,
// Markdown escaping, percentages and a writer that keeps the first error.
package render

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mbopt/mbopt/internal/textutil"
)

// AppMeasure names what the application's weights measure, for prose
// about them: cpu, the CPU profiles' wording ("CPU", "CPU time"), when
// unit is "", else unit ("instructions"). unit is the application
// profile's (callgraph.Graph.WeightUnit: the suite report's
// application.unit, a comparison's impact.unit), so it is the one rule
// by which every line about the application's time, in the suite report
// and in a comparison's, speaks the profile's unit.
func AppMeasure(unit, cpu string) string { return cmp.Or(unit, cpu) }

// Pct writes a share as a percentage with one decimal: "12.3%".
func Pct(r float64) string { return fmt.Sprintf("%.1f%%", 100*r) }

// SignedPct writes a relative change as a signed percentage: "+12.3%",
// "-0.4%", "+0.0%". The sign always shows which way it went.
func SignedPct(x float64) string {
	s := fmt.Sprintf("%+.1f%%", 100*x)
	if s == "-0.0%" {
		s = "+0.0%"
	}
	return s
}

// markdownEscapes escapes what Markdown would read as markup: a table
// cell's end, emphasis, code, links and images, HTML and entities, and
// backslash escapes themselves.
var markdownEscapes = strings.NewReplacer("\\", `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`",
	"[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;", "&", "&amp;")

// autolink matches what GitHub turns into a link or a notification in
// plain text: an @-mention (or the "@" of an e-mail address), a URL's
// "://" and a "www." host; wordJoiner is put inside each to break it.
var autolink = regexp.MustCompile(`(?i)@[a-z0-9]|://|\bwww\.`)

// wordJoiner (U+2060) is invisible and keeps the text on one line.
const wordJoiner = "\u2060"

// EscapeMarkdown makes s, text from data (a commit subject, a note that
// names a benchmark, a unit), inert Markdown for a table cell or a
// paragraph, the one rule of every Markdown mbopt writes: control
// characters written as escapes (textutil.EscapeControl; s stays on one
// line), markup escaped, and an invisible word joiner put inside each
// @-mention, "://" and "www." so that GitHub neither links it nor notifies
// anyone. The text reads as s.
func EscapeMarkdown(s string) string {
	s = markdownEscapes.Replace(textutil.EscapeControl(s, ""))
	return autolink.ReplaceAllStringFunc(s, func(m string) string { return m[:1] + wordJoiner + m[1:] })
}

// MarkdownCode formats s as inline code, which Markdown shows as it is
// (no HTML, link or mention), for a paragraph or a heading: control
// characters are written as escapes (textutil.EscapeControl) and
// backticks become quotes. In a table cell use [MarkdownCellCode].
func MarkdownCode(s string) string {
	return "`" + strings.ReplaceAll(textutil.EscapeControl(s, ""), "`", "'") + "`"
}

// MarkdownCellCode is [MarkdownCode] for a table cell: a "|", which would
// end the cell even inside code, is escaped (GitHub shows it as "|").
func MarkdownCellCode(s string) string { return strings.ReplaceAll(MarkdownCode(s), "|", `\|`) }

// SafeLine makes one line of a text document inert for a terminal and a
// CI log: control characters other than tab written as escapes
// (textutil.EscapeControl), and a line that would start, after its
// indentation, with "::" (which the GitHub Actions runner executes as a
// workflow command, whatever wrote it) gets its first ":" written as
// \x3a. mbopt's own lines are returned as they are.
func SafeLine(line string) string {
	line = textutil.EscapeControl(line, "\t")
	rest := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(rest, "::") {
		line = line[:len(line)-len(rest)] + `\x3a` + rest[1:]
	}
	return line
}

// A TextWriter writes a text document to W a line at a time, each line
// made inert with [SafeLine], so that a benchmark name or message in it
// cannot inject a workflow command or a terminal escape; like [ErrWriter]
// it keeps the first write error in Err. [TextWriter.Close] writes a last
// line without a newline.
type TextWriter struct {
	// ErrWriter writes the lines and keeps the first error.
	ErrWriter
	buf []byte
}

// NewTextWriter returns a TextWriter writing to w.
func NewTextWriter(w io.Writer) *TextWriter { return &TextWriter{ErrWriter: ErrWriter{W: w}} }

// Write buffers p and writes its complete lines.
func (t *TextWriter) Write(p []byte) (int, error) {
	if t.Err != nil {
		return 0, t.Err
	}
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		line := SafeLine(string(t.buf[:i]))
		t.buf = t.buf[i+1:]
		if _, err := t.ErrWriter.Write([]byte(line + "\n")); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Close writes what is left of the last line and returns Err.
func (t *TextWriter) Close() error {
	if len(t.buf) > 0 && t.Err == nil {
		t.ErrWriter.Write([]byte(SafeLine(string(t.buf))))
		t.buf = nil
	}
	return t.Err
}

// A Table aligns rows of cells in columns, indented by two spaces. [Table.Write]
// right-aligns the columns after the first two (they hold figures);
// [Table.WriteLastLeft] and [Table.WriteLeft] align otherwise. Notes are
// free lines printed after the row they follow, outside the columns.
type Table struct {
	rows  [][]string
	notes map[int][]string
}

// Row appends a row of cells.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, cells) }

// Note adds lines to print after the last row (before any row: after
// the table).
func (t *Table) Note(lines ...string) {
	if t.notes == nil {
		t.notes = map[int][]string{}
	}
	t.notes[len(t.rows)-1] = append(t.notes[len(t.rows)-1], lines...)
}

// Write writes t: the first column (the second after a leading "#"
// column) left-aligned, the others right-aligned, then each row's notes.
func (t *Table) Write(w io.Writer) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	// A leading "#" column is numeric too; the name column is left-aligned.
	left := 0
	if len(t.rows) > 0 && t.rows[0][0] == "#" {
		left = 1
	}
	for ri, r := range t.rows {
		var b strings.Builder
		b.WriteString(" ")
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			b.WriteString(" ")
			if i == left {
				b.WriteString(c)
				b.WriteString(pad)
			} else {
				if i > 0 {
					b.WriteString(" ")
				}
				b.WriteString(pad)
				b.WriteString(c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		for _, n := range t.notes[ri] {
			fmt.Fprintln(w, n)
		}
	}
	for _, n := range t.notes[-1] {
		fmt.Fprintln(w, n)
	}
}

// An ErrWriter writes to W until a write fails, and keeps that error in
// Err: a document is written with no error check per line, and returns
// Err at the end.
type ErrWriter struct {
	// W is the writer written to.
	W io.Writer
	// Err is the first write error.
	Err error
}

// Write writes p to W, or returns Err without writing once a write has
// failed.
func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.Err != nil {
		return 0, e.Err
	}
	n, err := e.W.Write(p)
	e.Err = err
	return n, err
}

// WriteLastLeft writes t with the last column left-aligned and not
// padded (it holds names of any length), the others right-aligned except
// the first.
func (t *Table) WriteLastLeft(w io.Writer) {
	t.writeAligned(w, func(i, n int) bool { return i == 0 || i == n-1 })
}

// WriteLeft writes t with every column left-aligned.
func (t *Table) WriteLeft(w io.Writer) {
	t.writeAligned(w, func(int, int) bool { return true })
}

// writeAligned writes t's rows indented by two spaces, columns separated
// by two spaces, left-aligned where left(column, columns) says so and
// right-aligned elsewhere; trailing spaces are trimmed. A cell of the
// last column may hold several lines: the later ones are printed on lines
// of their own, starting under the column; then the row's notes.
func (t *Table) writeAligned(w io.Writer, left func(i, n int) bool) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			for _, l := range strings.Split(c, "\n") {
				widths[i] = max(widths[i], utf8.RuneCountInString(l))
			}
		}
	}
	for ri, r := range t.rows {
		var b strings.Builder
		b.WriteString(" ")
		var more []string
		for i, c := range r {
			if i == len(r)-1 {
				c, _, _ = strings.Cut(c, "\n")
				more = strings.Split(r[i], "\n")[1:]
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			b.WriteString(" ")
			if i > 0 {
				b.WriteString(" ")
			}
			if left(i, len(r)) {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
		}
		line := strings.TrimRight(b.String(), " ")
		fmt.Fprintln(w, line)
		first, _, _ := strings.Cut(r[len(r)-1], "\n")
		indent := strings.Repeat(" ", utf8.RuneCountInString(line)-utf8.RuneCountInString(first))
		for _, m := range more {
			fmt.Fprintln(w, indent+m)
		}
		for _, n := range t.notes[ri] {
			fmt.Fprintln(w, n)
		}
	}
}

// NameWidth is the width beyond which the text tables wrap a benchmark
// name (see [WrapName]).
const NameWidth = 60

// WrapName breaks a name longer than width runes into lines after a "/"
// (sub-benchmark levels), each at most width runes where the levels
// allow; joining the lines gives the name back. Shorter names are
// returned as they are.
func WrapName(name string, width int) string {
	if utf8.RuneCountInString(name) <= width {
		return name
	}
	var lines []string
	line := ""
	for _, part := range strings.SplitAfter(name, "/") {
		if line != "" && utf8.RuneCountInString(line)+utf8.RuneCountInString(part) > width {
			lines = append(lines, line)
			line = ""
		}
		line += part
	}
	return strings.Join(append(lines, line), "\n")
}

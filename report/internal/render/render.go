// Package render holds the text and Markdown primitives the documents of
// package report and its subpackages share: aligned text tables,
// Markdown escaping, percentages and a writer that keeps the first error.
package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

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

// EscapeMarkdown escapes the characters that break a Markdown table cell.
func EscapeMarkdown(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "`", "\\`").Replace(s)
}

// MarkdownCode formats s as inline code; backticks in it become quotes.
func MarkdownCode(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }

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
// of their own, starting under the column.
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
	for _, r := range t.rows {
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
		if len(more) == 0 {
			continue
		}
		first, _, _ := strings.Cut(r[len(r)-1], "\n")
		indent := strings.Repeat(" ", utf8.RuneCountInString(line)-utf8.RuneCountInString(first))
		for _, m := range more {
			fmt.Fprintln(w, indent+m)
		}
	}
}

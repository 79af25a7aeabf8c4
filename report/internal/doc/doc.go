// Package doc is the neutral model of a report's tables and notes, and
// its printers: a document builds each [Table] and [Note] once from its
// data, and [Text], [Markdown] and [HTML] print them, so a new field of
// a document is added where its table or note is built, not once per
// format. The model follows golang.org/x/perf/benchstat's: a table of
// typed cells (text, code, figures, checks) under columns with heads and
// alignments, printed by small writers per format; the prose around the
// tables stays the document's.
package doc

// An Align is how a column's cells line up in Markdown and HTML (the text
// form aligns as render.Table.Write does: the name column left, figures
// right).
type Align int

const (
	// Left aligns text: names, words.
	Left Align = iota
	// Right aligns figures.
	Right
	// Center aligns checks.
	Center
)

// A Column is one column of a [Table].
type Column struct {
	// Head is the column's head: mbopt's words, or data such as a
	// scenario's name (escaped in Markdown as data, in HTML for markup
	// characters).
	Head string
	// Align is how its cells line up.
	Align Align
	// Detail marks a column the text form leaves out, for the width of a
	// terminal: what it holds, the text says in its rows' notes.
	Detail bool
}

// A Kind is what a [Cell] holds, which decides how each format shows it.
type Kind int

const (
	// Words are text from data or mbopt: escaped in Markdown and HTML.
	Words Kind = iota
	// Code is a name (a benchmark, a function, a file): code in Markdown
	// and HTML, an empty one an empty cell in Markdown.
	Code
	// Figure is a number mbopt formatted ("+3", "12.3%", "1.20s"):
	// written as it is in every format; an empty one, a figure not
	// known, is a dash ("-" in text, "–" in Markdown and HTML).
	Figure
	// Check is a yes-or-no cell, Text "" for no: "yes" in text, "✓" in
	// Markdown and HTML.
	Check
	// Names is a list of names (Items), one per line: code joined by
	// <br> in Markdown and HTML.
	Names
	// Phrase is words that name names: Text, then the Items joined by
	// ", " (each name code in Markdown, what follows it words), such as
	// "2 project functions: a, b and 3 more".
	Phrase
)

// A Cell is one cell of a [Row].
type Cell struct {
	// Kind says what the cell holds.
	Kind Kind
	// Text is the cell's text; for a Check, non-empty means yes.
	Text string
	// Items are a Names cell's names.
	Items []Item
	// Marks follow the text: short labels such as "marginal".
	Marks []Mark
}

// An Item is one name of a Names or Phrase cell, and what follows it
// ("1.20s", "and 3 more").
type Item struct {
	// Name is shown as code.
	Name string
	// After follows the name; in a Names cell Markdown puts it inside
	// the name's code span (a table cell's code followed by text does
	// not read as one entry there), HTML after it.
	After string
}

// Forms is a set of a document's forms (formats).
type Forms uint8

const (
	// TextForm is the text form, for terminals and CI logs.
	TextForm Forms = 1 << iota
	// MarkdownForm is GitHub-flavoured Markdown.
	MarkdownForm
	// HTMLForm is HTML.
	HTMLForm
)

// A Mark labels a cell: a pick that is marginal, a function that is
// negligible, a benchmark whose profile is thin, a change in code the
// change did not touch.
type Mark struct {
	// Class is the mark's CSS class in HTML, such as "marginal".
	Class string
	// Text is the mark's words, such as "negligible: 0.09% of the
	// application's time".
	Text string
	// Title is the HTML tooltip; empty for none.
	Title string
	// Names follow Text: code joined by <br> in Markdown, a list in
	// HTML.
	Names []string
	// Hide are the forms that leave the mark out, where they say the same
	// otherwise (the text in a row's notes) or have no room for it; the
	// others show it, the text after the cell's text, Markdown in
	// italics, HTML as a badge. The zero value shows it everywhere.
	Hide Forms
}

// A Row is one row of a [Table].
type Row struct {
	// Cells are one per column.
	Cells []Cell
	// Notes are lines the text form prints under the row (indented as
	// given); the other forms say the same in Detail columns or marks.
	Notes []string
}

// A Layout is how the text form lines up a table's columns (Markdown and
// HTML follow each column's Align).
type Layout int

const (
	// FiguresRight is render.Table.Write's layout: the name column (the
	// first, or the second after a "#" column) left-aligned, the others
	// right-aligned.
	FiguresRight Layout = iota
	// NameLast is render.Table.WriteLastLeft's: the first column and the
	// last shown, a name, left-aligned and the others right-aligned; a
	// last Code cell longer than render.NameWidth runes is wrapped after a
	// "/" (render.WrapName).
	NameLast
)

// A Table is a document's table: its columns and rows.
type Table struct {
	// Columns are the table's columns, in order.
	Columns []Column
	// Rows are its rows.
	Rows []Row
	// Layout is how the text form lines the columns up.
	Layout Layout
}

// Add appends a row of cells.
func (t *Table) Add(cells ...Cell) { t.Rows = append(t.Rows, Row{Cells: cells}) }

// Note adds text notes under the last row.
func (t *Table) Note(lines ...string) {
	r := &t.Rows[len(t.Rows)-1]
	r.Notes = append(r.Notes, lines...)
}

// A Note is a labelled statement of a document, such as the optimality
// certificate under the suite.
type Note struct {
	// Label names it, such as "Optimality": bold in Markdown and HTML,
	// and left out of the text form unless Fragment.
	Label string
	// Text says it.
	Text string
	// Class is the HTML class of a Note that is no Fragment; empty for
	// "note".
	Class string
	// Fragment marks a Text that is no sentence ("Algorithm 2 1.20s
	// (3 benchmarks); …"): the text form prints "label: text", Markdown
	// and HTML end it with a period and do not highlight it.
	Fragment bool
}

// Printer prints a document's tables and notes in one format.
type Printer interface {
	// Table prints t.
	Table(t *Table)
	// Note prints n.
	Note(n Note)
}

// WordsCell returns a Words cell.
func WordsCell(s string) Cell { return Cell{Kind: Words, Text: s} }

// CodeCell returns a Code cell.
func CodeCell(s string, marks ...Mark) Cell { return Cell{Kind: Code, Text: s, Marks: marks} }

// FigureCell returns a Figure cell.
func FigureCell(s string) Cell { return Cell{Kind: Figure, Text: s} }

// FigureCells returns Figure cells.
func FigureCells(ss ...string) []Cell {
	out := make([]Cell, len(ss))
	for i, s := range ss {
		out[i] = FigureCell(s)
	}
	return out
}

// CheckCell returns a Check cell, yes when ok.
func CheckCell(ok bool) Cell {
	if ok {
		return Cell{Kind: Check, Text: "yes"}
	}
	return Cell{Kind: Check}
}

// PhraseCell returns a Phrase cell.
func PhraseCell(text string, items ...Item) Cell { return Cell{Kind: Phrase, Text: text, Items: items} }

// NamesCell returns a Names cell.
func NamesCell(items ...Item) Cell { return Cell{Kind: Names, Items: items} }

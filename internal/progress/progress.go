// Package progress draws a command's progress on stderr: on a terminal a
// status line redrawn in place under the permanent lines, elsewhere (a CI
// log, a file) the permanent lines only. The renderers of collect's and
// compare's events (collect.ProgressPrinter, compare.ProgressPrinter) print
// through it.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// IsTerminal reports whether w is a terminal that should get a progress bar
// (not when CI is set), and its width.
func IsTerminal(w io.Writer) (bool, int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, 0
	}
	if ci := os.Getenv("CI"); ci != "" && ci != "false" && ci != "0" {
		return false, 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		width = 80
	}
	return true, width
}

// A Line is the progress on stderr: on a terminal a status line redrawn in
// place under the permanent lines, elsewhere the permanent lines only.
type Line struct {
	W        io.Writer // stderr
	Terminal bool      // W is a terminal (see IsTerminal)
	Width    int       // of the terminal
	drawn    bool
}

// Draw redraws the status line on a terminal.
func (l *Line) Draw(line string) {
	if !l.Terminal {
		return
	}
	if l.Width > 1 && len(line) >= l.Width {
		line = line[:l.Width-1]
	}
	fmt.Fprintf(l.W, "\r\033[K%s", line)
	l.drawn = true
}

// Println prints a permanent line (above the status line on a terminal).
func (l *Line) Println(line string) {
	l.Clear()
	fmt.Fprintln(l.W, line)
}

// Clear erases the status line.
func (l *Line) Clear() {
	if l.drawn {
		fmt.Fprint(l.W, "\r\033[K")
		l.drawn = false
	}
}

// Bar returns a 24-cell bar filled for done of total.
func Bar(done, total int) string {
	const cells = 24
	filled := 0
	if total > 0 {
		filled = min(cells, cells*done/total)
	}
	return "[" + strings.Repeat("=", filled) + strings.Repeat(" ", cells-filled) + "]"
}

// ETA estimates the time left from the time taken by the ran steps: "--"
// before the first.
func ETA(took time.Duration, ran, left int) string {
	if ran <= 0 {
		return "--"
	}
	return (took / time.Duration(ran) * time.Duration(left)).Round(time.Second).String()
}

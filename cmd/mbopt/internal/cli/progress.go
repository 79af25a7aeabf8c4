package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/mbopt/mbopt/benchname"
	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/manifest"
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

// bar returns a 24-cell bar filled for done of total.
func bar(done, total int) string {
	const cells = 24
	filled := 0
	if total > 0 {
		filled = min(cells, cells*done/total)
	}
	return "[" + strings.Repeat("=", filled) + strings.Repeat(" ", cells-filled) + "]"
}

// eta estimates the time left from the time taken by the ran steps: "--"
// before the first.
func eta(took time.Duration, ran, left int) string {
	if ran <= 0 {
		return "--"
	}
	return (took / time.Duration(ran) * time.Duration(left)).Round(time.Second).String()
}

// CollectProgress renders collect events: a redrawn bar on a terminal, one
// line per finished benchmark otherwise, a line per heartbeat of a process
// still running either way; then the collection's summary, with a note on
// each collect.SlowParents.
type CollectProgress struct {
	Line                   // where it prints
	Now   func() time.Time // the clock
	Start time.Time        // of the command

	runStart time.Time // of the first profile run
	ran      int       // benchmarks finished by a run (not reused, not decided early)
	done     int
	total    int
	counts   map[manifest.Status]int
	reused   int
	current  string
}

// Event is the collect.Config.Progress hook.
func (p *CollectProgress) Event(ev collect.Event) {
	switch ev.Kind {
	case collect.EventBuild:
		// Build failures are reported with their benchmarks' entries.
		p.Draw(fmt.Sprintf("building test binaries %d/%d", ev.Done, ev.Total))
	case collect.EventDiscover:
		p.Draw(fmt.Sprintf("listing sub-benchmarks %d/%d", ev.Done, ev.Total))
	case collect.EventStart:
		if p.runStart.IsZero() {
			p.runStart = p.Now()
		}
		p.total = ev.Total
		p.current = benchname.ID(ev.Package, ev.Name)
		p.Draw(p.bar())
	case collect.EventDiscoverStart:
		// In a log, say what runs before the first heartbeat could.
		if !p.Terminal {
			p.Println(fmt.Sprintf("  finding the sub-benchmarks of %s (a -benchtime 1x run, its setup included)", benchname.ID(ev.Package, ev.Name)))
		}
	case collect.EventRunning:
		// Printed on a terminal and in logs alike: a CI log that stays
		// silent for minutes looks hung.
		p.Println(fmt.Sprintf("  still running after %v (%s): %s", ev.Elapsed.Round(time.Second), ev.Phase, benchname.ID(ev.Package, ev.Name)))
		p.Draw(p.bar())
	case collect.EventFinish:
		p.total, p.done = ev.Total, ev.Done
		if p.counts == nil {
			p.counts = map[manifest.Status]int{}
		}
		e := ev.Entry
		p.counts[e.Status]++
		switch {
		case ev.Reused:
			p.reused++
		case !p.runStart.IsZero():
			p.ran++
		}
		if !p.Terminal || e.Status != manifest.StatusOK {
			status := string(e.Status)
			if ev.Reused {
				status = "reused"
			}
			line := fmt.Sprintf("[%*d/%d] %-12s %6.1fs  %s", len(fmt.Sprint(ev.Total)), ev.Done, ev.Total, status, e.WallSeconds, e.ID)
			if e.Error != "" {
				line += ": " + textutil.FirstLine(e.Error)
			}
			p.Println(line)
		}
		p.Draw(p.bar())
	}
}

// bar returns the progress bar line for the profile phase.
func (p *CollectProgress) bar() string {
	failed := p.done - p.counts[manifest.StatusOK] - p.counts[manifest.StatusSkipped]
	return fmt.Sprintf("%s %d/%d  ok %d  failed %d  ETA %s  %s", bar(p.done, p.total),
		p.done, p.total, p.counts[manifest.StatusOK], failed, eta(p.Now().Sub(p.runStart), p.ran, p.total-p.done), p.current)
}

// Summary prints the counts by status and every problem of m, collected
// into out.
func (p *CollectProgress) Summary(m *manifest.Manifest, out string) {
	elapsed := p.Now().Sub(p.Start).Round(100 * time.Millisecond)
	reused := ""
	if p.reused > 0 {
		reused = fmt.Sprintf(", %d reused from an earlier run", p.reused)
	}
	share := ""
	if sh := m.Shard; sh != nil {
		share = fmt.Sprintf(" (shard %d/%d: %d of the %d benchmarks found)", sh.Index, sh.Count, sh.Benchmarks, sh.Total)
	}
	fmt.Fprintf(p.W, "profiled %s%s in %v%s: %s\n", textutil.Plural(len(m.Benchmarks), "benchmark"), share, elapsed, reused, m.Counts())
	for _, sp := range collect.SlowParents(m) {
		fmt.Fprintf(p.W, "note: %s\n", sp)
	}
	if len(m.Problems()) > 0 {
		m.WriteProblems(p.W)
		fmt.Fprintf(p.W, "details: the manifest and logs in %s\n", out)
	}
}

// CompareProgress renders compare events: a redrawn bar with an ETA on a
// terminal, a line per finished process otherwise.
type CompareProgress struct {
	Line                      // where it prints
	Now      func() time.Time // the clock
	runStart time.Time
	runs     int
}

// Event is the compare.Options.Progress hook.
func (p *CompareProgress) Event(ev compare.Event) {
	switch ev.Kind {
	case compare.EventBuild:
		what := "built"
		if ev.Cached {
			what = "cached"
		}
		if ev.Err != nil {
			p.Println(fmt.Sprintf("build failed (%s) %s: %s", ev.Side, ev.Package, textutil.FirstLine(ev.Err.Error())))
		} else if !p.Terminal {
			p.Println(fmt.Sprintf("[%d/%d] %-6s %s %s", ev.Done, ev.Total, what, ev.Side, ev.Package))
		}
		p.Draw(fmt.Sprintf("building test binaries %d/%d", ev.Done, ev.Total))
	case compare.EventRun:
		if p.runStart.IsZero() {
			p.runStart = p.Now().Add(-ev.Wall)
		}
		p.runs++
		line := fmt.Sprintf("[%d/%d] trial %d run %d %s %s %.2fs", ev.Done, ev.Total, ev.Trial, ev.Run, ev.Side, benchname.ID(ev.Package, ev.Name), ev.Wall.Seconds())
		if ev.Err != nil {
			p.Println(line + ": failed: " + ev.Err.Error())
		} else if !p.Terminal {
			p.Println(line)
		}
		p.Draw(fmt.Sprintf("%s %d/%d  ETA %s  trial %d run %d %s %s", bar(ev.Done, ev.Total), ev.Done, ev.Total, eta(p.Now().Sub(p.runStart), p.runs, ev.Total-ev.Done), ev.Trial, ev.Run, ev.Side, ev.Name))
	case compare.EventStable:
		p.Println(fmt.Sprintf("stable after trial %d: %s (no more runs)", ev.Trial, benchname.ID(ev.Package, ev.Name)))
	}
}

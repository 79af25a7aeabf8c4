package site_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/report/site"
	"github.com/mbopt/mbopt/testkit/need"
)

// chromium returns the path of a headless-capable Chromium. Where none is
// installed the test skips, except in CI (CI=true), where it fails: CI's
// .ci/run installs Debian's chromium.
func chromium(t testing.TB) string {
	t.Helper()
	return need.Tool(t, "the browser test", "chromium", "chromium-browser", "google-chrome", "headless-shell")
}

// browser is a headless Chromium tab that records what must not happen:
// console errors, uncaught exceptions, failed loads and CSP violations
// (log entries of level error), and JavaScript dialogs (alert), which it
// dismisses.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
	dialogs  []string
}

func newBrowser(t testing.TB) *browser {
	t.Helper()
	path := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000),
		chromedp.Flag("allow-file-access-from-files", false))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.problems = append(b.problems, "console error: "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, "exception: "+ev.ExceptionDetails.Text+" "+exceptionText(ev.ExceptionDetails))
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				b.problems = append(b.problems, fmt.Sprintf("log %s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		case *page.EventJavascriptDialogOpening:
			b.dialogs = append(b.dialogs, string(ev.Type)+": "+ev.Message)
			go chromedp.Run(ctx, page.HandleJavaScriptDialog(false))
		}
	})
	require.NoError(t, chromedp.Run(ctx, cdplog.Enable(), runtime.Enable()))
	return b
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}

// check fails t for every problem and dialog recorded so far.
func (b *browser) check(t *testing.T, where string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Errorf("%s: %s", where, p)
	}
	for _, d := range b.dialogs {
		t.Errorf("%s: a dialog opened: %s", where, d)
	}
	b.problems, b.dialogs = nil, nil
}

// open loads a file of the site and waits until its script has drawn it.
func (b *browser) open(t *testing.T, path string) {
	t.Helper()
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	require.NoError(t, chromedp.Run(b.ctx, chromedp.Navigate(u), chromedp.WaitVisible(`html[data-ready]`, chromedp.ByQuery)))
}

// checkInert fails t unless the page, as its script left the DOM, is
// what issue 25 asks of a page that shows names a pull request chose: a
// Content-Security-Policy meta tag that allows only the site's own
// scripts, no inline script, no event-handler attribute and no element
// that loads or embeds something (a name made markup would add one).
func (b *browser) checkInert(t *testing.T, where string) {
	t.Helper()
	var got struct {
		CSP                              string
		Inline, Handlers, Embeds, Frames int
	}
	b.eval(t, `(function(){
		var m = document.querySelector('head meta[http-equiv="Content-Security-Policy"]');
		var all = Array.from(document.querySelectorAll("*"));
		return {
			CSP: m ? m.getAttribute("content") : "",
			Inline: Array.from(document.scripts).filter(function(s){ return !s.src; }).length,
			Handlers: all.filter(function(e){ return Array.from(e.attributes).some(function(a){ return /^on/i.test(a.name); }); }).length,
			Embeds: document.querySelectorAll("img, object, embed, image, foreignObject").length,
			Frames: document.querySelectorAll("iframe, frame").length
		};
	})()`, &got)
	assert.Contains(t, got.CSP, "default-src 'none'; script-src 'self'", "%s: the CSP meta tag", where)
	assert.NotContains(t, got.CSP, "unsafe-inline", where)
	assert.Zero(t, got.Inline, "%s: inline scripts", where)
	assert.Zero(t, got.Handlers, "%s: elements with an event-handler attribute", where)
	assert.Zero(t, got.Embeds, "%s: images or embedded objects", where)
	assert.Zero(t, got.Frames, "%s: frames", where)
}

// eval runs a JavaScript expression and stores its JSON result in out.
func (b *browser) eval(t *testing.T, expr string, out any) {
	t.Helper()
	require.NoError(t, chromedp.Run(b.ctx, chromedp.Evaluate(expr, out)))
}

// hover moves the mouse to the centre of the element selector names (the
// i-th match) and returns the tooltip's text.
func (b *browser) hover(t *testing.T, selector string, i int) string {
	t.Helper()
	var r struct{ X, Y float64 }
	b.eval(t, fmt.Sprintf(`(function(){var e=document.querySelectorAll(%q)[%d]; e.scrollIntoView({block:"center"}); var r=e.getBoundingClientRect(); return {X:r.left+r.width/2, Y:r.top+r.height/2};})()`, selector, i), &r)
	var text string
	require.NoError(t, chromedp.Run(b.ctx,
		chromedp.ActionFunc(func(ctx context.Context) error {
			return input.DispatchMouseEvent(input.MouseMoved, r.X, r.Y).Do(ctx)
		}),
		chromedp.Text(`#tip`, &text, chromedp.ByQuery, chromedp.NodeVisible)))
	return text
}

// screenshot saves a full-page PNG into $MBOPT_SCREENSHOTS when it is set.
func (b *browser) screenshot(t *testing.T, name string) {
	dir := os.Getenv("MBOPT_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	require.NoError(t, chromedp.Run(b.ctx, chromedp.FullScreenshot(&png, 100)))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
}

// linkTargets returns every link's resolved href on the page.
func (b *browser) linkTargets(t *testing.T) []string {
	var hrefs []string
	b.eval(t, `Array.from(document.querySelectorAll("a")).map(function(a){ return a.href.baseVal !== undefined ? new URL(a.getAttribute("href"), document.baseURI).href : a.href; })`, &hrefs)
	return hrefs
}

// checkLinks checks that every file: link names a file of the site and
// every other link is a commit link of the template, with a full hash.
func checkLinks(t *testing.T, hrefs []string, dir, commitURL string, commits []site.Commit) {
	t.Helper()
	prefix, _, _ := strings.Cut(commitURL, "{commit}")
	for _, h := range hrefs {
		u, err := url.Parse(h)
		require.NoError(t, err, h)
		switch u.Scheme {
		case "file":
			assert.FileExists(t, u.Path, "link %s", h)
			assert.True(t, strings.HasPrefix(u.Path, dir), "link %s leaves the site", h)
		case "https":
			hash, ok := strings.CutPrefix(h, prefix)
			assert.True(t, ok, "link %s is not a commit link", h)
			found := false
			for _, c := range commits {
				found = found || c.Hash == hash
			}
			assert.True(t, found, "link %s names no fixture commit", h)
		default:
			t.Errorf("link %s: unexpected scheme", h)
		}
	}
}

const testCommitURL = "https://github.com/example/tsdb/commit/{commit}"

func TestSiteInBrowser(t *testing.T) {
	for _, hostile := range []bool{false, true} {
		t.Run(map[bool]string{false: "fixture history", true: "hostile names"}[hostile], func(t *testing.T) {
			d := fixtureData(t, hostile)
			dir := filepath.Join(t.TempDir(), "site")
			require.NoError(t, site.Write(dir, d, site.Options{CommitURL: testCommitURL}))
			b := newBrowser(t)
			b.open(t, filepath.Join(dir, "index.html"))
			b.check(t, "overview")
			b.checkInert(t, "overview")

			// Every card is there, by name, and the first 20 are drawn with
			// every element: band, line, both threshold paths, one point
			// per commit, one marker per detection.
			type card struct {
				Name, Title, Unit, Settings, Facts     string
				Bands, Lines, Thresholds, Points, Dets int
				Hits, Axes, Rebases                    int
				YLabel                                 string
			}
			var cards []card
			b.eval(t, `Array.from(document.querySelectorAll(".card")).map(function(c){ var q=function(s){return c.querySelectorAll(s).length;}; return {Name: MBOPT.data.series[+c.dataset.k].name, Title:c.querySelector("h3 a").textContent, Unit: MBOPT.data.series[+c.dataset.k].unit, Settings: MBOPT.data.series[+c.dataset.k].settings, Facts: c.querySelector(".facts").textContent, Bands:q("path.band"), Lines:q("path.line"), Thresholds:q("path.threshold"), Points:q("circle.pt"), Dets:q(".det"), Hits:q("rect.hit"), Axes:q(".axes"), Rebases:q("line.rebase"), YLabel: Array.from(c.querySelectorAll(".axes .label")).map(function(l){ return l.textContent; }).join(" | ")}; })`, &cards)
			require.Len(t, cards, len(d.Series))
			byName := map[string]card{}
			for _, c := range cards {
				byName[c.Name+" "+c.Unit+" "+c.Settings] = c
			}
			for _, s := range d.Series {
				c, ok := byName[s.Name+" "+s.Unit+" "+s.Settings]
				if !assert.True(t, ok, "no card named %q", s.Name) {
					continue
				}
				if s.Name == "BenchmarkQuery" {
					// Two series of one name: the titles say which unit.
					assert.Equal(t, "BenchmarkQuery · "+s.Unit, c.Title)
				} else if s.Name == "BenchmarkInsert" {
					assert.Equal(t, "BenchmarkInsert · sec/op · "+s.Settings, c.Title)
				} else {
					assert.Equal(t, s.Name, c.Title)
				}
				assert.Equal(t, 1, c.Bands, "%s band", s.Name)
				assert.Equal(t, 1, c.Lines, "%s line", s.Name)
				assert.Equal(t, 2, c.Thresholds, "%s threshold", s.Name)
				assert.Equal(t, len(s.Points), c.Points, "%s points", s.Name)
				assert.Equal(t, len(s.Points), c.Hits, "%s hover targets", s.Name)
				assert.Equal(t, len(s.Detections), c.Dets, "%s detection markers", s.Name)
				label := s.Unit + " | % vs baseline 0f1e2d3" // allocations: no metric of their own
				if s.Unit == "sec/op" {
					label = "sec/op (metric time) | % vs baseline 0f1e2d3"
				}
				assert.Contains(t, c.YLabel, label, "%s: metric and unit on the axis", s.Name)
				if s.Settings == "count 10" {
					assert.Contains(t, c.Facts, "settings: count 10", "the setting that separates the series")
					continue // one point, against the baseline
				}
				if s.Name == "BenchmarkInsert" {
					assert.Contains(t, c.Facts, "settings: count 5")
				}
				assert.Equal(t, 1, c.Rebases, "%s: where the baseline moved", s.Name)
			}
			var drawn int
			b.eval(t, `MBOPT.drawn`, &drawn)
			assert.Equal(t, min(20, len(d.Series)), drawn)

			// Hover: the tooltip names the commit, value, change, CI and
			// verdict. The query benchmark's third commit is its jump.
			k := -1
			for i, c := range cards {
				if c.Name == "BenchmarkQuery" && strings.Contains(fmt.Sprint(i), "") {
					var unit string
					b.eval(t, fmt.Sprintf(`MBOPT.data.series[%d].unit`, i), &unit)
					if unit == "sec/op" {
						k = i
					}
				}
			}
			require.GreaterOrEqual(t, k, 0)
			tipText := b.hover(t, fmt.Sprintf(`.card:nth-child(%d) rect.hit`, k+1), 2)
			for _, want := range []string{fixtureCommits[2].Commit[:10], "2026-03-03 09:15 UTC", "query: <b>copy</b> every row", "2.725 µs/op (baseline 2.500 µs/op)", "+9.00% vs baseline", "99% CI [+8.40%, +9.60%]", "verdict: definite regression (judged against ±1.00%)", "definite jump +9."} {
				assert.Contains(t, tipText, want)
			}
			assert.Contains(t, b.hover(t, fmt.Sprintf(`.card:nth-child(%d) rect.hit`, k+1), 0), "measured against the earlier baseline 9e8d7c6 (2026-02-01 08:00), carried over")
			var head struct{ Title, Summary string }
			b.eval(t, `({Title: document.getElementById("title").textContent, Summary: document.getElementById("summary").textContent})`, &head)
			assert.Equal(t, "example.com/tsdb: benchmark history", head.Title)
			assert.Contains(t, head.Summary, "The baseline moved: 9e8d7c6 → 0f1e2d3 (2026-02-28 08:00)")
			// The Figure 8/9 view (issue 30 item 5): a detection whose
			// comparison estimated the application impact stands at the
			// estimate, a circle; one without stands apart, a square at the
			// reference impact, which is no estimate. The relevant
			// regression (+6.8%) stands higher than the irrelevant one
			// (reference 2%), and insert, which compare called likely no
			// application impact, near 0, not at its 25% reference impact.
			var marks []struct {
				Name, Shape, Class, Tip string
				Y                       float64
				K                       int
			}
			b.eval(t, `Array.from(document.querySelectorAll("#impact-chart a")).map(function(a, k){ var m=a.querySelector(".impact"); return {Name: a.getAttribute("href"), Shape: m.tagName, Class: m.getAttribute("class"), Y: m.tagName === "rect" ? +m.getAttribute("y") + 5 : +m.getAttribute("cy"), K: k}; })`, &marks)
			pages := site.PageNames(d.Series)
			type mark struct {
				shape, class string
				y            float64
				k            int
			}
			at := map[string][]mark{}
			for i, s := range d.Series {
				for _, m := range marks {
					if m.Name == "series/"+pages[i] {
						at[s.ID+" "+s.Unit+" "+s.Settings] = append(at[s.ID+" "+s.Unit+" "+s.Settings], mark{m.Shape, m.Class, m.Y, m.K})
					}
				}
			}
			query, format, insert := at["example.com/tsdb/query.BenchmarkQuery sec/op "], at["example.com/tsdb/util.BenchmarkFormat sec/op "], at["example.com/tsdb/store.BenchmarkInsert sec/op count 10"]
			require.NotEmpty(t, query)
			require.NotEmpty(t, format)
			require.NotEmpty(t, insert)
			var zero float64
			b.eval(t, `(function(){ var ys = Array.from(document.querySelectorAll("#impact-chart .axes text.tick")).filter(function(t){ return t.textContent === "0.0%"; }).map(function(t){ return +t.getAttribute("y") - 4; }); return ys; })()[0]`, &zero)
			for _, m := range query {
				assert.Equal(t, "circle", m.shape, "an estimated detection")
				assert.Contains(t, m.class, "estimate")
				assert.Less(t, m.y, format[0].y, "the relevant detection is drawn higher (smaller y)")
				tip := b.hover(t, `#impact-chart a`, m.k)
				assert.Contains(t, tip, "estimated application impact +6.80% [+6.10% … +7.40%]")
			}
			for _, m := range format {
				assert.Equal(t, "rect", m.shape, "a detection without an estimate is drawn apart")
				assert.Contains(t, m.class, "reference")
				tip := b.hover(t, `#impact-chart a`, m.k)
				assert.Contains(t, tip, "reference impact 2.0% (not an estimate)")
			}
			for _, m := range insert {
				assert.Equal(t, "circle", m.shape)
				assert.InDelta(t, zero, m.y, 3, "likely no application impact: at its estimate, near 0, not at its 25% reference impact")
				assert.Contains(t, b.hover(t, `#impact-chart a`, m.k), "likely no application impact")
			}
			var appPoints int
			b.eval(t, `document.querySelectorAll("#app-chart circle.pt").length`, &appPoints)
			assert.Equal(t, 3, appPoints)
			// The cards say the estimate and the reference impact apart.
			for _, c := range cards {
				if c.Name == "BenchmarkQuery" && c.Unit == "sec/op" {
					assert.Contains(t, c.Facts, "at c3d4e5f607: estimated application impact +6.80% [+6.10% … +7.40%]")
					assert.Contains(t, c.Facts, "reference impact 40.0% (not an estimate)")
				}
			}
			assert.Empty(t, clippedLabels(t, b), "axis titles drawn beyond their chart")

			// Filters: by name (typed), then by package (chosen).
			var shown string
			require.NoError(t, chromedp.Run(b.ctx, chromedp.SendKeys(`#filter-name`, "insert", chromedp.ByQuery), chromedp.Text(`#shown`, &shown, chromedp.ByQuery)))
			assert.Equal(t, fmt.Sprintf("showing 2 of %d series", len(d.Series)), shown, "BenchmarkInsert with count 5 and with count 10")
			setFilter := func(name, pkg string) string {
				var out string
				b.eval(t, fmt.Sprintf(`(function(){ var n=document.getElementById("filter-name"), p=document.getElementById("filter-package"); n.value=%q; p.value=%q; n.dispatchEvent(new Event("input")); p.dispatchEvent(new Event("change")); return document.getElementById("shown").textContent; })()`, name, pkg), &out)
				return out
			}
			assert.Equal(t, fmt.Sprintf("showing 2 of %d series", len(d.Series)), setFilter("", "example.com/tsdb/query"))
			assert.Equal(t, fmt.Sprintf("showing %d of %d series", len(d.Series), len(d.Series)), setFilter("", ""))
			if hostile {
				assert.Equal(t, fmt.Sprintf("showing 1 of %d series", len(d.Series)), setFilter("<script>", ""))
				setFilter("", "")
			}

			checkLinks(t, b.linkTargets(t), dir, testCommitURL, d.Commits)
			var scripts []string
			b.eval(t, `Array.from(document.scripts).map(function(s){ return s.getAttribute("src") || "INLINE"; })`, &scripts)
			for _, s := range scripts {
				assert.True(t, strings.HasPrefix(s, "assets/") || strings.HasPrefix(s, "data/"), "script %q", s)
			}
			if hostile {
				b.screenshot(t, "overview-hostile.png")
			} else {
				b.screenshot(t, "overview.png")
			}
			b.checkInert(t, "overview after hovering and filtering")
			b.check(t, "overview after hovering and filtering")

			// Every series page: the title is the name, a row per commit,
			// the chart drawn, the links resolve.
			for i, s := range d.Series {
				b.open(t, filepath.Join(dir, "series", pages[i]))
				var got struct {
					Title       string
					Rows, Pts   int
					Detections  int
					DocTitle    string
					Thresholds  int
					HasBackLink bool
				}
				b.eval(t, `({Title: document.getElementById("title").textContent, Rows: document.querySelectorAll("#points tbody tr").length, Pts: document.querySelectorAll("#chart circle.pt").length, Detections: document.querySelectorAll("#chart .det").length, DocTitle: document.title, Thresholds: document.querySelectorAll("#chart path.threshold").length, HasBackLink: !!document.querySelector("#back[href='../index.html']")})`, &got)
				assert.Equal(t, s.Name, got.Title)
				assert.Equal(t, len(s.Points), got.Rows, s.Name)
				assert.Equal(t, len(s.Points), got.Pts, s.Name)
				assert.Equal(t, len(s.Detections), got.Detections, s.Name)
				assert.Equal(t, 2, got.Thresholds, s.Name)
				assert.True(t, strings.HasPrefix(got.DocTitle, s.ID+" ("+s.Unit+")"), "document title %q", got.DocTitle)
				assert.True(t, got.HasBackLink)
				checkLinks(t, b.linkTargets(t), dir, testCommitURL, d.Commits)
				if s.Name == "BenchmarkQuery" && s.Unit == "sec/op" {
					tip := b.hover(t, `#chart rect.hit`, 2)
					assert.Contains(t, tip, "verdict: definite regression")
					var facts string
					b.eval(t, `document.getElementById("facts").textContent`, &facts)
					assert.Contains(t, facts, "verdicts judged against±1.00% (#0–2): each verdict stays as its comparison took it")
					assert.Contains(t, facts, "baseline moved9e8d7c6 → 0f1e2d3 (2026-02-28 08:00)")
					var dagger string
					b.eval(t, `document.querySelector("#points tbody tr:last-child td:nth-child(7)").textContent`, &dagger)
					assert.Equal(t, "+0.20% †", dagger, "the carried-over point is marked")
					var est string
					b.eval(t, `document.querySelector("#points tbody tr:first-child td:nth-child(11)").textContent`, &est)
					assert.Equal(t, "+6.80% [+6.10% … +7.40%]", est, "the estimate of the latest commit, in the table")
					assert.Contains(t, tip, "estimated application impact +6.80% [+6.10% … +7.40%]; culprits example.com/tsdb/query.(*Plan).copyRows, example.com/tsdb/query.scan")
					if !hostile {
						b.screenshot(t, "series.png")
					}
				}
				if strings.Contains(s.Name, "<script>") {
					b.screenshot(t, "series-hostile.png")
				}
				b.checkInert(t, "series page "+pages[i])
				b.check(t, "series page "+pages[i])
			}
		})
	}
}

// BenchmarkOverview500x200 measures the first render of the overview of
// 500 series × 200 commits in headless Chromium: from the start of the
// navigation to the end of the page's drawing (20 charts and the Figure
// 8/9 view), as the page's performance.now() tells it (ms/render), the
// part of it the page's script took (ms-script), and the bytes the first
// load reads.
func BenchmarkOverview500x200(b *testing.B) {
	d := syntheticData(b, 500, 200)
	dir := filepath.Join(b.TempDir(), "site")
	if err := site.Write(dir, d, site.Options{CommitURL: testCommitURL}); err != nil {
		b.Fatal(err)
	}
	bytes := 0
	for _, n := range firstLoad {
		fi, err := os.Stat(filepath.Join(dir, n))
		if err != nil {
			b.Fatal(err)
		}
		bytes += int(fi.Size())
	}
	br := newBrowser(b)
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "index.html"))}).String()
	total, script := 0.0, 0.0
	for b.Loop() {
		var ms, js float64
		var drawn int
		if err := chromedp.Run(br.ctx, chromedp.Navigate(u), chromedp.WaitVisible(`html[data-ready]`, chromedp.ByQuery),
			chromedp.Evaluate(`MBOPT.renderMs`, &ms), chromedp.Evaluate(`MBOPT.timing.figure + MBOPT.timing.cards + MBOPT.timing.charts`, &js),
			chromedp.Evaluate(`MBOPT.drawn`, &drawn)); err != nil {
			b.Fatal(err)
		}
		if drawn != 20 {
			b.Fatalf("%d charts drawn at load, want 20", drawn)
		}
		total += ms
		script += js
	}
	b.ReportMetric(total/float64(b.N), "ms/render")
	b.ReportMetric(script/float64(b.N), "ms-script")
	b.ReportMetric(float64(bytes)/1e6, "MB-first-load")
	if len(br.problems) > 0 || len(br.dialogs) > 0 {
		b.Fatalf("problems: %v, dialogs: %v", br.problems, br.dialogs)
	}
}

// TestSiteLazyInBrowser checks the lazy half of the overview: 20 charts
// at load, the others, and their data files, once they scroll into view;
// and a series page whose data lies in a later chunk.
func TestSiteLazyInBrowser(t *testing.T) {
	d := syntheticData(t, 65, 30)
	dir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, site.Write(dir, d, site.Options{CommitURL: testCommitURL}))
	b := newBrowser(t)
	b.open(t, filepath.Join(dir, "index.html"))
	var state struct {
		Drawn, Charts, Chunks int
	}
	probe := `({Drawn: MBOPT.drawn, Charts: document.querySelectorAll(".card .chart svg").length, Chunks: Object.keys(MBOPT.chunks).length})`
	b.eval(t, probe, &state)
	assert.Equal(t, 20, state.Drawn)
	assert.Equal(t, 20, state.Charts)
	assert.Equal(t, 1, state.Chunks, "only the first data file at load")
	// Scroll to the last card: its chunk loads and its chart is drawn.
	require.NoError(t, chromedp.Run(b.ctx,
		chromedp.Evaluate(`document.querySelector(".card:last-child").scrollIntoView()`, nil),
		chromedp.WaitVisible(`.card:last-child .chart svg`, chromedp.ByQuery)))
	b.eval(t, probe, &state)
	assert.Greater(t, state.Drawn, 20)
	assert.Less(t, state.Drawn, 65, "not every chart: only those near the view")
	assert.Equal(t, state.Drawn, state.Charts)
	assert.GreaterOrEqual(t, state.Chunks, 2)
	b.check(t, "overview after scrolling")

	order := site.Order(d.Series)
	last := order[len(order)-1]
	b.open(t, filepath.Join(dir, "series", site.PageNames(d.Series)[last]))
	var rows int
	b.eval(t, `document.querySelectorAll("#points tbody tr").length`, &rows)
	assert.Equal(t, len(d.Series[last].Points), rows)
	b.check(t, "series page of the last chunk")
}

// clippedLabels returns the axis titles of the page that reach beyond
// their chart.
func clippedLabels(t *testing.T, b *browser) []string {
	var clipped []string
	b.eval(t, `Array.from(document.querySelectorAll(".axes .label")).filter(function(l){ var r = l.getBoundingClientRect(), p = l.closest("svg").getBoundingClientRect(); return r.height > 0 && (r.top < p.top - 0.5 || r.bottom > p.bottom + 0.5 || r.left < p.left - 0.5); }).map(function(l){ return l.textContent; })`, &clipped)
	return clipped
}

// overlappedLabels returns the axis titles on the page that a tick label
// of their chart is drawn over.
func overlappedLabels(t *testing.T, b *browser) []string {
	var over []string
	b.eval(t, `Array.from(document.querySelectorAll(".axes .label")).filter(function(l){ var r = l.getBoundingClientRect(); return r.height > 0 && Array.from(l.closest("svg").querySelectorAll(".axes .tick")).some(function(k){ var q = k.getBoundingClientRect(); return q.left < r.right - 0.5 && r.left < q.right - 0.5 && q.top < r.bottom - 0.5 && r.top < q.bottom - 0.5; }); }).map(function(l){ return l.textContent; })`, &over)
	return over
}

// TestAxisTitlesFit: a rotated axis title longer than its axis is drawn
// smaller, not cut off (issue 30 item 5: "…reference profil"): a series
// in instructions/op names its metric, and the application measured on
// both versions has a long name and unit.
func TestAxisTitlesFit(t *testing.T) {
	d := syntheticData(t, 3, 12)
	d.Series[0].Unit, d.Series[0].Metric = "instructions/op", "instructions"
	d.Series[1].Unit = "allocated-bytes-per-operation/op"
	// A whole program's count, as --confirm --app-cmd measures it: nine
	// digits, which drew over the axis title (a held-out check of issue
	// 30: "190000000" across "measured").
	app := &site.Application{Name: "benchmark example.com/big/cmd/load.BenchmarkEndToEndQueries", Unit: "instructions/op", Source: "confirmation"}
	for c := range d.Commits {
		v := 1.4e8 * (1 + 0.01*float64(c))
		app.Points = append(app.Points, site.AppPoint{Commit: c, Value: v, CI: benchstats.Interval{Low: v * 0.99, High: v * 1.01}})
	}
	// The application's own detections: a rise at the second commit, a
	// fall at the last, which is an improvement, drawn green.
	app.Points[1].Detected, app.Points[1].Definite = true, true
	last := &app.Points[len(app.Points)-1]
	last.Value, last.Detected, last.Definite = 1.3e8, true, true
	d.Application = app
	dir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, site.Write(dir, d, site.Options{}))
	b := newBrowser(t)
	b.open(t, filepath.Join(dir, "index.html"))
	b.check(t, "overview")
	var appDets []string
	b.eval(t, `Array.from(document.querySelectorAll("#app-chart .det")).map(function(m){ return m.getAttribute("class"); })`, &appDets)
	assert.Equal(t, []string{"det definite jump", "det definite jump improvement"}, appDets, "the application's rise red, its fall green")
	assert.Empty(t, clippedLabels(t, b))
	assert.Empty(t, overlappedLabels(t, b), "tick labels drawn over an axis title")
	var ticks []string
	b.eval(t, `Array.from(document.querySelectorAll("#app-chart .axes .tick")).map(function(l){ return l.textContent; })`, &ticks)
	assert.Contains(t, ticks, "140M", "the application's ticks are compact")
	var labels []string
	b.eval(t, `Array.from(document.querySelectorAll("#app-chart .axes .label")).map(function(l){ return l.textContent; })`, &labels)
	assert.Contains(t, labels, "instructions/op")
	// A detection's colour follows the legend: an improvement is green
	// (class improvement), not red.
	want := 0
	for _, s := range d.Series {
		for _, det := range s.Detections {
			if det.Change < 0 {
				want++
			}
		}
	}
	require.NotZero(t, want, "the fixture has an improvement")
	var got int
	b.eval(t, `document.querySelectorAll(".card .det.improvement").length`, &got)
	assert.Equal(t, want, got)
	b.screenshot(t, "axes.png")
	// And on a series page, in its list of detections too (a definite
	// improvement was listed red, as a regression, on a held-out
	// module's page).
	for i, name := range site.PageNames(d.Series) {
		want := 0
		for _, det := range d.Series[i].Detections {
			if det.Change < 0 {
				want++
			}
		}
		if want == 0 {
			continue
		}
		b.open(t, filepath.Join(dir, "series", name))
		var listed int
		b.eval(t, `document.querySelectorAll("#detections li.improvement").length`, &listed)
		assert.Equal(t, want, listed, "%s: the improvements listed as such", name)
		// Each improvement's colour, and a definite regression's (a
		// probe item).
		var colours []string
		b.eval(t, `(function(){ var ul = document.getElementById("detections"), p = document.createElement("li"); p.className = "definite"; ul.appendChild(p); var red = getComputedStyle(p).color; ul.removeChild(p); return [red].concat(Array.from(ul.querySelectorAll("li.improvement")).map(function(li){ return getComputedStyle(li).color; })); })()`, &colours)
		require.Len(t, colours, want+1)
		for _, c := range colours[1:] {
			assert.NotEqual(t, colours[0], c, "%s: an improvement is listed in a regression's red", name)
		}
		break
	}
}

// TestLoneApplicationInterval: the application measured at one commit
// only (a first confirmation) shows its interval as a bar: a band of one
// point has no width, and the held-out check's measurement, +1.3% with an
// interval 17 points wide, looked exact.
func TestLoneApplicationInterval(t *testing.T) {
	d := syntheticData(t, 3, 12)
	v := 1.4e8
	d.Application = &site.Application{Name: "command ./ledgerd -n 300", Unit: "instructions", Source: "confirmation",
		Points: []site.AppPoint{{Commit: len(d.Commits) - 1, Value: v, CI: benchstats.Interval{Low: v * 0.93, High: v * 1.1}}}}
	dir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, site.Write(dir, d, site.Options{}))
	b := newBrowser(t)
	b.open(t, filepath.Join(dir, "index.html"))
	b.check(t, "overview")
	var heights []float64
	b.eval(t, `Array.from(document.querySelectorAll("#app-chart .ci-bar")).map(function(l){ return l.getBoundingClientRect().height; })`, &heights)
	require.Len(t, heights, 1, "one bar")
	assert.Greater(t, heights[0], 20.0, "as tall as its interval")
}

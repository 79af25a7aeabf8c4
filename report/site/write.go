package site

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"golang.org/x/perf/benchfmt"

	"github.com/mbopt/mbopt/benchname"
	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/detect"
	"github.com/mbopt/mbopt/internal/atomicfile"
)

//go:embed assets
var assets embed.FS

//go:embed templates
var templates embed.FS

var pages = template.Must(template.ParseFS(templates, "templates/*.html"))

// ChunkSize is the number of series per data file: the overview loads
// the first file with the page and the others as their charts scroll
// into view.
const ChunkSize = 20

// Marker is the file that marks a directory as a site [Write] wrote, so
// that a later Write may replace it.
const Marker = ".mbopt-site"

// ForeignError is returned by [Write] for a directory that holds files
// and is not a site Write wrote, or for a path that is not a directory.
type ForeignError struct {
	// Dir is the directory.
	Dir string
	// NotDir is set when Dir is a file, not a directory.
	NotDir bool
}

// Error says what is in the way and what to do.
func (e *ForeignError) Error() string {
	if e.NotDir {
		return fmt.Sprintf("%s is a file, not a directory; give a new or empty directory for the site", e.Dir)
	}
	return fmt.Sprintf("%s is not empty and is not a site mbopt wrote (no %s in it); give a new or empty directory, or remove it first", e.Dir, Marker)
}

// Write writes the site of d into dir: index.html (the overview), one
// page per series under series/, the data as classic scripts under data/,
// and the embedded scripts and styles under assets/. The site is written
// into a new sibling directory that then takes dir's place
// (atomicfile.ReplaceDir): a reader sees the old site or the new one.
// dir may be missing, empty or an earlier site (it holds [Marker]);
// anything else is a *[ForeignError] unless opt.Force, and a file is one
// even then.
//
// The overview lists the series by their most recent detection (the
// latest commit with one first, then more definite detections, then
// larger impact), series without detections after them by impact; ties
// by id, unit, machine and settings. Data files hold [ChunkSize] series
// each in that order.
func Write(dir string, d *Data, opt Options) error {
	if err := d.Check(); err != nil {
		return err
	}
	if err := CheckCommitURL(opt.CommitURL); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	if err := checkReplaceable(dir); err != nil {
		if fe, ok := err.(*ForeignError); !ok || !opt.Force || fe.NotDir {
			return err
		}
	}
	files, err := Files(d, opt)
	if err != nil {
		return err
	}
	return atomicfile.ReplaceDir(dir, func(tmp string) error {
		for _, f := range files {
			p := filepath.Join(tmp, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
}

func checkReplaceable(dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return &ForeignError{Dir: dir, NotDir: true}
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0 {
		return nil
	}
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		return &ForeignError{Dir: dir}
	}
	return nil
}

// A File is one file of a site.
type File struct {
	// Name is the slash-separated path inside the site.
	Name string
	// Data is the content.
	Data []byte
}

// Files returns the files of d's site, as [Write] writes them, sorted by
// name. d must be valid ([Data.Check]).
func Files(d *Data, opt Options) ([]File, error) {
	order := Order(d.Series)
	names := PageNames(d.Series)
	var files []File
	add := func(name string, data []byte) { files = append(files, File{name, data}) }
	add(Marker, []byte("an mbopt history site: mbopt history --html replaces this directory as a whole\n"))
	err := fs.WalkDir(assets, "assets", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := assets.ReadFile(p)
		add(p, b)
		return err
	})
	if err != nil {
		return nil, err
	}

	idx := jsIndex{Title: d.Title, Metric: d.Metric, Baseline: jsCommitOf(d.Baseline), CommitURL: opt.CommitURL, ChunkSize: ChunkSize, Series: []jsSummary{}}
	for _, c := range d.Commits {
		idx.Commits.Hash = append(idx.Commits.Hash, c.Hash)
		idx.Commits.Date = append(idx.Commits.Date, c.Time.UTC().Format(dateLayout))
		idx.Commits.Subject = append(idx.Commits.Subject, c.Subject)
	}
	if a := d.Application; a != nil {
		ja := &jsApp{Name: a.Name, Unit: a.Unit, Source: a.Source}
		for _, p := range a.Points {
			ja.C = append(ja.C, p.Commit)
			ja.V = append(ja.V, num(p.Value))
			ja.Lo = append(ja.Lo, num(p.CI.Low))
			ja.Hi = append(ja.Hi, num(p.CI.High))
			if p.Detected {
				ja.Det = append(ja.Det, [3]any{p.Commit, string(cmp.Or(p.Kind, detect.Jump)), bit(p.Definite)})
			}
		}
		idx.App = ja
	}
	against := map[string]int{} // a bridge's baseline → its index in idx.Bases, +1
	for _, b := range d.Bridges {
		idx.Bridges = append(idx.Bridges, [2]jsCommit{jsCommitOf(b.From), jsCommitOf(b.To)})
		for _, c := range []Commit{b.From, b.To} {
			if _, ok := against[c.Hash]; !ok && c.Hash != d.Baseline.Hash {
				idx.Bases = append(idx.Bases, jsCommitOf(c))
				against[c.Hash] = len(idx.Bases)
			}
		}
	}
	var chunks [][]jsSeries
	for k, i := range order {
		s := d.Series[i]
		sum := jsSummary{ID: s.ID, Pkg: s.Package, Name: s.Name, Unit: s.Unit, Metric: s.Metric, Machine: s.Machine, Settings: s.Settings,
			Page: "series/" + names[i], N: len(s.Points), Det: [][4]any{}}
		sum.App = s.Application
		sum.HigherBetter = benchfmt.UnitMetadataMap(nil).GetBetter(s.Unit) > 0
		if im := s.Impact; im != nil {
			h := pct(im.Reference)
			sum.Impact = &h
		}
		if j, ok := latestEstimate(s); ok {
			p := s.Points[j]
			sum.Est = []any{pct(p.App.Change), pct(p.App.CI.Low), pct(p.App.CI.High), bit(p.App.NoImpact), p.Commit}
		}
		if n := len(s.Points); n > 0 {
			sum.Last = pct(s.Points[n-1].Change)
			sum.LastCommit = s.Points[n-1].Commit
		}
		estimated := false
		for _, det := range s.Detections {
			p := s.Points[det.Index]
			sum.Det = append(sum.Det, [4]any{p.Commit, string(det.Kind), bit(det.Definite), pct(det.Change)})
			var e any
			if p.App != nil {
				e, estimated = []any{pct(p.App.Change), pct(p.App.CI.Low), pct(p.App.CI.High), bit(p.App.NoImpact)}, true
			}
			sum.DetEst = append(sum.DetEst, e)
		}
		if !estimated {
			sum.DetEst = nil
		}
		idx.Series = append(idx.Series, sum)
		if k%ChunkSize == 0 {
			chunks = append(chunks, nil)
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], jsSeriesOf(s, against))
	}
	if len(chunks) == 0 {
		chunks = append(chunks, []jsSeries{}) // index.html loads chunk 0
	}
	b, err := script("MBOPT.index", -1, idx)
	if err != nil {
		return nil, err
	}
	add("data/index.js", b)
	for c, ch := range chunks {
		b, err := script("MBOPT.chunk", c, ch)
		if err != nil {
			return nil, err
		}
		add(chunkName(c), b)
	}

	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, "index.html", page{Title: d.Title, Chunk: chunkName(0)}); err != nil {
		return nil, err
	}
	add("index.html", slices.Clone(buf.Bytes()))
	for k, i := range order {
		s := d.Series[i]
		buf.Reset()
		err := pages.ExecuteTemplate(&buf, "series.html", page{Title: d.Title, Name: s.ID + " (" + s.Unit + ")",
			Root: "../", Chunk: chunkName(k / ChunkSize), Index: k})
		if err != nil {
			return nil, err
		}
		add("series/"+names[i], slices.Clone(buf.Bytes()))
	}
	slices.SortFunc(files, func(a, b File) int { return cmp.Compare(a.Name, b.Name) })
	return files, nil
}

// page is what a page's template shows: the site's Title; a series page's
// Name and Index; the path from the page to the site's root, Root; Chunk,
// the data chunk with the page's series (the first for the overview).
type page struct {
	Title, Name, Root, Chunk string
	Index                    int
}

func chunkName(c int) string { return fmt.Sprintf("data/chunk-%03d.js", c) }

// script returns the classic script that calls fn with v as a JSON
// literal (and first the chunk number c when c ≥ 0). encoding/json
// escapes <, >, &, U+2028 and U+2029, so no string in v can end the
// script or the literal.
func script(fn string, c int, v any) ([]byte, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	var b bytes.Buffer
	b.WriteString("\"use strict\";\n")
	b.WriteString(fn)
	b.WriteByte('(')
	if c >= 0 {
		b.WriteString(strconv.Itoa(c))
		b.WriteByte(',')
	}
	b.Write(js)
	b.WriteString(");\n")
	return b.Bytes(), nil
}

// dateLayout is how the pages show a commit time (UTC).
const dateLayout = "2006-01-02 15:04"

// Order returns the indexes of series in the overview's default order
// (see [Write]).
func Order(series []Series) []int {
	type key struct {
		latest, definite int
		impact           float64
	}
	keys := make([]key, len(series))
	for i, s := range series {
		k := key{latest: -1, impact: -1}
		for _, det := range s.Detections {
			k.latest = max(k.latest, s.Points[det.Index].Commit)
			k.definite += bit(det.Definite)
		}
		k.impact = height(s)
		keys[i] = k
	}
	order := make([]int, len(series))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ka, kb := keys[a], keys[b]
		if c := cmp.Compare(kb.latest, ka.latest); c != 0 {
			return c
		}
		if c := cmp.Compare(kb.definite, ka.definite); c != 0 {
			return c
		}
		if c := cmp.Compare(kb.impact, ka.impact); c != 0 {
			return c
		}
		sa, sb := series[a], series[b]
		return cmp.Or(cmp.Compare(sa.ID, sb.ID), cmp.Compare(sa.Unit, sb.Unit), cmp.Compare(sa.Machine, sb.Machine), cmp.Compare(sa.Settings, sb.Settings))
	})
	return order
}

// latestEstimate returns the index of the last point of s with an
// estimated application impact.
func latestEstimate(s Series) (int, bool) {
	for j := len(s.Points) - 1; j >= 0; j-- {
		if s.Points[j].App != nil {
			return j, true
		}
	}
	return 0, false
}

// height is the impact by which the overview orders s: the size of its
// latest estimated application impact, else its reference impact, else
// -1 (unknown).
func height(s Series) float64 {
	if j, ok := latestEstimate(s); ok {
		return math.Abs(s.Points[j].App.Change)
	}
	if s.Impact != nil {
		return s.Impact.Reference
	}
	return -1
}

// nameBytes bounds the readable part of a page's file name.
const nameBytes = 80

// PageNames returns the file name of each series' page (inside series/):
// its id and unit made a file name of at most 80 bytes by
// benchname.FileName (ASCII letters, digits and "-_.=+," only, so no
// separator and no "..", not starting with "." or "-"), then "-" and 8 hex
// digits of the SHA-256 of id, unit, machine and settings
// (benchname.UniqueFileName), and ".html". Two series that still share a
// name (a hash collision) get "-2", "-3" in the order given.
func PageNames(series []Series) []string {
	names := make([]string, len(series))
	used := map[string]bool{}
	for i, s := range series {
		base := benchname.UniqueFileName(s.ID+"_"+s.Unit, s.ID+"\x00"+s.Unit+"\x00"+s.Machine+"\x00"+s.Settings, nameBytes)
		name := base + ".html"
		for n := 2; used[name]; n++ {
			name = fmt.Sprintf("%s-%d.html", base, n)
		}
		used[name] = true
		names[i] = name
	}
	return names
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// num is a number written with 6 significant digits.
type num float64

// MarshalJSON implements json.Marshaler.
func (n num) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(n), 'g', 6, 64), nil
}

// pct is a relative change written in percent with 3 decimals.
type pct float64

// MarshalJSON implements json.Marshaler.
func (p pct) MarshalJSON() ([]byte, error) {
	v := math.Round(float64(p)*1e5) / 1e3
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.AppendFloat(nil, v, 'f', -1, 64), nil
}

// The JSON the scripts read; short names keep 500 series × 200 commits
// small (docs: the page weight).
type (
	jsIndex struct {
		Title     string      `json:"title"`
		Metric    string      `json:"metric"`
		Baseline  jsCommit    `json:"baseline"`
		Commits   jsCommits   `json:"commits"`
		CommitURL string      `json:"commitURL"`
		ChunkSize int         `json:"chunkSize"`
		Series    []jsSummary `json:"series"`
		App       *jsApp      `json:"app,omitempty"`
		// Bridges are [from, to] baselines; Bases the baselines other
		// than Baseline that a point's "ag" indexes (from 1).
		Bridges [][2]jsCommit `json:"bridges,omitempty"`
		Bases   []jsCommit    `json:"bases,omitempty"`
	}
	jsCommit struct {
		Hash    string `json:"hash"`
		Date    string `json:"date"`
		Subject string `json:"subject"`
	}
	jsCommits struct {
		Hash    []string `json:"hash"`
		Date    []string `json:"date"`
		Subject []string `json:"subject"`
	}
	jsSummary struct {
		ID         string   `json:"id"`
		Pkg        string   `json:"pkg"`
		Name       string   `json:"name"`
		Unit       string   `json:"unit"`
		Metric     string   `json:"metric,omitempty"`
		Machine    string   `json:"machine"`
		Settings   string   `json:"settings"`
		Page       string   `json:"page"`
		Impact     *pct     `json:"impact,omitempty"` // the reference impact: no estimate
		N          int      `json:"n"`
		Last       pct      `json:"last"`
		LastCommit int      `json:"lastCommit"`
		Det        [][4]any `json:"det"` // commit, kind, definite, change
		// DetEst is, per detection, null or its point's estimated
		// application impact: change, low, high, likely none; omitted
		// when no detection has one.
		DetEst []any `json:"de,omitempty"`
		// Est is the latest estimated application impact: change, low,
		// high, likely none, commit.
		Est          []any `json:"est,omitempty"`
		App          bool  `json:"app,omitempty"`
		HigherBetter bool  `json:"hb,omitempty"` // the unit's higher values are better (MB/s)
	}
	jsSeries struct {
		C       []int    `json:"c"`
		V       []pct    `json:"v"`
		Lo      []pct    `json:"lo"`
		Hi      []pct    `json:"hi"`
		Th      []pct    `json:"th"`
		Verdict string   `json:"vd"` // one letter a point: u, i, r (potential), I, R (definite)
		VTh     []pct    `json:"vt,omitempty"`
		Base    []num    `json:"b,omitempty"`
		Head    []num    `json:"h,omitempty"`
		Against []int    `json:"ag,omitempty"` // per point: 0, the baseline, or 1 + an index of Bases
		Det     [][6]any `json:"d"`            // point, kind, definite, change, threshold, window
		Init    pct      `json:"init"`
		Source  string   `json:"src"`
		// AppEst is, per point, null or its estimated application impact:
		// change, low, high, likely none, basis, culprits; omitted when no
		// point has one.
		AppEst []any `json:"ae,omitempty"`
	}
	jsApp struct {
		Name   string   `json:"name"`
		Unit   string   `json:"unit"`
		Source string   `json:"source"`
		C      []int    `json:"c"`
		V      []num    `json:"v"`
		Lo     []num    `json:"lo"`
		Hi     []num    `json:"hi"`
		Det    [][3]any `json:"det,omitempty"` // commit, kind, definite
	}
)

func jsCommitOf(c Commit) jsCommit {
	return jsCommit{Hash: c.Hash, Date: c.Time.UTC().Format(dateLayout), Subject: c.Subject}
}

var verdictLetters = map[benchstats.Verdict]byte{
	benchstats.Unchanged:            'u',
	benchstats.PotentialImprovement: 'i',
	benchstats.PotentialRegression:  'r',
	benchstats.DefiniteImprovement:  'I',
	benchstats.DefiniteRegression:   'R',
}

func jsSeriesOf(s Series, against map[string]int) jsSeries {
	js := jsSeries{Init: pct(s.InitialThreshold), Source: s.ThresholdSource, Det: [][6]any{}}
	known, judged := false, false
	verdicts := make([]byte, len(s.Points))
	for i, p := range s.Points {
		js.C = append(js.C, p.Commit)
		js.V = append(js.V, pct(p.Change))
		js.Lo = append(js.Lo, pct(p.CI.Low))
		js.Hi = append(js.Hi, pct(p.CI.High))
		js.Th = append(js.Th, pct(p.Threshold))
		verdicts[i] = cmp.Or(verdictLetters[p.Verdict], 'u')
		known = known || p.Base != 0 || p.Head != 0
		judged = judged || p.VerdictThreshold != 0
	}
	if judged {
		for _, p := range s.Points {
			js.VTh = append(js.VTh, pct(p.VerdictThreshold))
		}
	}
	js.Verdict = string(verdicts)
	if known {
		for _, p := range s.Points {
			js.Base = append(js.Base, num(p.Base))
			js.Head = append(js.Head, num(p.Head))
		}
	}
	if slices.ContainsFunc(s.Points, func(p Point) bool { return p.Against != "" }) {
		for _, p := range s.Points {
			js.Against = append(js.Against, against[p.Against])
		}
	}
	for _, det := range s.Detections {
		js.Det = append(js.Det, [6]any{det.Index, string(det.Kind), bit(det.Definite), pct(det.Change), pct(det.Threshold), det.Window})
	}
	if _, ok := latestEstimate(s); ok {
		for _, p := range s.Points {
			var e any
			if a := p.App; a != nil {
				e = []any{pct(a.Change), pct(a.CI.Low), pct(a.CI.High), bit(a.NoImpact), a.Basis, a.Culprits}
			}
			js.AppEst = append(js.AppEst, e)
		}
	}
	return js
}

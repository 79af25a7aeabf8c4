package site

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
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

// Marker is the manifest of a site [Write] wrote: after a heading line,
// the name of every file of the site, one a line. The next Write replaces
// and removes only the files it lists and leaves every other file in the
// directory alone (a CNAME, the history database, plots).
const Marker = ".mbopt-site"

// markerHeading is the first line of [Marker].
const markerHeading = "an mbopt history site: mbopt history --html writes the files listed below, and replaces or removes only those"

// legacyMarker begins the Marker of the sites mbopt wrote before the
// manifest, which replaced the whole directory: such a site's files are
// those under its own names (see legacyFile).
const legacyMarker = "an mbopt history site: mbopt history --html replaces this directory as a whole"

// ForeignError is returned by [Write] for a path that is not a directory,
// or for a file in the directory that the site would overwrite and that no
// earlier site wrote (it is not in [Marker]'s list).
type ForeignError struct {
	// Dir is the directory.
	Dir string
	// NotDir is set when Dir is a file, not a directory.
	NotDir bool
	// File is the file in the way, relative to Dir.
	File string
}

// Error says what is in the way and what to do.
func (e *ForeignError) Error() string {
	if e.NotDir {
		return fmt.Sprintf("%s is a file, not a directory; give a new or empty directory for the site", e.Dir)
	}
	return fmt.Sprintf("%s holds %s, which the site would overwrite and no earlier mbopt site wrote (%s does not list it); move it away, or give another directory", e.Dir, e.File, Marker)
}

// Write writes the site of d into dir: index.html (the overview), one
// page per series under series/, the data as classic scripts under data/,
// the embedded scripts and styles under assets/, and [Marker], the list of
// them. dir is created when missing. Write replaces the files an earlier
// site listed in Marker and removes those of them the new site has not,
// and leaves every other file in dir alone: a file the site would
// overwrite that the earlier site did not write is a *[ForeignError]
// (unless opt.Force), and so is a dir that is a file. Each file is written
// atomically (atomicfile.WriteFileIn), the data before the pages that read
// them; the list is written first with the names of both sites, so that
// an interrupted Write leaves a directory the next one can replace. Every
// path stays inside dir (os.Root): a symbolic link in it leads nowhere
// else.
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
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return &ForeignError{Dir: dir, NotDir: true}
	}
	files, err := Files(d, opt)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	defer root.Close()
	old, err := owned(root)
	if err != nil {
		return fmt.Errorf("site: %s: %w", filepath.Join(dir, Marker), err)
	}
	names := map[string]bool{}
	for _, f := range files {
		names[f.Name] = true
		if _, err := root.Lstat(filepath.FromSlash(f.Name)); err == nil && !old[f.Name] && f.Name != Marker && !opt.Force {
			return &ForeignError{Dir: dir, File: f.Name}
		}
	}
	// First the list of both sites' files: what an interrupted Write
	// leaves is still all listed.
	both := maps.Clone(names)
	maps.Copy(both, old)
	if err := atomicfile.WriteFileIn(root, Marker, manifest(both)); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	// The data and assets, then the series pages, then the overview.
	rank := func(name string) int {
		switch {
		case name == Marker:
			return 3
		case name == "index.html":
			return 2
		case strings.HasPrefix(name, "series/"):
			return 1
		}
		return 0
	}
	slices.SortStableFunc(files, func(a, b File) int { return cmp.Compare(rank(a.Name), rank(b.Name)) })
	for _, f := range files {
		name := filepath.FromSlash(f.Name)
		if dir := filepath.Dir(name); dir != "." {
			if err := root.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("site: %w", err)
			}
		}
		if err := atomicfile.WriteFileIn(root, name, f.Data); err != nil {
			return fmt.Errorf("site: %w", err)
		}
	}
	// The earlier site's files the new one has not: removed, and their
	// directories when that leaves them empty.
	var gone []string
	for name := range old {
		if !names[name] {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	for _, name := range gone {
		p := filepath.FromSlash(name)
		if fi, err := root.Lstat(p); err == nil && !fi.IsDir() {
			if err := root.Remove(p); err != nil {
				return fmt.Errorf("site: %w", err)
			}
		}
		for d := filepath.Dir(p); d != "."; d = filepath.Dir(d) {
			if root.Remove(d) != nil { // not empty
				break
			}
		}
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

	idx, against := jsIndexOf(d, opt)
	var chunks [][]jsSeries
	for k, i := range order {
		s := d.Series[i]
		sum := jsSummaryOf(s, "series/"+names[i])
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
	listed := map[string]bool{Marker: true}
	for _, f := range files {
		listed[f.Name] = true
	}
	add(Marker, manifest(listed))
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

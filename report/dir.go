package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/atomicfile"
)

// IndexFile is the name of the file in which [WriteDir] lists the files of
// the report directory, itself included. It is how a later WriteDir knows
// that every file in the directory is its own to replace.
const IndexFile = ".mbopt-report"

// indexHeader starts the index file.
const indexHeader = "# Files written by mbopt (report.WriteDir). The next report replaces this\n# directory only while it holds nothing else.\n"

// legacyFiles are the files of a report directory written before the index
// existed; a directory holding only these is replaced as well.
var legacyFiles = []string{
	"report.md", "report.html", "report.json",
	"suite-coverage.png", "suite-coverage.svg", "recommend-coverage.png",
	"recommend-coverage.svg", "suite-impact.png", "suite-impact.svg",
}

// DirOptions configures [WriteDir]. The zero value is the safe default.
type DirOptions struct {
	// Force replaces the directory whatever it holds. Without it, a
	// directory holding a file WriteDir did not write is an error
	// (*[ForeignFileError]) and stays as it is.
	Force bool
}

// A ForeignFileError is returned by [WriteDir] when the directory to
// replace holds a file that no report wrote: replacing the directory would
// delete it.
type ForeignFileError struct {
	// Dir is the report directory.
	Dir string
	// File is the first foreign entry in Dir, by name.
	File string
}

// Error names the file and says how to proceed.
func (e *ForeignFileError) Error() string {
	return fmt.Sprintf("%s holds %s, which is not a file of an mbopt report: writing the report replaces the whole directory, so choose an empty or new directory, or remove the file", e.Dir, e.File)
}

// Files returns the report directory's files for d, each with its content,
// in the order [WriteDir] writes them: every figure of [Figures] as name.png
// and name.svg, then report.json, report.md (linking the SVG figures) and
// report.html (the PNG figures inlined). The index file is not among them.
func Files(d *Document) ([]File, error) {
	var files []File
	images := map[string]string{}
	var inline []HTMLImage
	for _, f := range Figures(d) {
		png, err := f.PNG()
		if err != nil {
			return nil, fmt.Errorf("drawing %s: %w", f.Name, err)
		}
		svg, err := f.SVG()
		if err != nil {
			return nil, fmt.Errorf("drawing %s: %w", f.Name, err)
		}
		files = append(files, File{f.Name + ".png", png}, File{f.Name + ".svg", svg})
		images[f.Name] = f.Name + ".svg"
		inline = append(inline, HTMLImage{Figure: f, PNG: png})
	}
	var md, html, js bytes.Buffer
	if err := WriteJSON(&js, d); err != nil {
		return nil, err
	}
	if err := WriteMarkdown(&md, d, MarkdownOptions{Images: images}); err != nil {
		return nil, err
	}
	if err := WriteHTML(&html, d, inline); err != nil {
		return nil, err
	}
	return append(files, File{"report.json", js.Bytes()}, File{"report.md", md.Bytes()}, File{"report.html", html.Bytes()}), nil
}

// A File is one file of a report directory.
type File struct {
	// Name is the file's base name.
	Name string
	// Data is its content.
	Data []byte
}

// writeHook, when set by a test, runs after each file is written into the
// new directory; an error aborts WriteDir as a failed write would.
var writeHook func(name string) error

// WriteDir writes the report directory for d at dir: the files of [Files]
// and [IndexFile], as one set. The files are written into a new sibling
// directory that then takes dir's place (see atomicfile.ReplaceDir), so a
// reader, or a kill at any moment, sees the old report or the new one,
// never a mix, and no file of an earlier report survives (a report without
// recommendations keeps no old recommendation plot).
//
// dir may be missing (it is created, with its parents), empty, or an
// earlier report directory: one whose entries are all listed in its
// IndexFile (or, for reports written before the index, all report file
// names). Anything else is a *[ForeignFileError] unless opts.Force, and
// dir is left untouched.
//
// A problem with dir, the caller's to fix, is an [*mbopt.Error] about the
// setting Out (mbopt report's --out): it wraps the *ForeignFileError, or
// the *fs.PathError of a directory that cannot be read or written.
func WriteDir(dir string, d *Document, opts DirOptions) error {
	err := writeDir(dir, d, opts)
	var foreign *ForeignFileError
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &foreign):
		return FieldOut.Errorf("%w", err)
	case errors.As(err, &pathErr):
		return mbopt.Errorf("%s %s: %w; %s names the directory to write the report into", FieldOut, dir, err, FieldOut)
	}
	return err
}

// FieldOut is the setting the dir of [WriteDir] stands for in its errors
// (mbopt report's --out).
const FieldOut mbopt.Field = "Out"

// writeDir is WriteDir without the input errors.
func writeDir(dir string, d *Document, opts DirOptions) error {
	files, err := Files(d)
	if err != nil {
		return err
	}
	if !opts.Force {
		if err := checkReplaceable(dir); err != nil {
			return err
		}
	}
	names := []string{IndexFile}
	for _, f := range files {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	index := indexHeader + strings.Join(names, "\n") + "\n"
	return atomicfile.ReplaceDir(dir, func(tmp string) error {
		// Pages after images, the index last: even the half-built
		// directory never links a missing image.
		for _, f := range append(files, File{IndexFile, []byte(index)}) {
			if err := os.WriteFile(filepath.Join(tmp, f.Name), f.Data, 0o644); err != nil {
				return err
			}
			if writeHook != nil {
				if err := writeHook(f.Name); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// checkReplaceable returns a *ForeignFileError when dir holds an entry that
// is not a report file.
func checkReplaceable(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	known, err := readIndex(filepath.Join(dir, IndexFile))
	if err != nil {
		return err
	}
	if known == nil {
		known = legacyFiles
	}
	for _, e := range entries {
		name := e.Name()
		if name == IndexFile || atomicfile.IsTemp(name) && !e.IsDir() {
			continue
		}
		if e.IsDir() || !slices.Contains(known, name) {
			return &ForeignFileError{Dir: dir, File: name}
		}
	}
	return nil
}

// readIndex returns the file names an index lists; nil when there is no
// index.
func readIndex(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names := []string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			names = append(names, line)
		}
	}
	return names, sc.Err()
}

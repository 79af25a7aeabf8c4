package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/textutil"
)

// This file keeps the manifest of the files a site wrote, so that the
// next site replaces only those and leaves every other file of its
// directory alone.

// manifest is the content of Marker for a site of the given files.
func manifest(names map[string]bool) []byte {
	var b bytes.Buffer
	b.WriteString(markerHeading + "\n")
	for _, n := range slices.Sorted(maps.Keys(names)) {
		b.WriteString(n + "\n")
	}
	return b.Bytes()
}

// owned returns the files the site in root lists in its Marker (Marker
// among them); none when it has no Marker. A Marker of the sites written
// before the manifest lists nothing: their files are those of legacyFile.
// A name that is not a local path is left out.
func owned(root *os.Root) (map[string]bool, error) {
	data, err := root.ReadFile(Marker)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]bool{Marker: true}
	lines := strings.Split(string(data), "\n")
	switch {
	case strings.HasPrefix(lines[0], legacyMarker):
		err := fs.WalkDir(root.FS(), ".", func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && legacyFile(p) {
				out[p] = true
			}
			return nil
		})
		return out, err
	case lines[0] != markerHeading:
		return nil, fmt.Errorf("not the list of an mbopt site (it begins %q); move it away", textutil.FirstLine(lines[0]))
	}
	for _, n := range lines[1:] {
		if n != "" && filepath.IsLocal(filepath.FromSlash(n)) {
			out[n] = true
		}
	}
	return out, nil
}

// legacyFile reports whether p (slash-separated) is a name the sites
// written before the manifest used: index.html, the pages series/*.html,
// the data data/*.js and the assets mbopt embeds.
func legacyFile(p string) bool {
	dir, base := path.Split(p)
	switch dir {
	case "":
		return base == "index.html"
	case "series/":
		return strings.HasSuffix(base, ".html")
	case "data/":
		return strings.HasSuffix(base, ".js")
	case "assets/":
		_, err := fs.Stat(assets, p)
		return err == nil
	}
	return false
}

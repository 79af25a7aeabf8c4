// Command floor is the decoding floor of mbopt's performance figures: it
// decodes every profile it is given with google/pprof's profile.Parse, one
// after another on one goroutine, and walks each sample's stack once
// (every location and every inlined line of it, touching the function's
// name), keeping nothing. 'make bench' (scripts/bench.sh) runs it on the
// synthetic corpus and reports 'mbopt analyze' as a ratio to it; anyone can
// rerun it:
//
//	go run ./testkit/floor PROFILE|DIR...
//
// A directory contributes its files named *.pprof, *.prof, *.pb.gz or *.pb,
// in name order (not its subdirectories). It prints the numbers of files,
// samples and frames and the bytes of function names walked, so the walk is
// not optimised away; a file that does not decode is an error naming it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// exts are the profile file extensions a directory contributes, as
// analysis.Config.Micro reads them.
var exts = []string{".pprof", ".prof", ".pb.gz", ".pb"}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: floor PROFILE|DIR...")
		os.Exit(2)
	}
	files, err := expand(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	var t totals
	for _, f := range files {
		if err := t.decode(f); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("%d files, %d samples, %d frames, %d name bytes\n", t.files, t.samples, t.frames, t.nameBytes)
}

// expand lists the profile files of args in order, each directory's in
// name order.
func expand(args []string) ([]string, error) {
	var files []string
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, arg)
			continue
		}
		entries, err := os.ReadDir(arg)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && slices.ContainsFunc(exts, func(ext string) bool { return strings.HasSuffix(e.Name(), ext) }) {
				files = append(files, filepath.Join(arg, e.Name()))
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no profile in %s", strings.Join(args, " "))
	}
	return files, nil
}

// totals counts what the walk saw.
type totals struct {
	files, samples, frames, nameBytes int
}

// decode parses the profile at path and walks each sample's stack once.
func (t *totals) decode(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	t.files++
	for _, s := range p.Sample {
		t.samples++
		for _, l := range s.Location {
			for _, ln := range l.Line {
				t.frames++
				t.nameBytes += len(ln.Function.Name)
			}
		}
	}
	return nil
}

package analysis

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/par"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// This file finds an analysis's benchmark inputs, the files and the
// collections' manifests Config.Micro names, and loads each into its
// footprint over the application's graph.

var profileExts = []string{".pprof", ".prof", ".pb.gz", ".pb"}

// ProfileID returns the benchmark id of a profile file name in a Micro
// directory, the name without its extension, and whether it has one of
// the extensions a directory contributes (see [Config.Micro]).
func ProfileID(name string) (string, bool) {
	for _, ext := range profileExts {
		if strings.HasSuffix(name, ext) && len(name) > len(ext) {
			return strings.TrimSuffix(name, ext), true
		}
	}
	return "", false
}

// Inputs returns the files an analysis of c reads, for a front end that
// must not write its output over one of them: the application profiles and
// function sets, the costs file, and each Micro entry, with the benchmark
// profiles (see [ProfileID]) and the manifest of a Micro directory.
func (c *Config) Inputs() []string {
	inputs := append(slices.Clone(c.App), c.AppFunctions...)
	if c.Select.CostsFile != "" {
		inputs = append(inputs, c.Select.CostsFile)
	}
	for _, m := range c.Micro {
		inputs = append(inputs, m)
		entries, err := os.ReadDir(m)
		if err != nil {
			continue // a file, or Run reports it
		}
		for _, e := range entries {
			if _, ok := ProfileID(e.Name()); ok || e.Name() == manifest.FileName {
				inputs = append(inputs, filepath.Join(m, e.Name()))
			}
		}
	}
	return inputs
}

type benchFile struct {
	id, path string
	set      bool // a function set (package covdata), not a profile
	// instr marks an instruction profile (manifest.SourceInstructions),
	// timed when its manifest's scope is; either way read as a non-CPU
	// profile.
	instr, timed bool
	// benchTime is the benchtime of the collection's manifest, "" without
	// one.
	benchTime string
}

// dirManifest is a manifest and the directory it was read from.
type dirManifest struct {
	*manifest.Manifest
	dir string
}

// benchmarkFiles expands files and directories into benchmark files
// sorted by id, checking that ids are unique. A directory holding a
// manifest.json (written by package collect) contributes the manifest's
// benchmarks under their ids: those with status ok as files, the others as
// skips carrying their status and error.
func benchmarkFiles(args []string) ([]benchFile, []dirManifest, []Skip, error) {
	var (
		out       []benchFile
		manifests []dirManifest
		skips     []Skip
	)
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, nil, nil, mbopt.Errorf("%s: no such file or directory (check the %s path)", arg, FieldMicro)
			}
			return nil, nil, nil, mbopt.Wrap(err)
		}
		if !st.IsDir() {
			if !st.Mode().IsRegular() {
				skips = append(skips, notRegular(arg, st.Mode()))
				continue
			}
			id, ok := ProfileID(filepath.Base(arg))
			if !ok {
				id = filepath.Base(arg)
			}
			out = append(out, benchFile{id: id, path: arg})
			continue
		}
		if _, err := os.Lstat(filepath.Join(arg, manifest.FileName)); err == nil {
			m, err := manifest.Load(arg)
			if err != nil {
				return nil, nil, nil, mbopt.Wrap(err)
			}
			manifests = append(manifests, dirManifest{m, arg})
			files, mskips := manifestFiles(arg, m)
			out, skips = append(out, files...), append(skips, mskips...)
			continue
		}
		files, dskips, err := dirFiles(arg)
		if err != nil {
			return nil, nil, nil, err
		}
		out, skips = append(out, files...), append(skips, dskips...)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].id < out[j].id || out[i].id == out[j].id && out[i].path < out[j].path
	})
	for i := 1; i < len(out); i++ {
		if out[i].id == out[i-1].id {
			return nil, nil, nil, mbopt.Errorf("%s: benchmark id %q is given twice, also by %s; a benchmark's id is its profile's file name, so give each file of %s a unique name", out[i].path, out[i].id, out[i-1].path, FieldMicro)
		}
	}
	if err := checkOneSource(out); err != nil {
		return nil, nil, nil, err
	}
	slices.SortFunc(skips, func(a, b Skip) int { return strings.Compare(a.File, b.File) })
	return out, manifests, skips, nil
}

// manifestFiles returns the benchmark files of the collection in
// directory arg, whose manifest is m: the profile or function set of each
// benchmark with status ok, and a skip carrying its status and error for
// every other benchmark.
func manifestFiles(arg string, m *manifest.Manifest) (files []benchFile, skips []Skip) {
	for _, e := range m.Benchmarks {
		if e.Status == manifest.StatusOK && e.Profile != "" {
			files = append(files, benchFile{id: e.ID, path: filepath.Join(arg, filepath.FromSlash(e.Profile)), benchTime: m.BenchTime,
				instr: m.IsInstructions(), timed: m.IsInstructions() && m.IsTimed()})
			continue
		}
		if e.Status == manifest.StatusOK && e.Functions != "" {
			files = append(files, benchFile{id: e.ID, path: filepath.Join(arg, filepath.FromSlash(e.Functions)), set: true})
			continue
		}
		reason := string(e.Status)
		if e.Status == manifest.StatusOK {
			reason = "the manifest records status ok but no profile or function set file; collect it again"
		}
		if msg, _, _ := strings.Cut(strings.TrimSpace(e.Error), "\n"); msg != "" {
			reason += ": " + msg
		}
		file := filepath.Join(arg, manifest.FileName)
		if e.Log != "" {
			file = filepath.Join(arg, e.Log)
		}
		skips = append(skips, Skip{File: file, ID: e.ID, Reason: reason})
	}
	return files, skips
}

// dirFiles returns the benchmark profiles of directory arg, which holds
// no manifest: its files with a profile extension (see [ProfileID]),
// links to profiles included, and a skip for each that is not a regular
// file. A directory without any is an error.
func dirFiles(arg string) (files []benchFile, skips []Skip, err error) {
	entries, err := os.ReadDir(arg)
	if err != nil {
		return nil, nil, mbopt.Wrap(err)
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		id, ok := ProfileID(e.Name())
		if !ok {
			continue
		}
		n++
		path := filepath.Join(arg, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			// A link to a profile is a profile; stat (not open) what
			// it points to. A dangling link is left to the loader,
			// which reports it.
			st, err := os.Stat(path)
			if err != nil {
				files = append(files, benchFile{id: id, path: path})
				continue
			}
			mode = st.Mode().Type()
		}
		if !mode.IsRegular() {
			// Opening a named pipe would block: skip every non-regular
			// file without opening it.
			skips = append(skips, notRegular(path, mode))
			continue
		}
		files = append(files, benchFile{id: id, path: path})
	}
	if n == 0 {
		return nil, nil, mbopt.Errorf("%s: no benchmark profiles (*.pprof) in this directory; collect them with 'mbopt profile' or 'go test -cpuprofile'", arg)
	}
	return files, skips, nil
}

// notRegular is the skip of a benchmark profile path that is not a regular
// file (a named pipe, device, socket or directory), which is never opened.
func notRegular(path string, mode fs.FileMode) Skip {
	return Skip{File: path, Reason: fmt.Sprintf("is %s, %v; only regular files are read as profiles", regfile.Kind(mode), callgraph.ErrNotRegular)}
}

type loaded struct {
	id, file  string
	fp        *callgraph.Footprint
	benchTime string
	set       bool // a function set
	instr     bool // an instruction profile
	timed     bool // a function set or instruction profile of a timed loop
}

// benchmarkOptions returns the options a benchmark profile is read with:
// the analysis's (opts: Config's modules, exclusions, limits, and the
// profiles Config.AllowNonCPU and AllowEmpty accept), an instruction
// profile its manifest records (instr) accepted whatever AllowNonCPU
// says. It is the one rule of which benchmark profiles an analysis reads,
// for their coverage and again for their weights ([SensitivityBenchmarks]).
func benchmarkOptions(opts callgraph.Options, instr bool) callgraph.Options {
	opts.AllowNonCPU = opts.AllowNonCPU || instr
	return opts
}

// loadBenchmarks decodes files on up to workers goroutines, each straight
// into its footprint over a table of app's nodes (coverage compares nodes
// only): no benchmark's graph or decoded profile outlives its decoding.
// The output order is the input order whatever the scheduling.
func loadBenchmarks(ctx context.Context, files []benchFile, app *callgraph.Graph, opts callgraph.Options, workers int) ([]loaded, []Skip, error) {
	tab := callgraph.NewTable(app)
	fps := make([]*callgraph.Footprint, len(files))
	errs := make([]error, len(files))
	timed := make([]bool, len(files))
	par.For(ctx, len(files), workers, func(i int) {
		if files[i].set {
			g, t, err := functionSetGraph(files[i].path, app, opts)
			if err == nil {
				fps[i], timed[i] = tab.Footprint(g), t
			}
			errs[i] = err
			return
		}
		if files[i].instr {
			timed[i] = files[i].timed
		}
		fps[i], errs[i] = tab.Load(files[i].path, benchmarkOptions(opts, files[i].instr))
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var out []loaded
	var skipped []Skip
	for i, f := range files {
		if errs[i] != nil {
			reason := errs[i].Error()
			var fe *callgraph.FileError
			if errors.As(errs[i], &fe) {
				reason = strings.TrimPrefix(reason, fe.Path+": ")
			}
			skipped = append(skipped, Skip{File: f.path, Reason: reason})
			continue
		}
		out = append(out, loaded{id: f.id, file: f.path, fp: fps[i], benchTime: f.benchTime, set: f.set, instr: f.instr, timed: timed[i]})
	}
	slices.SortFunc(skipped, func(a, b Skip) int { return strings.Compare(a.File, b.File) })
	return out, skipped, nil
}

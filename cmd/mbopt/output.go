package main

import (
	"os"
	"path/filepath"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/manifest"
)

// checkOutput refuses an -o that names one of cfg's inputs (see
// atomicfile.Overwrites): an application profile, a benchmark profile or a
// manifest among --micro (given as a file or inside a directory), the
// --costs file. Writing the result there
// would silently destroy the input.
func checkOutput(output string, cfg analysis.Config) error {
	if output == "" {
		return nil
	}
	inputs := append([]string(nil), cfg.App...)
	if cfg.Select.CostsFile != "" {
		inputs = append(inputs, cfg.Select.CostsFile)
	}
	for _, m := range cfg.Micro {
		inputs = append(inputs, m)
		entries, err := os.ReadDir(m)
		if err != nil {
			continue // a file, or the analysis reports it
		}
		for _, e := range entries {
			if _, ok := analysis.ProfileID(e.Name()); ok || e.Name() == manifest.FileName {
				inputs = append(inputs, filepath.Join(m, e.Name()))
			}
		}
	}
	if in := atomicfile.Overwrites(output, inputs...); in != "" {
		return outputIsInput("-o", output, in)
	}
	return nil
}

// outputIsInput is the bad-input error of an output flag whose file is
// one of the command's inputs.
func outputIsInput(flag, output, input string) error {
	return badInputf("%s %s is the input %s: writing the result there would overwrite it; choose another file", flag, output, input)
}

// checkOutputPath words the usual reasons why -o cannot be written: its
// directory is missing, or it is a directory.
func checkOutputPath(path string) error {
	target, fi, err := atomicfile.Resolve(path)
	if err != nil {
		return badInputf("-o %s: %v; choose another output file", path, err)
	}
	if fi != nil && fi.IsDir() {
		return badInputf("-o %s: is a directory; -o names the file to write", path)
	}
	if _, err := os.Stat(filepath.Dir(target)); err != nil {
		return badInputf("-o %s: the directory %s does not exist; create it or choose another output file", path, filepath.Dir(target))
	}
	return nil
}

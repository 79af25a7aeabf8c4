package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/covdata"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/proc"
)

// coverAppOptions holds the cover-app command's flag values.
type coverAppOptions struct {
	output     string
	gocoverdir string
	coverpkg   string
}

func newCmdCoverApp(s *streams) *cobra.Command {
	o := &coverAppOptions{}
	cmd := &cobra.Command{
		Use:   "cover-app [flags] -- PKG|CMD [ARGS...]",
		Short: "Record the functions an application workload executes (go build -cover)",
		Long: `Cover-app runs the application workload once with Go's coverage
instrumentation and writes the set of functions that executed, named as CPU
profiles name them (package covdata), to -o. Coverage is exact where a CPU
profile samples: a function that runs briefly is in the set even when no
sample caught it.

  PKG ARGS    a local main package (starting with "."): cover-app builds it
              with go build -cover -coverpkg=--coverpkg and runs it with ARGS
              (by default every package of ./...; the functions of main
              packages are left out: profiles name them main.F)
  CMD ARGS    any other command (go run ./cmd/load, a script): it runs with
              GOCOVERDIR set and -cover -coverpkg added to GOFLAGS, so the
              go commands it runs build with coverage

An ARG "{profile}" is replaced with the -o file's name with .pprof for its
extension, so one run can also write the CPU profile (-cpuprofile {profile}).
With --gocoverdir DIR cover-app reads coverage data the program already wrote
instead of running anything.

Give the set and the profile to analyze (or run, report) with --app-cover:
the application's functions then come from coverage and their time from the
profile, so project coverage no longer varies with what sampling caught, and
a note lists the functions only one of the two saw.`,
		Example: `  $ mbopt cover-app -o app.cover.json -- ./cmd/appbench -duration 5s -cpuprofile {profile}
  $ mbopt analyze --app app.pprof --app-cover app.cover.json --micro profiles/
  $ mbopt cover-app --gocoverdir /tmp/covdata -o app.cover.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.gocoverdir != "" && len(args) > 0 {
				return badInputf("--gocoverdir reads coverage data already written: give it or a command after --, not both")
			}
			if o.gocoverdir == "" && len(args) == 0 {
				return badInputf("cover-app needs the workload after --, e.g. mbopt cover-app -- ./cmd/load -duration 10s, or --gocoverdir DIR")
			}
			if o.output == "" {
				return badInputf("-o must name the function set file to write")
			}
			// Found before the workload runs, not after.
			if err := checkOutputPath(o.output); err != nil {
				return err
			}
			if containsArg(args, "{profile}") && atomicfile.Overwrites(o.output, profileOf(o.output)) != "" {
				return badInputf("-o %s: {profile} is the -o file with .pprof for its extension, which is -o itself; give -o another extension, such as app.cover.json", o.output)
			}
			return runCoverApp(cmd.Context(), s, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", "app.cover.json", "the function set file to write (atomically)")
	f.StringVar(&o.gocoverdir, "gocoverdir", "", "read this GOCOVERDIR (written by a program built with -cover) instead of running a workload")
	f.StringVar(&o.coverpkg, "coverpkg", "", "packages to instrument, as go build -coverpkg takes them (default: the packages of ./... in the current directory; main packages' functions are left out of the set)")
	return cmd
}

// runCoverApp runs the workload with coverage (or reads --gocoverdir) and
// writes its function set.
func runCoverApp(ctx context.Context, s *streams, o *coverAppOptions, args []string) error {
	wantProfile := containsArg(args, "{profile}")
	var mains []string
	dir := o.gocoverdir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "mbopt-cover-app-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = filepath.Join(tmp, "covdata")
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		if mains, err = coverRun(ctx, s, o, args, tmp, dir); err != nil {
			return err
		}
	}
	set, err := covdata.Load(ctx, dir, covdata.Options{})
	if err != nil {
		if errors.Is(err, covdata.ErrNoData) || o.gocoverdir != "" {
			return badInputf("%v", err)
		}
		return err
	}
	dropPackages(set, mains)
	f, err := atomicfile.Create(o.output)
	if err != nil {
		return badInputf("-o %s: %v", o.output, err)
	}
	defer f.Cleanup()
	if err := set.Write(f); err != nil {
		return fmt.Errorf("writing %s: %w", o.output, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", o.output, err)
	}
	fmt.Fprintf(s.Err, "mbopt: %d functions of %d instrumented packages ran; function set: %s\n", len(set.Funcs), len(set.Packages), o.output)
	if prof := profileOf(o.output); wantProfile {
		fmt.Fprintf(s.Err, "mbopt: CPU profile: %s; analyse both with: mbopt analyze --app %s --app-cover %s --micro PROFILES\n", prof, prof, o.output)
	}
	return nil
}

// coverRun builds (for a local package) and runs the workload with
// GOCOVERDIR=covdir; its output goes to stderr.
func coverRun(ctx context.Context, s *streams, o *coverAppOptions, args []string, tmp, covdir string) (mains []string, err error) {
	coverpkg := o.coverpkg
	if coverpkg == "" {
		out, err := exec.CommandContext(ctx, "go", "list", "./...").Output()
		pkgs := strings.Fields(string(out))
		if err != nil || len(pkgs) == 0 {
			return nil, badInputf("cover-app: no Go package to instrument in the current directory; run it in the module's root or give --coverpkg")
		}
		coverpkg = strings.Join(pkgs, ",")
	}
	// A profile names a main package's functions main.F, not by import
	// path, and a workload driver is not the code under study: the main
	// packages stay instrumented (without the main package a binary writes
	// no coverage) but their functions are left out of the set.
	list := append([]string{"list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`}, strings.Split(coverpkg, ",")...)
	out, err := exec.CommandContext(ctx, "go", list...).Output()
	if err != nil {
		return nil, badInputf("cover-app: go list %s: %v", coverpkg, err)
	}
	mains = strings.Fields(string(out))
	prof := profileOf(o.output)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "{profile}", prof)
	}
	env := append(os.Environ(), "GOCOVERDIR="+covdir)
	var run *exec.Cmd
	if strings.HasPrefix(args[0], ".") {
		bin := filepath.Join(tmp, "app")
		build := exec.CommandContext(ctx, "go", "build", "-cover", "-coverpkg="+coverpkg, "-o", bin, args[0])
		var stderr bytes.Buffer
		build.Stderr = &stderr
		if err := proc.Run(build); err != nil {
			return nil, badInputf("go build -cover %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
		}
		run = exec.CommandContext(ctx, bin, args[1:]...)
	} else {
		run = exec.CommandContext(ctx, args[0], args[1:]...)
		env = append(env, "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -cover -coverpkg="+coverpkg))
	}
	run.Env = env
	run.Stdout, run.Stderr = s.Err, s.Err
	if err := proc.Run(run); err != nil {
		return nil, badInputf("the workload %s failed: %v (coverage counters are written only when it exits normally)", strings.Join(args, " "), err)
	}
	return mains, nil
}

// profileOf returns the CPU profile name for {profile}: the function set's
// file name with .pprof for its extension.
func profileOf(output string) string {
	return strings.TrimSuffix(output, filepath.Ext(output)) + ".pprof"
}

func containsArg(args []string, s string) bool {
	for _, a := range args {
		if strings.Contains(a, s) {
			return true
		}
	}
	return false
}

// dropPackages removes the functions and packages pkgs from set.
func dropPackages(set *covdata.Set, pkgs []string) {
	if len(pkgs) == 0 {
		return
	}
	set.Packages = slices.DeleteFunc(set.Packages, func(p string) bool { return slices.Contains(pkgs, p) })
	set.Funcs = slices.DeleteFunc(set.Funcs, func(f covdata.Func) bool {
		return slices.Contains(pkgs, callgraph.PackageOf(f.Name))
	})
}

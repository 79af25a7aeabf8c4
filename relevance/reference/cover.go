package reference

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/proc"
	"github.com/mbopt/mbopt/relevance/covdata"
)

// CoverOptions configure [Cover].
type CoverOptions struct {
	// Args is the workload. A local main package (its path starting with
	// ".") and its arguments: Cover builds it with go build -cover
	// -coverpkg=CoverPkg and runs it. Any other command line: it runs
	// with GOCOVERDIR set and -cover -coverpkg=CoverPkg added to GOFLAGS,
	// so that the go commands it runs build with coverage. [Placeholder]
	// in an argument stands for Profile.
	Args []string
	// CoverDir, instead of Args, is coverage data a program built with
	// -cover has already written (its GOCOVERDIR): Cover runs nothing.
	CoverDir string
	// CoverPkg are the packages to instrument, as go build -coverpkg
	// takes them; "" means the packages of ./... in Dir.
	CoverPkg string
	// Dir is the directory the go commands and the workload run in; ""
	// means the current directory.
	Dir string
	// Profile is the file [Placeholder] stands for, such as
	// [CoverProfile] of the function set's file, so that one run can also
	// write the CPU profile.
	Profile string
	// Output receives the workload's standard output and error.
	Output io.Writer
}

// The fields of [CoverOptions] that input errors name (mbopt.Field
// paths).
const (
	FieldCoverDir mbopt.Field = "CoverDir"
	FieldCoverPkg mbopt.Field = "CoverPkg"
)

// Check refuses CoverDir with Args, and neither: Cover reads coverage data
// already written or runs a workload.
func (o CoverOptions) Check() error {
	if o.CoverDir != "" && len(o.Args) > 0 {
		return mbopt.Errorf("%s reads coverage data already written: give it or a command after --, not both", FieldCoverDir)
	}
	if o.CoverDir == "" && len(o.Args) == 0 {
		return mbopt.Errorf("cover-app needs the workload after --, e.g. mbopt cover-app -- ./cmd/load -duration 10s, or %s DIR", FieldCoverDir)
	}
	return nil
}

// CheckSet checks set, the function set's file the caller writes (the
// setting field), before the workload runs: it must be named and be an
// output mbopt.CheckOutput accepts, and, when the workload writes the CPU
// profile too (Profile, [CoverProfile] of set), not be that profile,
// which would replace it.
func (o CoverOptions) CheckSet(field mbopt.Field, set string) error {
	if set == "" {
		return mbopt.Errorf("%s must name the function set file to write", field)
	}
	if err := mbopt.CheckOutput(field, set); err != nil {
		return err
	}
	if o.WantsProfile() && atomicfile.Overwrites(set, o.Profile) != "" {
		return mbopt.Errorf("%s %s: %s is the %s file with .pprof for its extension, which is %s itself; give %s another extension, such as app.cover.json", field, set, Placeholder, field, field, field)
	}
	return nil
}

// WantsProfile reports whether an argument of Args holds [Placeholder]:
// the workload writes the CPU profile Profile too.
func (o CoverOptions) WantsProfile() bool {
	return slices.ContainsFunc(o.Args, func(a string) bool { return strings.Contains(a, Placeholder) })
}

// CoverProfile returns the CPU profile that goes beside the function set
// file set: its name with .pprof for its extension.
func CoverProfile(set string) string {
	return strings.TrimSuffix(set, filepath.Ext(set)) + ".pprof"
}

// Cover runs the application workload once with Go's coverage
// instrumentation, or reads the coverage data it wrote (CoverDir), and
// returns the set of functions that executed, named as CPU profiles name
// them (package covdata). The functions of main packages are left out: a
// profile names them main.F, and a workload driver is not the code under
// study (they stay instrumented, since a binary without its main package
// instrumented writes no coverage). A workload that fails, or data with no
// coverage in it, is an [*mbopt.Error].
func Cover(ctx context.Context, opt CoverOptions) (*covdata.Set, error) {
	dir := opt.CoverDir
	var mains []string
	if dir == "" {
		tmp, err := os.MkdirTemp("", "mbopt-cover-app-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = filepath.Join(tmp, "covdata")
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		if mains, err = coverRun(ctx, opt, tmp, dir); err != nil {
			return nil, err
		}
	}
	set, err := covdata.Load(ctx, dir, covdata.Options{Dir: opt.Dir})
	if err != nil {
		if errors.Is(err, covdata.ErrNoData) || opt.CoverDir != "" {
			return nil, mbopt.Wrap(err)
		}
		return nil, err
	}
	if len(mains) > 0 {
		set.Packages = slices.DeleteFunc(set.Packages, func(p string) bool { return slices.Contains(mains, p) })
		set.Funcs = slices.DeleteFunc(set.Funcs, func(f covdata.Func) bool {
			return slices.Contains(mains, callgraph.PackageOf(f.Name))
		})
	}
	return set, nil
}

// coverRun builds (for a local package) and runs the workload with
// GOCOVERDIR=covdir, and returns the main packages among CoverPkg.
func coverRun(ctx context.Context, opt CoverOptions, tmp, covdir string) (mains []string, err error) {
	coverpkg := opt.CoverPkg
	if coverpkg == "" {
		ls := exec.CommandContext(ctx, "go", "list", "./...")
		ls.Dir = opt.Dir
		out, err := ls.Output()
		pkgs := strings.Fields(string(out))
		if err != nil || len(pkgs) == 0 {
			return nil, &mbopt.Error{Struct: "CoverOptions", Format: "cover-app: no Go package to instrument in the current directory; run it in the module's root or give %s", Args: []any{FieldCoverPkg}}
		}
		coverpkg = strings.Join(pkgs, ",")
	}
	list := append([]string{"list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`}, strings.Split(coverpkg, ",")...)
	ls := exec.CommandContext(ctx, "go", list...)
	ls.Dir = opt.Dir
	out, err := ls.Output()
	if err != nil {
		return nil, mbopt.Errorf("cover-app: go list %s: %v", coverpkg, err)
	}
	mains = strings.Fields(string(out))
	args := slices.Clone(opt.Args)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, Placeholder, opt.Profile)
	}
	env := append(os.Environ(), "GOCOVERDIR="+covdir)
	var run *exec.Cmd
	if strings.HasPrefix(args[0], ".") {
		bin := filepath.Join(tmp, "app")
		build := exec.CommandContext(ctx, "go", "build", "-cover", "-coverpkg="+coverpkg, "-o", bin, args[0])
		var stderr bytes.Buffer
		build.Dir, build.Stderr = opt.Dir, &stderr
		if err := proc.Run(build); err != nil {
			return nil, mbopt.Errorf("go build -cover %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
		}
		run = exec.CommandContext(ctx, bin, args[1:]...)
	} else {
		run = exec.CommandContext(ctx, args[0], args[1:]...)
		env = append(env, "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -cover -coverpkg="+coverpkg))
	}
	run.Dir, run.Env = opt.Dir, env
	run.Stdout, run.Stderr = opt.Output, opt.Output
	if err := proc.Run(run); err != nil {
		return nil, mbopt.Errorf("the workload %s failed: %v (coverage counters are written only when it exits normally)", strings.Join(args, " "), err)
	}
	return mains, nil
}

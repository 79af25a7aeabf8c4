package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt/bisect"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/interrupt"
)

// Exit codes, documented in the README and in mbopt --help. A run ended by
// SIGINT, SIGTERM or SIGHUP exits with 128 plus the signal's number
// (interrupt.ExitCode): 130, 143, 129.
const (
	exitOK       = 0
	exitInternal = 1
	exitBadInput = 2
	// exitGate (3, in compare.go): mbopt compare's --fail-on gate failed.
	// exitDrift (4, in check.go), exitNotLocated (5, in bisect.go).
)

// interruptedMessage is what an interrupted run prints last on stderr: every
// output is written atomically and collection resumes, so rerunning is
// always the remedy.
const interruptedMessage = "mbopt: interrupted; run the same command again"

// interruptGrace is how long after the first signal mbopt may take to stop
// by itself (cancelled collection writes its manifest) before the watchdog
// ends it (see package internal/interrupt): short enough that every signal
// ends mbopt within a second.
const interruptGrace = 800 * time.Millisecond

// badInput wraps err as an input error (exit 2). A nil err stays nil.
func badInput(err error) error { return input.Wrap(err) }

// badInputf formats an input error (exit 2).
func badInputf(format string, args ...any) error { return input.Errorf(format, args...) }

// streams carries the command's standard streams so commands can be run
// in-process by tests.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
	// stopProfile ends --cpuprofile, keeping the profile when keep is
	// set; nil when it is off.
	stopProfile func(keep bool) error
}

// newRootCmd builds the command tree.
func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "mbopt",
		Short: "Make Go microbenchmark suites small, fast and relevant",
		Long: `mbopt compares the CPU profile of an application workload (an application
benchmark, a production /debug/pprof/profile capture or a default.pgo) with the
CPU profiles of a repository's microbenchmarks. It reports how much of the
application's call graph the suite covers, the smallest sub-suite with the same
coverage, and which uncovered functions deserve a benchmark next.

Exit status:
  0        success
  1        an internal error, or nothing could be profiled
  2        bad input or usage: a missing or bad file, a bad flag value, no
           benchmarks, a --module that matches no application function, an
           empty suite; the message names the file or flag and the fix
  3        mbopt compare: the --fail-on gate failed (a regression)
  4        mbopt check found drift: the saved suite no longer fits the
           repository (the findings are on standard output)
  5        mbopt bisect could not locate the change (not reproducible
           between --good and --bad, or hidden by skipped commits)
  130      interrupted by SIGINT (Ctrl-C); 143 by SIGTERM, 129 by SIGHUP
           (128 + the signal's number). mbopt stops within a second whatever
           it is doing, removes its temporary files and prints
           "interrupted; run the same command again".`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return badInput(fmt.Errorf("%w; run '%s --help' for usage", err, cmd.CommandPath()))
	})
	for _, add := range subcommands {
		root.AddCommand(add(s))
	}
	var cpuprofile string
	root.PersistentFlags().StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of mbopt itself to `file` (for performance reports, or to use mbopt as its own application); written when the command succeeds, never left by a failed one")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := checkFiniteFlags(cmd.Flags()); err != nil {
			return err
		}
		if cpuprofile == "" {
			return nil
		}
		// The profile goes to a temporary file that replaces the target
		// only when the command succeeded: a failed run leaves neither a
		// partial profile nor a profile of the failure at that name.
		f, err := atomicfile.Create(cpuprofile)
		if err != nil {
			return badInputf("--cpuprofile %s: %v; choose a file in an existing directory", cpuprofile, err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Cleanup()
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		s.stopProfile = func(keep bool) error {
			pprof.StopCPUProfile()
			if !keep {
				f.Cleanup()
				return nil
			}
			return f.Commit()
		}
		return nil
	}
	return root
}

// checkFiniteFlags refuses a NaN or infinite value of any float flag set
// on the command line: the one check of every float flag, before any
// command's own (a range check such as threshold < 0 lets NaN through).
func checkFiniteFlags(fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if f.Value.Type() != "float64" || err != nil {
			return
		}
		if x, gerr := fs.GetFloat64(f.Name); gerr == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
			err = badInputf("--%s %s: want a finite number, such as its default %s", f.Name, f.Value, f.DefValue)
		}
	})
	return err
}

// subcommands lists the constructors of mbopt's subcommands, in help order.
var subcommands = []func(*streams) *cobra.Command{
	newCmdRun,
	newCmdProfile,
	newCmdMerge,
	newCmdAnalyze,
	newCmdCoverApp,
	newCmdSuite,
	newCmdReport,
	newCmdCheck,
	newCmdCompare,

	newCmdHistory,
	newCmdBisect,
}

// Main runs mbopt with args and returns the process exit code. Errors are
// printed once, on stderr. SIGINT, SIGTERM and SIGHUP cancel the command's
// context; a command that has not returned interruptGrace after the signal
// (or at a second signal) is ended by a watchdog that removes mbopt's temporary
// files and exits with the interrupt status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var once sync.Once
	interrupted := func() { once.Do(func() { fmt.Fprintln(stderr, interruptedMessage) }) }
	w := interrupt.Watch(context.Background(), interruptGrace, func(sig os.Signal) {
		atomicfile.RemoveTemps()
		interrupted()
		os.Exit(interrupt.ExitCode(sig))
	})
	defer w.Stop()
	err := execute(w.Context(), args, stdin, stdout, stderr)
	code := exitCode(err, w.Signal())
	switch {
	case code > 128: // interrupt.ExitCode
		interrupted()
	case err != nil && isCobraUsage(err):
		// cobra's usage errors carry no advice; add it to the first line.
		first, rest, _ := strings.Cut(err.Error(), "\n")
		fmt.Fprintf(stderr, "mbopt: %s; run 'mbopt --help' for usage\n", first)
		if rest = strings.TrimSpace(rest); rest != "" {
			fmt.Fprintln(stderr, rest)
		}
	case err != nil:
		fmt.Fprintf(stderr, "mbopt: %v\n", err)
	}
	return code
}

// isCobraUsage reports whether err is one of cobra's own usage errors
// (unknown command, wrong argument count), which are plain errors.
func isCobraUsage(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command") || strings.Contains(err.Error(), "arg(s), received")
}

// execute runs the command line args under ctx.
func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	s := &streams{In: stdin, Out: stdout, Err: stderr}
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if s.stopProfile != nil {
		if perr := s.stopProfile(err == nil); perr != nil && err == nil {
			err = fmt.Errorf("--cpuprofile: %w", perr)
		}
	}
	return err
}

// exitCode maps a command's outcome to the process exit status; it is the
// one place where that happens. Interruption is checked first: once a
// signal arrived, or when the error is a context cancellation, whatever
// failed did so because mbopt was stopping (a killed --app-cmd workload is
// not bad input), so the status is the interrupt's. Then input and usage
// errors give 2, a failed compare gate 3, drift found by check 4, a
// bisect that could not locate the change 5, everything else 1.
func exitCode(err error, sig os.Signal) int {
	if sig != nil || errors.Is(err, context.Canceled) {
		return interrupt.ExitCode(sig)
	}
	if err == nil {
		return exitOK
	}
	if errors.Is(err, input.ErrInput) || isCobraUsage(err) {
		return exitBadInput
	}
	var df *driftFound
	if errors.As(err, &df) {
		return exitDrift
	}
	var ge *gateError
	if errors.As(err, &ge) {
		return exitGate
	}
	if errors.Is(err, bisect.ErrNotLocated) {
		return exitNotLocated
	}
	return exitInternal
}

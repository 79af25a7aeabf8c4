package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/spf13/cobra"
)

// Exit codes, documented in the README.
const (
	exitOK       = 0
	exitInternal = 1
	exitBadInput = 2
)

// inputError marks an error caused by the user's input (flags, files); it
// maps to exit code 2. Every other error maps to 1.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// badInput wraps err as an input error (exit 2). A nil err stays nil.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &inputError{err}
}

// badInputf formats an input error (exit 2).
func badInputf(format string, args ...any) error {
	return &inputError{fmt.Errorf(format, args...)}
}

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
coverage, and which uncovered functions deserve a benchmark next.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return badInput(fmt.Errorf("%w\nRun '%s --help' for usage.", err, cmd.CommandPath()))
	})
	for _, add := range subcommands {
		root.AddCommand(add(s))
	}
	var cpuprofile string
	root.PersistentFlags().StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of mbopt itself to `file` (for performance reports, or to use mbopt as its own application); written when the command succeeds, never left by a failed one")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if cpuprofile == "" {
			return nil
		}
		// The profile goes to a temporary file that replaces the target
		// only when the command succeeded: a failed run leaves neither a
		// partial profile nor a profile of the failure at that name.
		f, err := atomicfile.Create(cpuprofile)
		if err != nil {
			return badInputf("--cpuprofile: %v", err)
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

// subcommands lists the constructors of mbopt's subcommands, in help order.
var subcommands = []func(*streams) *cobra.Command{
	newCmdRun,
	newCmdProfile,
	newCmdAnalyze,
	newCmdSuite,
	newCmdReport,
}

// Main runs mbopt with args and returns the process exit code. Errors are
// printed once, on stderr.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	s := &streams{In: stdin, Out: stdout, Err: stderr}
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if s.stopProfile != nil {
		if perr := s.stopProfile(err == nil); perr != nil && err == nil {
			err = fmt.Errorf("--cpuprofile: %w", perr)
		}
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "mbopt: %v\n", err)
	var ie *inputError
	// cobra reports unknown commands and wrong argument counts as plain
	// errors; they are usage errors all the same.
	if errors.As(err, &ie) || strings.HasPrefix(err.Error(), "unknown command") ||
		strings.Contains(err.Error(), "arg(s), received") {
		return exitBadInput
	}
	return exitInternal
}

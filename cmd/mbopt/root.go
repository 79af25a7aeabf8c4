package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/internal/interrupt"
	"github.com/mbopt/mbopt/internal/selfprofile"
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

// manual is the source of doc.go, whose package comment is the manual.
//
//go:embed doc.go
var manual string

// streams carries the command's standard streams so commands can be run
// in-process by tests.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
	// stopProfile ends --cpuprofile, keeping the profile when keep is
	// set; nil when it is off.
	stopProfile func(keep bool) error
}

// logf prints a progress line of a flow on stderr: "mbopt: " and the
// line.
func (s *streams) logf(format string, args ...any) {
	fmt.Fprintf(s.Err, "mbopt: "+format+"\n", args...)
}

// newRootCmd builds the command tree.
func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "mbopt",
		Short:         "Make Go microbenchmark suites small, fast and relevant",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(cli.FlagError)
	// --help shows the manual's section of the command: go doc and --help
	// say the same, from doc.go.
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c == root {
			c.Long = cli.Manual(manual, "", "Exit status")
		} else {
			c.Long = cli.Manual(manual, c.CommandPath())
		}
		help(c, args)
	})
	for _, add := range subcommands {
		root.AddCommand(add(s))
	}
	var cpuprofile string
	root.PersistentFlags().StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of mbopt itself to `file` (for performance reports, or to use mbopt as its own application); written when the command succeeds, never left by a failed one")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := flagbind.CheckFinite(cmd.Flags()); err != nil {
			return err
		}
		if cpuprofile == "" {
			return nil
		}
		p, err := selfprofile.Start(cpuprofile)
		if errors.Is(err, selfprofile.ErrProfiler) {
			return fmt.Errorf("--cpuprofile: %w", err)
		} else if err != nil {
			return mbopt.Errorf("--cpuprofile %s: %v; choose a file in an existing directory", cpuprofile, err)
		}
		s.stopProfile = p.Stop
		return nil
	}
	return root
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
	newCmdMutate,
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
	code := cli.Code(err, w.Signal())
	switch {
	case code > 128: // interrupt.ExitCode
		interrupted()
	case err != nil:
		fmt.Fprintf(stderr, "mbopt: %v\n", err)
	}
	return code
}

// execute runs the command line args under ctx.
func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	s := &streams{In: stdin, Out: stdout, Err: stderr}
	root := newRootCmd(s)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil && cmd == root && !errors.Is(err, mbopt.ErrInput) {
		// The root command runs nothing: its only errors besides its
		// flags' are cobra's unknown-command errors.
		err = cli.Usage(err)
	}
	if s.stopProfile != nil {
		if perr := s.stopProfile(err == nil); perr != nil && err == nil {
			err = fmt.Errorf("--cpuprofile: %w", perr)
		}
	}
	// The library names its settings as Go does; the one place they are
	// worded as flags is here, where the error is printed.
	return flagbind.Word(err, nil)
}

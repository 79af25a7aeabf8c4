package cli

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/interrupt"
)

// The exit statuses, as the manual's "Exit status" section documents them
// (go doc github.com/mbopt/mbopt/cmd/mbopt). An interrupted run exits with
// interrupt.ExitCode of its signal.
const (
	OK       = 0
	Internal = 1
	BadInput = 2
	Gate     = 3
	Drift    = 4
	// NotLocated: mbopt bisect could not locate the change.
	NotLocated = 5
)

// An ExitError is an error with its own exit status: a failed --fail-on gate
// ([Gate]), drift found by check ([Drift]) or a change bisect could not
// locate ([NotLocated]).
type ExitError struct {
	// Code is the exit status.
	Code int
	// Err is the error printed.
	Err error
}

// Error returns Err's message.
func (e *ExitError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ExitError) Unwrap() error { return e.Err }

// Code maps a command's outcome to the process exit status; it is the one
// place where that happens. Interruption is checked first: once a signal
// arrived, or when the error is a context cancellation, whatever failed did
// so because mbopt was stopping (a killed workload is not bad input), so the
// status is the interrupt's. Then input and usage errors give [BadInput], an
// [*ExitError] its Code, everything else [Internal].
func Code(err error, sig os.Signal) int {
	if sig != nil || errors.Is(err, context.Canceled) {
		return interrupt.ExitCode(sig)
	}
	var ee *ExitError
	switch {
	case err == nil:
		return OK
	case errors.Is(err, mbopt.ErrInput):
		return BadInput
	case errors.As(err, &ee):
		return ee.Code
	}
	return Internal
}

// FlagError is the root command's flag error function (SetFlagErrorFunc),
// which cobra uses for every command: a flag error is bad input whose
// message says where the usage is; a value a flag refused as an input
// error (see flagbind.Positive) is that error, which says what to give.
func FlagError(cmd *cobra.Command, err error) error {
	if ie := (*mbopt.Error)(nil); errors.As(err, &ie) {
		return ie
	}
	return mbopt.Errorf("%w; run '%s --help' for usage", err, cmd.CommandPath())
}

// Args wraps a positional-argument validator, whose errors cobra leaves
// untyped, so that they are usage errors (see [Usage]).
func Args(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return Usage(err)
		}
		return nil
	}
}

// Usage returns one of cobra's usage errors (an unknown command, a wrong
// number of arguments) as bad input, with the advice where the usage is
// added to its first line; the rest (cobra's suggestions) follows.
func Usage(err error) error {
	first, rest, _ := strings.Cut(err.Error(), "\n")
	if rest = strings.TrimSpace(rest); rest != "" {
		rest = "\n" + rest
	}
	return mbopt.Errorf("%s; run 'mbopt --help' for usage%s", first, rest)
}

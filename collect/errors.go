package collect

import (
	"errors"
	"fmt"
)

// ErrNoBenchmarks is returned (wrapped) by [Collect] when the patterns match
// no benchmark.
var ErrNoBenchmarks = errors.New("no benchmarks found")

// ErrInput matches (with errors.Is) every error of [Discover] and [Collect]
// caused by what the Config asks for rather than by the benchmarks or the
// machine: a directory outside any module, a pattern that matches no
// package, an output directory that is a file or cannot be created, an
// invalid Bench or Skip, an output directory in use by another Collect.
// Such errors are [*InputError] values.
var ErrInput = errors.New("invalid collect input")

// ErrLocked matches (with errors.Is) the error of [Collect] when another
// process is collecting into the same output directory. It is also an
// [ErrInput].
var ErrLocked = errors.New("output directory in use")

// An InputError is a problem with one field of the [Config]. Its message
// names the value and says what is wrong, not how a command line spells
// the field: a CLI maps Field to its flag.
type InputError struct {
	// Field is the Config field at fault: "Dir", "Patterns", "Out",
	// "Bench", "Skip", "Shard" or "ShardCosts".
	Field string
	// Err is the problem.
	Err error
}

// Error returns Err's message, which names the Config field.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *InputError) Unwrap() error { return e.Err }

// Is reports whether target is ErrInput.
func (e *InputError) Is(target error) bool { return target == ErrInput }

// inputErrorf returns an *InputError for field.
func inputErrorf(field, format string, args ...any) error {
	return &InputError{Field: field, Err: fmt.Errorf(format, args...)}
}

package compare

import (
	"errors"
	"fmt"
)

// ErrInput matches (with errors.Is) every error of [Run] and [Analyze]
// caused by what the Options or Settings ask for rather than by the
// benchmarks or the machine: an invalid setting, a directory outside a
// git repository or Go module, a revision that names no commit, a bad
// pattern. Such errors are [*InputError] values.
var ErrInput = errors.New("invalid compare input")

// An InputError is a problem with one field of the [Options] or
// [Settings]. Its message names the value and says what is wrong, not how
// a command line spells the field: a CLI maps Field to its flag.
type InputError struct {
	// Field is the field at fault, such as "Base", "Dir" or
	// "Settings.Trials".
	Field string
	// Err is the problem.
	Err error
}

// Error returns Err's message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *InputError) Unwrap() error { return e.Err }

// Is reports whether target is ErrInput.
func (e *InputError) Is(target error) bool { return target == ErrInput }

func inputErrorf(field, format string, args ...any) error {
	return &InputError{Field: field, Err: fmt.Errorf(format, args...)}
}

// Package mbopt holds what every package of the module shares: the one
// input-error type. An [*Error] is a
// problem with what the caller asked for — a setting, a file, a revision —
// rather than with the machine or the code under measurement. Every library
// package returns such problems as *Error values, and every *Error matches
// [ErrInput] with errors.Is, so a front end needs one test to tell bad input
// from a failure (mbopt exits with status 2 for it).
//
// An error names the settings that cause or fix it as [Field] values: paths
// of a configuration struct's fields, such as "Select.Budget" in an
// analysis.Config or "Settings.Trials" in a compare.Options. A front end with
// its own names for the settings, such as a command line's flags, words the
// message its way with [Error.Text]; [Error.Error] names them as Go code
// does, "Config.Select.Budget".
package mbopt

import (
	"errors"
	"fmt"
)

// ErrInput matches (with errors.Is) every [*Error], and nothing else: an
// error of another type that the input caused and that carries data of its
// own (such as analysis.NoProjectFunctionsError) is returned inside an
// *Error (see [Wrap]).
var ErrInput = errors.New("bad input")

// A Field is the path of a configuration struct's field, such as "Modules"
// or "Select.CostsFile". A package declares the fields its errors name as
// constants beside the struct, named Field and the path without its dots
// (analysis.FieldSelectCostsFile), and its TestFields checks each against
// the struct (testkit/fieldtest); a front end binds its own names to them
// (mbopt's flags: internal/flagbind.Bind).
type Field string

// String returns the field as Go code names it in a struct named Config:
// "Config." + the path.
func (f Field) String() string { return "Config." + string(f) }

// Errorf returns an [*Error] about f: its message, Format and Args as for
// fmt.Errorf, does not name f, and a front end may put its own name for f
// before it.
func (f Field) Errorf(format string, args ...any) error {
	return &Error{Field: f, Format: format, Args: args}
}

// An Error is an input error. Its message is Format and Args as for
// fmt.Errorf (%w wraps); every Arg of type [Field] prints through the naming
// function given to [Error.Text], and through Struct in [Error.Error].
//
// An Error matches [ErrInput] with errors.Is, and every error among Args
// with errors.Is and errors.As.
type Error struct {
	// Field, when not empty, is the setting the whole message is about,
	// which the message does not name: a front end puts its own name for
	// Field before the message (see [Error.Text]). Errors whose message
	// names its settings among Args leave it empty.
	Field Field
	// Struct is the Go name of the configuration type the Fields among
	// Args belong to, as [Error.Error] names them; empty means "Config".
	Struct string
	// Format is the message's format string.
	Format string
	// Args are its arguments; the Fields among them are named by Text.
	Args []any
}

// Errorf returns an [*Error] with the message Format and Args, as for
// fmt.Errorf; the Fields among Args are the settings it names.
func Errorf(format string, args ...any) error {
	return &Error{Format: format, Args: args}
}

// Wrap returns err as an [*Error] with err's message; nil stays nil.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Format: "%w", Args: []any{err}}
}

// Error returns the message with every field among Args named as Go code
// names it: Struct (or "Config") + "." + the path.
func (e *Error) Error() string {
	s := e.Struct
	if s == "" {
		s = "Config"
	}
	return e.Text(func(f Field) string { return s + "." + string(f) })
}

// Text returns the message with every field among Args named by name, also
// in the errors among Args that name fields (an *Error, or an error with
// such a Text method). Field is not named: a front end that has a name for
// it puts that before the message.
func (e *Error) Text(name func(Field) string) string {
	args := make([]any, len(e.Args))
	for i, a := range e.Args {
		switch a := a.(type) {
		case Field:
			args[i] = name(a)
		case texter:
			args[i] = named(a.Text(name))
		default:
			args[i] = a
		}
	}
	return fmt.Errorf(e.Format, args...).Error()
}

// texter is an error whose message names fields, as Error.Text does.
type texter interface {
	error
	Text(name func(Field) string) string
}

// named is the message of an error among Args, its fields named.
type named string

func (n named) Error() string { return string(n) }

// Fields returns the fields the message names among Args, in order.
func (e *Error) Fields() []Field {
	var fs []Field
	for _, a := range e.Args {
		if f, ok := a.(Field); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// Unwrap returns [ErrInput] and the errors among Args.
func (e *Error) Unwrap() []error {
	errs := []error{ErrInput}
	for _, a := range e.Args {
		if err, ok := a.(error); ok {
			errs = append(errs, err)
		}
	}
	return errs
}

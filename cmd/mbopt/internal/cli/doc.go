// Package cli is the plumbing mbopt's commands share: exit statuses, the
// recognition of usage errors, the library's settings named by their flags,
// enumerated flag values, -o output files and warnings on stderr. The
// commands only map flags to library calls; what they share in doing so is
// here, once. The progress they print is the libraries' own
// (collect.ProgressPrinter, compare.ProgressPrinter).
//
// # Flags and settings
//
// A flag is defined with [Bind] (or [Positive], [Optional]), which records
// the library settings it sets, such as compare.FieldSettingsTrials for
// --trials: the errors and warnings of the library name their settings,
// and [Word] names them by those flags, from the bindings alone. The
// library takes a zero setting for its default; a flag whose zero would
// silently become the default refuses it as it is parsed ([Positive]),
// and a setting whose absence means something no value says is a pointer
// the flag sets when given ([Optional]).
//
// # Exit status
//
// mbopt exits with one of the statuses of the constants below, which the
// manual documents (its "Exit status" section: go doc
// github.com/mbopt/mbopt/cmd/mbopt, or mbopt --help); [Code] maps a
// command's error to it, in one place.
//
// Bad input is every error matching mbopt.ErrInput: the library's
// [*mbopt.Error] values, the commands' own checks of their flags (which
// return input errors too), and cobra's usage errors, which cobra leaves
// untyped: [FlagError] (the root command's flag error function), [Args]
// (every positional-argument validator) and [Usage] (the root command's
// unknown-command error) make them input errors.
package cli

// Package cli is the plumbing mbopt's commands share: exit statuses, the
// recognition of usage errors, the manual's sections as help, -o output
// files and warnings on stderr. The
// commands only map flags to library calls; what they share in doing so is
// here, once. The progress they print is the libraries' own
// (collect.ProgressPrinter, compare.ProgressPrinter).
//
// # Flags and settings
//
// Flags are bound to the library's settings with package
// internal/flagbind, which records the settings each flag sets and words
// the library's errors and warnings by those flags ([Warn] and the
// commands' errors go through flagbind.Word).
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

// Package flagbind binds command-line flags to the library's settings and
// words the library's messages by those flags. The library names its
// settings as Go does, with mbopt.Field paths such as
// compare.FieldSettingsTrials ("Settings.Trials"); a command defines each
// flag once, with [Bind] (or [BindP], [Positive], [Optional], [Parsed],
// [Choice]), which stores the value in the typed field and records the
// settings it sets, so that [Word] names them by their flags ("--trials")
// from the bindings alone, with no map kept by hand.
//
// The library takes a zero setting for its default; a flag whose zero would
// silently become the default refuses it as it is parsed ([Positive]), a
// setting whose absence means something no value says is a pointer the
// flag sets when given ([Optional]), and [CheckFinite] refuses NaN and
// infinities in every float flag. [Size] parses byte sizes such as 512MiB.
package flagbind

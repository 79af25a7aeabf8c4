package flagbind

import (
	"errors"
	"math"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/textutil"
)

// limitFlags maps the callgraph.Limits fields that library messages name,
// as "(Limits.Field)", to the flags that set them.
var limitFlags = strings.NewReplacer(
	"(Limits.MaxFileBytes)", "(raise it with --max-profile-bytes)",
	"(Limits.MaxDecodedBytes)", "(raise it with --max-decoded-bytes)",
)

// Words returns msg with the library's names of the profile size limits
// replaced by the flags that set them.
func Words(msg string) string { return limitFlags.Replace(msg) }

// texter is implemented by the library's errors and warnings that name
// settings: mbopt.Error and the analysis warnings with a Text method.
type texter interface {
	error
	Text(name func(mbopt.Field) string) string
}

// worded is a library error or warning worded with flag names. It unwraps
// to the library's value, so errors.Is and errors.As still see it.
type worded struct {
	msg string
	err error
}

func (e *worded) Error() string { return e.msg }
func (e *worded) Unwrap() error { return e.err }

// Word returns err worded with the command's flags: the settings an
// [*mbopt.Error] names, or its Field's flag before its message (override
// names fields first, then the flags bound: see [Flag]), a warning's
// settings and the size limits. The result unwraps to err.
func Word(err error, override map[mbopt.Field]string) error {
	var w *worded
	if err == nil || errors.As(err, &w) {
		return err
	}
	name := func(f mbopt.Field) string {
		if n, ok := override[f]; ok {
			return n
		}
		n, _ := Flag(f)
		return n
	}
	msg := err.Error()
	var ie *mbopt.Error
	if t, ok := err.(texter); ok && !errors.As(err, &ie) {
		msg = t.Text(name) // a warning, or another error that names settings
	} else if errors.As(err, &ie) {
		text := ie.Text(name)
		if n, ok := override[ie.Field]; ok {
			text = n + ": " + text
		} else if n, ok := Flag(ie.Field); ok && ie.Field != "" {
			text = n + ": " + text
		}
		msg = strings.Replace(msg, ie.Error(), text, 1)
	}
	if msg = Words(msg); msg == err.Error() {
		return err
	}
	return &worded{msg, err}
}

// Size is a flag holding a byte count written as textutil.ParseSize reads
// it; 0 (not set) prints as "".
type Size struct {
	N *int64 // the count the flag sets
}

// Set parses s.
func (v Size) Set(s string) error {
	n, err := textutil.ParseSize(s)
	if err != nil {
		return err
	}
	*v.N = n
	return nil
}

// String returns the size as textutil.FormatSize writes it.
func (v Size) String() string {
	if v.N == nil || *v.N == 0 {
		return ""
	}
	return textutil.FormatSize(*v.N)
}

// Type names the flag's value in the usage.
func (Size) Type() string { return "size" }

// CheckFinite refuses a NaN or infinite value of any float flag set on the
// command line: the one check of every float flag, which the root command
// applies before any command runs (a range check such as threshold < 0
// lets NaN through).
func CheckFinite(fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if f.Value.Type() != "float64" || err != nil {
			return
		}
		if x, gerr := fs.GetFloat64(f.Name); gerr == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
			err = mbopt.Errorf("--%s %s: want a finite number, such as its default %s", f.Name, f.Value, f.DefValue)
		}
	})
	return err
}

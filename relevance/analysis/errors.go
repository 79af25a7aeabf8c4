package analysis

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/textutil"
)

// The warnings of [Report.Warnings]: caveats that did not stop the analysis.
// Each is an error a caller can pick out with errors.As; those that a
// setting can fix have a Text method that names it, as [mbopt.Error.Text].

// ModuleFromGoModWarning says that the project's module was taken from a
// go.mod because Config.Modules was empty and no manifest named one.
type ModuleFromGoModWarning struct {
	// Module is the module path read.
	Module string
	// GoMod is the go.mod file it came from.
	GoMod string
}

// Error returns the warning with the Modules field named as Go code names it.
func (w *ModuleFromGoModWarning) Error() string { return w.Text(mbopt.Field.String) }

// Text returns the warning with the Modules field named by name.
func (w *ModuleFromGoModWarning) Text(name func(mbopt.Field) string) string {
	return fmt.Sprintf("project module %s taken from %s; use %s to choose another", w.Module, w.GoMod, name(FieldModules))
}

// NoProjectFunctionWarning says that no application function belongs to
// the project modules, so every project-only figure is empty.
type NoProjectFunctionWarning struct {
	// Modules are the project module prefixes used.
	Modules []string
}

// Error returns the warning with the Modules field named as Go code names it.
func (w *NoProjectFunctionWarning) Error() string { return w.Text(mbopt.Field.String) }

// Text returns the warning with the Modules field named by name.
func (w *NoProjectFunctionWarning) Text(name func(mbopt.Field) string) string {
	return fmt.Sprintf("no application function belongs to %s: project-only figures are empty; pass %s with the module path of the profiled program", strings.Join(w.Modules, ", "), name(FieldModules))
}

// NoSharedFunctionWarning says that a benchmark's profile has no function
// in common with the application: it covers nothing.
type NoSharedFunctionWarning struct {
	// ID is the benchmark's id.
	ID string
}

// Error returns the warning.
func (w *NoSharedFunctionWarning) Error() string {
	return fmt.Sprintf("benchmark %s shares no function with the application", w.ID)
}

// A Note is an entry of [Report.Warnings] that informs rather than warns:
// nothing is wrong, but the reader should know (where the costs came
// from). Front ends print notes as information; pick them out with
// [IsNote].
type Note interface {
	error
	// Note marks the type as information.
	Note()
}

// IsNote reports whether err is or wraps a [Note].
func IsNote(err error) bool {
	var n Note
	return errors.As(err, &n)
}

// CostSourceNote says where the benchmark costs of a budgeted selection or
// of the cost objective came from when Config.Select named none: the
// collection manifests or the profiles' durations. It is a [Note].
type CostSourceNote struct {
	// Source is the manifests (with their files, in the order of
	// Config.Micro) or the profiles.
	Source CostSource
}

// Error returns the note.
func (w *CostSourceNote) Error() string {
	return "benchmark costs taken from " + w.Source.String()
}

// Note marks CostSourceNote as information.
func (w *CostSourceNote) Note() {}

// MDEHistoryWarning says that the history database the benchmarks'
// minimum detectable effects would have come from could not be read
// (SensitivityConfig.HistoryWarning): every benchmark took the default
// MDE.
type MDEHistoryWarning struct {
	// Err is why, naming the database.
	Err error
}

// Error returns the warning.
func (w *MDEHistoryWarning) Error() string {
	return fmt.Sprintf("%v; the benchmarks' minimum detectable effects are the typical value", w.Err)
}

// Unwrap returns Err.
func (w *MDEHistoryWarning) Unwrap() error { return w.Err }

// NoCertificateWarning says that Config.Certify asked for an optimality
// certificate that could not be computed.
type NoCertificateWarning struct {
	// Err is why.
	Err error
}

// Error returns the warning.
func (w *NoCertificateWarning) Error() string {
	return fmt.Sprintf("no optimality certificate: %v", w.Err)
}

// Unwrap returns Err.
func (w *NoCertificateWarning) Unwrap() error { return w.Err }

// UnnamedFramesWarning says that the application profile has frames without
// a function name, which the call graph leaves out (see package callgraph),
// and how much of the profile's time is therefore in no function.
type UnnamedFramesWarning struct {
	// Frames is the number of unnamed frames left out.
	Frames int
	// Seconds is the time of the samples charged to no function, in Unit;
	// Total is the profile's whole time.
	Seconds, Total float64
	// Unit is the graph's unit, "seconds" for CPU profiles.
	Unit string
}

// Error returns the warning: the frames and the share of time in no function.
func (w *UnnamedFramesWarning) Error() string {
	return fmt.Sprintf("application profile: %s without a function name left out of the call graph; %.3g %s (%.1f%%) of its time is in no function",
		textutil.Plural(w.Frames, "frame"), w.Seconds, w.Unit, 100*w.Seconds/max(w.Total, math.SmallestNonzeroFloat64))
}

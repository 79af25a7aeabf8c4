package callgraph

// The two nouns mbopt's halves share, what a benchmark and a function
// mean for the application: the relevance half (package analysis, from
// profiles of the application and the suite) computes an [Impact] per
// benchmark and the [Application]'s shares; the comparison half (package
// compare) attaches the Impact to each verdict, so a regression in a
// benchmark that covers hot application code reads differently from one
// in a benchmark that covers none, and package culprit weighs a
// benchmark's per-function change by the Application. Neither half
// imports the other: both import this package.

// An Impact says what a benchmark means for the application, from the
// analysis of the suite: its attributed and its reference impact, and the
// application functions it covers. In compare's JSON it is a result's
// "impact" object.
type Impact struct {
	// Attributed is the share of the application's CPU time attributed
	// to the functions the benchmark covers (0..1).
	Attributed float64 `json:"attributed"`
	// Flat is the share of the application's flat (self) CPU time in the
	// functions the benchmark covers (0..1), the paper's reference impact.
	Flat float64 `json:"flat"`
	// Functions are the project functions of the application that the
	// benchmark covers, sorted by name.
	Functions []string `json:"functions,omitempty"`
	// Unit is what Attributed and Flat are shares of when it is not the
	// application's CPU time: its profile's unit ([Graph.WeightUnit]),
	// such as "instructions" for an instruction profile of the
	// application read with [Options.AllowNonCPU]; "" (absent in JSON)
	// for a CPU profile.
	Unit string `json:"unit,omitempty"`
}

// An Application is the application's reference profile as the comparison
// half weighs a benchmark's change by: what share of the application's CPU
// time each function takes, and from which callers. The relevance half
// builds it from the application graph (package analysis); package culprit
// turns a benchmark's per-function change into the application's with it.
//
// Function names are those [NormalizeName] writes.
type Application struct {
	// Shares maps each function the application runs to its flat (self)
	// share of the application's CPU time, 0..1. A function that the
	// application's function set (coverage) says ran but that the profile
	// never sampled has the share Floor and is in Floored.
	Shares map[string]float64
	// Floored names the functions whose share is Floor: they ran, but
	// took less time than one sample of the profile, so their time is
	// not measured, only bounded.
	Floored map[string]bool
	// Floor is the share given to a function the profile did not sample:
	// half of one sample's share of the profile, the expected time of a
	// function that ran for less than one sample.
	Floor float64
	// Callers splits a function's share by the frame above it on the
	// profile's stacks: Callers[f][c] is the share of the application's
	// CPU time spent in f's own code while called from c (an inlined
	// frame is a caller like any other). A sample whose leaf is the
	// stack's only frame, or whose caller is f itself, is in no entry, so
	// the entries of f add up to at most Shares[f].
	Callers map[string]map[string]float64
	// Owners splits the share of a function outside the project (the
	// runtime, the standard library, dependencies) by the project
	// function it runs under: Owners[f][c] is the share of the
	// application's CPU time spent in f's own code while c was the
	// innermost project frame on the stack (Graph.FlatOwners), however
	// many external frames lie between (Encode → makeslice → mallocgc →
	// memclrNoHeapPointers is memclrNoHeapPointers under Encode). A
	// sample without a project frame (the collector's workers, the
	// scheduler) is in no entry, so the entries of f add up to at most
	// Shares[f]; a project function has none. It is the calling context
	// in which package culprit weighs an external function's change.
	Owners map[string]map[string]float64
	// Samples is the number of samples the shares were measured from
	// (a CPU profile's samples at 100 Hz); 0 means unknown. The
	// application impact's interval carries their sampling error: a
	// share s of n samples is known to within about √(s(1−s)/n).
	Samples int64
}

// Share returns f's share of the application's CPU time and whether the
// application runs f at all; 0 and false for a nil Application.
func (a *Application) Share(f string) (float64, bool) {
	if a == nil {
		return 0, false
	}
	s, ok := a.Shares[f]
	return s, ok
}

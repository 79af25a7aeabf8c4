package relevance

// An Application is the application's reference profile as the comparison
// half weighs a benchmark's change by: what share of the application's CPU
// time each function takes, and from which callers. The relevance half
// builds it from the application graph (package analysis); package culprit
// turns a benchmark's per-function change into the application's with it.
//
// Function names are those callgraph.NormalizeName writes.
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

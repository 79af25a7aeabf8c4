// Package relevance is the one noun mbopt's two halves share: what a
// benchmark means for the application. The relevance half (package
// analysis, from profiles of the application and the suite) computes an
// [Impact] per benchmark; the comparison half (package compare) attaches it
// to each verdict, so a regression in a benchmark that covers hot
// application code reads differently from one in a benchmark that covers
// none. Neither half imports the other: both import this package.
package relevance

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
}

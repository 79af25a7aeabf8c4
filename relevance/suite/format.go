package suite

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A Format names an output format of [Write].
type Format string

// The formats [Write] supports.
const (
	// FormatShell writes one shell command line per invocation; one with
	// affected benchmarks ends in a comment naming them:
	// "  # affected: BenchmarkA BenchmarkB".
	FormatShell Format = "shell"
	// FormatJSON writes {"invocations": [...]} with the fields of
	// [Invocation], indented.
	FormatJSON Format = "json"
	// FormatList writes one "package Benchmark" line per benchmark, with a
	// third field "affected" for an affected benchmark.
	FormatList Format = "list"
)

// Formats lists the valid formats, in help order.
var Formats = []Format{FormatShell, FormatJSON, FormatList}

// FormatNames returns the names of [Formats], in help order, as a choice
// of format lists them.
func FormatNames() []string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return names
}

// Write writes invs to w in the given format, in the order given (Plan's
// order: by package, then benchmark name). It fails on an unknown format,
// listing the valid ones, or when w fails.
func Write(w io.Writer, invs []Invocation, f Format) error {
	var b strings.Builder
	switch f {
	case FormatShell:
		for _, inv := range invs {
			b.WriteString(inv.Command())
			if len(inv.Affected) > 0 {
				b.WriteString("  # affected: " + strings.Join(inv.Affected, " "))
			}
			b.WriteByte('\n')
		}
	case FormatList:
		for _, inv := range invs {
			for _, name := range inv.Benchmarks {
				if slices.Contains(inv.Affected, name) {
					fmt.Fprintf(&b, "%s %s affected\n", inv.Package, name)
					continue
				}
				fmt.Fprintf(&b, "%s %s\n", inv.Package, name)
			}
		}
	case FormatJSON:
		if invs == nil {
			invs = []Invocation{}
		}
		data, err := json.MarshalIndent(struct {
			Invocations []Invocation `json:"invocations"`
		}{invs}, "", "  ")
		if err != nil {
			return err
		}
		b.Write(data)
		b.WriteByte('\n')
	default:
		return fmt.Errorf("unknown suite format %q: valid values are {shell|json|list}", f)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

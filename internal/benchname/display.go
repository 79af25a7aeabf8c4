package benchname

import "strings"

// Display returns the benchmark with the full name name in package pkg of
// module as mbopt shows it: the package relative to the module, a dot and
// the name ("storage.BenchmarkSearch/n=10"); the name alone in the
// module's root package; the id ([ID]) when the package is outside the
// module or the module is unknown (""). Commands that take benchmark names
// accept this form beside the id and the full name.
func Display(module, pkg, name string) string {
	switch {
	case module == "":
		return ID(pkg, name)
	case pkg == module:
		return name
	}
	if rel, ok := strings.CutPrefix(pkg, module+"/"); ok {
		return ID(rel, name)
	}
	return ID(pkg, name)
}

// Package enum names the values of the module's enumerations and parses
// the names: the one rule of their String methods (an integer enumeration's
// name, or "Type(n)") and of the Parse… functions (optimize.ParseObjective,
// compare.ParseFailOn, …) that find the value a name stands for and, for a
// name that stands for none, list the valid names in the error.
package enum

import (
	"fmt"
	"slices"
	"strings"
)

// Name returns the name of v, a value of an integer enumeration whose
// constants are 0, 1, 2, … (iota): names[v], or "TYPE(v)" for a value out of
// their range.
func Name[T ~int](typ string, v T, names ...string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}

// Parse returns the value among valid whose String is s. For any other s
// the error is Check's.
func Parse[T fmt.Stringer](what, s string, valid ...T) (T, error) {
	names := make([]string, len(valid))
	for i, v := range valid {
		if names[i] = v.String(); names[i] == s {
			return v, nil
		}
	}
	var zero T
	return zero, Check(what, s, names...)
}

// Check returns nil when s is one of names, else the error `WHAT "s":
// valid values are {a|b|c}`, names in their order, what saying what s is,
// such as "invalid objective".
func Check(what, s string, names ...string) error {
	if slices.Contains(names, s) {
		return nil
	}
	return fmt.Errorf("%s %q: valid values are {%s}", what, s, strings.Join(names, "|"))
}

// ParseName is [Parse] for an enumeration whose values are their names
// (a string type): the value of valid equal to s, or the error
// `WHAT "s": valid values are {a|b|c}`, as [Check] words it.
func ParseName[T ~string](what, s string, valid []T) (T, error) {
	names := make([]string, len(valid))
	for i, v := range valid {
		if names[i] = string(v); names[i] == s {
			return v, nil
		}
	}
	return "", Check(what, s, names...)
}

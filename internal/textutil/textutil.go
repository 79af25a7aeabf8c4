// Package textutil holds the small text rules that several packages print
// by: the first line of a message, counted nouns, POSIX shell quoting,
// byte counts and the escaping of control characters in text from
// benchmarks.
package textutil

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Plural returns n and noun, in the plural unless n is 1: "1 benchmark",
// "0 benchmarks", "19 benchmarks". The plural adds "s", which is right for
// every noun mbopt counts (benchmark, profile, function, package, file,
// frame, scenario, pick, cost, weight).
func Plural(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Noun returns noun in the plural unless n is 1, without the number, for
// "3 of 1 benchmark" style phrases: fmt.Sprintf("%d of %d %s", k, n,
// Noun(n, "benchmark")). See [Plural] for the rule.
func Noun(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// FirstLine returns s up to its first newline.
func FirstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// shellSafe are the bytes that never need quoting in a POSIX shell word.
const shellSafe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%"

// ShellQuote returns s as one POSIX shell word: unchanged when it is
// non-empty and made only of letters, digits and -_./=:,+@%, else in single
// quotes, with each ' written as '\”.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, shellSafe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sizeUnits are the suffixes ParseSize accepts, longest first so that
// "KiB" is not read as "B" after a number "1Ki".
var sizeUnits = []struct {
	suffix string
	factor int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// ParseSize parses a byte count such as "1073741824", "512MiB", "1.5GiB",
// "2G" (binary) or "500MB" (decimal). Units are case-insensitive. The
// result is positive.
func ParseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	factor := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, factor = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.factor
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("invalid size %q: want a byte count such as 1073741824, 512MiB or 2GiB", s)
	}
	n := v * float64(factor)
	if n < 1 || n >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid size %q: must be at least 1 byte and below 8 EiB", s)
	}
	return int64(n), nil
}

// FormatSize formats n bytes for flag help: "256MiB", "1GiB", or the plain
// count when no binary unit divides it.
func FormatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		factor int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.factor && n%u.factor == 0 {
			return strconv.FormatInt(n/u.factor, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// EscapeControl returns s with every control character not in keep (C0,
// DEL, C1, and the Unicode line and paragraph separators U+2028 and
// U+2029) written as Go writes it in a string literal: \x1b, \u2028.
// Text from a benchmark (its name, what it printed or panicked with)
// passes through it before mbopt shows it, so that it cannot move a
// terminal's cursor, recolour a log or start a line of its own. A string
// without such characters is returned as it is.
func EscapeControl(s, keep string) string {
	isControl := func(r rune) bool {
		return (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029') && !strings.ContainsRune(keep, r)
	}
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !isControl(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// List joins the first n items with ", " and counts the rest: "a, b, c and
// 4 more" (all of them when there are at most n; "7 more" when n is 0).
func List(items []string, n int) string {
	n = max(n, 0)
	switch {
	case len(items) <= n:
		return strings.Join(items, ", ")
	case n == 0:
		return fmt.Sprintf("%d more", len(items))
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// Package textutil holds the small text rules that several packages print
// by: the first line of a message, counted nouns and POSIX shell quoting.
package textutil

import (
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

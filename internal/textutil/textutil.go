// Package textutil holds the small text rules that several packages print
// by: the first line of a message and POSIX shell quoting.
package textutil

import "strings"

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

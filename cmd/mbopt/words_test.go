package main

import (
	"fmt"
	"strings"
)

// splitWords splits a command line into words as a POSIX shell would for
// words made of plain characters, 'single-quoted' and "double-quoted"
// strings and backslash escapes. Shell operators and expansions are errors:
// the README's examples and the bad-input corpus's cases run without a
// shell. With vars, an unquoted $NAME is kept as written, for the corpus
// to expand with its own variables.
func splitWords(line string, vars bool) ([]string, error) {
	var args []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				args = append(args, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("%q: unterminated single quote", line)
			}
			w.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\\\"$`", line[i+1]) >= 0 {
					i++
				} else if line[i] == '$' || line[i] == '`' {
					return nil, fmt.Errorf("%q: expansions need a shell; tested examples run without one", line)
				}
				w.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, fmt.Errorf("%q: unterminated double quote", line)
			}
			inWord = true
		case c == '\\':
			if i+1 == len(line) {
				return nil, fmt.Errorf("%q: trailing backslash", line)
			}
			i++
			w.WriteByte(line[i])
			inWord = true
		case c == '$' && vars:
			w.WriteByte(c) // a corpus case's $NAME, expanded later
			inWord = true
		case strings.IndexByte("|&;<>()$`*?[", c) >= 0 || !inWord && (c == '#' || c == '~'):
			return nil, fmt.Errorf("%q: %q needs a shell; tested examples run without one", line, c)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		args = append(args, w.String())
	}
	return args, nil
}

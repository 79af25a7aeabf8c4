// Package query implements tinytsdb's small query language and evaluates
// it against a [storage.Table].
//
// The grammar is
//
//	expr     = call | selector
//	call     = func "(" expr ")" [ "by" "(" ident { "," ident } ")" ]
//	func     = "sum" | "avg" | "min" | "max" | "count" | "rate"
//	selector = metric [ "{" matcher { "," matcher } "}" ] [ "[" duration "]" ]
//	matcher  = ident ( "=" | "!=" | "=~" ) string
//	duration = number ( "ms" | "s" | "m" | "h" | "d" )
//
// for example
//
//	cpu_usage{host="h01"}
//	avg(cpu_usage{region=~"eu-.*"}) by (host)
//	sum(rate(http_requests_total{code!="500"}[5m])) by (region)
//
// A query is evaluated over a range [start, end] with a step, producing one
// value per step and output series (see [Engine.Exec]).
package query

import (
	"fmt"
	"strconv"
	"strings"

	"example.com/tinytsdb/storage"
)

// Expr is a parsed query expression: a *Selector or a *Call.
type Expr interface {
	String() string
}

// Selector selects raw series of one metric.
type Selector struct {
	Metric   string
	Matchers []storage.Matcher
	Range    int64 // lookback window in ms; 0 means the query step
}

// Call applies a function to its argument.
type Call struct {
	Func string // one of the aggregations or "rate"
	Arg  Expr
	By   []string // grouping tags of an aggregation; nil means one group
}

func (s *Selector) String() string {
	var sb strings.Builder
	sb.WriteString(s.Metric)
	if len(s.Matchers) > 0 {
		sb.WriteByte('{')
		for i, m := range s.Matchers {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(m.String())
		}
		sb.WriteByte('}')
	}
	if s.Range > 0 {
		fmt.Fprintf(&sb, "[%s]", FormatDuration(s.Range))
	}
	return sb.String()
}

func (c *Call) String() string {
	s := c.Func + "(" + c.Arg.String() + ")"
	if len(c.By) > 0 {
		s += " by (" + strings.Join(c.By, ", ") + ")"
	}
	return s
}

var aggregations = map[string]bool{"sum": true, "avg": true, "min": true, "max": true, "count": true}

// SyntaxError reports a parse failure at a byte offset of the query.
type SyntaxError struct {
	Query  string
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("query %q: offset %d: %s", e.Query, e.Offset, e.Msg)
}

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokIdent
	tokString
	tokDuration
	tokPunct // ( ) { } [ ] , = != =~
)

type token struct {
	kind tokenKind
	text string // for tokString, the unquoted value
	pos  int
}

type parser struct {
	query string
	toks  []token
	i     int
}

// Parse parses a query. Errors are *SyntaxError.
func Parse(q string) (Expr, error) {
	toks, err := lex(q)
	if err != nil {
		return nil, err
	}
	p := &parser{query: q, toks: toks}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errorf(t, "unexpected %q after expression", t.text)
	}
	return e, nil
}

func lex(q string) ([]token, error) {
	var toks []token
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(q) && (isIdentStart(q[j]) || isDigit(q[j])) {
				j++
			}
			toks = append(toks, token{tokIdent, q[i:j], i})
			i = j
		case isDigit(c):
			j := i + 1
			for j < len(q) && (isDigit(q[j]) || q[j] >= 'a' && q[j] <= 'z') {
				j++
			}
			toks = append(toks, token{tokDuration, q[i:j], i})
			i = j
		case c == '"':
			j := i + 1
			for j < len(q) && q[j] != '"' {
				if q[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(q) {
				return nil, &SyntaxError{q, i, "unterminated string"}
			}
			s, err := strconv.Unquote(q[i : j+1])
			if err != nil {
				return nil, &SyntaxError{q, i, "invalid string: " + err.Error()}
			}
			toks = append(toks, token{tokString, s, i})
			i = j + 1
		case c == '!' || c == '=':
			if strings.HasPrefix(q[i:], "!=") || strings.HasPrefix(q[i:], "=~") {
				toks = append(toks, token{tokPunct, q[i : i+2], i})
				i += 2
			} else if c == '=' {
				toks = append(toks, token{tokPunct, "=", i})
				i++
			} else {
				return nil, &SyntaxError{q, i, "unexpected '!'"}
			}
		case strings.IndexByte("(){}[],", c) >= 0:
			toks = append(toks, token{tokPunct, q[i : i+1], i})
			i++
		default:
			return nil, &SyntaxError{q, i, fmt.Sprintf("unexpected character %q", c)}
		}
	}
	return append(toks, token{kind: tokEOF, text: "end of query", pos: len(q)}), nil
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return &SyntaxError{p.query, t.pos, fmt.Sprintf(format, args...)}
}

func (p *parser) expect(punct string) error {
	if t := p.next(); t.kind != tokPunct || t.text != punct {
		return p.errorf(t, "expected %q, found %q", punct, t.text)
	}
	return nil
}

func (p *parser) accept(punct string) bool {
	if t := p.peek(); t.kind == tokPunct && t.text == punct {
		p.i++
		return true
	}
	return false
}

func (p *parser) expr() (Expr, error) {
	t := p.next()
	if t.kind != tokIdent {
		return nil, p.errorf(t, "expected metric or function name, found %q", t.text)
	}
	if p.accept("(") {
		return p.call(t)
	}
	return p.selector(t)
}

func (p *parser) call(name token) (Expr, error) {
	if !aggregations[name.text] && name.text != "rate" {
		return nil, p.errorf(name, "unknown function %q", name.text)
	}
	arg, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	c := &Call{Func: name.text, Arg: arg}
	if c.Func == "rate" {
		if s, ok := arg.(*Selector); !ok || s.Range == 0 {
			return nil, p.errorf(name, "rate needs a range selector such as m[5m], found %s", arg)
		}
		return c, nil
	}
	if t := p.peek(); t.kind == tokIdent && t.text == "by" {
		p.i++
		if err := p.expect("("); err != nil {
			return nil, err
		}
		for {
			t := p.next()
			if t.kind != tokIdent {
				return nil, p.errorf(t, "expected tag name in by clause, found %q", t.text)
			}
			c.By = append(c.By, t.text)
			if p.accept(")") {
				break
			}
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

func (p *parser) selector(name token) (Expr, error) {
	s := &Selector{Metric: name.text}
	if p.accept("{") && !p.accept("}") {
		for {
			key := p.next()
			if key.kind != tokIdent {
				return nil, p.errorf(key, "expected tag name, found %q", key.text)
			}
			opTok := p.next()
			var op storage.MatchOp
			switch opTok.text {
			case "=":
				op = storage.MatchEqual
			case "!=":
				op = storage.MatchNotEqual
			case "=~":
				op = storage.MatchRegexp
			default:
				return nil, p.errorf(opTok, "expected =, != or =~, found %q", opTok.text)
			}
			val := p.next()
			if val.kind != tokString {
				return nil, p.errorf(val, "expected quoted string, found %q", val.text)
			}
			m, err := storage.NewMatcher(key.text, op, val.text)
			if err != nil {
				return nil, p.errorf(val, "%v", err)
			}
			s.Matchers = append(s.Matchers, m)
			if p.accept("}") {
				break
			}
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	if p.accept("[") {
		t := p.next()
		d, err := ParseDuration(t.text)
		if err != nil || t.kind != tokDuration {
			return nil, p.errorf(t, "invalid range %q", t.text)
		}
		s.Range = d
		if err := p.expect("]"); err != nil {
			return nil, err
		}
	}
	return s, nil
}

var units = []struct {
	suffix string
	ms     int64
}{{"ms", 1}, {"s", 1000}, {"m", 60 * 1000}, {"h", 3600 * 1000}, {"d", 24 * 3600 * 1000}}

// ParseDuration parses a positive duration such as "30s", "5m" or "250ms"
// into milliseconds. A bare number means milliseconds.
func ParseDuration(s string) (int64, error) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	if i == len(s) {
		return n, nil
	}
	for _, u := range units {
		if s[i:] == u.suffix {
			return n * u.ms, nil
		}
	}
	return 0, fmt.Errorf("invalid duration %q: unknown unit %q", s, s[i:])
}

// FormatDuration formats ms with the largest unit that divides it.
func FormatDuration(ms int64) string {
	for i := len(units) - 1; i >= 0; i-- {
		if ms%units[i].ms == 0 {
			return strconv.FormatInt(ms/units[i].ms, 10) + units[i].suffix
		}
	}
	return strconv.FormatInt(ms, 10) + "ms"
}

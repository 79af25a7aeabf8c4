package enum

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

type level int

func (l level) String() string { return Name("level", l, "low", "high") }

type color string

// outcome is the value parsed, or the error's message.
func outcome(v any, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprint(v)
}

// TestName: the names by value, from 0, and a value out of their range
// as its type and number.
func TestName(t *testing.T) {
	for v, want := range map[level]string{0: "low", 1: "high", 2: "level(2)", -1: "level(-1)"} {
		assert.Equal(t, want, v.String(), "%d", int(v))
	}
}

// TestParse: each name gives its value, other names an error listing the
// valid ones in the order given.
func TestParse(t *testing.T) {
	for s, want := range map[string]string{
		"low":  "low",
		"high": "high",
		"mid":  `error: invalid level "mid": valid values are {high|low}`,
		"":     `error: invalid level "": valid values are {high|low}`,
	} {
		v, err := Parse("invalid level", s, level(1), level(0))
		assert.Equal(t, want, outcome(v, err), "%q", s)
	}
	for s, want := range map[string]string{
		"red":   "red",
		"green": "green",
		"Red":   `error: unknown color "Red": valid values are {red|green}`,
	} {
		v, err := ParseName("unknown color", s, []color{"red", "green"})
		assert.Equal(t, want, outcome(v, err), "%q", s)
	}
}

// TestCheck: a name among the valid ones passes, any other gets Parse's
// error, the names in the order given.
func TestCheck(t *testing.T) {
	for s, want := range map[string]string{
		"text": "<nil>",
		"json": "<nil>",
		"xml":  `invalid value "xml": valid values are {text|json}`,
		"":     `invalid value "": valid values are {text|json}`,
	} {
		assert.Equal(t, want, fmt.Sprint(Check("invalid value", s, "text", "json")), "%q", s)
	}
}

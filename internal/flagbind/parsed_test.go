package flagbind

import (
	"errors"
	"strconv"
	"testing"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
)

// TestParsed checks the flags that refuse a bad value as it is parsed:
// the value lands typed, an unset flag keeps the field's zero, and a
// refusal is an input error naming the flag, the library's own input
// error passed on as it is.
func TestParsed(t *testing.T) {
	atoi := func(s string) (int, error) { return strconv.Atoi(s) }
	tests := []struct {
		name    string
		args    []string
		want    int
		wantErr string
	}{
		{"unset", nil, 0, ""},
		{"set", []string{"--n", "7"}, 7, ""},
		{"plain error", []string{"--n", "x"}, 0, `--n: strconv.Atoi: parsing "x": invalid syntax`},
	}
	for _, tt := range tests {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		var n int
		f := Parsed(fs, &n, "n", "3", "a number", atoi)
		err := fs.Parse(tt.args)
		if tt.wantErr != "" {
			var ie *mbopt.Error
			if !errors.As(err, &ie) || ie.Error() != tt.wantErr {
				t.Errorf("%s: error %v, want the input error %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || n != tt.want {
			t.Errorf("%s: n = %d, %v; want %d", tt.name, n, err, tt.want)
		}
		if f.DefValue != "3" {
			t.Errorf("%s: the usage shows the default %q, want 3", tt.name, f.DefValue)
		}
	}

	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var dir string
	Parsed(fs, &dir, "html", "", "a site", NonEmpty("html", "site/"))
	err := fs.Parse([]string{"--html", ""})
	var ie *mbopt.Error
	if want := `--html "": give a directory, such as --html site/`; !errors.As(err, &ie) || ie.Error() != want {
		t.Errorf("--html \"\": %v, want the input error %q", err, want)
	}
}

func TestChoice(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var format string
	Choice(fs, &format, "format", "text", "output format", "text", "json")
	if format != "text" {
		t.Errorf("the default is %q before parsing, want text", format)
	}
	if err := fs.Parse([]string{"--format", "json"}); err != nil || format != "json" {
		t.Errorf("--format json: %q, %v", format, err)
	}
	err := fs.Parse([]string{"--format", "xml"})
	var ie *mbopt.Error
	if want := `--format: invalid value "xml": valid values are {text|json}`; !errors.As(err, &ie) || ie.Error() != want {
		t.Errorf("--format xml: %v, want the input error %q", err, want)
	}
}

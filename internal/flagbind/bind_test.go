package flagbind

import (
	"errors"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
)

// TestBind: a bound flag sets its value as pflag's own flag does, and
// names its settings in errors: by --name, or by its shorthand.
func TestBind(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var (
		n     int
		s     []string
		out   string
		d     time.Duration
		level float64
	)
	Bind(fs, &n, "bind-n", 7, "a count", "Test.N", "Test.AlsoN")
	Bind(fs, &s, "bind-s", nil, "repeatable", "Test.S")
	BindP(fs, &out, "bind-out", "q", "", "a file", "Test.Out")
	Bind(fs, &d, "bind-d", time.Second, "a duration", "Test.D")
	Bind(fs, &level, "bind-level", 0, "unbound")
	if n != 7 || d != time.Second {
		t.Fatalf("defaults %d %v, want 7 1s", n, d)
	}
	if err := fs.Parse([]string{"--bind-n", "3", "--bind-s", "a,b", "--bind-s", "c", "-q", "x", "--bind-d", "2m"}); err != nil {
		t.Fatal(err)
	}
	if n != 3 || len(s) != 2 || s[0] != "a,b" || out != "x" || d != 2*time.Minute {
		t.Errorf("parsed %d %q %q %v", n, s, out, d)
	}
	for _, tt := range []struct {
		field mbopt.Field
		want  string
	}{
		{"Test.N", "--bind-n"}, {"Test.AlsoN", "--bind-n"}, {"Test.S", "--bind-s"}, {"Test.Out", "-q"}, {"Test.D", "--bind-d"},
		{"Test.Unbound", "Config.Test.Unbound"},
	} {
		if got, _ := Flag(tt.field); got != tt.want {
			t.Errorf("Flag(%s) = %s, want %s", tt.field, got, tt.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("binding a setting to a second flag did not panic")
		}
	}()
	Bind(fs, new(int), "bind-other", 0, "another flag", "Test.N")
}

// TestPositive: a positive flag refuses 0 and negative values as it parses
// them, with its words, and leaves NaN and infinities to CheckFinite; it
// looks like pflag's own flag of its type.
func TestPositive(t *testing.T) {
	for _, tt := range []struct {
		name, arg, want string
		typ             string
		def             string
	}{
		{"int zero", "0", "--pos-int 0: it must be at least 1", "int", "3"},
		{"int negative", "-2", "--pos-int -2: it must be at least 1", "int", "3"},
		{"int", "4", "", "int", "3"},
		{"float zero", "0", "--pos-float must be positive, not 0", "float64", "0.05"},
		{"float NaN", "NaN", "", "float64", "0.05"},
		{"float -Inf", "-Inf", "", "float64", "0.05"},
		{"duration zero", "0s", "--pos-duration must be positive, not 0s", "duration", "1m0s"},
		{"duration", "1m30s", "", "duration", "1m0s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			var (
				i int
				f float64
				d time.Duration
			)
			var flag *pflag.Flag
			switch tt.typ {
			case "int":
				flag = Positive(fs, &i, "pos-int", 3, "", AtLeastOne)
			case "float64":
				flag = Positive(fs, &f, "pos-float", 0.05, "", MustBePositive)
			default:
				flag = Positive(fs, &d, "pos-duration", time.Minute, "", MustBePositive)
			}
			if flag.Value.Type() != tt.typ || flag.DefValue != tt.def {
				t.Errorf("type %s, default %s; want %s, %s", flag.Value.Type(), flag.DefValue, tt.typ, tt.def)
			}
			err := fs.Parse([]string{"--" + flag.Name, tt.arg})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if flag.Value.String() != tt.arg && tt.typ != "float64" {
					t.Errorf("value %s, want %s", flag.Value, tt.arg)
				}
				return
			}
			// pflag wraps the refusal; the command's flag error function
			// (cli.FlagError) returns the input error it wraps.
			if ie := (*mbopt.Error)(nil); errors.As(err, &ie) {
				err = ie
			}
			if err == nil || err.Error() != tt.want || !errors.Is(err, mbopt.ErrInput) {
				t.Errorf("error %v, want the input error %q", err, tt.want)
			}
		})
	}
}

// TestOptional: an optional flag is nil until given, given "" too.
func TestOptional(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want *string
	}{
		{nil, nil},
		{[]string{"--opt", ""}, new(string)},
		{[]string{"--opt", "x"}, func() *string { s := "x"; return &s }()},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		var p *string
		flag := Optional(fs, &p, "opt", "the default", "")
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		if (p == nil) != (tt.want == nil) || p != nil && *p != *tt.want {
			t.Errorf("%q: got %v, want %v", tt.args, p, tt.want)
		}
		if flag.DefValue != "the default" || flag.Value.Type() != "string" {
			t.Errorf("default %q, type %s", flag.DefValue, flag.Value.Type())
		}
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var x *float64
	Optional(fs, &x, "optf", "0.001", "")
	if err := fs.Parse([]string{"--optf", "0"}); err != nil || x == nil || *x != 0 {
		t.Errorf("--optf 0: %v, %v", err, x)
	}
}

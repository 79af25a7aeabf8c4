package compare_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/testkit/fieldtest"
)

// TestFields checks that every mbopt.Field constant of the package names a
// field of the configuration it belongs to.
func TestFields(t *testing.T) {
	fieldtest.Check(t, reflect.TypeFor[compare.Options](), reflect.TypeFor[compare.GateError]())
}

// TestOptionsCheck: Check refuses what Run refuses before it runs
// anything, naming the option, and takes zero settings for the defaults.
func TestOptionsCheck(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  compare.Options
		want string // "" for no error
	}{
		{"zero options are the defaults", compare.Options{}, ""},
		{"a negative count", compare.Options{Settings: compare.Settings{Trials: -1}}, "Trials is -1; it must be at least 1 (2 or more for an interval that sees trial-to-trial noise)"},
		{"A/A against a base", compare.Options{AA: true, Base: "v1"}, "Options.AA compares the head with itself: leave Options.Base unset"},
		{"only affected without the affected", compare.Options{OnlyAffected: true}, "OnlyAffected needs the Benchmarks and which of them the change affected (Relevance.Affected)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opt.Check()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || err.Error() != tt.want || !errors.Is(err, mbopt.ErrInput) {
				t.Errorf("Check = %v, want the input error %q", err, tt.want)
			}
		})
	}
}

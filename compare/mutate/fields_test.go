package mutate_test

import (
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/testkit/fieldtest"
)

// TestFields checks that every mbopt.Field constant of the package names a
// field of the configuration it belongs to.
func TestFields(t *testing.T) {
	fieldtest.Check(t, reflect.TypeFor[mutate.Options](), reflect.TypeFor[mutate.SizeOptions](), reflect.TypeFor[mutate.ScoreOptions]())
}

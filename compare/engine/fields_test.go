package engine_test

import (
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/testkit/fieldtest"
)

// TestFields checks that every mbopt.Field constant of the package names a
// field of the configuration it belongs to: the engine's, or that of
// compare.Options, the comparison it runs, which its errors speak of.
func TestFields(t *testing.T) {
	fieldtest.Check(t, reflect.TypeFor[engine.Plan](), reflect.TypeFor[compare.Options]())
}

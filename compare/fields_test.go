package compare_test

import (
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/testkit/fieldtest"
)

// TestFields checks that every mbopt.Field constant of the package names a
// field of the configuration it belongs to.
func TestFields(t *testing.T) {
	fieldtest.Check(t, reflect.TypeFor[compare.Options](), reflect.TypeFor[compare.GateError]())
}

package trend_test

import (
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/report/trend"
	"github.com/mbopt/mbopt/testkit/fieldtest"
)

// TestFields checks that every mbopt.Field constant of the package names a
// field of the configuration it belongs to.
func TestFields(t *testing.T) {
	fieldtest.Check(t, reflect.TypeFor[trend.Outputs](), reflect.TypeFor[struct{ Dir string }]())
}

package report_test

import (
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/testkit/fieldtest"
)

// TestFields checks the package's one mbopt.Field constant: WriteDir's dir
// stands for the setting Out, a parameter rather than a field.
func TestFields(t *testing.T) {
	fieldtest.Check(t, reflect.TypeFor[struct{ Out string }]())
}

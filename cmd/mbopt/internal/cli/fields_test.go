package cli_test

import (
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/testkit/fieldtest"
)

// TestFields checks FieldOutput, the -o of every command, against the
// configuration whose Output it names as the comparison does.
func TestFields(t *testing.T) {
	fieldtest.Check(t, reflect.TypeFor[flow.CompareConfig]())
}

package github_test

import (
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/testkit/fieldtest"
)

// TestFields checks the package's one mbopt.Field constant: the path of
// CheckStepSummary and StepSummary.Deliver stands for the setting
// StepSummary, a parameter rather than a field.
func TestFields(t *testing.T) {
	fieldtest.Check(t, reflect.TypeFor[struct{ StepSummary string }]())
}

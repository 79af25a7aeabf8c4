package flagbind

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
)

func TestWord(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		override map[mbopt.Field]string
		want     string
	}{
		{"named fields", mbopt.Errorf("%s must be positive, not %d", mbopt.Field("Select.Top"), -1), nil, "--top must be positive, not -1"},
		{"field before", mbopt.Field("Bench").Errorf("missing argument to repetition operator"), nil, "--bench: missing argument to repetition operator"},
		{"field without flag", mbopt.Field("Dir").Errorf("x is not a directory"), nil, "x is not a directory"},
		{"override", mbopt.Field("Dir").Errorf("x is not a directory"), map[mbopt.Field]string{"Dir": "-C"}, "-C: x is not a directory"},
		{"wrapped", fmt.Errorf("collecting: %w", mbopt.Field("Out").Errorf("o is a file")), nil, "collecting: --out: o is a file"},
		{"nested", mbopt.Errorf("selecting: %w", mbopt.Errorf("%s is 0", mbopt.Field("Select.Budget"))), nil, "selecting: --budget is 0"},
		{"module", analysis.CheckModules([]string{"x y"}), nil, `--module "x y": contains white space; a module prefix is an import path such as example.com/project`},
		{"warning", &analysis.ModuleFromGoModWarning{Module: "m", GoMod: "go.mod"}, nil, "project module m taken from go.mod; use --module to choose another"},
		{"limit", errors.New("a.pprof: file is 9 bytes, over the 8-byte limit (Limits.MaxFileBytes)"), nil, "a.pprof: file is 9 bytes, over the 8-byte limit (raise it with --max-profile-bytes)"},
		{"plain", errors.New("boom"), nil, "boom"},
	}
	Name("--top", analysis.FieldSelectTop)
	Name("--bench", "Bench")
	Name("--out", "Out")
	Name("--budget", analysis.FieldSelectBudget)
	Name("--module", analysis.FieldModules)
	for _, tt := range tests {
		got := Word(tt.err, tt.override)
		if got.Error() != tt.want {
			t.Errorf("%s: Word = %q, want %q", tt.name, got, tt.want)
		}
		if !errors.Is(got, tt.err) {
			t.Errorf("%s: the worded error does not unwrap to the original", tt.name)
		}
		if again := Word(got, nil); again.Error() != tt.want {
			t.Errorf("%s: wording twice gives %q", tt.name, again)
		}
	}
}

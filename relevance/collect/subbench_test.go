package collect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParentBenchmarks checks which benchmarks the source says may create
// sub-benchmarks.
func TestParentBenchmarks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		want  []string
	}{
		{"direct b.Run", []string{`package p
import "testing"
func BenchmarkA(b *testing.B) { b.Run("x", func(b *testing.B) {}) }
func BenchmarkB(b *testing.B) { for i := 0; i < b.N; i++ {} }`}, []string{"BenchmarkA"}},
		{"method value", []string{`package p
import "testing"
func BenchmarkA(b *testing.B) { run := b.Run; run("x", nil) }`}, []string{"BenchmarkA"}},
		{"other parameter name, setup before", []string{`package p
import "testing"
func BenchmarkA(tb *testing.B) { data := setup(); tb.ResetTimer(); tb.Run("x", func(*testing.B) { _ = data }) }
func setup() int { return 1 }`}, []string{"BenchmarkA"}},
		{"through helpers of the package, across files", []string{`package p
import "testing"
func BenchmarkA(b *testing.B) { cases(b, 3) }
func BenchmarkB(b *testing.B) { mustOpen(b) }`, `package p
import "testing"
func unused(b *testing.B) { b.Run("x", nil) }`, `package p
func cases(b *testing.B, n int) { deeper(n, b) }
func deeper(n int, b *testing.B) { b.Run("n", nil) }
func mustOpen(b *testing.B) { b.Helper() }`}, []string{"BenchmarkA"}},
		{"recursive helper", []string{`package p
import "testing"
func BenchmarkA(b *testing.B) { rec(b, 2) }
func rec(b *testing.B, n int) { if n > 0 { rec(b, n-1) } }`}, nil},
		{"the helper's other parameter runs", []string{`package p
import "testing"
func BenchmarkA(b *testing.B) { helper(b, nil) }
func helper(_ *testing.B, c *testing.B) { c.Run("x", nil) }`}, nil},
		{"another package's helper is not followed", []string{`package p
import ("testing"; "example.com/h")
func BenchmarkA(b *testing.B) { h.Cases(b) }`}, nil},
		{"external test package is its own scope", []string{`package p
import "testing"
func helper(b *testing.B) { b.Run("x", nil) }`, `package p_test
import "testing"
func helper(b *testing.B) {}
func BenchmarkA(b *testing.B) { helper(b) }`}, nil},
		{"b.Loop and no Run", []string{`package p
import "testing"
func BenchmarkA(b *testing.B) { for b.Loop() {} ; b.ReportMetric(1, "x/op") }`}, nil},
		{"not benchmarks", []string{`package p
import "testing"
func Benchmarkx(b *testing.B) { b.Run("x", nil) }
func helper(b *testing.B) { b.Run("x", nil) }`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			var files []*ast.File
			for _, src := range tc.files {
				f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
				require.NoError(t, err)
				files = append(files, f)
			}
			assert.Equal(t, tc.want, parentBenchmarks(files))
		})
	}
}

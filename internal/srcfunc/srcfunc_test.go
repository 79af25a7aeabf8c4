package srcfunc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const fileA = `package p

var hook = func() int { return func() int { return 1 }() }

func init() {}

func F() {
	_ = func() {
		_ = func() {}
	}
	_ = func() {}
}

func Map[K comparable, V any](m map[K]V) {}

type T struct{}

func (T) M()   {}
func (*T) P()  {}

type Tree[K any] struct{}

func (t *Tree[K]) Insert(k K) {}
func (t Tree[K]) Len() int  { return 0 }

type Pair[K, V any] struct{}

func (p *(Pair[K, V])) Get() {}

func asm()
`

const fileB = `package p

var other = func() {}

func init() { _ = func() {} }
`

func names(t *testing.T, c *Counters, src string) (out []string, fns []Func) {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	require.NoError(t, err)
	fns = File(f, c)
	for _, fn := range fns {
		out = append(out, fn.Name)
	}
	return out, fns
}

func TestFile(t *testing.T) {
	var c Counters
	a, fns := names(t, &c, fileA)
	assert.Equal(t, []string{
		"init.func1", "init.func1.1", "init.0",
		"F", "F.func1", "F.func1.1", "F.func2",
		"Map[...]", "T.M", "(*T).P", "(*Tree[...]).Insert", "Tree[...].Len", "(*Pair[...]).Get", "asm",
	}, a)
	assert.Equal(t, Counters{Inits: 1, Closures: 1}, c)
	// The second file of the package goes on numbering.
	b, _ := names(t, &c, fileB)
	assert.Equal(t, []string{"init.func2", "init.1", "init.1.func1"}, b)

	byName := map[string]Func{}
	for _, fn := range fns {
		byName[fn.Name] = fn
	}
	assert.True(t, byName["init.func1.1"].PkgLevel)
	assert.True(t, byName["init.0"].PkgLevel)
	assert.False(t, byName["F.func1"].PkgLevel)
	assert.Equal(t, "F.func1", fns[byName["F.func1.1"].Parent].Name)
	assert.Equal(t, -1, byName["F"].Parent)
	assert.Nil(t, byName["asm"].Body, "a function implemented in assembly has no body")
	_, isLit := byName["F.func2"].Node.(*ast.FuncLit)
	assert.True(t, isLit)
}

func TestClosuresNil(t *testing.T) {
	var body *ast.BlockStmt
	assert.Empty(t, Closures(body))
	assert.Empty(t, Closures(nil))
}

// TestElements: a name splits at the dots outside brackets and parentheses.
func TestElements(t *testing.T) {
	for name, want := range map[string][]string{
		"F":                   {"F"},
		"F.func1.2":           {"F", "func1", "2"},
		"(*T[...]).M.func1":   {"(*T[...])", "M", "func1"},
		"Map[go.shape.int].X": {"Map[go.shape.int]", "X"},
		"(*a.b).M":            {"(*a.b)", "M"},
		"":                    {""},
	} {
		assert.Equal(t, want, Elements(name), name)
	}
}

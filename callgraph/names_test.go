package callgraph

import "testing"

func TestNormalizeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"runtime.mallocgc", "runtime.mallocgc"},
		{"example.com/m/s.Map[go.shape.int,go.shape.string]", "example.com/m/s.Map[...]"},
		{"example.com/m/s.Map[int,string]", "example.com/m/s.Map[...]"},
		{"example.com/m/s.Map[...]", "example.com/m/s.Map[...]"},
		{"example.com/m/s.(*Tree[go.shape.int]).Insert.func1", "example.com/m/s.(*Tree[...]).Insert.func1"},
		{"example.com/m/s.F[go.shape.[]uint8]", "example.com/m/s.F[...]"},
		{"example.com/m/s.F[go.shape.struct { A example.com/m/t.T }]", "example.com/m/s.F[...]"},
		{"p.G[int].H[string]", "p.G[...].H[...]"},
		{"p.Broken[int", "p.Broken[int"},
		{"p.F[[]int]", "p.F[...]"},
		{"p.F[map[string][]int]", "p.F[...]"},
		{"p.F[int][string]", "p.F[...][string]"},
		{"p.F_[int]", "p.F_[...]"},
		{"p.F2[int]", "p.F2[...]"},
		{"p.Ä[int]", "p.Ä[...]"},
		// Brackets that do not follow a name are no type-argument list.
		{"type:.eq.[2]string", "type:.eq.[2]string"},
		{"type:.eq.[4]int", "type:.eq.[4]int"},
		{"type:.eq.[2]p.G[int]", "type:.eq.[2]p.G[...]"},
		{"[vdso]", "[vdso]"},
		{"[function 7]", "[function 7]"},
		{"[...]", "[...]"},
		{"x [a.B[int]", "x [a.B[...]"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizeName(tt.in); got != tt.want {
			t.Errorf("NormalizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNormalizeNameKeepsDistinctNames checks that names which are not
// instantiations of one generic function never collapse into one node.
func TestNormalizeNameKeepsDistinctNames(t *testing.T) {
	distinct := []string{"[vdso]", "[unknown]", "[function 1]", "[function 2]", "type:.eq.[2]string", "type:.eq.[3]string", "p.F", "p.F[...]"}
	seen := map[string]string{}
	for _, name := range distinct {
		n := NormalizeName(name)
		if prev, ok := seen[n]; ok {
			t.Errorf("NormalizeName(%q) = NormalizeName(%q) = %q, want distinct names", name, prev, n)
		}
		seen[n] = name
	}
}

func TestPackageOf(t *testing.T) {
	tests := []struct{ in, want string }{
		{"runtime.mallocgc", "runtime"},
		{"main.main", "main"},
		{"example.com/a/b.(*T).M.func1", "example.com/a/b"},
		{"example.com/a/b.F[...]", "example.com/a/b"},
		{"gopkg.in/yaml%2ev3.(*parser).parse", "gopkg.in/yaml.v3"},
		{"net/http.(*conn).serve", "net/http"},
		{"_cgo_topofstack", ""},
		{"0x45f2a1", ""},
	}
	for _, tt := range tests {
		if got := PackageOf(tt.in); got != tt.want {
			t.Errorf("PackageOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsBelow(t *testing.T) {
	tests := []struct {
		pkg, mod string
		want     bool
	}{
		{"github.com/x/y", "github.com/x/y", true},
		{"github.com/x/y/z", "github.com/x/y", true},
		{"github.com/x/y/z", "github.com/x/y/", true},
		{"github.com/x/y-client", "github.com/x/y", false},
		{"github.com/x/yz", "github.com/x/y", false},
		{"github.com/x", "github.com/x/y", false},
		{"runtime", "", false},
	}
	for _, tt := range tests {
		if got := IsBelow(tt.pkg, tt.mod); got != tt.want {
			t.Errorf("IsBelow(%q, %q) = %v, want %v", tt.pkg, tt.mod, got, tt.want)
		}
	}
}

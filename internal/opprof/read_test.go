package opprof_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/internal/opprof"
)

func TestReadValgrind(t *testing.T) {
	tests := []struct {
		name, in string
		want     []opprof.Sample
		err      string
	}{
		{
			name: "cachegrind",
			in:   "desc: I1 cache:\ncmd: x\nevents: Ir\nfl=/a.go\nfn=p.F\n3 10\n4 5\n3 1\nfn=p.G\n9 2\nsummary: 18\n",
			want: []opprof.Sample{{Symbol: "p.F", File: "/a.go", Line: 3, Value: 11}, {Symbol: "p.F", File: "/a.go", Line: 4, Value: 5}, {Symbol: "p.G", File: "/a.go", Line: 9, Value: 2}},
		},
		{
			name: "callgrind compressed, inlined file, call cost skipped",
			in:   "positions: line\nevents: Ir\nfl=(1) /a.go\nfn=(1) p.F\n3 10\nfi=(2) /b.go\n+2 4\nfe=(1)\n-1 1\ncfl=(1)\ncfn=(2) p.G\ncalls=1 9\n* 100\nfn=(2)\n9 100\n",
			want: []opprof.Sample{{Symbol: "p.F", File: "/a.go", Line: 3, Value: 10}, {Symbol: "p.F", File: "/b.go", Line: 5, Value: 4}, {Symbol: "p.F", File: "/a.go", Line: 4, Value: 1}, {Symbol: "p.G", File: "/a.go", Line: 9, Value: 100}},
		},
		{name: "no events", in: "fl=/a.go\nfn=p.F\n3 10\n", err: "no \"events:\" line"},
		{name: "bad count", in: "events: Ir\nfl=/a.go\nfn=p.F\n3 x\n", err: "in.out:4: count \"x\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := opprof.ReadValgrind(strings.NewReader(tt.in), "in.out")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("sample %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestResolverRoots: a file the binary names but that is gone (a cached
// test binary's worktree) is read under a root by its longest tail.
func TestResolverRoots(t *testing.T) {
	root := t.TempDir()
	src := "package p\n\nfunc helper(x int) int {\n\treturn x * 2\n}\n\nfunc Caller(x int) int {\n\treturn helper(x) + 1\n}\n"
	if err := os.MkdirAll(filepath.Join(root, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "p", "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "removed-worktree", "p", "p.go")
	for _, tc := range []struct {
		name  string
		roots []string
		want  string
	}{
		{"no roots: the symbol", nil, "example.com/m/p.Caller"},
		{"under a root: the enclosing function", []string{filepath.Join(t.TempDir(), "other"), root}, "example.com/m/p.helper"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := opprof.NewResolver()
			r.Roots = tc.roots
			s := []opprof.Sample{
				{Symbol: "example.com/m/p.Caller", File: gone, Line: 8, Value: 1},
				{Symbol: "example.com/m/p.Caller", File: gone, Line: 4, Value: 5},
			}
			r.Resolve(s)
			if s[1].Function != tc.want {
				t.Errorf("line 4 credited to %q, want %q", s[1].Function, tc.want)
			}
		})
	}
}

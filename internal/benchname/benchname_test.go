package benchname

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPattern(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		want  string
	}{
		{"none", nil, "^$"},
		{"one top-level", []string{"BenchmarkA"}, "^BenchmarkA$"},
		{"top-level alternation", []string{"BenchmarkB", "BenchmarkA"}, "^(BenchmarkA|BenchmarkB)$"},
		{"siblings", []string{"BenchmarkA/y", "BenchmarkA/x"}, "^BenchmarkA$/^(x|y)$"},
		{"non-product", []string{"BenchmarkA/x", "BenchmarkB/y"}, "^BenchmarkA$/^x$|^BenchmarkB$/^y$"},
		{"mixed depth", []string{"BenchmarkC", "BenchmarkA/p/q"}, "^BenchmarkA$/^p$/^q$|^BenchmarkC$"},
		{"metacharacters", []string{"BenchmarkA/a+b", "BenchmarkA/(x|y)"}, `^BenchmarkA$/^(\(x\|y\)|a\+b)$`},
		{"duplicates", []string{"BenchmarkA", "BenchmarkA"}, "^BenchmarkA$"},
		{"descendant of a given name", []string{"BenchmarkA/!a", "BenchmarkA/!b", "BenchmarkA/!a/y"}, "^BenchmarkA$/^(!a|!b)$"},
		{"empty elements", []string{"BenchmarkA/", "BenchmarkA/0", "BenchmarkA//"}, "^BenchmarkA$/^(|0)$"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Pattern(tt.names); got != tt.want {
				t.Errorf("Pattern(%q) = %q, want %q", tt.names, got, tt.want)
			}
		})
	}
}

func TestRewrite(t *testing.T) {
	tests := []struct{ in, want string }{
		{"BenchmarkA/with space", "BenchmarkA/with_space"},
		{"BenchmarkA/tab\there", "BenchmarkA/tab_here"},
		{"BenchmarkA/nul\x00", `BenchmarkA/nul\x00`},
		{"BenchmarkA/héllo", "BenchmarkA/héllo"},
		{"BenchmarkA/n=1", "BenchmarkA/n=1"},
	}
	for _, tt := range tests {
		if got := Rewrite(tt.in); got != tt.want {
			t.Errorf("Rewrite(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFilterMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		ok, partial   bool
	}{
		{"", "BenchmarkA/x", true, false},
		{"A", "BenchmarkA/x", true, false},
		{"^BenchmarkA$/^x$", "BenchmarkA", true, true},
		{"^BenchmarkA$/^x$", "BenchmarkA/x", true, false},
		{"^BenchmarkA$/^x$", "BenchmarkA/y", false, false},
		{"^BenchmarkA$/^x$", "BenchmarkA/x/deeper", true, false},
		{"^BenchmarkA$/^x$|^BenchmarkB$", "BenchmarkB/y", true, false},
		{"^BenchmarkA$/^(x|y)$", "BenchmarkA/y", true, false},
		{"^BenchmarkA$/[/]", "BenchmarkA", true, true},
		{`^BenchmarkA$/^a\|b$`, "BenchmarkA/a|b", true, false},
		{"^BenchmarkA$/with space", "BenchmarkA/with_space", true, false},
	}
	for _, tt := range tests {
		f, err := CompileFilter(tt.pattern)
		require.NoError(t, err)
		if ok, partial := f.Match(tt.name); ok != tt.ok || partial != tt.partial {
			t.Errorf("CompileFilter(%q).Match(%q) = %v, %v, want %v, %v", tt.pattern, tt.name, ok, partial, tt.ok, tt.partial)
		}
	}
}

func TestCompileFilterError(t *testing.T) {
	_, err := CompileFilter("^BenchmarkA$/(x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `element 1 ("(x")`)
}

func TestSplitID(t *testing.T) {
	tests := []struct {
		id, pkg, name string
		ok            bool
	}{
		{"example.com/m/storage.BenchmarkAdd", "example.com/m/storage", "BenchmarkAdd", true},
		{"example.com/m/query.BenchmarkQuery/sum(cpu)", "example.com/m/query", "BenchmarkQuery/sum(cpu)", true},
		{"example.com/m/q.BenchmarkQ/a.BenchmarkB", "example.com/m/q", "BenchmarkQ/a.BenchmarkB", true},
		{"gopkg.in/yaml.v3.BenchmarkDecode", "gopkg.in/yaml.v3", "BenchmarkDecode", true},
		{"storage__BenchmarkAddRows", "", "", false},
		{".BenchmarkX", "", "", false},
		{"BenchmarkX", "", "", false},
	}
	for _, tt := range tests {
		pkg, name, ok := SplitID(tt.id)
		if pkg != tt.pkg || name != tt.name || ok != tt.ok {
			t.Errorf("SplitID(%q) = %q, %q, %v; want %q, %q, %v", tt.id, pkg, name, ok, tt.pkg, tt.name, tt.ok)
		}
	}
}

func TestTop(t *testing.T) {
	tests := []struct{ name, want string }{
		{"BenchmarkAdd", "BenchmarkAdd"},
		{"BenchmarkAdd/n=10", "BenchmarkAdd"},
		{"BenchmarkQuery/sum(cpu.user)/x", "BenchmarkQuery"},
		{"BenchmarkA/", "BenchmarkA"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Top(tt.name); got != tt.want {
			t.Errorf("Top(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestTopPattern(t *testing.T) {
	for _, tc := range []struct{ pattern, top, want string }{
		{"", "BenchmarkA", "^BenchmarkA$"},
		{"A", "BenchmarkA", "^BenchmarkA$"},
		{"Z", "BenchmarkA", ""},
		{"A/x=1", "BenchmarkA", "^BenchmarkA$/x=1"},
		{"A/x|Bench/y", "BenchmarkA", "^BenchmarkA$/x|^BenchmarkA$/y"},
		{"A/x|Bench", "BenchmarkA", "^BenchmarkA$"},
		{"A/(x|y)/z", "BenchmarkA.b", "^BenchmarkA\\.b$/(x|y)/z"},
	} {
		got := TopPattern(tc.pattern, tc.top)
		if got != tc.want {
			t.Errorf("TopPattern(%q, %q) = %q, want %q", tc.pattern, tc.top, got, tc.want)
		}
		if got == "" {
			continue
		}
		// What TopPattern selects under top is what pattern selects.
		f, _ := CompileFilter(tc.pattern)
		g, err := CompileFilter(got)
		if err != nil {
			t.Fatal(err)
		}
		for _, sub := range []string{"/x", "/x=1", "/y", "/x/z", "/q/z"} {
			name := tc.top + sub
			if f.Selects(name) != g.Selects(name) {
				t.Errorf("%q vs %q disagree on %s", tc.pattern, got, name)
			}
		}
	}
}

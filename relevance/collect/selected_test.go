package collect

import "testing"

func TestPackageMatcher(t *testing.T) {
	const mod, root = "example.com/m", "/src/m"
	tests := []struct {
		patterns []string
		dir      string
		pkg      string
		want     bool
	}{
		{[]string{"./..."}, root, "example.com/m", true},
		{[]string{"./..."}, root, "example.com/m/a/b", true},
		{[]string{"./..."}, root, "example.com/mx", false},
		{[]string{"./..."}, root + "/a", "example.com/m/a/b", true},
		{[]string{"./..."}, root + "/a", "example.com/m/b", false},
		{[]string{"."}, root + "/a", "example.com/m/a", true},
		{[]string{"."}, root + "/a", "example.com/m/a/b", false},
		{[]string{"../b"}, root + "/a", "example.com/m/b", true},
		{[]string{"./storage", "./query/..."}, root, "example.com/m/query/x", true},
		{[]string{"example.com/m/a/..."}, root, "example.com/m/a", true},
		{[]string{"example.com/m/.../x"}, root, "example.com/m/a/b/x", true},
		{[]string{"all"}, root, "example.com/m", false},
		{[]string{"../.."}, root, "example.com/m", false},
	}
	for _, tt := range tests {
		if got := packageMatcher(tt.patterns, tt.dir, mod, root)(tt.pkg); got != tt.want {
			t.Errorf("packageMatcher(%q in %s)(%q) = %v, want %v", tt.patterns, tt.dir, tt.pkg, got, tt.want)
		}
	}
}

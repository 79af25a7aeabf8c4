package benchname

import "testing"

func TestDisplay(t *testing.T) {
	for _, tc := range []struct{ module, pkg, name, want string }{
		{"example.com/m", "example.com/m/storage", "BenchmarkSearch/n=10", "storage.BenchmarkSearch/n=10"},
		{"example.com/m", "example.com/m", "BenchmarkRoot", "BenchmarkRoot"},
		{"example.com/m", "example.com/mx/a", "BenchmarkX", "example.com/mx/a.BenchmarkX"},
		{"", "example.com/m/a", "BenchmarkX", "example.com/m/a.BenchmarkX"},
	} {
		if got := Display(tc.module, tc.pkg, tc.name); got != tc.want {
			t.Errorf("Display(%q, %q, %q) = %q, want %q", tc.module, tc.pkg, tc.name, got, tc.want)
		}
	}
}

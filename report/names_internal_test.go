package report

import "testing"

func TestPackageName(t *testing.T) {
	for _, tt := range []struct{ pkg, want string }{
		{"example.com/tinytsdb/httpapi", "httpapi"},
		{"github.com/cespare/xxhash/v2", "xxhash"},
		{"github.com/x/y/v10/internal/z", "z"},
		{"gopkg.in/yaml.v3", "yaml"},
		{"v2", "v2"},
		{"main", "main"},
	} {
		if got := packageName(tt.pkg); got != tt.want {
			t.Errorf("packageName(%q) = %q, want %q", tt.pkg, got, tt.want)
		}
	}
}

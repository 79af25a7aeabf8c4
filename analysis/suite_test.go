package analysis

import "testing"

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

package main

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"1073741824", 1 << 30, false},
		{"512MiB", 512 << 20, false},
		{"512mib", 512 << 20, false},
		{"1.5GiB", 3 << 29, false},
		{"2G", 2 << 30, false},
		{"64k", 64 << 10, false},
		{"500MB", 500e6, false},
		{"1 GiB", 1 << 30, false},
		{"100B", 100, false},
		{"0", 0, true},
		{"-1MiB", 0, true},
		{"0.1B", 0, true},
		{"lots", 0, true},
		{"MiB", 0, true},
		{"NaN", 0, true},
		{"1e30", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{256 << 20, "256MiB"},
		{1 << 30, "1GiB"},
		{1536 << 20, "1536MiB"},
		{1000, "1000"},
		{4 << 40, "4TiB"},
	}
	for _, tt := range tests {
		if got := formatSize(tt.in); got != tt.want {
			t.Errorf("formatSize(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

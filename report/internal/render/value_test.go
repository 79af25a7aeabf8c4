package render

import (
	"math"
	"testing"
)

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		unit string
		want string
	}{
		{1.234e-3, "sec/op", "1.23ms"},
		{456e-9, "sec/op", "456ns"},
		{12.3e-6, "sec/op", "12.3µs"},
		{1.5, "sec/op", "1.50s"},
		{3600, "sec/op", "3600s"},
		{0.5e-9, "sec/op", "0.50ns"},
		{64, "B/op", "64.0B"},
		{1536, "B/op", "1.50KiB"},
		{3 << 20, "B/op", "3.00MiB"},
		{12, "allocs/op", "12.0 allocs"},
		{7.5, "instructions", "7.50 instructions"},
		{0, "sec/op", ""},
		{math.Inf(1), "sec/op", ""},
	} {
		if got := Value(tc.x, tc.unit); got != tc.want {
			t.Errorf("Value(%v, %q) = %q, want %q", tc.x, tc.unit, got, tc.want)
		}
	}
}

package render

import (
	"fmt"
	"math"
)

// Value writes a measurement x in unit with three significant digits and
// a unit a reader takes in at a glance: sec/op as "1.23ms" or "456ns",
// B/op as "1.50KiB", anything else as the number and the unit's first
// part ("12.0 allocs"). 0 (not measured) and non-finite values write "".
func Value(x float64, unit string) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	switch unit {
	case "sec/op":
		for _, u := range []struct {
			scale float64
			name  string
		}{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}} {
			if math.Abs(x) >= u.scale {
				return sig3(x/u.scale) + u.name
			}
		}
		return sig3(x*1e9) + "ns"
	case "B/op":
		for _, u := range []struct {
			scale float64
			name  string
		}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
			if math.Abs(x) >= u.scale {
				return sig3(x/u.scale) + u.name
			}
		}
		return sig3(x) + "B"
	}
	name := unit
	for i, r := range unit {
		if r == '/' {
			name = unit[:i]
			break
		}
	}
	return sig3(x) + " " + name
}

// sig3 writes x with three significant digits, without an exponent for
// the magnitudes Value leaves (up to 1000 of a unit; more in its largest).
func sig3(x float64) string {
	a := math.Abs(x)
	switch {
	case a >= 100:
		return fmt.Sprintf("%.0f", x)
	case a >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}

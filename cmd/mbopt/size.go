package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes parseSize accepts, longest first so that
// "KiB" is not read as "B" after a number "1Ki".
var sizeUnits = []struct {
	suffix string
	factor int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// parseSize parses a byte count such as "1073741824", "512MiB", "1.5GiB",
// "2G" (binary) or "500MB" (decimal). Units are case-insensitive. The
// result is positive.
func parseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	factor := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, factor = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.factor
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("invalid size %q: want a byte count such as 1073741824, 512MiB or 2GiB", s)
	}
	n := v * float64(factor)
	if n < 1 || n >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid size %q: must be at least 1 byte and below 8 EiB", s)
	}
	return int64(n), nil
}

// formatSize formats n bytes for flag help: "256MiB", "1GiB", or the plain
// count when no binary unit divides it.
func formatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		factor int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.factor && n%u.factor == 0 {
			return strconv.FormatInt(n/u.factor, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// sizeValue is a flag holding a byte count written as parseSize reads it;
// 0 (not set) prints as "".
type sizeValue struct{ n *int64 }

func (v sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*v.n = n
	return nil
}

func (v sizeValue) String() string {
	if v.n == nil || *v.n == 0 {
		return ""
	}
	return formatSize(*v.n)
}

func (sizeValue) Type() string { return "size" }

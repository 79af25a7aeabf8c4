// Package app is a fixture for mbopt's timed-loop coverage (profile
// --scope timed): three functions an application spends its time in, and
// a benchmark that times only one of them. The benchmark calls SetupOnly
// before b.ResetTimer, Hot in its timed loop and ValidateOnly after
// b.StopTimer; the application (cmd/app) runs all three in turn and spends
// most of its time in SetupOnly and ValidateOnly.
package app

import "slices"

// SetupOnly returns n pseudo-random numbers, sorted: the benchmark's setup.
func SetupOnly(n int) []uint32 {
	data := make([]uint32, n)
	x := uint32(2463534242)
	for i := range data {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		data[i] = x
	}
	slices.Sort(data)
	return data
}

// Hot folds data into a checksum, eight times over: the benchmark's timed
// loop.
func Hot(data []uint32) uint32 {
	var sum uint32
	for k := range uint32(8) {
		for _, v := range data {
			sum = sum*31 + v ^ k
		}
	}
	return sum
}

// ValidateOnly reports whether data is sorted, many times over, and
// whether sum is not zero: what the benchmark checks after its timer
// stops.
func ValidateOnly(data []uint32, sum uint32) bool {
	for range 150 {
		if !slices.IsSorted(data) {
			return false
		}
	}
	return sum != 0
}

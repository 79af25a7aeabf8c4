// Package app is a fixture for mbopt's timed-loop coverage (profile
// --scope timed): an application that spends its time in three functions,
// and a benchmark that times only one of them. The benchmark calls
// setupOnly before b.ResetTimer, hot in its timed loop and validateOnly
// after b.StopTimer; the application (Serve) runs all three in turn and
// spends most of its time in setupOnly and validateOnly.
package app

import "slices"

// setupOnly returns n pseudo-random numbers, sorted: the benchmark's setup.
func setupOnly(n int) []uint32 {
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

// hot folds data into a checksum, eight times over: the benchmark's timed
// loop.
func hot(data []uint32) uint32 {
	var sum uint32
	for k := range uint32(8) {
		for _, v := range data {
			sum = sum*31 + v ^ k
		}
	}
	return sum
}

// validateOnly reports whether data is sorted, many times over, and
// whether sum is not zero: what the benchmark checks after its timer
// stops.
func validateOnly(data []uint32, sum uint32) bool {
	for range 150 {
		if !slices.IsSorted(data) {
			return false
		}
	}
	return sum != 0
}

// Serve runs the application's work rounds times: prepare the data, fold
// it, check the result. It returns the number of rounds whose check
// failed, 0.
func Serve(rounds, n int) int {
	failed := 0
	for range rounds {
		data := setupOnly(n)
		var sum uint32
		for range 4 {
			sum += hot(data)
		}
		if !validateOnly(data, sum) {
			failed++
		}
	}
	return failed
}

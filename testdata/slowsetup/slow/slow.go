// Package slow is a fixture of mbopt's collection progress (issue 24): its
// benchmarks spend a long setup (10 s by default) before their timer
// starts, as a benchmark that builds a large structure does.
package slow

import (
	"os"
	"time"
)

// Setup waits as long as $MBOPT_SLOWSETUP says (a duration; 10s when it is
// not set) and returns a small table: the benchmarks' setup. It sleeps
// rather than computes, so its length does not depend on the machine's
// load.
func Setup() []int {
	d := 10 * time.Second
	if s := os.Getenv("MBOPT_SLOWSETUP"); s != "" {
		if v, err := time.ParseDuration(s); err == nil {
			d = v
		}
	}
	time.Sleep(d)
	t := make([]int, 64)
	for i := range t {
		t[i] = i * i
	}
	return t
}

// Sum returns the sum of t.
func Sum(t []int) int {
	s := 0
	for _, v := range t {
		s += v
	}
	return s
}

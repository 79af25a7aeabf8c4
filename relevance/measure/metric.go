package measure

import "github.com/mbopt/mbopt/internal/enum"

// A Metric is what a comparison measures per benchmark operation.
type Metric string

// The metrics.
const (
	// Time is the wall time per operation the benchmark reports itself
	// (ns/op): what go test and benchstat show. It sees everything and
	// the machine's noise with it.
	Time Metric = "time"
	// CPU is the user and system CPU time of the benchmark process per
	// operation, from the difference of two iteration counts ([CPUTime]).
	CPU Metric = "cpu"
	// Instructions is the number of instructions per operation counted
	// under Valgrind, from the difference of two iteration counts
	// ([CountInstructions]).
	Instructions Metric = "instructions"
)

// Metrics lists the metrics in the order help texts show them.
var Metrics = []Metric{Time, CPU, Instructions}

// ParseMetric returns the metric named s, or an error that lists the valid
// names.
func ParseMetric(s string) (Metric, error) {
	return enum.ParseName("unknown metric", s, Metrics)
}

// Unit returns the unit of the metric's values in the Go benchmark format,
// as benchstat reads it: "sec/op" for Time (written as ns/op by go test),
// "cpu-sec/op" for CPU and "instructions/op" for Instructions. Lower is
// better for all three.
func (m Metric) Unit() string {
	switch m {
	case CPU:
		return "cpu-sec/op"
	case Instructions:
		return "instructions/op"
	}
	return "sec/op"
}

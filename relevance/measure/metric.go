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

// DefaultMetricRule says in words which metric [DefaultMetric] returns,
// as help texts show the default.
const DefaultMetricRule = "instructions where Valgrind is installed, else time"

// DefaultMetric returns the metric a comparison measures when it is given
// none: Instructions where Valgrind is installed (valgrind in PATH, as
// [FindValgrind] finds it), since a shared machine's noise barely moves a
// count (wall time's minimum detectable effect was 35–58% on a shared CI
// runner), else Time, which needs nothing installed. It is the one place
// this rule is made; every command's default follows it.
func DefaultMetric() Metric {
	if _, err := FindValgrind(""); err == nil {
		return Instructions
	}
	return Time
}

// PerOperation names what m measures, such as "instructions per
// operation", as the Markdown report's heading says it. The zero Metric
// is Time.
func (m Metric) PerOperation() string {
	switch m {
	case Instructions:
		return "instructions per operation"
	case CPU:
		return "CPU time per operation"
	}
	return "wall time per operation"
}

// Choice returns a sentence, without a final period, that names the
// metric m measures ([Metric.PerOperation]) and how to measure the other
// of the two defaults (time, instructions) instead, as a comparison's
// first line says it, such as "instructions per operation, counted under
// Valgrind (--metric time for wall time)". The zero Metric is Time.
func (m Metric) Choice() string {
	switch m {
	case Instructions:
		return m.PerOperation() + ", counted under Valgrind (--metric time for wall time)"
	case CPU:
		return m.PerOperation() + " (--metric instructions counts instructions under Valgrind, steadier on a shared machine; --metric time for wall time)"
	}
	return m.PerOperation() + " (--metric instructions counts instructions under Valgrind, steadier on a shared machine)"
}

package measure

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/tmpdir"
)

// A Command is a whole program run to measure: an application workload
// (sh -c Shell in Dir), measured by [MeasureCommand].
type Command struct {
	// Shell is the command line, run with sh -c.
	Shell string
	// Dir is its working directory.
	Dir string
	// Env is its environment.
	Env []string
	// Timeout bounds the run; 0 means 10 minutes.
	Timeout time.Duration
	// Valgrind is the valgrind command for Instructions; "" means
	// "valgrind" in PATH.
	Valgrind string
}

// CommandUnit returns the unit of [MeasureCommand]'s values for metric m:
// "sec" (wall time) for Time, "cpu-sec" for CPU and "instructions" for
// Instructions.
func CommandUnit(m Metric) string {
	switch m {
	case CPU:
		return "cpu-sec"
	case Instructions:
		return "instructions"
	}
	return "sec"
}

// MeasureCommand runs c once and returns the metric of the whole run, in
// CommandUnit(m): its wall time (Time), the user and system CPU time of
// the command and the processes it waited for (CPU), or the instructions
// of every process of the run counted under Valgrind's Cachegrind
// (--trace-children=yes; Instructions). A counted run gets the settings
// of a counting benchmark run in its environment (GOMAXPROCS=1, the
// collector off behind the [DefaultMemLimit] guard, and the GODEBUG
// settings of [CountInstructions]): Valgrind runs one thread at a time
// anyway, and a Go program's idle processors would otherwise spin, and
// count, as long as the scheduler happens to let them (a whole program's
// count then varies several-fold between identical runs); and when the
// collector runs, and how much it marks, differs between identical runs
// of an allocating program (2.4% between three counts of the same run of
// a map-building benchmark; 0.01% with the collector off). A workload
// whose heap outgrows the guard is collected, and its count includes that
// work. A command that fails, or times out, is an error naming it with
// its output's tail.
func MeasureCommand(ctx context.Context, m Metric, c Command) (float64, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	failed := func(res testbin.Result) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		why := "timed out after " + timeout.String()
		if !res.TimedOut {
			why = fmt.Sprint(res.Err)
		}
		return fmt.Errorf("application command %q: %s\n%s", c.Shell, why, tail(withoutGCTrace(res.Output), 8))
	}
	if m != Instructions {
		res := testbin.Run(ctx, c.Dir, c.Env, timeout, "sh", "-c", c.Shell)
		if res.Err != nil || res.TimedOut {
			return 0, failed(res)
		}
		if m == CPU {
			return (res.State.UserTime() + res.State.SystemTime()).Seconds(), nil
		}
		return res.Wall.Seconds(), nil
	}
	vg, err := FindValgrind(c.Valgrind)
	if err != nil {
		return 0, err
	}
	// A directory an interrupt or a killed run does not leave behind.
	tmp, removeTmp, err := tmpdir.Make("mbopt-measure-")
	if err != nil {
		return 0, err
	}
	defer removeTmp()
	res := testbin.Run(ctx, c.Dir, countingEnv(c.Env, DefaultMemLimit, true), timeout, vg, "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes", "--vgdb=no",
		"--log-file="+filepath.Join(tmp, "valgrind.%p.log"), "--cachegrind-out-file="+filepath.Join(tmp, "cg.%p.out"), "sh", "-c", c.Shell)
	if res.Err != nil || res.TimedOut {
		return 0, failed(res)
	}
	files, err := filepath.Glob(filepath.Join(tmp, "cg.*.out"))
	if err != nil || len(files) == 0 {
		return 0, fmt.Errorf("application command %q: Cachegrind wrote no output file", c.Shell)
	}
	sum := 0.0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		n, err := total(b)
		if err != nil {
			return 0, fmt.Errorf("application command %q: %s: %w", c.Shell, filepath.Base(f), err)
		}
		sum += n
	}
	return sum, nil
}

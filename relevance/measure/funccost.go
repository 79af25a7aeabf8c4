package measure

import (
	"bytes"
	"context"
	"fmt"
)

// A FuncCost is what one function costs per call and per operation of a
// benchmark, counted by Callgrind.
type FuncCost struct {
	// Function is the function's symbol.
	Function string
	// PerCall is its own instructions per call (not those of the
	// functions it calls).
	PerCall float64
	// CallsPerOp is how many times the benchmark calls it per
	// operation.
	CallsPerOp float64
	// TotalPerOp is the benchmark's instructions per operation, all
	// functions.
	TotalPerOp float64
}

// FunctionCost counts, under Callgrind at the iteration counts N1 and N2
// (3 and 13 when not set), the own instructions per call of the function
// fn (a symbol as Callgrind names it, such as "example.com/m/p.F") and its
// calls per operation of the benchmark, from the difference of the two
// runs, so the benchmark's setup and the process's start cancel. A
// function the benchmark never calls in its loop (or that the compiler
// inlined everywhere, so no call of it is left) is an error that says so.
func FunctionCost(ctx context.Context, o Options, fn string) (FuncCost, error) {
	vg, err := o.valgrind()
	if err != nil {
		return FuncCost{}, err
	}
	n1, n2 := o.N1, o.N2
	if n1 <= 1 || n2 <= n1 {
		n1, n2 = 3, 13
	}
	var g [2]Graph
	var totals [2]float64
	for i, n := range []int{n1, n2} {
		out, _, err := o.valgrindRun(ctx, vg, Callgrind, n)
		if err != nil {
			return FuncCost{}, err
		}
		if totals[i], err = total(out); err != nil {
			return FuncCost{}, fmt.Errorf("%s: Callgrind's output: %w", o.Name, err)
		}
		if g[i], err = ReadGraph(bytes.NewReader(out)); err != nil {
			return FuncCost{}, fmt.Errorf("%s: reading Callgrind's call graph: %w", o.Name, err)
		}
	}
	calls := g[1].Calls(fn) - g[0].Calls(fn)
	if calls <= 0 {
		if g[1].Self(fn) > 0 {
			return FuncCost{}, fmt.Errorf("%s: %s runs but is never called as a function: the compiler inlined it into its callers", o.Name, fn)
		}
		return FuncCost{}, fmt.Errorf("%s: %s is not called in the benchmark's loop", o.Name, fn)
	}
	self := g[1].Self(fn) - g[0].Self(fn)
	ops := float64(n2 - n1)
	return FuncCost{Function: fn, PerCall: self / float64(calls), CallsPerOp: float64(calls) / ops, TotalPerOp: (totals[1] - totals[0]) / ops}, nil
}

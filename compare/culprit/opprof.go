package culprit

import (
	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/internal/opprof"
)

// This file names package opprof's per-operation profiles in culprit,
// which diffs them: the profiles moved to opprof so that package collect
// (the relevance half, which may not import the comparison half) writes
// them too.

// A Profile is one side's cost of one operation, per source line: an
// [opprof.Profile].
type Profile = opprof.Profile

// A Sample is a count at one source line: an [opprof.Sample].
type Sample = opprof.Sample

// A Resolver maps source lines to the functions whose bodies enclose
// them: an [opprof.Resolver].
type Resolver = opprof.Resolver

// NewResolver is [opprof.NewResolver].
func NewResolver() *Resolver { return opprof.NewResolver() }

// Instructions is [opprof.Instructions]: the per-operation instruction
// profile of two Valgrind output files at n1 and n2 iterations.
func Instructions(r *Resolver, low, high string, n1, n2 int) (*Profile, error) {
	return opprof.Instructions(r, low, high, n1, n2)
}

// FromCPUProfile is [opprof.FromCPUProfile]: the per-operation profile of
// a Go CPU profile of ops operations.
func FromCPUProfile(p *profile.Profile, ops int) (*Profile, error) {
	return opprof.FromCPUProfile(p, ops)
}

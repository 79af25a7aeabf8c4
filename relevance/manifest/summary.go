package manifest

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/shard"
)

// Statuses lists the statuses in the order summaries count them.
var Statuses = []Status{StatusOK, StatusSkipped, StatusFailed, StatusTimeout, StatusBuildFailed}

// Counts returns the number of entries by status, in the order of
// [Statuses], such as "23 ok, 1 failed"; "" when there is none.
func (m *Manifest) Counts() string {
	var parts []string
	for _, st := range Statuses {
		if n := m.Count(st); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	return strings.Join(parts, ", ")
}

// WriteProblems writes the [Manifest.Problems] to w, one line each with its
// status and the first line of its error, after a line counting them; the
// benchmarks of a package whose test binary did not build share one line.
// It writes nothing when there is no problem.
func (m *Manifest) WriteProblems(w io.Writer) {
	problems := m.Problems()
	if len(problems) == 0 {
		return
	}
	fmt.Fprintf(w, "%d did not succeed:\n", len(problems))
	type group struct {
		status  Status
		what    string
		err     string
		members int
	}
	var groups []*group
	byPkg := map[string]*group{}
	for _, e := range problems {
		if e.Status != StatusBuildFailed {
			groups = append(groups, &group{e.Status, e.ID, e.Error, 1})
			continue
		}
		if g := byPkg[e.Package]; g != nil {
			g.members++
			continue
		}
		byPkg[e.Package] = &group{e.Status, e.Package, e.Error, 1}
		groups = append(groups, byPkg[e.Package])
	}
	for _, g := range groups {
		what := g.what
		if g.status == StatusBuildFailed {
			what = fmt.Sprintf("%s (%s)", g.what, textutil.Plural(g.members, "benchmark"))
		}
		fmt.Fprintf(w, "  %-12s  %s: %s\n", g.status, what, textutil.FirstLine(g.err))
	}
}

// Open reads the manifest in path: a collection's directory (with [Load])
// or a manifest file.
func Open(path string) (*Manifest, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return Load(path)
	}
	f, _, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// The settings the arguments of ShardCostsFor and ResolveShard stand for in
// their errors: those of
// a sharded collection (collect.Config) or comparison (compare.Options).
const (
	FieldShard      mbopt.Field = "Shard"
	FieldShardCosts mbopt.Field = "ShardCosts"
)

// ShardCostsFor returns the ShardCosts (see [ShardCosts]) recorded in the
// manifest in path for a sharded run whose shard is s; an empty path reads
// none. Costs without a shard balance nothing: an input error naming the
// fields ShardCosts and Shard.
func ShardCostsFor(path string, s shard.Spec) (map[string]float64, error) {
	if path == "" {
		return nil, nil
	}
	if !s.Enabled() {
		return nil, mbopt.Errorf("%s needs %s", FieldShardCosts, FieldShard)
	}
	return ShardCosts(path)
}

// ResolveShard returns the shard of a sharded run and the costs that
// balance it from the settings as written: spec as shard.Resolve reads it
// (K/N; /N takes K from $JOB_COMPLETION_INDEX; "" reads $MBOPT_SHARD,
// through getenv), costs as [ShardCostsFor] reads it. A malformed spec is
// an input error about the field Shard.
func ResolveShard(spec, costs string, getenv func(string) string) (shard.Spec, map[string]float64, error) {
	s, err := shard.Resolve(spec, getenv)
	if err != nil {
		return shard.Spec{}, nil, mbopt.Errorf("%s: %v", FieldShard, err)
	}
	c, err := ShardCostsFor(costs, s)
	return s, c, err
}

// ShardCosts returns the benchmark costs that balance a sharded run (the
// ShardCosts of collect.Config and compare.Options): those the manifest in
// path (see [Open]) recorded, an empty map when it recorded none. The
// manifest must be a whole collection's: a shard's knows only its own
// share. Its errors are input errors about the ShardCosts field.
func ShardCosts(path string) (map[string]float64, error) {
	m, err := Open(path)
	if err != nil {
		return nil, FieldShardCosts.Errorf("%w", err)
	}
	if m.Shard != nil {
		return nil, mbopt.Errorf("%s %s is the manifest of shard %d/%d, which knows only its own share; give a whole collection (the output of 'mbopt merge')", FieldShardCosts, path, m.Shard.Index, m.Shard.Count)
	}
	costs := m.Costs()
	if costs == nil {
		costs = map[string]float64{}
	}
	return costs, nil
}

package recommend_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt/recommend"
)

// TestShortfall: asking for more recommendations than come out says how
// many uncovered functions were withheld for thin profiles and how many
// no candidate reaches; asking for no more than come out, or for no limit,
// gives no shortfall. The fixture is TestThinWithheld's: three uncovered
// project functions, two of which the thin benchmark may have run.
func TestShortfall(t *testing.T) {
	cov, _ := graph(t, storePaths)
	g := cov.App
	covered := set(t, g, "x.main", "p.(*DB).Update", "p.(*Tx).Commit", "p.encode", "x.fsync", "p.(*DB).View", "p.get")
	thin := []recommend.Thin{{ID: "BenchmarkCommit", Covered: set(t, g, "p.(*DB).Update", "p.(*Tx).Commit", "x.fsync")}}
	for _, tt := range []struct {
		name string
		opts recommend.Options
		want *recommend.Shortfall
	}{
		{"thin profiles withhold two", recommend.Options{N: 10, Targets: recommend.Callable, Thin: thin},
			&recommend.Shortfall{Asked: 10, Given: 1, Withheld: 2}},
		{"everything covered", recommend.Options{N: 10, Targets: recommend.Callable},
			&recommend.Shortfall{Asked: 10, Given: 3}},
		{"as many as asked", recommend.Options{N: 1, Targets: recommend.Callable, Thin: thin}, nil},
		{"no limit", recommend.Options{Targets: recommend.Callable, Thin: thin}, nil},
		{"a package left out", recommend.Options{N: 10, Targets: recommend.Callable, NotTarget: func(pkg string) bool { return pkg == "p" }},
			&recommend.Shortfall{Asked: 10, Given: 0, NotTarget: 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := recommend.Additional(cov, covered, tt.opts)
			assert.Equal(t, tt.want, r.Shortfall)
		})
	}
}

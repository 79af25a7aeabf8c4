package collect_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mbopt/mbopt/relevance/collect"
)

// BenchmarkMerge merges a synthetic collection of 5,000 benchmarks (4 KB
// profiles, 20 MB in all) split into 10, 100 and 1,000 shards: the cost of
// 'mbopt merge' as the shard count grows with the suite fixed. Each
// operation reads every shard's manifest, checks the shards, copies and
// hashes every profile and replaces the output directory. Reported per
// operation: shards, benchmarks and MB copied. 'make bench' prints it (see
// docs/scale.md).
func BenchmarkMerge(b *testing.B) {
	const benchmarks, size = 5000, 4 << 10
	w := wholeSized(benchmarks, size)
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("shards=%d", n), func(b *testing.B) {
			root := b.TempDir()
			var dirs []string
			for k, m := range split(b, w, n) {
				d := filepath.Join(root, fmt.Sprintf("shard-%d", k))
				writeDirSized(b, d, m, size)
				dirs = append(dirs, d)
			}
			out := filepath.Join(root, "merged")
			b.ResetTimer()
			for b.Loop() {
				if _, err := collect.Merge(dirs, out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "shards")
			b.ReportMetric(benchmarks, "benchmarks")
			b.ReportMetric(float64(benchmarks*size)/(1<<20), "MB")
		})
	}
}

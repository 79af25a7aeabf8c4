package collect

import (
	"fmt"
	"path/filepath"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// A CollectionError says that a collection did not succeed (see
// [Succeeded]): no benchmark was profiled, or, when the caller is strict,
// some benchmark did not succeed. It is not an input error: the manifest and
// the logs in Out say what went wrong.
type CollectionError struct {
	// Out is the collection's directory.
	Out string
	// Failed counts the benchmarks that did not succeed, of Total.
	Failed, Total int
	// Strict reports that the error is the caller's Strict setting's
	// (some profiles were collected).
	Strict bool
}

// Error returns the message with the Strict field named as Go code names it.
func (e *CollectionError) Error() string { return e.Text(mbopt.Field.String) }

// Text returns the message with the Strict field named by name.
func (e *CollectionError) Text(name func(mbopt.Field) string) string {
	if e.Strict {
		return fmt.Sprintf("%s: %d of %s did not succeed", name(FieldStrict), e.Failed, textutil.Plural(e.Total, "benchmark"))
	}
	return fmt.Sprintf("no benchmark was profiled (logs in %s)", filepath.Join(e.Out, "logs"))
}

// Succeeded reports whether the collection m, written to out, gave what an
// analysis needs: nil when it profiled at least one benchmark (a shard
// that got no benchmark has nothing to profile) and, when strict, every
// benchmark that did not skip itself; else a *[CollectionError].
func Succeeded(m *manifest.Manifest, out string, strict bool) error {
	if m.Count(manifest.StatusOK) == 0 && (m.Shard == nil || m.Shard.Benchmarks > 0) {
		return &CollectionError{Out: out, Failed: len(m.Problems()), Total: len(m.Benchmarks)}
	}
	if n := len(m.Problems()); strict && n > 0 {
		return &CollectionError{Out: out, Failed: n, Total: len(m.Benchmarks), Strict: true}
	}
	return nil
}

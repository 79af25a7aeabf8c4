package shard

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mbopt/mbopt/internal/textutil"
)

// A Record says which share of one partition a shard's output holds: shard
// Index of Count, and what was partitioned (the [Digest] of the items and
// how many there were), so that a merge can check with [CheckPartition]
// that its inputs are the shards of one partition, all of them, once each.
//
// It is the one shard record of mbopt: a sharded collection's manifest
// holds one (manifest.Shard, which adds the share's size and whether the
// run finished) and so does a sharded comparison's shard.json
// (compare.ShardRecord, which adds the comparison's revisions and
// settings). What else a merge must check of a shard's output belongs
// beside it in those records: the manifest's entries carry the SHA-256 of
// each profile and compare's record a [File] (size and SHA-256) of each raw
// file, which both merges check with [File.Copy].
type Record struct {
	// Index is the shard's number, from 0 to Count-1.
	Index int `json:"index"`
	// Count is the number of shards.
	Count int `json:"count"`
	// Digest is the [Digest] of the partitioned items: every shard of one
	// partition has the same.
	Digest string `json:"digest"`
	// Total is the number of items partitioned over all shards.
	Total int `json:"total"`
}

// NewRecord returns the record of shard s of a partition of items.
func NewRecord(s Spec, items []Item) Record {
	return Record{Index: s.Index, Count: s.Count, Digest: Digest(items), Total: len(items)}
}

// Valid reports whether r names a shard, 0 ≤ Index < Count, of a
// partition of Total ≥ 0 items.
func (r Record) Valid() bool {
	return r.Count >= 1 && r.Index >= 0 && r.Index < r.Count && r.Total >= 0
}

// String returns "K/N", as [Spec.String] does.
func (r Record) String() string { return Spec{Index: r.Index, Count: r.Count}.String() }

// A Part is one shard's output given to [CheckPartition].
type Part struct {
	// Name names the output in errors, such as its directory.
	Name string
	// Record is the output's shard record.
	Record Record
	// IDs are the ids of the items in the share, when the shards split
	// the items (see CheckPartition).
	IDs []string
}

// ErrPartition matches (with errors.Is) every error of [CheckPartition].
// Their messages do not repeat it, so that a merge can give its own
// context: "cannot merge: a and b are both shard 1/3 …".
var ErrPartition = errors.New("the shards are not one partition")

// CheckPartition checks that parts are the shards of one partition, all of
// them, once each, the rule every merge of shards applies: every record
// [Record.Valid], with the same Count, Digest and Total; no shard index
// given twice and none missing; and, when byItems is set (the shards split
// the items, and each part's IDs list its share), no item in two shares
// and Total items in all. byItems is false when the shards split
// something else, such as the trials of compare's trial shards, each of
// which runs every benchmark. It checks in that order, the parts in the
// order given, and returns the first problem as an error matching
// [ErrPartition] that names the parts concerned and what to do. It returns
// nil for no parts.
func CheckPartition(parts []Part, byItems bool) error {
	if len(parts) == 0 {
		return nil
	}
	first := parts[0]
	for _, p := range parts {
		r := p.Record
		if !r.Valid() {
			return partitionErrorf("%s: shard %d of %d (%d benchmarks) is not a shard; run the shard again", p.Name, r.Index, r.Count, r.Total)
		}
		if r.Count != first.Record.Count {
			return partitionErrorf("%s is shard %s but %s is shard %s: every shard of one partition has the same N", first.Name, first.Record, p.Name, r)
		}
		if r.Digest != first.Record.Digest || r.Total != first.Record.Total {
			return partitionErrorf("%s and %s partitioned different benchmarks or costs (%d benchmarks, %s; %d benchmarks, %s): the shards found different benchmarks or balanced different costs; give every shard the same benchmarks and costs and run them again",
				first.Name, p.Name, first.Record.Total, short(first.Record.Digest), r.Total, short(r.Digest))
		}
	}
	n := first.Record.Count
	byIndex := make([]string, n)
	for _, p := range parts {
		r := p.Record
		if prev := byIndex[r.Index]; prev != "" {
			return partitionErrorf("%s and %s are both shard %s (overlapping shards); give each shard once", prev, p.Name, r)
		}
		byIndex[r.Index] = p.Name
	}
	var missing []string
	for k, name := range byIndex {
		if name == "" {
			missing = append(missing, Spec{Index: k, Count: n}.String())
		}
	}
	if len(missing) > 0 {
		return partitionErrorf("missing %s of %d: shard %s (given: %s); merge every shard", textutil.Plural(len(missing), "shard"), n, strings.Join(missing, ", "), joinNames(byIndex))
	}
	if !byItems {
		return nil
	}
	owner := map[string]string{}
	for _, p := range parts {
		for _, id := range p.IDs {
			if prev, dup := owner[id]; dup {
				return partitionErrorf("benchmark %s is in both %s and %s (overlapping shards); run the shards again with the same inputs", id, prev, p.Name)
			}
			owner[id] = p.Name
		}
	}
	if len(owner) != first.Record.Total {
		return partitionErrorf("the shards in %s hold %s, but %d were partitioned; run them again", joinNames(byIndex), textutil.Plural(len(owner), "benchmark"), first.Record.Total)
	}
	return nil
}

// A partitionError is an error of CheckPartition: its message alone, so
// that a merge can prefix its own, matching ErrPartition.
type partitionError struct{ msg string }

func (e *partitionError) Error() string        { return e.msg }
func (e *partitionError) Is(target error) bool { return target == ErrPartition }

// partitionErrorf returns an error matching ErrPartition.
func partitionErrorf(format string, args ...any) error {
	return &partitionError{fmt.Sprintf(format, args...)}
}

// short shortens a digest for messages.
func short(digest string) string {
	if len(digest) > len("sha256:")+12 {
		return digest[:len("sha256:")+12]
	}
	return digest
}

// joinNames lists the non-empty names of byIndex.
func joinNames(byIndex []string) string {
	var ns []string
	for _, n := range byIndex {
		if n != "" {
			ns = append(ns, n)
		}
	}
	return strings.Join(ns, ", ")
}

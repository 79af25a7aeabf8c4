// Package shard splits a benchmark suite into N deterministic, cost-balanced
// shares, so that N machines (the jobs of a CI matrix, the pods of a
// Kubernetes Indexed Job) can each collect or compare one share and a later
// merge can put the results back together.
//
// # Vocabulary
//
// A [Spec] names one shard: K/N is shard K of N, with K counting from 0
// (0/3, 1/3, 2/3), as Kubernetes' JOB_COMPLETION_INDEX and Bazel's
// TEST_SHARD_INDEX do. An [Item] is one thing to place, a benchmark ID with
// its expected cost in seconds. A partition places every item on exactly
// one shard; a shard's load is the sum of its items' costs, and the ideal
// load is the total cost divided by N.
//
// # The rule
//
// [Assign] is longest-processing-time-first (Graham 1969): the items in
// decreasing cost, ties by increasing ID, each go to the shard with the
// least load so far, ties to the lowest index. When every cost is equal
// (the "by count" case, before any cost was recorded) this deals the items
// in ID order round-robin: item i of the sorted IDs goes to shard i mod N.
//
// The largest load is at most the largest item's cost, or the ideal load
// plus the cost of the (N+1)-th largest item: the item that makes the
// largest load was placed on the least-loaded shard, whose load was then
// at most the ideal, and it is not among the N largest items unless it is
// alone on its shard. With a few hundred benchmarks per shard the second
// term is a small fraction of the ideal; see [Balance].
//
// # Determinism
//
// The partition is a function of the items alone: every machine that
// computes it from the same items gets the same shares, whatever the order
// of the items or the map iteration order. [Digest] names the items so that
// a merge can tell whether two shards partitioned the same inputs.
//
// # Merging
//
// Each shard's output carries a [Record] (its index, N, the Digest of the
// partitioned items and their number), the one shard record of both a
// sharded collection (package manifest) and a sharded comparison (package
// compare). [CheckPartition] is the one rule a merge applies to the
// records before using anything: the shards of one partition, all of them,
// once each, and no benchmark in two shares.
package shard

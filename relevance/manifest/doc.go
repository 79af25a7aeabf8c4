// Package manifest defines the collection manifest: the manifest.json that
// package collect writes next to the profiles it collects, and that the
// analysis (package analysis) reads to name benchmarks, find their packages,
// learn which failed and what each cost. It is the contract between the
// first stage of mbopt and the later ones, so it lives apart from both:
// reading a manifest needs neither the benchmark runner nor the flows
// (package relevance/flow) that run it.
//
// # Schema
//
// manifest.json is the contract with `mbopt analyze`. Its schema (version 1):
//
//	{
//	  "version": 1,
//	  "module": "example.com/tinytsdb",       // main module path
//	  "go_version": "go1.26.8",                // go env GOVERSION
//	  "goos": "linux", "goarch": "amd64",
//	  "vcs_revision": "3f2a…",                 // git HEAD, omitted when unknown
//	  "vcs_modified": true,                    // uncommitted changes to tracked files; omitted when false
//	  "benchtime": "1s",                       // -test.benchtime of this run
//	  "build_flags": ["-tags=integration"],    // go test -c flags; omitted when none
//	  "shard": {                               // only in one shard's share of a sharded collection
//	    "index": 0, "count": 3,                // shard 0 of 3
//	    "inputs": "sha256:…",                  // digest of the partitioned IDs and costs, equal in every shard
//	    "total": 23, "benchmarks": 8,          // benchmarks partitioned over all shards, and in this share
//	    "by_count": true,                      // no costs were known: counts balanced; omitted when false
//	    "complete": true                       // the shard's run finished
//	  },
//	  "benchmarks": [                          // sorted by package, then name
//	    {
//	      "id": "example.com/tinytsdb/storage.BenchmarkEncode/n=100",
//	      "package": "example.com/tinytsdb/storage",
//	      "dir": "storage",                    // package dir relative to the module root, "/"-separated
//	      "name": "BenchmarkEncode/n=100",     // full name as go test prints it
//	      "status": "ok",                      // ok | failed | timeout | build-failed | skipped
//	      "profile": "storage.BenchmarkEncode_n=100-1a2b3c4d.pprof", // relative to the manifest; set iff status is ok
//	      "profile_sha256": "5d41…",           // hex SHA-256 of the profile file; omitted by older versions
//	      "samples": 97,                       // CPU samples in the profile
//	      "wall_seconds": 1.42,                // wall time of the benchmark's process
//	      "ns_per_op": 812.5,                  // omitted when the run reported none
//	      "iterations": 1482211,               // b.N of the reported result
//	      "error": "panic: boom\n…",           // why the benchmark did not succeed
//	      "log": "logs/….log",                 // full output, for statuses other than ok
//	      "benchtime": "1s",                   // -test.benchtime the profile was taken with
//	      "test_binary": "sha256:9c1e…"        // hash of the test binary; omitted for build-failed
//	    }
//	  ]
//	}
//
// # Function sets (version 2)
//
// A collection with --source cover (collect.Config.Source) records, instead
// of a CPU profile, the set of functions each benchmark executed (a JSON file
// of package covdata). Its manifest is version 2: version 1 plus
//
//	"source": "cover",                          // in the header; omitted (profile) in version 1
//	"functions": "storage.BenchmarkEncode_n=100-1a2b3c4d.funcs.json", // instead of "profile"; set iff status is ok
//	"functions_sha256": "77af…",                 // instead of "profile_sha256"
//
// Only such manifests are written as version 2, so an mbopt that knows only
// version 1 refuses them rather than reading every benchmark as a profile
// gone missing; version 1 manifests are read as before. A manifest holds
// either profiles or function sets, never both ([Read] refuses a mix).
//
// # Timed-loop function sets (version 3)
//
// A cover collection with scope timed (collect.Config.Scope, the default of
// source cover) records, for each benchmark, the functions whose counters
// grew between two runs at different iteration counts: its timed loop,
// without the setup before b.ResetTimer or the validation after
// b.StopTimer. Its manifest is version 3: version 2 plus
//
//	"scope": "timed",                           // in the header; omitted (all) in versions 1 and 2
//
// An mbopt that knows only versions 1 and 2 refuses it rather than taking
// its sets for sets of whole runs. A cover collection with scope all is
// still written as version 2, and a profile collection as version 1.
//
// # Instruction profiles (versions 2 and 3)
//
// A collection with --source instructions records, for each benchmark, a
// pprof profile (in "profile", as version 1) of the instructions each
// function executed, counted under Valgrind:
//
//	"source": "instructions",                   // in the header
//	"scope": "timed",                           // per operation, from two iteration counts; omitted (all): one run's counts
//
// Scope timed is written as version 3, scope all as version 2, so an mbopt
// that does not know the source refuses it rather than reading the
// profiles as CPU profiles.
package manifest

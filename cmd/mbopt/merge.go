package main

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/internal/textutil"
)

func newCmdMerge(s *streams) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge DIR... [-o OUT]",
		Short: "Combine the output directories of 'mbopt profile --shard' into one",
		Long: `Merge combines the output directories of a sharded collection — one
'mbopt profile --shard K/N' per shard, K from 0 to N-1 — into OUT: one manifest
and every profile and log, what one unsharded 'mbopt profile' would have
written. 'mbopt analyze --micro OUT' then reads them as usual.

Merge refuses, naming the directories, inputs that are not the N shards of
one collection: a different module, VCS revision, Go version, GOOS/GOARCH,
build flags (--tags, --mod) or --benchtime; shards of different N, or that
partitioned different benchmarks or costs; a shard given twice, missing, or
interrupted; a benchmark in two shards; a profile missing or changed since
it was collected. Then OUT is left as it was.

OUT is replaced as a whole and atomically, so it must be new, empty, or an
earlier output directory (holding manifest.json); it may be one of the DIRs.
Merging again gives the same OUT, and merging a merged directory alone
copies it unchanged.

Exit status: 0 when merged, 2 for inputs that cannot be merged, 1 otherwise.`,
		Example: `  $ mbopt merge shard-0 shard-1 shard-2 -o profiles
  $ mbopt merge shards/* -o profiles && mbopt analyze --app app.pprof --micro profiles`,
		Args: cli.Args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return input.Errorf("-o must name a directory")
			}
			m, err := collect.Merge(args, out)
			if errors.Is(err, collect.ErrMerge) {
				return input.Wrap(err)
			}
			if err != nil {
				return err
			}
			dirs := fmt.Sprintf("%d directories", len(args))
			if len(args) == 1 {
				dirs = "1 directory"
			}
			fmt.Fprintf(s.Err, "merged %s (%s: %s) into %s\n", dirs,
				textutil.Plural(len(m.Benchmarks), "benchmark"), cmp.Or(m.Counts(), "none"), out)
			fmt.Fprintln(s.Out, out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "profiles", "merged output `directory`")
	return cmd
}

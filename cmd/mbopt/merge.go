package main

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/collect"
)

func newCmdMerge(s *streams) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge DIR... [-o OUT]",
		Short: "Combine the output directories of 'mbopt profile --shard' into one",
		Example: `  $ mbopt merge shard-0 shard-1 shard-2 -o profiles
  $ mbopt merge shards/* -o profiles && mbopt analyze --app app.pprof --micro profiles`,
		Args: cli.Args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return mbopt.Errorf("-o must name a directory")
			}
			m, err := collect.Merge(args, out)
			if errors.Is(err, collect.ErrMerge) {
				return mbopt.Wrap(err)
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

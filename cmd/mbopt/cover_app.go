package main

import (
	"bytes"
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/reference"
)

// coverAppOptions holds the cover-app command's flag values.
type coverAppOptions struct {
	output     string
	gocoverdir string
	coverpkg   string
}

func newCmdCoverApp(s *streams) *cobra.Command {
	o := &coverAppOptions{}
	cmd := &cobra.Command{
		Use:   "cover-app [flags] -- PKG|CMD [ARGS...]",
		Short: "Record the functions an application workload executes (go build -cover)",
		Example: `  $ mbopt cover-app -o app.cover.json -- ./cmd/appbench -duration 5s -cpuprofile {profile}
  $ mbopt analyze --app app.pprof --app-cover app.cover.json --micro profiles/
  $ mbopt cover-app --gocoverdir /tmp/covdata -o app.cover.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			co := reference.CoverOptions{Args: args, CoverDir: o.gocoverdir, CoverPkg: o.coverpkg, Profile: reference.CoverProfile(o.output), Output: s.Err}
			if err := co.Check(); err != nil {
				return err
			}
			// Found before the workload runs, not after.
			if err := co.CheckSet(cli.FieldOutput, o.output); err != nil {
				return err
			}
			return runCoverApp(cmd.Context(), s, o, co)
		},
	}
	f := cmd.Flags()
	flagbind.BindP(f, &o.output, "output", "o", "app.cover.json", "the function set file to write (atomically)", cli.FieldOutput)
	flagbind.Bind(f, &o.gocoverdir, "gocoverdir", "", "read this GOCOVERDIR (written by a program built with -cover) instead of running a workload", reference.FieldCoverDir)
	flagbind.Bind(f, &o.coverpkg, "coverpkg", "", "packages to instrument, as go build -coverpkg takes them (default: the packages of ./... in the current directory; main packages' functions are left out of the set)", reference.FieldCoverPkg)
	return cmd
}

// runCoverApp runs the workload with coverage (or reads --gocoverdir) and
// writes its function set.
func runCoverApp(ctx context.Context, s *streams, o *coverAppOptions, co reference.CoverOptions) error {
	set, err := reference.Cover(ctx, co)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := set.Write(&buf); err != nil {
		return err
	}
	if err := mbopt.WriteOutput(s.Out, o.output, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(s.Err, "mbopt: %d functions of %d instrumented packages ran; function set: %s\n", len(set.Funcs), len(set.Packages), o.output)
	if co.WantsProfile() {
		fmt.Fprintf(s.Err, "mbopt: CPU profile: %s; analyse both with: mbopt analyze --app %s --app-cover %s --micro PROFILES\n", co.Profile, co.Profile, o.output)
	}
	return nil
}

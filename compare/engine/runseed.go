package engine

// This file fixes the runtime's random seed in the test binaries the
// instructions metric counts (package runseed).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/runseed"
	"github.com/mbopt/mbopt/relevance/measure"
)

// A seedOverlay is one version's go build -overlay replacements that fix
// the runtime's seed, and their runseed.Overlay key.
type seedOverlay struct {
	replace map[string]string
	key     string
}

// countedOverlay returns the overlay replacements and key that fix the
// runtime's seed in version side's builds: with the instructions metric
// only (nil and "" for time and cpu, whose binaries are Go's own), made
// once per version from the go command its module selects. A runtime the
// edits do not fit (runseed.ErrUnfit: an old or a newer Go release) is
// counted as Go builds it, with a note that says why its seed is not
// fixed; any other failure is an error naming the metric.
func (r *runner) countedOverlay(ctx context.Context, ws *workspace, side Side) (map[string]string, string, error) {
	if r.s.Metric != measure.Instructions {
		return nil, "", nil
	}
	if o := r.seeds[side]; o != nil {
		return o.replace, o.key, nil
	}
	v := r.vers[side]
	replace, key, err := runseed.Overlay(ctx, r.plan.goCmd(), v.dir, r.plan.env(), filepath.Join(ws.dir, "runseed", side.String()))
	switch {
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	case errors.Is(err, runseed.ErrUnfit):
		r.note(fmt.Sprintf("instructions: the %s's runtime random seed is not fixed (%v): map layouts and random sources differ between its processes", side, err))
		r.seeds[side] = &seedOverlay{}
		return nil, "", nil
	case err != nil:
		return nil, "", FieldSettingsMetric.Errorf("instructions in the %s: %v", side, err)
	}
	if r.seeds[Base] == nil && r.seeds[Head] == nil {
		r.note(seedNote(replace != nil))
	}
	r.seeds[side] = &seedOverlay{replace: replace, key: key}
	return replace, key, nil
}

// seedNote is the report's note on the runtime's seed of the instructions
// metric: fixed (the build overlays the runtime) or not (a target other
// than Linux).
func seedNote(fixed bool) string {
	if !fixed {
		return "instructions: the runtime's random seed is not fixed (the overlay that fixes it is for Linux targets): map layouts and random sources differ between processes"
	}
	return "instructions: counted with a fixed runtime seed per run (runtime/rand.go overlaid), the same in both versions: map layouts and random sources repeat across processes"
}

// seedEnv returns the environment of run run of trial trial under the
// instructions metric: the process's and Plan.Env, and the runtime seed
// of that run (runseed.Seed, from Schedule.Seed), the same in both
// versions.
func (r *runner) seedEnv(trial, run int) []string {
	env := r.plan.env()
	if r.s.Metric == measure.Instructions {
		env = append(env, runseed.Env(runseed.Seed(r.s.Seed, trial, run)))
	}
	return env
}

// mergeReplace returns the union of two overlays' replacements, b's
// winning.
func mergeReplace(a, b map[string]string) map[string]string {
	m := maps.Clone(a)
	if m == nil {
		m = map[string]string{}
	}
	maps.Copy(m, b)
	return m
}

// overlayFlags returns Plan.BuildFlags with an -overlay that applies
// replace, merged with the overlay the flags name, if any (written to the
// workspace for version side); the flags unchanged when replace is empty.
func (r *runner) overlayFlags(ws *workspace, side Side, replace map[string]string) ([]string, error) {
	flags := r.plan.BuildFlags
	if len(replace) == 0 {
		return flags, nil
	}
	var kept []string
	for i := 0; i < len(flags); i++ {
		name, val, hasVal := strings.Cut(strings.TrimPrefix(flags[i], "-"), "=")
		if name != "overlay" && name != "-overlay" {
			kept = append(kept, flags[i])
			continue
		}
		if !hasVal {
			if i+1 == len(flags) {
				return nil, fmt.Errorf("build flags: -overlay needs a file")
			}
			i++
			val = flags[i]
		}
		if !filepath.IsAbs(val) {
			val = filepath.Join(r.vers[side].dir, val) // the go command runs there
		}
		theirs, err := readOverlay(val)
		if err != nil {
			return nil, err
		}
		for _, k := range slices.Sorted(maps.Keys(theirs)) {
			if _, ok := replace[k]; ok {
				return nil, fmt.Errorf("build flags: the overlay %s replaces %s, which mbopt replaces to count instructions with a fixed runtime seed; remove it or use --metric time", val, k)
			}
		}
		replace = mergeReplace(theirs, replace)
	}
	file := filepath.Join(ws.dir, "overlay", side.String()+".json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	if err := runseed.WriteOverlay(file, replace); err != nil {
		return nil, err
	}
	return append(kept, "-overlay", file), nil
}

// readOverlay reads a go build -overlay file's replacements.
func readOverlay(file string) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("build flags: reading the overlay: %w", err)
	}
	var o struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("build flags: the overlay %s: %v", file, err)
	}
	return o.Replace, nil
}

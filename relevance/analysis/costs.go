package analysis

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// CostKind names where benchmark costs came from.
type CostKind string

// The sources of benchmark costs, in the order [Run] tries them: the first
// that gives at least one cost is used for every benchmark.
const (
	// CostsFromFile: SelectConfig.CostsFile (see [ReadCosts]).
	CostsFromFile CostKind = "file"
	// CostsFromConfig: SelectConfig.Costs.
	CostsFromConfig CostKind = "config"
	// CostsFromManifest: the manifest.json files of the Micro
	// directories (see manifest.Manifest.Costs: each benchmark's wall
	// time).
	CostsFromManifest CostKind = "manifest"
	// CostsFromProfiles: each benchmark profile's own duration
	// (DurationNanos, see callgraph.Graph.Duration), the time the
	// profiled run took; profiles that record none have no cost.
	CostsFromProfiles CostKind = "profiles"
)

// CostSource says where the benchmark costs of a [Report] came from.
type CostSource struct {
	// Kind is the source.
	Kind CostKind
	// Files are the costs file or the manifest files; empty for the
	// other kinds.
	Files []string
}

// String describes the source for people: "each profile's recorded
// duration", "manifest DIR/manifest.json", "costs file FILE" or
// "SelectConfig.Costs".
func (s CostSource) String() string {
	switch s.Kind {
	case CostsFromFile:
		return "costs file " + strings.Join(s.Files, ", ")
	case CostsFromConfig:
		return "SelectConfig.Costs"
	case CostsFromManifest:
		return "manifest " + strings.Join(s.Files, ", ")
	case CostsFromProfiles:
		return "each profile's recorded duration"
	}
	return string(s.Kind)
}

// resolveCosts returns the benchmark costs by id and their source, trying
// the sources in the order of [CostKind]'s constants; nil costs and a zero
// source when none gives a cost.
func resolveCosts(cfg Config, manifests []dirManifest, benches []coverage.Benchmark) (map[string]float64, CostSource, error) {
	sc := cfg.Select
	if sc.CostsFile != "" {
		costs, err := ReadCosts(sc.CostsFile)
		if err != nil {
			return nil, CostSource{}, mbopt.Wrap(err)
		}
		return costs, CostSource{Kind: CostsFromFile, Files: []string{sc.CostsFile}}, nil
	}
	if sc.Costs != nil {
		return sc.Costs, CostSource{Kind: CostsFromConfig}, nil
	}
	if costs, files := manifestCosts(manifests); len(costs) > 0 {
		return costs, CostSource{Kind: CostsFromManifest, Files: files}, nil
	}
	costs := map[string]float64{}
	for _, b := range benches {
		d := 0.0
		if b.Graph != nil {
			d = b.Graph.Duration
		} else if b.Footprint != nil {
			d = b.Footprint.Duration
		}
		if d > 0 {
			costs[b.ID] = d
		}
	}
	if len(costs) > 0 {
		return costs, CostSource{Kind: CostsFromProfiles}, nil
	}
	return nil, CostSource{}, nil
}

// manifestCosts merges the costs of the manifests (see
// [manifest.Manifest.Costs]) and returns them with the manifest files they
// came from; nil when there is no manifest.
func manifestCosts(ms []dirManifest) (map[string]float64, []string) {
	if len(ms) == 0 {
		return nil, nil
	}
	costs := map[string]float64{}
	var files []string
	for _, m := range ms {
		maps.Copy(costs, m.Costs())
		files = append(files, filepath.Join(m.dir, manifest.FileName))
	}
	return costs, files
}

// maxCostsBytes bounds a costs file: a few hundred bytes per benchmark.
const maxCostsBytes = 64 << 20

// ReadCosts reads benchmark costs in seconds from path: a JSON object
// mapping benchmark ids to seconds, a collection manifest (a JSON object
// with a "benchmarks" list, see [manifest.Manifest.Costs]), or CSV lines
// "id,seconds" (a first line whose second field is not a number is a
// header). Only a regular file of at most 64 MiB is read (a named pipe is
// refused, never waited on). Errors name the file and line.
func ReadCosts(path string) (map[string]float64, error) {
	data, err := regfile.ReadFile(path, maxCostsBytes)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: reading costs: %w", path, err)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(trimmed, &probe); err != nil {
			return nil, fmt.Errorf("%s: not a JSON object of id → seconds: %w", path, err)
		}
		if _, ok := probe["benchmarks"]; ok {
			m, err := manifest.Read(bytes.NewReader(trimmed), path)
			if err != nil {
				return nil, err
			}
			return m.Costs(), nil
		}
		costs := map[string]float64{}
		if err := json.Unmarshal(trimmed, &costs); err != nil {
			return nil, fmt.Errorf("%s: not a JSON object of id → seconds: %w", path, err)
		}
		return costs, nil
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = 2
	cr.TrimLeadingSpace = true
	costs := map[string]float64{}
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: want CSV lines \"id,seconds\": %w", path, err)
		}
		v, err := strconv.ParseFloat(rec[1], 64)
		if err != nil {
			if line == 1 {
				continue // header
			}
			pos, _ := cr.FieldPos(1)
			return nil, fmt.Errorf("%s:%d: cost %q is not a number of seconds", path, pos, rec[1])
		}
		costs[rec[0]] = v
	}
	return costs, nil
}

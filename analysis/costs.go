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

	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/manifest"
)

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

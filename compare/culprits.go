package compare

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/benchname"
	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/culprit"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/measure"
)

// CulpritDir is the directory, in the output directory, of the profiles
// that explain the changes: for each explained benchmark, its two
// per-operation profiles "<name>.base.pprof" and "<name>.head.pprof"
// (Result.Profiles) and, with the instructions metric, the Valgrind files
// they were made from.
const CulpritDir = "culprits"

// MaxCulprits bounds Result.Culprits: the functions with the largest share
// of the change. The pprof files (Result.Profiles) hold every function.
const MaxCulprits = 20

// Profiles names the two per-operation profiles of an explained benchmark,
// absolute paths: `go tool pprof -top -diff_base BASE HEAD` shows the
// per-function diff of Result.Culprits.
type Profiles struct {
	// Base is the base's profile.
	Base string `json:"base"`
	// Head is the head's profile.
	Head string `json:"head"`
}

// explains reports whether res gets culprit functions: a change in the
// comparison's metric (a definite or potential one), or a benchmark that
// Options.Explain names, compared in the metric's unit.
func (r *runner) explains(res Result, asked bool) bool {
	if res.Status != Compared || res.Estimate == nil || res.Unit != r.s.unit() {
		return false
	}
	return asked || !r.opt.ExplainOnly && res.Verdict != benchstats.Unchanged
}

// culprits finds the culprit functions of the results that need them (see
// [runner.explains]) and, with Options.AppShares, their application
// impact. A benchmark whose profiles fail gets a report note instead.
func (r *runner) culprits(ctx context.Context, rep *Report, out string) error {
	asked := map[string]bool{}
	for _, n := range r.opt.Explain {
		asked[n] = true
	}
	found := map[string]bool{}
	dir := filepath.Join(out, CulpritDir)
	for i := range rep.Results {
		res := &rep.Results[i]
		ask := asked[res.Name] || asked[res.ID]
		if ask && res.Unit == r.s.unit() {
			found[res.Name], found[res.ID] = true, true
		}
		if !r.explains(*res, ask) {
			continue
		}
		if err := statedir.MkdirAll(dir); err != nil {
			return fmt.Errorf("cannot create the culprits directory %s: %v", dir, err)
		}
		err := r.explain(ctx, res, dir)
		if stop := stops(ctx, err); stop != nil {
			return stop
		}
		if err != nil {
			r.note(fmt.Sprintf("%s: no culprit functions: %s", res.ID, textutil.FirstLine(err.Error())))
		}
	}
	for _, n := range r.opt.Explain {
		if !found[n] {
			r.note(fmt.Sprintf("explain %s: no benchmark of that name or id was compared in %s, so it has no culprit functions", n, r.s.unit()))
		}
	}
	return nil
}

// explain profiles res's benchmark in both versions at the same iteration
// counts, diffs the profiles per function and writes them to dir.
func (r *runner) explain(ctx context.Context, res *Result, dir string) error {
	var u *unit
	for _, x := range r.units {
		if x.pkg == res.Package && (res.Name == x.name || strings.HasPrefix(res.Name, x.name+"/")) {
			u = x
			break
		}
	}
	if u == nil {
		return fmt.Errorf("no unit ran it")
	}
	file := filepath.Join(dir, benchname.UniqueFileName(res.ID, res.ID, 100))
	opts := func(side Side) measure.Options {
		b := r.builds[u.pkg][side]
		return measure.Options{Binary: b.bin, Dir: b.dir, Name: res.Name, Env: r.opt.env(), Timeout: r.timeout}
	}
	var prof [2]*culprit.Profile
	if r.s.Metric == measure.Instructions {
		var n1, n2 int
		for _, side := range []Side{Base, Head} {
			// A cached test binary names the files of the worktree it
			// was built in, which may be gone: the same commit is
			// checked out under this version's root.
			rs := culprit.NewResolver()
			rs.Roots = []string{r.vers[side].dir}
			o := opts(side)
			o.Keep = file + "." + side.String()
			if side == Base {
				r.mu.Lock()
				o.InstrPerOp = r.perOp[side.String()+"\x00"+res.ID]
				r.mu.Unlock()
			} else {
				o.N1, o.N2 = n1, n2
			}
			v, err := measure.CountInstructions(ctx, o)
			if err != nil {
				return err
			}
			n1, n2 = v.N1, v.N2
			if prof[side], err = culprit.Instructions(rs, v.Files[0], v.Files[1], v.N1, v.N2); err != nil {
				return err
			}
		}
	} else {
		o := opts(Base)
		o.NsPerOp = res.Estimate.BaseMedian * 1e9 // sec/op or cpu-sec/op
		_, n, err := o.Counts(measure.ProfileTarget)
		if err != nil {
			return err
		}
		tmp, err := os.MkdirTemp("", "mbopt-culprit-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		for _, side := range []Side{Base, Head} {
			o := opts(side)
			o.N1, o.N2 = max(2, n/5), n
			raw := filepath.Join(tmp, side.String()+".pprof")
			if _, err := measure.CPUProfile(ctx, o, raw); err != nil {
				return err
			}
			if prof[side], err = readCPUProfile(raw, n+1); err != nil { // b.N = 1 runs before n
				return err
			}
		}
	}
	app := appShares(r.opt.AppShares, prof[Base], prof[Head])
	d := culprit.Compare(prof[Base], prof[Head], app)
	res.Culprits = d.Culprits[:min(len(d.Culprits), MaxCulprits)]
	res.Profiles = &Profiles{Base: file + ".base.pprof", Head: file + ".head.pprof"}
	for side, path := range []string{res.Profiles.Base, res.Profiles.Head} {
		var buf bytes.Buffer
		if err := prof[side].WritePprof(&buf); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(path, buf.Bytes()); err != nil {
			return err
		}
	}
	if r.opt.AppShares != nil {
		a := culprit.Impact(d, app, res.Estimate.Change, res.Estimate.CI.Low, res.Estimate.CI.High)
		res.AppImpact = &a
	}
	return nil
}

// readCPUProfile reads a Go CPU profile of ops operations as a
// per-operation profile.
func readCPUProfile(path string, ops int) (*culprit.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return culprit.FromCPUProfile(p, ops)
}

// appShares returns the application shares (keyed by callgraph's
// normalised names) of the functions of the profiles, keyed as the
// profiles name them; nil when shares is nil.
func appShares(shares map[string]float64, ps ...*culprit.Profile) map[string]float64 {
	if shares == nil {
		return nil
	}
	m := map[string]float64{}
	for _, p := range ps {
		for f := range p.Funcs() {
			if s := shares[callgraph.NormalizeName(f)]; s > 0 {
				m[f] = s
			}
		}
	}
	return m
}

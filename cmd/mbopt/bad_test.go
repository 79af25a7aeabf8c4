package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/testkit/dirtest"
)

// badDir is the bad-input corpus; its README describes the case format and
// lists every case.
const badDir = "../../testdata/bad"

// Limits every case must stay within: a bad input fails fast and cheaply.
// Fast is CPU time (user + system): on a shared 2-core machine at a load
// average of 40 a 1 s case took 3.7 s of wall time. The wall-time bound
// only catches a hang.
const (
	caseMaxCPU  = 2 * time.Second
	caseMaxWall = 30 * time.Second
	caseMaxRSS  = 200 << 20 // bytes
)

// badCase is one file of testdata/bad/cases.
type badCase struct {
	name    string
	doc     string     // the first comment line
	args    []string   // the command line, variables not yet expanded
	setup   [][]string // setup steps, each a verb and its arguments
	exit    int
	names   string   // substring of stderr's first line: the file or flag at fault
	hint    string   // substring of stderr's first line: the fix
	outputs []string // what $OUT holds afterwards, sorted
	stdout  string   // substring of stdout, if set
}

// readBadCase parses a case file: "key: value" lines, "#" comments (the
// first is the case's description); args, setup and outputs are split into
// words with splitWords.
func readBadCase(path string) (*badCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &badCase{name: strings.TrimSuffix(filepath.Base(path), ".txt"), exit: -1}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if doc, ok := strings.CutPrefix(line, "#"); ok {
			if c.doc == "" {
				c.doc = strings.TrimSpace(doc)
			}
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want key: value", path, i+1)
		}
		val = strings.TrimSpace(val)
		var fields []string
		if key == "args" || key == "setup" || key == "outputs" {
			if fields, err = splitWords(val, true); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
			}
		}
		switch key {
		case "args":
			c.args = fields
		case "setup":
			c.setup = append(c.setup, fields)
		case "exit":
			if c.exit, err = strconv.Atoi(val); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
			}
		case "names":
			c.names = val
		case "hint":
			c.hint = val
		case "outputs":
			c.outputs = fields
			slices.Sort(c.outputs)
		case "stdout":
			c.stdout = val
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q", path, i+1, key)
		}
	}
	switch {
	case c.doc == "":
		return nil, fmt.Errorf("%s: no # description", path)
	case len(c.args) == 0 || c.exit < 0:
		return nil, fmt.Errorf("%s: args and exit are required", path)
	case c.exit != 0 && (c.names == "" || c.hint == ""):
		return nil, fmt.Errorf("%s: a failing case needs names and hint", path)
	}
	return c, nil
}

// setupStep performs one setup line of a case; paths are expanded.
func setupStep(t *testing.T, step []string) {
	t.Helper()
	mkdir := func(p string) { require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755)) }
	size := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		require.NoError(t, err, "setup %q: size", step)
		return n
	}
	switch {
	case step[0] == "fifo" && len(step) == 2:
		mkdir(step[1])
		require.NoError(t, syscall.Mkfifo(step[1], 0o644))
	case step[0] == "sparse" && len(step) == 3:
		// A file that reads as that many zero bytes, made in no time and
		// taking no disk space; too large to commit.
		mkdir(step[1])
		f, err := os.Create(step[1])
		require.NoError(t, err)
		require.NoError(t, f.Truncate(size(step[2])))
		require.NoError(t, f.Close())
	case step[0] == "gzipbomb" && len(step) == 3:
		// A gzip stream of that many zero bytes, about a thousandth of
		// it compressed.
		mkdir(step[1])
		f, err := os.Create(step[1])
		require.NoError(t, err)
		zw, err := gzip.NewWriterLevel(f, gzip.BestSpeed)
		require.NoError(t, err)
		_, err = io.CopyN(zw, zeros{}, size(step[2]))
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		require.NoError(t, f.Close())
	case step[0] == "copy" && len(step) == 3:
		mkdir(step[2])
		data, err := os.ReadFile(step[1])
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(step[2], data, 0o644))
	default:
		t.Fatalf("unknown setup step %q", step)
	}
}

// zeros reads as an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestBadInputCorpus runs every case of testdata/bad/cases against the
// built command as a subprocess and checks the exit status, stderr's first
// line (names the file or flag at fault and the fix), that nothing panics,
// that the output location holds exactly the expected files and no
// temporary file, and that the run stays under caseMaxCPU, caseMaxWall
// and caseMaxRSS.
func TestBadInputCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	files, err := filepath.Glob(filepath.Join(badDir, "cases", "*.txt"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 40, "the corpus has at least 40 cases")
	var cases []*badCase
	for _, f := range files {
		c, err := readBadCase(f)
		require.NoError(t, err)
		cases = append(cases, c)
	}
	bin := buildMbopt(t)
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		require.NoError(t, err)
		return a
	}
	in, shared, profBad := abs(badDir+"/inputs"), abs(badDir+"/shared"), abs("../../testdata/profiles/bad")
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GITHUB_STEP_SUMMARY=") })

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp, out := t.TempDir(), t.TempDir()
			expand := func(s string) string {
				return os.Expand(s, func(v string) string {
					switch v {
					case "IN":
						return in
					case "SHARED":
						return shared
					case "PROFBAD":
						return profBad
					case "TMP":
						return tmp
					case "OUT":
						return out
					}
					t.Fatalf("unknown variable $%s", v)
					return ""
				})
			}
			for _, step := range c.setup {
				expanded := make([]string, len(step))
				for i, s := range step {
					expanded[i] = expand(s)
				}
				setupStep(t, expanded)
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = expand(a)
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(bin, args...)
			cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = tmp, env, &stdout, &stderr
			start := time.Now()
			timer := time.AfterFunc(caseMaxWall, func() { cmd.Process.Kill() })
			err := cmd.Run()
			wall := time.Since(start)
			timer.Stop()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatalf("running mbopt: %v", err)
			}
			errText := stderr.String()
			assert.Equal(t, c.exit, cmd.ProcessState.ExitCode(), "exit status; stderr:\n%s", errText)
			first, _, _ := strings.Cut(errText, "\n")
			if c.names != "" {
				assert.Contains(t, first, expand(c.names), "stderr's first line must name the file or flag at fault")
			}
			if c.hint != "" {
				assert.Contains(t, first, c.hint, "stderr's first line must say how to fix it")
			}
			if c.stdout != "" {
				assert.Contains(t, stdout.String(), c.stdout)
			}
			for _, bad := range []string{"panic:", "goroutine "} {
				assert.NotContains(t, errText, bad)
			}
			// A report directory counts as one entry: its files are the
			// report command's to choose.
			got := append([]string{}, dirtest.Names(t, out)...)
			want := c.outputs
			if want == nil {
				want = []string{}
			}
			assert.Equal(t, want, got, "files left in the output directory $OUT")
			assert.Empty(t, tempFiles(t, out), "temporary files left in the output directory")
			assert.Empty(t, tempFiles(t, tmp), "temporary files left in the working directory")
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			assert.Less(t, cpu, caseMaxCPU, "CPU time")
			assert.Less(t, wall, caseMaxWall, "wall time")
			assert.Less(t, rss, int64(caseMaxRSS), "max RSS")
			t.Logf("%s: exit %d in %v (%v CPU), %d MB RSS", c.doc, cmd.ProcessState.ExitCode(), wall.Round(time.Millisecond), cpu.Round(time.Millisecond), rss>>20)
		})
	}
}

// tempFiles lists the atomicfile temporaries below dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && atomicfile.IsTemp(d.Name()) {
			got = append(got, p)
		}
		return err
	}))
	return got
}

// TestBadCorpusREADME checks that testdata/bad/README.md lists every case
// with its description, so the table never drifts from the corpus.
func TestBadCorpusREADME(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(badDir, "cases", "*.txt"))
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join(badDir, "README.md"))
	require.NoError(t, err)
	listed := map[string]bool{}
	_, table, ok := strings.Cut(string(readme), "\n## Cases\n")
	require.True(t, ok, "README.md has no ## Cases section")
	sc := bufio.NewScanner(strings.NewReader(table))
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "| `"); ok {
			name, _, _ = strings.Cut(name, "`")
			listed[name] = true
		}
	}
	for _, f := range files {
		c, err := readBadCase(f)
		require.NoError(t, err)
		assert.True(t, listed[c.name], "README.md does not list case %s; regenerate the table (see the README)", c.name)
		delete(listed, c.name)
	}
	assert.Empty(t, listed, "README.md lists cases that do not exist")
}

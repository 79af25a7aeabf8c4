// Package reference obtains the application (reference) profile that a
// benchmark suite is compared with, from the three places Go projects keep
// one:
//
//   - a running program that serves net/http/pprof: [Capture] fetches
//     /debug/pprof/profile?seconds=N, a CPU profile of production or of a
//     load test;
//   - the repository's PGO profiles: [FindPGO] lists the default.pgo files
//     (Go's profile-guided optimisation input, a CPU profile that many
//     projects take in production);
//   - a workload command: [Run] runs a program that drives the application
//     and writes a CPU profile, such as an application benchmark that starts
//     the server in-process.
//
// [Cover] runs a workload with Go's coverage instrumentation instead, for
// the exact set of functions the application ran, where a profile samples.
//
// Every function checks that what it got is a CPU profile with samples and
// names the source in its errors.
package reference

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/proc"
	"github.com/mbopt/mbopt/internal/textutil"
)

// check parses the profile at path and rejects anything but a CPU profile
// with samples; source names where it came from.
func check(path, source string) error {
	p, err := callgraph.ReadProfile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	if _, err := callgraph.New(p, callgraph.Options{}); err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	return nil
}

// ProfileURL returns the URL of a CPU profile of the given length for
// target: target itself when it already names a path other than "/", else
// target's /debug/pprof/profile. The seconds parameter is set unless
// target's query already has one.
func ProfileURL(target string, seconds int) (string, error) {
	u, err := url.Parse(target)
	if err != nil {
		return "", fmt.Errorf("invalid URL %q: %w", target, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("invalid URL %q: want http:// or https://", target)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/debug/pprof/profile"
	}
	q := u.Query()
	if q.Get("seconds") == "" && seconds > 0 {
		q.Set("seconds", fmt.Sprint(seconds))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Capture fetches a CPU profile of the given length from target (see
// [ProfileURL]) and writes it to out, atomically: on any error out is not
// created. The request may take seconds plus a margin; ctx bounds it.
func Capture(ctx context.Context, target string, seconds int, out string) error {
	u, err := ProfileURL(target, seconds)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(seconds)*time.Second+time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("capturing %s: %w (is the program running and serving net/http/pprof?)", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("capturing %s: %s: %s", u, resp.Status, strings.TrimSpace(string(body)))
	}
	return writeChecked(out, u, func(w io.Writer) error {
		_, err := io.Copy(w, resp.Body)
		return err
	})
}

// writeChecked writes a profile through fill into a temporary file next to
// out (see package internal/atomicfile), checks it, and renames it to out.
func writeChecked(out, source string, fill func(io.Writer) error) error {
	f, err := atomicfile.Create(out)
	if err != nil {
		return err
	}
	defer f.Cleanup()
	if err := fill(f); err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := check(f.Name(), source); err != nil {
		return err
	}
	return f.Commit()
}

// FindPGO returns the default.pgo files below dir, sorted, skipping
// vendor, testdata and hidden directories (as the go command does). It
// returns an error when there is none.
func FindPGO(dir string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir {
			name := d.Name()
			if name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && d.Name() == "default.pgo" {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("no default.pgo below %s: Go's PGO profiles sit next to a main package", dir)
	}
	slices.Sort(found)
	return found, nil
}

// Placeholder in a workload command stands for the profile path to write.
const Placeholder = "{profile}"

// Run runs the workload command line in dir through "sh -c", with every
// occurrence of [Placeholder] replaced by the (shell-quoted) path out and
// the environment variable MBOPT_CPUPROFILE set to it, and checks that the
// command wrote a CPU profile with samples there. The command's output goes
// to stderr. timeout bounds it (0: no bound); on expiry, when ctx is
// canceled, and when the command ends, the command and every process it
// started are killed (see package internal/proc). The profile is written
// to a temporary file next to out and renamed to out only once checked, so
// out is never partial and a failed run leaves no file behind. env adds
// environment variables ("NAME=value") to the command's.
func Run(ctx context.Context, command, dir, out string, timeout time.Duration, stderr io.Writer, env ...string) error {
	if !strings.Contains(command, Placeholder) {
		return fmt.Errorf("workload command %q: it must contain %s where the CPU profile path goes, e.g. 'go run ./cmd/loadtest -cpuprofile %s'", command, Placeholder, Placeholder)
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	f, err := atomicfile.Create(abs)
	if err != nil {
		return err
	}
	defer f.Cleanup()
	if err := f.Close(); err != nil { // the command writes it by name
		return err
	}
	tmp := f.Name()
	line := strings.ReplaceAll(command, Placeholder, textutil.ShellQuote(tmp))
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), "MBOPT_CPUPROFILE="+tmp)
	cmd.Stdout = stderr
	cmd.Stderr = stderr
	cmd.WaitDelay = 5 * time.Second
	if err := proc.Run(cmd); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("workload command %q: timed out after %v", command, timeout)
		}
		return fmt.Errorf("workload command %q: %w", command, err)
	}
	if fi, err := os.Stat(tmp); err != nil || fi.Size() == 0 {
		return fmt.Errorf("workload command %q wrote no profile at %s", command, Placeholder)
	}
	if err := check(tmp, fmt.Sprintf("workload command %q", command)); err != nil {
		return err
	}
	return f.Commit()
}

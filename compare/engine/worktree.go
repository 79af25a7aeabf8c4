package engine

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/internal/interrupt"
)

// TempPrefix starts the name of the temporary directory each Run makes
// under os.TempDir for its git worktrees (and the test binaries of a dirty
// worktree): "mbopt-compare-<pid>-<random>". A run removes its directory
// on every exit path, including SIGINT and SIGTERM; the directory of a run
// that was killed (SIGKILL) is removed by the next run, which removes
// every such directory whose process is gone and prunes git's record of
// the worktrees in it (git worktree prune).
const TempPrefix = "mbopt-compare-"

// A workspace is one Run's temporary directory and the worktrees in it.
type workspace struct {
	repo       string // the repository's top level
	dir        string // the temporary directory
	unregister func()
	once       sync.Once
}

// newWorkspace removes what killed runs left behind and creates this
// run's temporary directory, registered with package interrupt so the
// watchdog removes it too.
func newWorkspace(ctx context.Context, repo string) (*workspace, error) {
	pruneStale(ctx, repo)
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", TempPrefix, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("creating a temporary directory for the worktrees: %w", err)
	}
	w := &workspace{repo: repo, dir: dir}
	w.unregister = interrupt.Register(func() { w.remove(context.Background()) })
	return w, nil
}

// remove removes the temporary directory with its worktrees and git's
// record of them. It is safe to call more than once.
func (w *workspace) remove(ctx context.Context) {
	w.once.Do(func() {
		// A git worktree add stopped by an interrupt leaves its worktree
		// locked ("initializing"), which prune keeps: unlock this run's.
		unlockUnder(context.WithoutCancel(ctx), w.repo, w.dir)
		os.RemoveAll(w.dir)
		// A canceled ctx must not stop the prune: it is what makes the
		// removal complete.
		gitrev.Git(context.WithoutCancel(ctx), w.repo, "worktree", "prune")
		if w.unregister != nil {
			w.unregister()
		}
	})
}

// unlockUnder unlocks the worktrees of repo whose directory lies in dir.
func unlockUnder(ctx context.Context, repo, dir string) {
	out, err := gitrev.Git(ctx, repo, "worktree", "list", "--porcelain")
	if err != nil {
		return
	}
	path := ""
	for _, l := range strings.Split(string(out), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok {
			path = p
		} else if strings.HasPrefix(l, "locked") && strings.HasPrefix(path, dir+string(filepath.Separator)) {
			gitrev.Git(ctx, repo, "worktree", "unlock", path)
		}
	}
}

// pruneStale removes the temporary directories of runs whose process is
// gone, and git's record of worktrees whose directory is gone.
func pruneStale(ctx context.Context, repo string) {
	entries, err := os.ReadDir(os.TempDir())
	if err == nil {
		for _, e := range entries {
			rest, ok := strings.CutPrefix(e.Name(), TempPrefix)
			if !ok || !e.IsDir() {
				continue
			}
			pidText, _, _ := strings.Cut(rest, "-")
			pid, err := strconv.Atoi(pidText)
			if err != nil || pid == os.Getpid() || processAlive(pid) {
				continue
			}
			os.RemoveAll(filepath.Join(os.TempDir(), e.Name()))
		}
	}
	gitrev.Git(ctx, repo, "worktree", "prune")
}

// checkout makes a detached worktree of commit in the workspace and
// returns its directory. With dirty, it then copies the user's
// uncommitted changes over it: every tracked and every untracked,
// not-ignored file of the work tree, and removes the tracked files the
// user deleted.
func (w *workspace) checkout(ctx context.Context, name, commit string, dirty bool) (string, error) {
	dir := filepath.Join(w.dir, name)
	if _, err := gitrev.Git(ctx, w.repo, "worktree", "add", "--detach", "--quiet", dir, commit); err != nil {
		return "", err
	}
	if !dirty {
		return dir, nil
	}
	out, err := gitrev.Git(ctx, w.repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return "", err
	}
	for _, rel := range strings.Split(string(out), "\x00") {
		if rel == "" {
			continue
		}
		if err := copyEntry(filepath.Join(w.repo, rel), filepath.Join(dir, rel)); err != nil {
			return "", fmt.Errorf("copying the uncommitted %s into the worktree: %w", rel, err)
		}
	}
	return dir, nil
}

// copyEntry makes dst what src is: a copy of a regular file (with its
// permission bits), the same symbolic link, or nothing when src is gone.
// Directories (submodules) are left as they are.
func copyEntry(src, dst string) error {
	fi, err := os.Lstat(src)
	if os.IsNotExist(err) {
		err := os.Remove(dst)
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		os.Remove(dst)
		return os.Symlink(target, dst)
	case fi.Mode().IsRegular():
		in, err := os.Open(src)
		if err != nil {
			return err
		}
		defer in.Close()
		os.Remove(dst)
		out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	}
	return nil
}

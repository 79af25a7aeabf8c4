package history

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// placeEnv, in a child of TestUnwritablePlaces, names the case it runs
// in a mount namespace of its own; placeDirEnv is the directory it makes
// read-only or full.
const (
	placeEnv    = "MBOPT_HISTORY_TEST_PLACE"
	placeDirEnv = "MBOPT_HISTORY_TEST_PLACE_DIR"
)

// TestUnwritablePlaces: a sound history on a read-only mount, or on a
// full disk, is read (issue 31 item 7: mbopt history exited 2 "unable to
// open database file (14)"), and Open, which compare calls to store a
// comparison, says what is wrong without calling the database damaged or
// advising to move it away. Each case runs in a child process in a user
// and mount namespace of its own, where it may mount: a read-only bind
// mount of the history's directory, and a 1 MiB tmpfs filled up. The test
// skips where the kernel refuses such namespaces.
func TestUnwritablePlaces(t *testing.T) {
	if c := os.Getenv(placeEnv); c != "" {
		inPlace(t, c, os.Getenv(placeDirEnv))
		return
	}
	for _, tc := range []struct{ name, want string }{
		{"read-only mount", "read-only file system"},
		{"full disk", "disk is full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "h.db")
			s := open(t, path)
			_, err := s.Add(context.Background(), report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0.05}), testMachine)
			require.NoError(t, err)
			require.NoError(t, s.Close())
			exe, err := os.Executable()
			require.NoError(t, err)
			cmd := exec.Command(exe, "-test.run=^TestUnwritablePlaces$", "-test.v")
			cmd.Env = append(os.Environ(), placeEnv+"="+tc.name+"="+tc.want, placeDirEnv+"="+dir)
			cmd.SysProcAttr = &syscall.SysProcAttr{
				Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
				UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
				GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
			}
			out, err := cmd.CombinedOutput()
			if err != nil && strings.Contains(string(out), "no namespace: ") || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) {
				t.Skipf("no user and mount namespace here: %v %s", err, out)
			}
			t.Logf("%s", out)
			require.NoError(t, err, "the child failed")
		})
	}
}

// inPlace is the child of TestUnwritablePlaces: in its own mount
// namespace it makes dir (holding the history h.db) read-only or full,
// reads the history, and opens it as compare does.
func inPlace(t *testing.T, c, dir string) {
	ctx := context.Background()
	name, want, _ := strings.Cut(c, "=")
	path := filepath.Join(dir, "h.db")
	// mount fails the test as the parent skips it: where the kernel
	// gives the namespace no right to mount.
	mount := func(source, target, fstype string, flags uintptr, data string) {
		if err := syscall.Mount(source, target, fstype, flags, data); err != nil {
			t.Fatalf("no namespace: mount %s %s: %v", source, target, err)
		}
	}
	// Nothing mounted here reaches the parent's namespace.
	mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, "")
	switch name {
	case "read-only mount":
		mount(dir, dir, "", syscall.MS_BIND, "")
		mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, "")
		err := os.WriteFile(filepath.Join(dir, "probe"), nil, 0o666)
		require.ErrorIs(t, err, syscall.EROFS)
	case "full disk":
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		mount("tmpfs", dir, "tmpfs", 0, "size=1m")
		require.NoError(t, os.WriteFile(path, data, 0o666))
		fill, err := os.Create(filepath.Join(dir, "fill"))
		require.NoError(t, err)
		for {
			if _, err := fill.Write(make([]byte, 4096)); err != nil {
				require.ErrorIs(t, err, syscall.ENOSPC)
				break
			}
		}
		require.NoError(t, fill.Close())
	default:
		t.Fatalf("unknown case %q", name)
	}
	before := stateOf(t, path)

	s, err := OpenReadOnly(ctx, path)
	require.NoError(t, err, "reading the history")
	set, err := s.Series(ctx, Query{})
	require.NoError(t, err)
	assert.Len(t, set.Series, 1)
	require.NoError(t, s.Close())

	_, err = Open(ctx, path)
	require.Error(t, err, "opening the history for writing")
	t.Logf("Open: %v", err)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), want)
	assert.NotContains(t, err.Error(), "move it away")
	assert.NotContains(t, err.Error(), "damaged")
	assert.NotErrorIs(t, err, ErrNotHistory)
	assert.Equal(t, before, stateOf(t, path), "the file and its directory are untouched")
}

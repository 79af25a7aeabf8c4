package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/testkit/dirtest"
)

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(t *testing.T, dir string) string // returns the path to write
		check    string                                // file whose content must be "new"
		wantMode os.FileMode
		wantLink string // a path that must still be a symbolic link
		wantErr  bool
	}{
		{
			name:     "new file is 0644",
			setup:    func(t *testing.T, dir string) string { return filepath.Join(dir, "out.json") },
			check:    "out.json",
			wantMode: 0o644,
		},
		{
			name: "existing file keeps its mode",
			setup: func(t *testing.T, dir string) string {
				p := filepath.Join(dir, "out.json")
				require.NoError(t, os.WriteFile(p, []byte("old"), 0o600))
				require.NoError(t, os.Chmod(p, 0o600))
				return p
			},
			check:    "out.json",
			wantMode: 0o600,
		},
		{
			name: "symbolic link is written through",
			setup: func(t *testing.T, dir string) string {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "real.json"), []byte("old"), 0o640))
				require.NoError(t, os.Chmod(filepath.Join(dir, "real.json"), 0o640))
				require.NoError(t, os.Symlink("real.json", filepath.Join(dir, "link.json")))
				return filepath.Join(dir, "link.json")
			},
			check:    "real.json",
			wantMode: 0o640,
			wantLink: "link.json",
		},
		{
			name: "dangling link creates its target",
			setup: func(t *testing.T, dir string) string {
				require.NoError(t, os.Symlink("made.json", filepath.Join(dir, "link.json")))
				return filepath.Join(dir, "link.json")
			},
			check:    "made.json",
			wantMode: 0o644,
			wantLink: "link.json",
		},
		{
			name: "directory is an error",
			setup: func(t *testing.T, dir string) string {
				require.NoError(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
				return filepath.Join(dir, "d")
			},
			wantErr: true,
		},
		{
			name:    "missing parent is an error",
			setup:   func(t *testing.T, dir string) string { return filepath.Join(dir, "no", "such", "out") },
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.setup(t, dir)
			before := dirtest.Names(t, dir)
			err := WriteFile(path, []byte("new"))
			if tt.wantErr {
				require.Error(t, err)
				assert.Equal(t, before, dirtest.Names(t, dir), "a failed write must leave the directory as it was")
				return
			}
			require.NoError(t, err)
			got, err := os.ReadFile(filepath.Join(dir, tt.check))
			require.NoError(t, err)
			assert.Equal(t, "new", string(got))
			fi, err := os.Stat(filepath.Join(dir, tt.check))
			require.NoError(t, err)
			assert.Equal(t, tt.wantMode, fi.Mode().Perm())
			if tt.wantLink != "" {
				li, err := os.Lstat(filepath.Join(dir, tt.wantLink))
				require.NoError(t, err)
				assert.NotZero(t, li.Mode()&os.ModeSymlink, "%s is no longer a link", tt.wantLink)
			}
			for _, e := range dirtest.Names(t, dir) {
				assert.False(t, IsTemp(e), "temporary file %s left behind", e)
			}
		})
	}
}

func TestWriteFailureLeavesTargetAndNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		if _, err := w.Write([]byte("half")); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old", string(got))
	assert.Equal(t, []string{"out.json"}, dirtest.Names(t, dir))
}

func TestDeviceWrittenInPlace(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip("no", os.DevNull)
	}
	require.NoError(t, WriteFile(os.DevNull, []byte("x")))
	fi, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.False(t, fi.Mode().IsRegular(), "%s was replaced by a regular file", os.DevNull)
}

func TestCommitAfterCallerClosed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "profile.pprof")
	f, err := Create(path)
	require.NoError(t, err)
	defer f.Cleanup()
	require.NoError(t, f.Close())
	// Another process writes the temporary file by name.
	require.NoError(t, os.WriteFile(f.Name(), []byte("data"), 0o600))
	require.NoError(t, f.Commit())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "data", string(got))
	assert.Equal(t, []string{"profile.pprof"}, dirtest.Names(t, dir))
	assert.Error(t, f.Commit(), "a second Commit must fail")
}

func TestCleanupRemovesTemp(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "x"))
	require.NoError(t, err)
	assert.True(t, IsTemp(filepath.Base(f.Name())), "temp name %s not recognised by IsTemp", f.Name())
	f.Cleanup()
	f.Cleanup()
	assert.Empty(t, dirtest.Names(t, dir))
}

func TestReplaceDir(t *testing.T) {
	write := func(files ...string) func(string) error {
		return func(tmp string) error {
			for _, f := range files {
				if err := os.WriteFile(filepath.Join(tmp, f), []byte(f), 0o644); err != nil {
					return err
				}
			}
			return nil
		}
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "report")

	require.NoError(t, ReplaceDir(dir, write("a.md", "old.png")))
	assert.Equal(t, []string{"a.md", "old.png"}, dirtest.Names(t, dir))

	// A second run replaces the set: the stale figure disappears.
	require.NoError(t, ReplaceDir(dir, write("a.md", "b.json")))
	assert.Equal(t, []string{"a.md", "b.json"}, dirtest.Names(t, dir))
	assert.Equal(t, []string{"report"}, dirtest.Names(t, parent), "no temporary directory may remain")

	// A failing build leaves the old set as it was.
	boom := errors.New("boom")
	err := ReplaceDir(dir, func(tmp string) error {
		if err := write("half.md")(tmp); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom)
	assert.Equal(t, []string{"a.md", "b.json"}, dirtest.Names(t, dir))
	assert.Equal(t, []string{"report"}, dirtest.Names(t, parent))

	// A file where the directory should be is an error.
	file := filepath.Join(parent, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	assert.Error(t, ReplaceDir(file, write("x")))
}

func TestRenameSwap(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "a"), filepath.Join(parent, "b")
	require.NoError(t, os.Mkdir(a, 0o755))
	require.NoError(t, os.Mkdir(b, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(a, "new"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(b, "old"), nil, 0o644))
	require.NoError(t, renameSwap(a, b))
	assert.Equal(t, []string{"new"}, dirtest.Names(t, b))
	assert.Equal(t, []string{"old"}, dirtest.Names(t, a))
	assert.Equal(t, []string{"a", "b"}, dirtest.Names(t, parent))
}

func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out.json")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	pending, err := Create(target)
	require.NoError(t, err)
	_, err = pending.Write([]byte("new"))
	require.NoError(t, err)
	committed, err := Create(filepath.Join(dir, "done.json"))
	require.NoError(t, err)
	require.NoError(t, committed.Commit())
	inDir := make(chan bool)
	release := make(chan bool)
	replaced := make(chan error)
	go func() {
		replaced <- ReplaceDir(filepath.Join(dir, "report"), func(tmp string) error {
			inDir <- true
			<-release
			return nil
		})
	}()
	<-inDir
	assert.Len(t, dirtest.Names(t, dir), 4, "out.json, done.json, report's temp directory and out.json's temp file")

	RemoveTemps()
	assert.Equal(t, []string{"done.json", "out.json"}, dirtest.Names(t, dir), "every temporary file and directory is gone, the targets stay")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "old", string(got))
	pending.Cleanup() // the process would exit instead; Cleanup copes with the missing temp
	close(release)
	assert.Error(t, <-replaced, "the directory to swap in was removed")
	assert.Equal(t, []string{"done.json", "out.json"}, dirtest.Names(t, dir))
}

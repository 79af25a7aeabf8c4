package gitrev

import (
	"context"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGitHubCommitURL(t *testing.T) {
	const want = "https://github.com/mbopt/mbopt/commit/{commit}"
	tests := []struct {
		remote, want string
	}{
		{"https://github.com/mbopt/mbopt.git", want},
		{"https://github.com/mbopt/mbopt", want},
		{"https://github.com/mbopt/mbopt/", want},
		{"https://x-access-token:ghs_SECRET@github.com/mbopt/mbopt.git", want},
		{"git@github.com:mbopt/mbopt.git", want},
		{"ssh://git@github.com/mbopt/mbopt.git", want},
		{"ssh://git@github.com:22/mbopt/mbopt", want},
		{"https://GitHub.com/mbopt/mbopt.git", want},
		{"https://github.com/my.org/repo.name.git", "https://github.com/my.org/repo.name/commit/{commit}"},
		{"https://gitlab.com/mbopt/mbopt.git", ""},
		{"https://github.example.com/mbopt/mbopt.git", ""},
		{"/srv/git/mbopt.git", ""},
		{"https://github.com/mbopt", ""},
		{"https://github.com/mbopt/mbopt/tree/main", ""},
		{"https://github.com/../x", ""},
		{`https://github.com/o/r"><script>`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.remote, func(t *testing.T) {
			assert.Equal(t, tt.want, githubCommitURL(tt.remote))
		})
	}
}

func TestGitHubCommitURLOfRepository(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	run("init", "-q")
	got, err := GitHubCommitURL(ctx, dir)
	require.NoError(t, err)
	assert.Empty(t, got, "no origin remote")
	run("remote", "add", "origin", "git@github.com:o/r.git")
	got, err = GitHubCommitURL(ctx, dir)
	require.NoError(t, err)
	assert.Equal(t, "https://github.com/o/r/commit/{commit}", got)
	_, err = GitHubCommitURL(ctx, t.TempDir())
	assert.ErrorIs(t, err, ErrNotRepository)
}

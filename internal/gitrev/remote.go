package gitrev

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// githubPath matches the OWNER/REPO path of a GitHub repository.
var githubPath = regexp.MustCompile(`^/?([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$`)

// GitHubCommitURL returns the template of a commit's page on GitHub for
// the repository at dir, "https://github.com/OWNER/REPO/commit/{commit}",
// when its origin remote is on github.com (https, ssh or scp-like URL);
// "" when there is no origin remote or it is elsewhere. User names and
// tokens in the remote URL never reach the template. It fails only when
// dir is not a repository or git cannot run.
func GitHubCommitURL(ctx context.Context, dir string) (string, error) {
	out, err := Git(ctx, dir, "remote", "get-url", "origin")
	if errors.Is(err, ErrNotRepository) || ctx.Err() != nil {
		return "", err
	}
	if err != nil {
		return "", nil // no origin remote
	}
	return githubCommitURL(strings.TrimSpace(string(out))), nil
}

// githubCommitURL is GitHubCommitURL for a remote URL.
func githubCommitURL(remote string) string {
	var host, path string
	if u, err := url.Parse(remote); err == nil && u.Scheme != "" && u.Host != "" {
		host, path = u.Hostname(), u.Path
	} else if at, rest, ok := strings.Cut(remote, "@"); ok && !strings.Contains(at, "/") {
		// scp-like: git@github.com:OWNER/REPO.git
		host, path, _ = strings.Cut(rest, ":")
	}
	if !strings.EqualFold(host, "github.com") {
		return ""
	}
	m := githubPath.FindStringSubmatch(path)
	if m == nil || m[1] == "." || m[1] == ".." || m[2] == "." || m[2] == ".." {
		return ""
	}
	return "https://github.com/" + m[1] + "/" + m[2] + "/commit/{commit}"
}

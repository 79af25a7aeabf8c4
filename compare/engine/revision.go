package engine

import "time"

// A Side is one of the two versions compared.
type Side int

// The two sides.
const (
	Base Side = iota
	Head
)

// String returns "base" or "head".
func (s Side) String() string {
	if s == Head {
		return "head"
	}
	return "base"
}

// A Revision is one version of the module as compared.
type Revision struct {
	// Spec is the revision as the user named it ("origin/main",
	// "HEAD~1", "worktree"), or how the default was found.
	Spec string `json:"spec"`
	// Commit is the full commit hash. For the worktree it is the hash of
	// HEAD, and Dirty is set.
	Commit string `json:"commit"`
	// Dirty is set when the revision is the worktree with uncommitted
	// changes.
	Dirty bool `json:"dirty,omitempty"`
	// Time is the commit time (committer date), RFC 3339 in JSON.
	Time time.Time `json:"time"`
	// Subject is the first line of the commit message; omitted when
	// empty.
	Subject string `json:"subject,omitempty"`
	// Depth is the commit's position in first-parent order (git rev-list
	// --first-parent --count): it orders a branch's commits by ancestry
	// where their times tie. 0, omitted, when unknown (a shallow clone).
	Depth int `json:"depth,omitempty"`
}

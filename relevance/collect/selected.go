package collect

import (
	"path/filepath"
	"regexp"
	"strings"
)

// packageMatcher returns a function reporting whether the go command would
// match import path p with one of patterns, resolved in directory dir of
// the module modPath rooted at modDir (all absolute). A relative pattern
// ("./...", "../x", ".") is turned into an import path pattern; "..." is a
// wildcard as for the go command, and "x/..." matches x itself. Keywords
// ("all", "std", "cmd", "tool", "work") and patterns outside the module
// match nothing here: [Collect] uses this only to decide which old manifest
// entries this run was asked about, and when in doubt it keeps them.
func packageMatcher(patterns []string, dir, modPath, modDir string) func(string) bool {
	var res []*regexp.Regexp
	for _, pat := range patterns {
		switch pat {
		case "all", "std", "cmd", "tool", "work":
			continue
		}
		ip := pat
		if pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat) {
			abs := pat
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(dir, pat)
			}
			rel, err := filepath.Rel(modDir, abs)
			if err != nil || modDir == "" || !filepath.IsLocal(rel) && rel != "." {
				continue
			}
			ip = modPath
			if rel != "." {
				ip += "/" + filepath.ToSlash(rel)
			}
		}
		re := regexp.QuoteMeta(ip)
		re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
		if strings.HasSuffix(re, "/.*") {
			re = strings.TrimSuffix(re, "/.*") + `(/.*)?`
		}
		res = append(res, regexp.MustCompile("^"+re+"$"))
	}
	return func(p string) bool {
		for _, re := range res {
			if re.MatchString(p) {
				return true
			}
		}
		return false
	}
}

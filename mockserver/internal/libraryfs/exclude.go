package libraryfs

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Exclusions are a library's exclusion patterns: globs matched against a
// file's or folder's whole path, whatever its case, as the reference's
// crawl (fast-glob's ignore, caseSensitiveMatch false) applies them. A
// folder that matches is not entered. `**` matches any number of folders,
// `*` and `?` within one name, `[...]` one of a class, `{a,b}` either:
// doublestar's globs, which are fast-glob's.
type Exclusions struct {
	patterns []string // in lower case, each a valid glob
}

// NewExclusions keeps patterns; one that is no glob excludes nothing.
func NewExclusions(patterns []string) *Exclusions {
	ex := &Exclusions{}
	for _, p := range patterns {
		if p = strings.ToLower(p); doublestar.ValidatePattern(p) {
			ex.patterns = append(ex.patterns, p)
		}
	}
	return ex
}

// Match says whether path (absolute) is excluded.
func (ex *Exclusions) Match(path string) bool {
	if ex == nil {
		return false
	}
	path = strings.ToLower(filepath.ToSlash(path))
	for _, p := range ex.patterns {
		if ok, _ := doublestar.Match(p, path); ok {
			return true
		}
	}
	return false
}

package libraryfs

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Exclusions are a library's exclusion patterns: globs matched against a
// file's or folder's whole path, whatever its case, as the reference's
// crawl (fast-glob's ignore, caseSensitiveMatch false) applies them. A
// folder that matches is not entered. `**` matches any number of folders,
// `*` and `?` within one name, `[...]` one of a class, `{a,b}` either.
type Exclusions struct {
	res []*regexp.Regexp
}

// NewExclusions compiles patterns; one that does not compile excludes
// nothing.
func NewExclusions(patterns []string) *Exclusions {
	ex := &Exclusions{}
	for _, p := range patterns {
		if re, err := regexp.Compile(globRegexp(p)); err == nil {
			ex.res = append(ex.res, re)
		}
	}
	return ex
}

// Match says whether path (absolute) is excluded.
func (ex *Exclusions) Match(path string) bool {
	if ex == nil {
		return false
	}
	path = filepath.ToSlash(path)
	for _, re := range ex.res {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}

// globRegexp is the regular expression of a glob.
func globRegexp(p string) string {
	var b strings.Builder
	b.WriteString("(?i)^")
	braces := 0
	for i := 0; i < len(p); {
		rest := p[i:]
		switch c := p[i]; {
		case strings.HasPrefix(rest, "**/"):
			b.WriteString("(?:.*/)?")
			i += 3
		case rest == "/**":
			b.WriteString("(?:/.*)?")
			i += 3
		case strings.HasPrefix(rest, "**"):
			b.WriteString(".*")
			i += 2
		case c == '*':
			b.WriteString("[^/]*")
			i++
		case c == '?':
			b.WriteString("[^/]")
			i++
		case c == '{':
			b.WriteString("(?:")
			braces++
			i++
		case c == ',' && braces > 0:
			b.WriteString("|")
			i++
		case c == '}' && braces > 0:
			b.WriteString(")")
			braces--
			i++
		case c == '[':
			end := strings.IndexByte(rest[1:], ']')
			if end < 1 {
				b.WriteString(`\[`)
				i++
				continue
			}
			class := rest[1 : end+1]
			if class[0] == '!' {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 2
		case c == '\\' && i+1 < len(p):
			b.WriteString(regexp.QuoteMeta(p[i+1 : i+2]))
			i += 2
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
			i++
		}
	}
	for ; braces > 0; braces-- {
		b.WriteString(")")
	}
	b.WriteString("$")
	return b.String()
}

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxReadmeLines keeps the README to what a newcomer reads through: what
// mediaspec is, running it, pointing an app at it, checking a server in
// CI, and where to read on. The reference is in docs/.
const maxReadmeLines = 200

// TestReadmeIsShortAndLinksEveryDoc: the README is at most maxReadmeLines
// lines and links every page of docs/, as does docs/README.md, the
// reference's table of contents.
func TestReadmeIsShortAndLinksEveryDoc(t *testing.T) {
	readme := readDoc(t, "../../README.md")
	assert.LessOrEqual(t, strings.Count(readme, "\n"), maxReadmeLines, "the README's lines")
	index := readDoc(t, "../../docs/README.md")
	pages, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, pages)
	for _, p := range pages {
		name := filepath.Base(p)
		if name == "README.md" {
			continue
		}
		assert.True(t, strings.Contains(readme, "](docs/"+name+")"), "the README does not link docs/%s", name)
		assert.True(t, strings.Contains(index, "]("+name+")"), "docs/README.md does not link %s", name)
	}
}

// TestDocLinksResolve: every relative link of the README and of docs/
// names a file that is there and, with a #fragment, a heading of it.
func TestDocLinksResolve(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	files = append(files, "../../README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, f := range files {
		for _, m := range link.FindAllStringSubmatch(readDoc(t, f), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, fragment, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), path)
			}
			_, err := os.Stat(file)
			if !assert.NoError(t, err, "%s links %s", f, target) || fragment == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			assert.True(t, slices.Contains(headingAnchors(readDoc(t, file)), fragment), "%s links %s: no such heading", f, target)
		}
	}
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// headingAnchors are the fragments a Markdown renderer gives the headings
// of text: lower case, spaces as hyphens, punctuation dropped.
func headingAnchors(text string) []string {
	var out []string
	drop := regexp.MustCompile(`[^a-z0-9 _-]`)
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		out = append(out, strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-"))
	}
	return out
}

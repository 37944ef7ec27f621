package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// readmeExamples are the examples of the README's "Examples" section, each
// a comment line and the commands under it.
func readmeExamples(t *testing.T) []readmeExample {
	t.Helper()
	var out []readmeExample
	for part := range strings.SplitSeq(readmeBlock(t, "\n## Examples\n", "sh"), "\n\n") {
		title, script, _ := strings.Cut(strings.TrimSpace(part), "\n")
		out = append(out, readmeExample{strings.TrimPrefix(title, "# "), script})
	}
	return out
}

type readmeExample struct{ title, script string }

// readmeBlock is the first code block of language lang after marker in
// the README.
func readmeBlock(t *testing.T, marker, lang string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(b), marker)
	require.True(t, ok, "the README has %q", marker)
	_, block, ok := strings.Cut(rest, "```"+lang+"\n")
	require.True(t, ok, "a %s block after %q", lang, marker)
	block, _, ok = strings.Cut(block, "```")
	require.True(t, ok, "the block after %q ends", marker)
	return block
}

// TestReadmeExamplesWork runs each of the README's examples, as written,
// against a mock started for it (its address put in place of
// 127.0.0.1:2283), in a folder with a photo.jpg: each runs without an
// error and answers what its comment says.
func TestReadmeExamplesWork(t *testing.T) {
	for _, tool := range []string{"sh", "curl", "jq", "sha1sum", "cut"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the README's examples call %s, which this machine lacks", tool)
		}
	}
	base := startServe(t)
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/api")
	dir := t.TempDir()
	photo, err := fixtures.ReadFile(fixtures.TokyoJPEG)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "photo.jpg"), photo, 0o600))

	examples := readmeExamples(t)
	require.Len(t, examples, 5, "a new example needs its check here")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^\{"id":"[0-9a-f-]{36}","duplicate":false\}$`),
		regexp.MustCompile(`^\{"id":"[0-9a-f-]{36}","duplicate":true\}$`),
		regexp.MustCompile(`^\[\{"id":"`),
		regexp.MustCompile(`"allowUpload":false`),
		regexp.MustCompile(`"email":"dana@example.com"`),
	}
	for i, ex := range examples {
		t.Run(ex.title, func(t *testing.T) {
			script := strings.ReplaceAll(ex.script, "127.0.0.1:2283", host)
			cmd := exec.CommandContext(t.Context(), "sh", "-e", "-c", script)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, "%s\n%s", script, stderr.String())
			assert.Regexp(t, want[i], strings.TrimSpace(string(out)))
		})
	}
	// "run it again: 200, the same id, "duplicate": true"
	again := exec.CommandContext(t.Context(), "sh", "-e", "-c", strings.ReplaceAll(examples[0].script, "127.0.0.1:2283", host))
	again.Dir = dir
	out, err := again.Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), `"duplicate":true`)
}

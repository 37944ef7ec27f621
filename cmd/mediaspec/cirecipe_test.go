package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ciStep is a step of the README's CI recipe: its name, its env and the
// shell script it runs.
type ciStep struct {
	name, script string
	env          []string
}

// ciRecipe reads the steps with a run: script from the README's "In CI"
// job; the Actions syntax (uses:, if:) is left to Actions.
func ciRecipe(t *testing.T) []ciStep {
	t.Helper()
	block := readmeBlock(t, "**In CI.**", "yaml")
	secret := regexp.MustCompile(`\$\{\{.*\|\|\s*'([^']*)'\s*\}\}`)
	var steps []ciStep
	var cur *ciStep
	inRun, inEnv, runIndent := false, false, 0
	for line := range strings.Lines(block) {
		line = strings.TrimRight(line, "\n")
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if inRun && (trimmed == "" || indent >= runIndent) {
			if trimmed != "" {
				cur.script += line[runIndent:] + "\n"
			}
			continue
		}
		inRun = false
		switch {
		case strings.HasPrefix(trimmed, "- name: "):
			steps = append(steps, ciStep{name: strings.TrimPrefix(trimmed, "- name: ")})
			cur, inEnv = &steps[len(steps)-1], false
		case cur != nil && trimmed == "env:":
			inEnv = true
		case cur != nil && trimmed == "run: |":
			inRun, inEnv, runIndent = true, false, indent+2
		case cur != nil && inEnv && strings.Contains(trimmed, ": "):
			k, v, _ := strings.Cut(trimmed, ": ")
			if m := secret.FindStringSubmatch(v); m != nil {
				v = m[1] // a secret a fork's run has not: its default
			}
			cur.env = append(cur.env, k+"="+v)
		}
	}
	var runs []ciStep
	for _, s := range steps {
		if s.script != "" {
			runs = append(runs, s)
		}
	}
	return runs
}

func readAll(name string) string {
	b, _ := os.ReadFile(name)
	return string(b)
}

// TestCIRecipeWorks runs the shell steps of the README's CI recipe, in
// order, as a runner would: mediaspec installed from a clean clone of this
// repository (for the clone from GitHub), the mock started as the server
// under test (on a free port, for 2283), and the check writing its JUnit,
// Cucumber, HTML and coverage reports of a green run.
func TestCIRecipeWorks(t *testing.T) {
	for _, tool := range []string{"sh", "git", "make", "curl", "cp", "seq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the CI recipe calls %s, which this machine lacks", tool)
		}
	}
	repo, err := filepath.Abs("../..")
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(repo, ".git")); err != nil {
		t.Skip("not a git checkout: the recipe's clone needs one")
	}
	steps := ciRecipe(t)
	require.Len(t, steps, 3, "install, start, check: a new step needs its place here")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	work, runnerTemp := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "RUNNER_TEMP="+runnerTemp)
	for _, s := range steps {
		script := strings.ReplaceAll(s.script, "https://github.com/mediaspec/mediaspec.git", repo)
		script = strings.ReplaceAll(script, "127.0.0.1:2283", addr)
		cmd := exec.CommandContext(t.Context(), "sh", "-e", "-c", script)
		cmd.Dir, cmd.Env = work, append(env, s.env...)
		// The server the start step leaves running is stopped with its group.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		// A file, not a pipe: the server the start step leaves running
		// keeps its output open, and Wait would wait for it to end.
		out, err := os.CreateTemp(t.TempDir(), "step-")
		require.NoError(t, err)
		cmd.Stdout, cmd.Stderr = out, out
		require.NoError(t, cmd.Start(), s.name)
		pgid := cmd.Process.Pid
		t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGINT) })
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			require.NoError(t, err, "step %q:\n%s", s.name, readAll(out.Name()))
		case <-time.After(5 * time.Minute):
			t.Fatalf("step %q took more than 5 minutes:\n%s", s.name, readAll(out.Name()))
		}
	}
	for _, report := range []string{"conformance.xml", "conformance.json", "conformance.html", "conformance.coverage.json"} {
		info, err := os.Stat(filepath.Join(work, report))
		if assert.NoError(t, err, report) {
			assert.Positive(t, info.Size(), report)
		}
	}
	junit, err := os.ReadFile(filepath.Join(work, "conformance.xml"))
	require.NoError(t, err)
	assert.Contains(t, string(junit), `failures="0"`)
}

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
)

// TestMain lets a test run the command in a process of its own: the test
// binary, started with MEDIASPEC_MAIN=1, is mediaspec.
func TestMain(m *testing.M) {
	if os.Getenv("MEDIASPEC_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	code := m.Run()
	removeBuilt()
	os.Exit(code)
}

// command is mediaspec with args, in a new process.
func command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MEDIASPEC_MAIN=1")
	return cmd
}

// startServe runs `mediaspec serve args...` in a new process and returns
// its base URL; the process is stopped with SIGINT at the end of the test.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	url, _ := startServeCmd(t, command(context.Background(), append([]string{"serve", "--quiet", "--addr", "127.0.0.1:0"}, args...)...))
	return url
}

// startServeCmd starts cmd, a serve, and returns its base URL and its
// process's id; the process is stopped with SIGINT at the end of the test.
func startServeCmd(t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	url, pid, _ := startServeReading(t, cmd, "")
	return url, pid
}

// startServeReading is startServeCmd that also reads the banner's line
// that starts with prefix (after its address), where prefix is not empty:
// that line, without the prefix.
func startServeReading(t *testing.T, cmd *exec.Cmd, prefix string) (url string, pid int, line string) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			assert.NoError(t, err, "serve exits cleanly on SIGINT")
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("serve did not stop on SIGINT")
		}
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if _, at, ok := strings.Cut(sc.Text(), "listening on "); ok {
			url = at
		} else if rest, ok := strings.CutPrefix(sc.Text(), prefix); ok && prefix != "" {
			line = rest
		}
		if url != "" && (prefix == "" || line != "") {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return url, cmd.Process.Pid, line
		}
	}
	t.Fatalf("serve printed no address, or no line %q: %v", prefix, sc.Err())
	return "", 0, ""
}

// get is a GET of url with the API key, which must answer 200.
func get(t *testing.T, url, key string) []byte {
	t.Helper()
	status, b := send(t, http.MethodGet, url, key, nil, nil)
	require.Equal(t, http.StatusOK, status, "%s", b)
	return b
}

// TestSameSeedSameBytesAcrossProcesses: two processes with the same seed,
// flags and anchor answer byte-identical listings and datasets; another
// seed answers differently.
func TestSameSeedSameBytesAcrossProcesses(t *testing.T) {
	args := []string{"--seed", "42", "--anchor", "2026-01-01", "--links", "20"}
	a, b := startServe(t, args...), startServe(t, args...)
	other := startServe(t, "--seed", "43", "--anchor", "2026-01-01", "--links", "20")
	listA, listB := get(t, a+"/shared-links", defaultAPIKey), get(t, b+"/shared-links", defaultAPIKey)
	assert.Greater(t, len(listA), 10_000, "a listing worth comparing")
	assert.Equal(t, string(listA), string(listB))
	assert.NotEqual(t, string(listA), string(get(t, other+"/shared-links", defaultAPIKey)))

	root := func(base string) string { return strings.TrimSuffix(base, "/api") }
	dsA := get(t, root(a)+"/__mock/dataset", "")
	assert.Equal(t, string(dsA), string(get(t, root(b)+"/__mock/dataset", "")))

	// `fixtures` writes the same dataset, in a third process.
	out, err := command(t.Context(), append([]string{"fixtures"}, args...)...).Output()
	require.NoError(t, err)
	assert.JSONEq(t, string(dsA), string(out))
}

// TestFixturesRoundTrip: a dataset written by `fixtures` is served by
// `serve --fixtures` exactly as the generated one is.
func TestFixturesRoundTrip(t *testing.T) {
	path := t.TempDir() + "/family.json"
	args := []string{"--seed", "7", "--anchor", "2026-03-01"}
	var stderr strings.Builder
	require.NoError(t, run(t.Context(), append([]string{"fixtures", "--out", path}, args...), io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "seed 7")
	generated, loaded := startServe(t, args...), startServe(t, "--fixtures", path)
	assert.Equal(t, string(get(t, generated+"/shared-links", defaultAPIKey)), string(get(t, loaded+"/shared-links", defaultAPIKey)))
}

// TestServeExitCodes runs the binary as a user would and checks its exit codes.
func TestServeExitCodes(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"serve", "--bogus"}, 2},
		{[]string{"nope"}, 2},
		{[]string{"serve", "--quiet", "--addr", "256.0.0.1:1"}, 1},
		{[]string{"spec"}, 0},
		{[]string{"serve", "-h"}, 0},
	} {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			err := command(t.Context(), tt.args...).Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.code, code)
		})
	}
}

// curatedDataset is the dataset committed under fixtures/, and the command
// that writes it.
const curatedDataset = "../../fixtures/datasets/family.json"

var curatedArgs = []string{"fixtures", "--seed", "2026", "--anchor", "2026-11-01", "--links", "12", "--users", "3"}

// TestCuratedDatasetIsCurrent: the committed dataset is what its command
// writes today, it loads, and it holds every invariant of the generator.
func TestCuratedDatasetIsCurrent(t *testing.T) {
	committed, err := os.ReadFile(curatedDataset)
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, run(t.Context(), curatedArgs, &out, io.Discard))
	require.Equal(t, string(committed), out.String(), "regenerate it: go run ./cmd/mediaspec %s --out fixtures/datasets/family.json", strings.Join(curatedArgs[1:], " "))
	d, err := mockserver.ReadDataset(committed)
	require.NoError(t, err)
	assert.Empty(t, fake.Check(d))
}

// TestServeStopsOnInterrupt: Ctrl-C stops an idle serve at once, even with
// connections a browser keeps open (one idle after a request, one opened
// ahead and never used), says so, and exits 0. The bound is loose; the
// time it takes is measured by BenchmarkServeStop.
func TestServeStopsOnInterrupt(t *testing.T) {
	cmd := command(context.Background(), "serve", "--addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() { _ = cmd.Process.Kill() }()
	sc := bufio.NewScanner(out)
	var base string
	for base == "" && sc.Scan() {
		_, base, _ = strings.Cut(sc.Text(), "listening on ")
	}
	require.NotEmpty(t, base)
	go func() { _, _ = io.Copy(io.Discard, out) }()

	// A keep-alive connection, idle after its request.
	client := &http.Client{Transport: &http.Transport{}}
	get := func() int {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/server-info/ping", nil)
		require.NoError(t, err)
		resp, err := client.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusOK, get())
	// A connection opened ahead, as browsers do, that sends nothing.
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/api")
	ahead, err := net.Dial("tcp", host)
	require.NoError(t, err)
	defer ahead.Close()
	waitAccepted(t, portOf(t, host)) // both are served, and idle

	start := time.Now()
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	select {
	case err := <-done:
		assert.NoError(t, err, "exit 0 on Ctrl-C; stderr: %s", stderr.String())
	case <-time.After(5 * time.Second):
		t.Fatalf("serve did not stop within 5 s of SIGINT; stderr: %s", stderr.String())
	}
	t.Logf("stopped %v after SIGINT", time.Since(start))
	assert.Contains(t, stderr.String(), "msg=stopped")
	assert.NotContains(t, stderr.String(), "cut off", "no connection was waited for")
}

// TestServeOnEveryInterface: --addr 0.0.0.0:PORT, as in the container,
// listens on every interface and prints a URL that this machine reaches.
func TestServeOnEveryInterface(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	cmd := command(context.Background(), "serve", "--quiet", "--addr", fmt.Sprintf("0.0.0.0:%d", port))
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	sc := bufio.NewScanner(out)
	var base string
	for base == "" && sc.Scan() {
		_, base, _ = strings.Cut(sc.Text(), "listening on ")
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	assert.Equal(t, fmt.Sprintf("http://127.0.0.1:%d/api", port), base)
	get(t, base+"/shared-links", defaultAPIKey)
}

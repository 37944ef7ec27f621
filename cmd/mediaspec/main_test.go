package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"nope"},
		{"serve", "--bogus"},
		{"serve", "--log-format", "xml"},
		{"serve", "--anchor", "last tuesday"},
		{"serve", "extra"},
		{"serve", "--fixtures", "family.json", "--seed", "7"},
		{"serve", "--fixtures", "family.json", "--api-key", "k", "--links", "3"},
		{"serve", "--empty", "--seed", "7"},
		{"serve", "--empty", "--users", "2"},
		{"serve", "--empty", "--fixtures", "family.json"},
		{"spec", "--yaml"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			err := run(t.Context(), args, io.Discard, io.Discard)
			assert.ErrorIs(t, err, errUsage)
		})
	}
}

// TestServeRefusesAListingPastTheBound: generated data whose listing would
// pass the bound is refused at once, saying what fits and the flag that
// raises the bound; with the bound raised, it starts.
func TestServeRefusesAListingPastTheBound(t *testing.T) {
	err := run(t.Context(), []string{"serve", "--quiet", "--addr", "127.0.0.1:0", "--links", "40", "--max-listed-assets", "20"}, io.Discard, io.Discard)
	require.ErrorIs(t, err, errUsage)
	assert.Regexp(t, `--links 40 makes the default user's shared links list \d+ assets, past the bound of 20; about --links \d+ fits \(seed 1\), or raise the bound: --max-listed-assets \d+`, err.Error())
	assert.ErrorIs(t, run(t.Context(), []string{"serve", "--max-listed-assets", "0"}, io.Discard, io.Discard), errUsage)
}

func TestSpecCommand(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"spec"}, &out, io.Discard))
	assert.Contains(t, out.String(), "openapi: 3.0")
	out.Reset()
	require.NoError(t, run(t.Context(), []string{"spec", "--json"}, &out, io.Discard))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	assert.Contains(t, doc, "paths")
}

func TestServeBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	err = run(t.Context(), []string{"serve", "--quiet", "--addr", ln.Addr().String()}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.NotErrorIs(t, err, errUsage)
	assert.ErrorIs(t, err, syscall.EADDRINUSE, "the bind itself fails")
	assert.Contains(t, err.Error(), "cannot listen on "+ln.Addr().String())
}

func TestServeBadFixtures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.json")
	require.NoError(t, os.WriteFile(path, []byte("{\n  \"users\": [,]\n}"), 0o600))
	err := run(t.Context(), []string{"serve", "--quiet", "--addr", "127.0.0.1:0", "--fixtures", path}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 2, column 13")
}

// TestServe starts the server, reads the address it prints, uses it and
// stops it as SIGINT would.
func TestServe(t *testing.T) {
	ctx, cancel := contextWithCancel(t)
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"serve", "--quiet", "--addr", "127.0.0.1:0", "--seed", "0", "--api-key", "k-123"}, pw, io.Discard)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var base string
	var printed []string
	for len(printed) < 5 && sc.Scan() {
		line := sc.Text()
		printed = append(printed, line)
		if _, url, ok := strings.Cut(line, "listening on "); ok {
			base = url
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	require.NotEmpty(t, base, "printed: %q", printed)
	assert.Contains(t, strings.Join(printed, "\n"), "API key: k-123")
	assert.Regexp(t, `seed [1-9][0-9]*`, strings.Join(printed, "\n"), "--seed 0 prints the seed it picked")
	var uploadKey string
	for _, line := range printed {
		if rest, ok := strings.CutPrefix(line, "upload link: key "); ok {
			uploadKey, _, _ = strings.Cut(rest, " ")
		}
	}
	require.NotEmpty(t, uploadKey, "the banner names a link that takes uploads: %q", printed)

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/shared-links", nil)
	require.NoError(t, err)
	req.Header.Set("x-api-key", "k-123")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	// The link takes an upload, as the banner says.
	body, ct := uploadForm(t, []byte("a photo through the link"))
	status, answer := send(t, http.MethodPost, base+"/asset/upload?key="+uploadKey, "", body, http.Header{"Content-Type": {ct}})
	assert.Equal(t, http.StatusCreated, status, "%s", answer)

	cancel()
	select {
	case err := <-errc:
		assert.NoError(t, err, "a graceful shutdown is no error")
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}

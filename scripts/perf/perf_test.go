package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/load"
	"github.com/mediaspec/mediaspec/openapi"
)

func TestPrismDocument(t *testing.T) {
	out, err := prismDocument(openapi.JSON())
	require.NoError(t, err)
	var doc struct {
		OpenAPI string                     `json:"openapi"`
		Servers []map[string]string        `json:"servers"`
		Paths   map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(out, &doc))
	assert.Equal(t, []map[string]string{{"url": "/"}}, doc.Servers)
	assert.Contains(t, doc.Paths, "/api/asset/upload")
	assert.Contains(t, doc.Paths, "/api/shared-links")
	assert.NotContains(t, doc.Paths, "/shared-links")
	assert.NotEmpty(t, doc.OpenAPI)

	var orig struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openapi.JSON(), &orig))
	assert.Len(t, doc.Paths, len(orig.Paths))
	assert.JSONEq(t, string(orig.Paths["/shared-links"]), string(doc.Paths["/api/shared-links"]), "operations are moved unchanged")
}

func TestPrismDocumentNeedsOneServer(t *testing.T) {
	_, err := prismDocument([]byte(`{"paths":{},"servers":[]}`))
	assert.ErrorContains(t, err, "one server")
}

func TestStopEndsTheProcessGroup(t *testing.T) {
	dir := t.TempDir()
	// A shell whose child would outlive a plain kill of the shell.
	p, err := startProcess("sleeper", dir, "sh", "-c", "sleep 60 & echo started; wait")
	require.NoError(t, err)
	require.Eventually(t, func() bool { return p.logTail() == "started" }, 5*time.Second, 10*time.Millisecond)
	p.stop()
	// The shell ended by the SIGTERM to its group, not by the SIGKILL that
	// stop sends to a group that outlives it.
	var exitErr *exec.ExitError
	require.ErrorAs(t, p.waitErr, &exitErr)
	status, ok := exitErr.Sys().(syscall.WaitStatus)
	require.True(t, ok)
	require.True(t, status.Signaled(), "the shell was ended by a signal: %v", p.waitErr)
	assert.Equal(t, syscall.SIGTERM, status.Signal())
	// The sleep, orphaned, may stay a zombie where nothing reaps orphans
	// (a container whose first process does not wait), so what counts is
	// that no member of the group still runs.
	assert.Eventually(t, func() bool { return len(runningInGroup(t, p.pid())) == 0 }, 2*time.Second, 20*time.Millisecond, "nothing of the group is left running")
}

// runningInGroup returns the ids of the processes of group pgid that are not
// zombies, read from /proc.
func runningInGroup(t *testing.T, pgid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var running []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		rest := string(b[bytes.LastIndexByte(b, ')')+1:])
		f := strings.Fields(rest)
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			running = append(running, pid)
		}
	}
	return running
}

func TestRunningInGroupSeesALiveGroup(t *testing.T) {
	p, err := startProcess("sleeper", t.TempDir(), "sh", "-c", "sleep 60 & echo started; wait")
	require.NoError(t, err)
	t.Cleanup(p.stop)
	require.Eventually(t, func() bool { return p.logTail() == "started" }, 5*time.Second, 10*time.Millisecond)
	assert.Len(t, runningInGroup(t, p.pid()), 2, "the shell and its sleep")
}

func TestReadStatus(t *testing.T) {
	rss, err := readStatus(os.Getpid(), "VmRSS")
	require.NoError(t, err)
	assert.Greater(t, rss, int64(1<<20))
	_, err = readStatus(os.Getpid(), "VmNothing")
	assert.Error(t, err)
}

func TestRatioAndStatusText(t *testing.T) {
	tests := []struct {
		ours, prism float64
		want        string
	}{
		{244, 36, "6.78×"},
		{2600, 20, "130×"},
		{36, 36, "1.00×"},
		{5, 0, "-"},
		{1, 8, "0.12×"},
		{400, 20, "20.0×"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ratioText(tt.ours, tt.prism))
	}
	s := load.Stats{Statuses: map[string]int64{"201": 10, "400": 2}, TransportErrors: map[string]int64{"timeout": 1}}
	assert.Equal(t, "201:10 400:2 timeout:1", statusText(s))
	assert.Equal(t, "-", statusText(load.Stats{}))
}

func TestWaitReadyNoticesAnExit(t *testing.T) {
	p, err := startProcess("quitter", t.TempDir(), "sh", "-c", "echo no config; exit 3")
	require.NoError(t, err)
	err = p.waitReady(t.Context(), "http://127.0.0.1:1/", 10*time.Second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no config")
	var exitErr *exec.ExitError
	assert.ErrorAs(t, p.waitErr, &exitErr)
}

func TestPerAssetFit(t *testing.T) {
	tests := []struct {
		name    string
		samples []sample
		created int64
		want    float64
		ok      bool
	}{
		{"linear", []sample{{rss: 1000, created: 0}, {rss: 3000, created: 1}, {rss: 5000, created: 2}, {rss: 7000, created: 3}}, 3, 2000, true},
		{"noisy but flat", []sample{{rss: 100, created: 0}, {rss: 140, created: 10}, {rss: 60, created: 20}, {rss: 100, created: 30}}, 30, -0.8, true},
		{"too few samples", []sample{{rss: 1, created: 0}, {rss: 2, created: 5}}, 5, 0, false},
		{"no assets", []sample{{rss: 1}, {rss: 2}, {rss: 3}}, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := phaseResult{samples: tt.samples, created: tt.created}.perAsset()
			assert.Equal(t, tt.ok, ok)
			assert.InDelta(t, tt.want, got, 0.01)
		})
	}
}

func TestResidual(t *testing.T) {
	line := phaseResult{samples: []sample{{rss: 1000, created: 0}, {rss: 3000, created: 1}, {rss: 5000, created: 2}, {rss: 7000, created: 3}}, created: 3}
	r, ok := line.residual()
	require.True(t, ok)
	assert.InDelta(t, 0, r, 1e-9, "on the line")

	// Flat at 100 with one sample at 140: no line through them comes within
	// 10% of the mean at every sample.
	spike := phaseResult{samples: []sample{{rss: 100, created: 0}, {rss: 100, created: 1}, {rss: 140, created: 2}, {rss: 100, created: 3}}, created: 3}
	r, ok = spike.residual()
	require.True(t, ok)
	assert.Greater(t, r, 0.10, "a 40% spike is not flat")
	assert.Less(t, r, 0.40)
}

func TestQuarterMediansAndLow(t *testing.T) {
	p := phaseResult{samples: []sample{{rss: 5}, {rss: 1}, {rss: 9}, {rss: 7}, {rss: 3}, {rss: 4}, {rss: 8}, {rss: 6}}}
	first, last := p.quarterMedians()
	assert.EqualValues(t, 5, first, "of 5 and 1")
	assert.EqualValues(t, 8, last, "of 8 and 6")
	assert.EqualValues(t, 1, p.low())
	assert.EqualValues(t, 9, p.peak())
}

// TestBareServer: the floor answers the listing with the file's bytes and
// an upload with the SHA-1 of the body it read, nothing more.
func TestBareServer(t *testing.T) {
	listing := filepath.Join(t.TempDir(), "listing.json")
	require.NoError(t, os.WriteFile(listing, []byte(`[{"id":"l"}]`), 0o644))
	port, err := freePort()
	require.NoError(t, err)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- runBare(ctx, []string{"--addr", addr, "--listing", listing}, io.Discard) }()
	t.Cleanup(func() { cancel(); <-done })
	var resp *http.Response
	require.Eventually(t, func() bool {
		resp, err = http.Get("http://" + addr + "/api/shared-links")
		return err == nil
	}, 5*time.Second, 10*time.Millisecond)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, `[{"id":"l"}]`, string(body))

	resp, err = http.Post("http://"+addr+"/api/asset/upload", "multipart/form-data; boundary=x", strings.NewReader("abc"))
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Contains(t, string(body), `"sha1":"a9993e364706816aba3e25717850c26c9cd0d89d"`)
}

func TestMedian(t *testing.T) {
	assert.Equal(t, 2.0, median([]float64{3, 1, 2}))
	assert.Equal(t, 2.5, median([]float64{4, 1, 3, 2}))
}

// --only names groups of rows; one it does not know is refused, naming
// those it knows, before anything starts.
func TestFloorOnly(t *testing.T) {
	err := runFloor(t.Context(), []string{"--mediaspec", "x", "--only", "uploads,bogus"}, io.Discard, io.Discard)
	require.ErrorContains(t, err, `no group "bogus"`)
	require.ErrorContains(t, err, "listing, log, uploads, keep, memory, scale")
	c := floorConfig{only: map[string]bool{"uploads": true}}
	assert.True(t, c.wants("uploads"))
	assert.False(t, c.wants("listing"))
	assert.True(t, floorConfig{}.wants("listing"), "every group without --only")
}

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/load"
	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// newLoadTarget starts the mock on a small generated dataset and returns its
// API base URL.
func newLoadTarget(t *testing.T) string {
	t.Helper()
	d := fake.Generate(fake.Options{Seed: 1, Anchor: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Links: 3, Users: 1, APIKey: defaultAPIKey})
	h, err := mockserver.New(mockserver.Config{Dataset: func() model.Dataset { return d }})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/api"
}

func TestLoadCommand(t *testing.T) {
	target := newLoadTarget(t)
	tests := []struct {
		scenario string
		ops      []string
	}{
		{"list", []string{"list"}},
		{"upload", []string{"upload"}},
		{"mixed", []string{"list", "upload"}},
		{"album", []string{"album"}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(t.Context(), []string{"load", "--target", target, "--scenario", tt.scenario,
				"--duration", "300ms", "--concurrency", "3", "--upload-size", "4KiB", "--json"}, &out, &errOut)
			require.NoError(t, err, "stderr: %s", errOut.String())
			assert.Empty(t, errOut.String(), "no progress line when stderr is not a terminal")
			var res load.Result
			require.NoError(t, json.Unmarshal(out.Bytes(), &res), out.String())
			assert.Equal(t, target, res.Target)
			assert.Equal(t, 3, res.Concurrency)
			assert.Positive(t, res.Total.OK)
			assert.Zero(t, res.Total.Errors, "%+v", res.Total)
			for _, op := range tt.ops {
				assert.Contains(t, res.Operations, op)
			}
			if al, ok := res.Operations["album"]; ok {
				assert.Equal(t, map[string]int64{"200": al.Requests}, al.Statuses)
				assert.Greater(t, al.BodyBytesReceived/al.Requests, int64(500*300), "the album's 500 assets come with every answer")
				assert.Zero(t, res.UploadSize)
			}
			if up, ok := res.Operations["upload"]; ok {
				assert.EqualValues(t, 4096, res.UploadSize)
				assert.Equal(t, map[string]int64{"201": up.Requests}, up.Statuses, "every upload is new content")
			}
		})
	}
}

func TestLoadCommandText(t *testing.T) {
	target := newLoadTarget(t)
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"load", "--target", target, "--duration", "200ms", "--concurrency", "2"}, &out, io.Discard))
	for _, want := range []string{"list load on " + target, "requests", "p50", "p90", "p99", "statuses   200: ", "wire"} {
		assert.Contains(t, out.String(), want)
	}
}

func TestLoadCommandNoServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	var out bytes.Buffer
	err = run(t.Context(), []string{"load", "--target", "http://" + addr + "/api", "--duration", "100ms", "--concurrency", "1"}, &out, io.Discard)
	require.ErrorIs(t, err, errNoSuccess)
	assert.NotErrorIs(t, err, errUsage)
	assert.Contains(t, out.String(), "connection refused", "the report is printed all the same")
}

func TestLoadUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no target", []string{}, "--target is required"},
		{"remote target", []string{"--target", "http://192.0.2.7/api"}, "not a loopback address"},
		{"not a URL", []string{"--target", "127.0.0.1:2283"}, "not an http"},
		{"scenario", []string{"--target", "http://127.0.0.1:1/api", "--scenario", "delete"}, "unknown scenario"},
		{"size", []string{"--target", "http://127.0.0.1:1/api", "--upload-size", "big"}, "--upload-size"},
		{"zero size", []string{"--target", "http://127.0.0.1:1/api", "--upload-size", "0"}, "--upload-size must be a positive size"},
		{"tiny size", []string{"--target", "http://127.0.0.1:1/api", "--scenario", "upload", "--upload-size", "10"}, "upload size 10"},
		{"concurrency", []string{"--target", "http://127.0.0.1:1/api", "--concurrency", "0"}, "positive"},
		{"duration", []string{"--target", "http://127.0.0.1:1/api", "--duration", "-1s"}, "positive"},
		{"argument", []string{"--target", "http://127.0.0.1:1/api", "extra"}, "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(t.Context(), append([]string{"load"}, tt.args...), io.Discard, io.Discard)
			require.ErrorIs(t, err, errUsage)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestLoadInUsage(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"help"}, &out, io.Discard))
	assert.True(t, strings.Contains(out.String(), "mediaspec load"), out.String())
}

package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/steps"
)

func TestCheckUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--bogus"},
		{"check", "--format", "junit"},
		{"check", "--format", "html"},
		{"check", "--format", "svg:out.svg"},
		{"check", "--concurrency", "0"},
		{"check", "extra"},
		{"check", "--target", "not-a-url"},
		{"check", "--target", "ftp://127.0.0.1/api"},
		{"check", "--tags", "@no-such-tag"},
		{"check", "--tags", "((("},
		{"check", "--tags", "@upload &&"},
		{"check", "--tags", "not"},
		{"check", "--reference-shapes", "--target", "http://127.0.0.1:2283/api"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			err := run(t.Context(), args, io.Discard, io.Discard)
			assert.ErrorIs(t, err, errUsage)
		})
	}
}

// TestCheckTagExpressionErrors: a tag expression that cannot be read is
// bad usage, told in one line with the column of the problem, before any
// request is sent; it never panics, as godog's own filter did on
// "@upload &&".
func TestCheckTagExpressionErrors(t *testing.T) {
	tests := []struct{ tags, want string }{
		{"@upload &&", `--tags: expected a tag after "&&" at column 9`},
		{"@upload and", `--tags: expected a tag after "and" at column 9`},
		{"not @control and (@upload or", `--tags: expected a tag after "or" at column 27`},
		{"@upload @robustness", `--tags: expected "and" or "or" before "@robustness" at column 9`},
	}
	for _, tt := range tests {
		t.Run(tt.tags, func(t *testing.T) {
			var out bytes.Buffer
			err := run(t.Context(), []string{"check", "--target", "http://127.0.0.1:1/api", "--tags", tt.tags}, &out, io.Discard)
			require.ErrorIs(t, err, errUsage)
			assert.ErrorContains(t, err, tt.want)
			assert.NotContains(t, err.Error(), "\n")
			assert.Empty(t, out.String())
		})
	}
}

// TestCheckCucumberTagExpression selects scenarios as Cucumber users
// write it.
func TestCheckCucumberTagExpression(t *testing.T) {
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--tags", "@robustness and not @control", "--format", "progress"}, &out, io.Discard)
	require.NoError(t, err, out.String())
	assert.Regexp(t, `mediaspec check: [1-9]\d* scenarios: [1-9]\d* passed, 0 failed, 0 skipped`, out.String())
}

// TestCheckUnreachableTarget: a target that does not answer fails the run
// before any scenario, with the transport's error kept: here the connection
// was refused, so the run did not wait on a timeout.
func TestCheckUnreachableTarget(t *testing.T) {
	// A port that was just free: nothing listens there.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	var out bytes.Buffer
	err = run(t.Context(), []string{"check", "--target", "http://" + addr + "/api"}, &out, io.Discard)
	require.Error(t, err)
	assert.NotErrorIs(t, err, errUsage)
	assert.ErrorIs(t, err, conformance.ErrUnreachable)
	assert.ErrorIs(t, err, syscall.ECONNREFUSED)
	assert.Contains(t, err.Error(), "does not answer")
	assert.Contains(t, err.Error(), addr)
	assert.NotContains(t, out.String(), "scenarios:", "no scenario ran")
}

// TestCheckListSteps: --list-steps lists every step definition, by area,
// with the scenarios of the embedded features that use it, and checks
// nothing: a target that does not answer is never asked.
func TestCheckListSteps(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	var out bytes.Buffer
	err = run(t.Context(), []string{"check", "--list-steps", "--target", "http://" + addr + "/api"}, &out, io.Discard)
	require.NoError(t, err)
	assert.Regexp(t, "(?m)^credentials\n  \\^I use my API key\\$\n    [a-z_]+\\.feature:\\d+ \\S", out.String(), "an area, a pattern, a scenario that uses it")
	for _, d := range steps.Definitions() {
		assert.Contains(t, out.String(), "\n  "+d.Pattern+"\n", "every definition is listed")
	}
	assert.Regexp(t, `\n\d+ step definitions in \d+ areas, used by \d+ scenarios: \d+ unused, 0 steps that no definition matches\.\n$`, out.String())
	assert.NotContains(t, out.String(), "mediaspec check:", "no scenario ran")

	out.Reset()
	require.NoError(t, run(t.Context(), []string{"check", "--list-steps", "--tags", "@server-info"}, &out, io.Discard))
	assert.Contains(t, out.String(), "server_info.feature:")
	assert.NotContains(t, out.String(), "upload_new.feature:", "only the scenarios of --tags")

	err = run(t.Context(), []string{"check", "--list-steps", "--tags", "@no-such-tag"}, io.Discard, io.Discard)
	assert.ErrorIs(t, err, errUsage)
}

// TestCheckBuiltInMock runs the robustness scenarios against the built-in
// mock: no --target needed.
func TestCheckBuiltInMock(t *testing.T) {
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--tags", "@robustness"}, &out, io.Discard)
	require.NoError(t, err, out.String())
	assert.Contains(t, out.String(), "built-in mock")
	assert.Regexp(t, `mediaspec check: \d+ scenarios: \d+ passed, 0 failed, 0 skipped`, out.String())
}

// TestCheckBuiltInMockInReferenceShapes: the built-in mock answering in
// the reference's shapes passes the listing's scenarios, which those shapes
// thin the most.
func TestCheckBuiltInMockInReferenceShapes(t *testing.T) {
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--reference-shapes", "--tags", "@shared-links"}, &out, io.Discard)
	require.NoError(t, err, out.String())
	assert.Regexp(t, `mediaspec check: \d+ scenarios: \d+ passed, 0 failed, 0 skipped`, out.String())
}

// TestCheckReports checks a running server, as CI does, and writes both file
// reports; without an admin's credentials (the API key is not an admin's),
// the scenarios that make a user are skipped.
func TestCheckReports(t *testing.T) {
	srv, d := startTarget(t, func(c *mockserver.Config) { c.NoControl = true })

	dir := t.TempDir()
	junit, cucumber := filepath.Join(dir, "out.xml"), filepath.Join(dir, "out.json")
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--api-key", d.Users[1].APIKey, "--second-api-key", "ci-key",
		"--tags", "@shared-links", "--format", "junit:" + junit, "--format", "cucumber:" + cucumber, "--format", "progress"},
		&out, io.Discard)
	require.NoError(t, err, out.String())
	assert.Contains(t, out.String(), "needs to make a user: give --admin-api-key")
	assert.NotContains(t, out.String(), "needs a second user", "--second-api-key gives one")

	b, err := os.ReadFile(junit)
	require.NoError(t, err)
	var doc struct {
		Tests  int `xml:"tests,attr"`
		Suites []struct {
			Skipped int `xml:"skipped,attr"`
			Cases   []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(b, &doc))
	skipped, cases := 0, 0
	for _, s := range doc.Suites {
		skipped += s.Skipped
		cases += len(s.Cases)
	}
	assert.Positive(t, skipped)
	assert.Equal(t, doc.Tests, cases, "one testcase per scenario")
	c, err := os.ReadFile(cucumber)
	require.NoError(t, err)
	assert.Contains(t, string(c), `"status": "skipped"`)
}

func TestCheckFailingTarget(t *testing.T) {
	// A server that answers 200 [] to everything passes the preflight and
	// fails its scenarios.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, "[]")
	}))
	t.Cleanup(srv.Close)
	err := run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--tags", "@shared-links"}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.NotErrorIs(t, err, errUsage)
	assert.Contains(t, err.Error(), "scenarios failed")
}

// TestCheckPreflight: what would fail every scenario one by one is found
// once, before any scenario, and told in one line (exit 1): a base path
// that answers 404 everywhere, and each credential the target refuses.
func TestCheckPreflight(t *testing.T) {
	srv, d := startTarget(t, func(c *mockserver.Config) { c.NoControl = true })
	api := srv.URL + "/api"
	second := d.Users[1]
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no base path", []string{"--target", srv.URL, "--api-key", "ci-key"},
			"answers 404 to every API route (GET /server-info/ping, GET /users/me, GET /shared-links): is the base path missing /api?"},
		{"a wrong base path", []string{"--target", srv.URL + "/v2/api", "--api-key", "ci-key"}, "is the base path right?"},
		{"a wrong API key", []string{"--target", api, "--api-key", "wrong"},
			"the API key given with --api-key is refused: 401 Invalid API key"},
		{"a wrong second API key", []string{"--target", api, "--api-key", "ci-key", "--second-api-key", "wrong"},
			"the API key given with --second-api-key is refused: 401 Invalid API key"},
		{"a wrong admin API key", []string{"--target", api, "--api-key", "ci-key", "--admin-api-key", "wrong"},
			"the API key given with --admin-api-key is refused: 401 Invalid API key"},
		{"a wrong admin login", []string{"--target", api, "--api-key", "ci-key", "--admin-email", second.Email, "--admin-password", "wrong"},
			"the login given with --admin-email and --admin-password is refused: 401 Incorrect email or password"},
		{"a wrong login", []string{"--target", api, "--api-key", "ci-key", "--email", second.Email, "--password", "wrong"},
			"the login given with --email and --password is refused: 401 Incorrect email or password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			start := time.Now()
			err := run(t.Context(), append([]string{"check", "--tags", "@shared-links"}, tt.args...), &out, io.Discard)
			require.Error(t, err)
			assert.NotErrorIs(t, err, errUsage, "a target problem: exit 1")
			assert.ErrorIs(t, err, conformance.ErrNotReady)
			assert.ErrorContains(t, err, tt.want)
			assert.NotContains(t, err.Error(), "\n", "one line")
			assert.NotContains(t, out.String(), "scenarios:", "no scenario ran")
			assert.Less(t, time.Since(start), 5*time.Second)
		})
	}
}

// TestCheckPreflightStubs: the preflight against servers that are not the
// mock: one that answers 404 to everything, one that refuses every key
// with a message of its own, one that refuses without a body.
func TestCheckPreflightStubs(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"404 everywhere", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, "is the base path missing /api?"},
		{"refuses every key", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"message":["Invalid API key","try again"],"statusCode":401}`)
		}, "the API key given with --api-key is refused: 401 Invalid API key; try again"},
		{"forbids without a body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusForbidden)
		}, "the API key given with --api-key is refused: 403 Forbidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			t.Cleanup(srv.Close)
			err := run(t.Context(), []string{"check", "--target", srv.URL, "--tags", "@shared-links"}, io.Discard, io.Discard)
			require.Error(t, err)
			assert.NotErrorIs(t, err, errUsage)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

// TestCheckChecksumHeader checks a server whose duplicate-check header has
// another name.
func TestCheckChecksumHeader(t *testing.T) {
	srv, _ := startTarget(t, func(c *mockserver.Config) { c.ChecksumHeader = "x-asset-checksum" })
	args := []string{"check", "--target", srv.URL + "/api", "--api-key", "ci-key", "--tags", "@duplicates"}
	var out bytes.Buffer
	err := run(t.Context(), append(args, "--checksum-header", "x-asset-checksum"), &out, io.Discard)
	require.NoError(t, err, out.String())
	err = run(t.Context(), args, io.Discard, io.Discard)
	require.Error(t, err, "with the default header name, the checksum scenarios fail")
}

// TestCheckBuiltInMockChecksumHeader: with no --target, the built-in mock
// reads the checksum header --checksum-header names.
func TestCheckBuiltInMockChecksumHeader(t *testing.T) {
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--checksum-header", "x-asset-checksum", "--tags", "@duplicates"}, &out, io.Discard)
	require.NoError(t, err, out.String())
}

// TestCheckWithoutSecondUser checks a target without the control API and
// without --second-api-key: the scenarios needing a second user are skipped,
// saying why, and the run passes on the scenarios that ran.
func TestCheckWithoutSecondUser(t *testing.T) {
	srv, d := startTarget(t, func(c *mockserver.Config) { c.NoControl = true })
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--api-key", d.Users[1].APIKey, "--tags", "@shared-links", "--format", "pretty"},
		&out, io.Discard)
	require.NoError(t, err, out.String())
	assert.Contains(t, out.String(), "needs a second user: give --second-api-key, or --admin-api-key")
	assert.NotContains(t, out.String(), "is an admin's", "the API key is not an admin's")
	assert.Regexp(t, `\d+ scenarios: [1-9]\d* passed, 0 failed, [1-9]\d* skipped`, out.String())
}

// testSettle is the --settle of the runs that must pass: under the race
// detector, beside the other tests on two cores, the pictures of a burst of
// uploads take far longer to make than on a real server; a run that passes
// does not wait it out.
const testSettle = "5m"

// TestCheckWithAnAdminKey checks a target without the control API, given
// one user's API key and an admin's: the harness makes the users the
// scenarios need through the API (new ones, a second one), and nothing is
// skipped. The whole spec passes so in conformance's
// TestReferenceShapesPass; here the command's flags reach it.
func TestCheckWithAnAdminKey(t *testing.T) {
	srv, d := startTarget(t, func(c *mockserver.Config) { c.NoControl = true })
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--api-key", d.Users[1].APIKey, "--admin-api-key", "ci-key", "--format", "progress",
		"--tags", "@accounts or @album-users or @upload-limit", "--settle", testSettle},
		&out, io.Discard)
	require.NoError(t, err, out.String())
	assert.Regexp(t, `\d+ scenarios: [1-9]\d* passed, 0 failed, 0 skipped`, out.String())
	assert.Contains(t, out.String(), "Not run: the scenarios of a declared upload size limit (@upload-limit)", "the target declares none")
}

// TestCheckWithTheAPIKeyOfAnAdmin: an admin's --api-key, and no other
// credential, makes the users the scenarios need, as --admin-api-key would,
// and the run says so in its first line.
func TestCheckWithTheAPIKeyOfAnAdmin(t *testing.T) {
	srv, _ := startTarget(t, func(c *mockserver.Config) { c.NoControl = true })
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--api-key", "ci-key", "--format", "progress",
		"--tags", "@accounts or @album-users or @sessions", "--settle", testSettle}, &out, io.Discard)
	require.NoError(t, err, out.String())
	first, _, _ := strings.Cut(out.String(), "\n")
	assert.Equal(t, "mediaspec check: the --api-key is an admin's, and no --admin-api-key was given: it makes the users the scenarios need.", first)
	assert.Regexp(t, `\d+ scenarios: [1-9]\d* passed, 0 failed, 0 skipped`, out.String())
}

// TestCheckDeclaredUploadLimit: with --max-upload-bytes, the scenarios of
// the limit run, and a target that keeps its word passes them.
func TestCheckDeclaredUploadLimit(t *testing.T) {
	srv, _ := startTarget(t, func(c *mockserver.Config) { c.MaxUploadBytes = 2 << 20 })
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--api-key", "ci-key", "--tags", "@upload-limit", "--max-upload-bytes", "2097152", "--format", "progress"},
		&out, io.Discard)
	require.NoError(t, err, out.String())
	assert.Contains(t, out.String(), "2 scenarios: 2 passed, 0 failed, 0 skipped")
	err = run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--api-key", "ci-key", "--tags", "@upload-limit", "--max-upload-bytes", "1048576"}, io.Discard, io.Discard)
	assert.Error(t, err, "a limit the target does not keep fails")
}

// TestCheckEverythingSkipped: a run whose every selected scenario was
// skipped checked nothing and must not pass; it is told apart from a
// failure (bad usage, exit 2), says why the scenarios were skipped, and
// still writes its reports.
func TestCheckEverythingSkipped(t *testing.T) {
	tests := []struct {
		tags, reason string
	}{
		{"@new-user", "needs to make a user: give --admin-api-key"},
		{"@second-user", "needs a second user: give --second-api-key"},
	}
	for _, tt := range tests {
		t.Run(tt.tags, func(t *testing.T) {
			srv, d := startTarget(t, func(c *mockserver.Config) { c.NoControl = true })
			junit := filepath.Join(t.TempDir(), "out.xml")
			var out bytes.Buffer
			err := run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--api-key", d.Users[1].APIKey, "--tags", tt.tags, "--format", "junit:" + junit},
				&out, io.Discard)
			require.ErrorIs(t, err, errUsage, out.String())
			assert.ErrorContains(t, err, "every selected scenario was skipped")
			assert.ErrorContains(t, err, tt.reason)
			assert.Regexp(t, `\d+ scenarios: 0 passed, 0 failed, [1-9]\d* skipped`, out.String(), "the summary is written")

			b, err := os.ReadFile(junit)
			require.NoError(t, err)
			var doc struct {
				Tests  int `xml:"tests,attr"`
				Suites []struct {
					Skipped int `xml:"skipped,attr"`
				} `xml:"testsuite"`
			}
			require.NoError(t, xml.Unmarshal(b, &doc))
			assert.Positive(t, doc.Tests)
			skipped := 0
			for _, s := range doc.Suites {
				skipped += s.Skipped
			}
			assert.Equal(t, doc.Tests, skipped)
		})
	}
}

// TestCheckUnwritableReport: a report file that cannot be made fails the
// run at once (exit 1, not bad usage), and the other reports are not
// written.
func TestCheckUnwritableReport(t *testing.T) {
	srv, _ := startTarget(t, nil)
	dir := t.TempDir()
	junit := filepath.Join(dir, "out.xml")
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "--target", srv.URL + "/api", "--api-key", "ci-key", "--tags", "@shared-links",
		"--format", "junit:" + junit, "--format", "progress:" + filepath.Join(dir, "no-such-dir", "progress.txt")},
		&out, io.Discard)
	require.Error(t, err)
	assert.NotErrorIs(t, err, errUsage)
	assert.ErrorContains(t, err, "no-such-dir")
	assert.NoFileExists(t, junit)
	assert.NotContains(t, out.String(), "scenarios:", "no scenario ran")
}

// startTarget serves a mock, changed by opts, as the target of a check: a
// small dataset whose default user has the API key ci-key.
func startTarget(t *testing.T, opts func(*mockserver.Config)) (*httptest.Server, model.Dataset) {
	t.Helper()
	d := fake.Generate(fake.Options{Seed: 3, Anchor: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Links: 3, Users: 1, APIKey: "ci-key"})
	cfg := mockserver.Config{Dataset: func() model.Dataset { return d }, MediaDir: t.TempDir()}
	if opts != nil {
		opts(&cfg)
	}
	h, err := mockserver.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() }) // before its media folder goes
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, d
}

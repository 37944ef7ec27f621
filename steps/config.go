// Package steps holds the godog step definitions of the conformance harness.
// They drive any server of the media-asset API through its base URL, with a
// Config the runner builds: steps never read flags or the environment.
//
// Every response to an API request is validated against the project's
// OpenAPI document inside the step that sends it, so scenarios assert
// behaviour and a response of the wrong shape fails whichever scenario
// received it. Bodies are decoded with the harness's own small types, never
// the mock server's: the harness must not share a bug with what it judges.
package steps

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/mediaspec/mediaspec/spec"
)

// Tags that say what a scenario needs beyond the API itself.
const (
	// TagSecondUser marks scenarios that need a second user.
	TagSecondUser = "@second-user"
	// TagUploadLimit marks the scenarios that judge the upload size limit
	// a target declares (Config.MaxUploadBytes).
	TagUploadLimit = "@upload-limit"
	// TagNewUser marks scenarios that need a user the harness makes (with
	// an admin's credentials).
	TagNewUser = "@new-user"
	// TagRobustness marks the scenarios that send what may kill a server:
	// the runner runs them last, one at a time.
	TagRobustness = "@robustness"
	// TagSerial marks the scenarios that change what every user sees (the
	// server's settings) or judge it: the runner runs them after the
	// others, one at a time, so that none reads what another is changing.
	TagSerial = "@serial"
)

// DefaultChecksumHeader is the header that announces a file's SHA-1.
const DefaultChecksumHeader = "x-service-checksum"

// Config is what the steps drive a target with.
type Config struct {
	// BaseURL is the API's base URL, base path included, e.g.
	// http://127.0.0.1:2283/api.
	BaseURL string
	// APIKey is the API key of the user the scenarios act as.
	APIKey string
	// AdminAPIKey is an admin's API key, or AdminEmail and AdminPassword
	// an admin's login: with either, the harness makes the users it needs
	// (POST /admin/users), with their sessions and API keys.
	AdminAPIKey, AdminEmail, AdminPassword string
	// Email and Password are that user's login, for the scenarios that use
	// a session. Without a password they are skipped; without an email, the
	// API key's user's email is asked for (GET /users/me).
	Email, Password string
	// SecondAPIKey is another user's API key, for scenarios tagged
	// @second-user. When empty, such scenarios make a user with the admin's
	// credentials, or are skipped when there are none.
	SecondAPIKey string
	// ChecksumHeader names the duplicate-detection header
	// (DefaultChecksumHeader when empty).
	ChecksumHeader string
	// Settle bounds how long scenarios wait for what a server derives from
	// a file after the upload (metadata, thumbnails): DefaultSettle if zero.
	Settle time.Duration
	// LibraryFolder is a folder that the target reads at the path the
	// harness writes it (the target on the harness's machine, or a folder
	// shared with it), for the scenarios tagged @library-folder, which are
	// skipped without one. Each puts its files in a folder of its own
	// there, and removes it.
	LibraryFolder string
	// MaxUploadBytes is the size of upload body the target declares it
	// refuses beyond (with 413), which the scenarios tagged @upload-limit
	// judge; the runner leaves them out where none is declared.
	MaxUploadBytes int64
	// Settled, if set, is told how long each such wait took when it ended
	// with what was waited for. Scenarios run at once: it must be safe for
	// concurrent use.
	Settled func(took time.Duration)
	// Exchanged, if set, is told of every API request the steps send and
	// of its answer, before the step that sent it ends. Scenarios, and a
	// step's requests, run at once: it must be safe for concurrent use.
	Exchanged func(Exchange)

	// Traces, if set, keeps what the scenarios made, for the runner to take
	// away once they have ended (TakeAway); else each scenario takes its
	// own away as it ends.
	Traces *Traces

	// made is told of every answer a scenario's request receives, so that
	// what it made is taken away when the scenario ends (cleanup.go).
	made func(apiRequest, *response)
	// Client sends every request; it should have timeouts.
	Client *http.Client
	// Validator checks every API response.
	Validator *spec.Validator
}

// check returns cfg with its defaults, or the reason it cannot be used.
func (cfg Config) check() (Config, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return cfg, fmt.Errorf("base URL %q is not an http(s) URL", cfg.BaseURL)
	}
	if cfg.Client == nil || cfg.Validator == nil {
		return cfg, errors.New("steps: Config needs a Client and a Validator")
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	cfg.ChecksumHeader = cmp.Or(cfg.ChecksumHeader, DefaultChecksumHeader)
	return cfg, nil
}

// SkipError skips a scenario, saying why. It matches godog.ErrSkip.
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return "skipped: " + e.Reason }

// Is makes errors.Is(err, godog.ErrSkip) hold, so godog skips the scenario.
func (e *SkipError) Is(target error) bool { return target == godog.ErrSkip }

func skip(format string, args ...any) error {
	return &SkipError{Reason: fmt.Sprintf(format, args...)}
}

// ViolationError is the failure of a response that breaks the OpenAPI
// document: the request, the status and one line per problem.
type ViolationError struct {
	Request    string // "POST /api/asset/upload"
	Status     int
	Violations []spec.Violation
}

func (e *ViolationError) Error() string {
	// The same problem in every element of a list is told once, with a count.
	type group struct {
		first spec.Violation
		more  int
	}
	var groups []*group
	byKey := map[spec.Violation]*group{}
	for _, v := range e.Violations {
		key := v.Generalised()
		if g, ok := byKey[key]; ok {
			g.more++
			continue
		}
		g := &group{first: v}
		byKey[key] = g
		groups = append(groups, g)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s answered %d, which breaks the OpenAPI document:", e.Request, e.Status)
	for i, g := range groups {
		if i == 20 {
			fmt.Fprintf(&b, "\n  ... and %d more problems", len(groups)-i)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(g.first.String())
		if g.more > 0 {
			fmt.Fprintf(&b, " [and %d more like it]", g.more)
		}
	}
	return b.String()
}

package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// targetFacts is what the preflight learnt of the target.
type targetFacts struct {
	// apiKeyIsAdmin says the user of --api-key is an admin
	// (GET /users/me answers isAdmin: true).
	apiKeyIsAdmin bool
}

// preflight checks, once and before any scenario, what would otherwise fail
// every scenario one by one: that the target answers at all, that its base
// path is right, and that it takes every credential the run was given. Each
// problem is one line that says what to change.
func preflight(ctx context.Context, cfg Config) (targetFacts, error) {
	var facts targetFacts
	err := preflightChecks(ctx, cfg, &facts)
	return facts, err
}

func preflightChecks(ctx context.Context, cfg Config, facts *targetFacts) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()

	// The base path: a server of the API answers these routes, with or
	// without credentials, with anything but 404.
	routes := []string{"/server-info/ping", "/users/me", "/shared-links"}
	notFound := 0
	for _, route := range routes {
		status, _, err := preflightCall(ctx, cfg, http.MethodGet, route, nil, nil)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrUnreachable, cfg.Target, err)
		}
		if status == http.StatusNotFound {
			notFound++
		}
	}
	if notFound == len(routes) {
		hint := "is the base path missing /api?"
		if u, err := url.Parse(cfg.Target); err == nil && strings.HasSuffix(u.Path, "/api") {
			hint = "is the base path right?"
		}
		return notReady("%s answers 404 to every API route (GET %s): %s", cfg.Target, strings.Join(routes, ", GET "), hint)
	}

	keys := []struct{ flag, key string }{
		{"--api-key", cfg.APIKey},
		{"--second-api-key", cfg.SecondAPIKey},
		{"--admin-api-key", cfg.AdminAPIKey},
	}
	for _, k := range keys {
		if k.key == "" {
			continue
		}
		status, body, err := preflightCall(ctx, cfg, http.MethodGet, "/users/me", http.Header{"X-Api-Key": {k.key}}, nil)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrUnreachable, cfg.Target, err)
		}
		if status == http.StatusUnauthorized || status == http.StatusForbidden {
			return notReady("the API key given with %s is refused: %s", k.flag, refusal(status, body))
		}
		if k.flag == "--api-key" && status == http.StatusOK {
			var me struct {
				IsAdmin bool `json:"isAdmin"`
			}
			facts.apiKeyIsAdmin = json.Unmarshal(body, &me) == nil && me.IsAdmin
		}
	}

	logins := []struct{ flags, email, password string }{
		{"--email and --password", cfg.Email, cfg.Password},
		{"--admin-email and --admin-password", cfg.AdminEmail, cfg.AdminPassword},
	}
	for _, l := range logins {
		if l.email == "" || l.password == "" {
			continue
		}
		in, err := json.Marshal(map[string]string{"email": l.email, "password": l.password})
		if err != nil {
			return err
		}
		status, body, err := preflightCall(ctx, cfg, http.MethodPost, "/auth/login", http.Header{"Content-Type": {"application/json"}}, in)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrUnreachable, cfg.Target, err)
		}
		if status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusBadRequest {
			return notReady("the login given with %s is refused: %s", l.flags, refusal(status, body))
		}
	}
	return nil
}

// notReadyError is a problem the preflight found; it is ErrNotReady, and
// says only what the problem is.
type notReadyError struct{ reason string }

func (e *notReadyError) Error() string        { return e.reason }
func (e *notReadyError) Is(target error) bool { return target == ErrNotReady }

func notReady(format string, args ...any) error {
	return &notReadyError{fmt.Sprintf(format, args...)}
}

// preflightCall sends one request of the preflight and reads the answer.
func preflightCall(ctx context.Context, cfg Config, method, path string, header http.Header, body []byte) (int, []byte, error) {
	r, err := http.NewRequestWithContext(ctx, method, cfg.Target+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	for k, v := range header {
		r.Header[k] = v
	}
	resp, err := cfg.Client.Do(r)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return 0, nil, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // so the connection is reused
	return resp.StatusCode, b, nil
}

// refusal tells a refusal in one line: the status and the error's message,
// e.g. "401 Invalid API key".
func refusal(status int, body []byte) string {
	var e struct {
		Message json.RawMessage `json:"message"`
	}
	msg := http.StatusText(status)
	if json.Unmarshal(body, &e) == nil {
		var one string
		var list []string
		switch {
		case json.Unmarshal(e.Message, &one) == nil && one != "":
			msg = one
		case json.Unmarshal(e.Message, &list) == nil && len(list) > 0:
			msg = strings.Join(list, "; ")
		}
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:199]) + "…"
	}
	return fmt.Sprintf("%d %s", status, msg)
}

// refusesConnections says whether the target went away: asked for its
// ping, it refuses the connection. A target that is dying may first reset
// or close it, so it is asked again, for up to two seconds, until it
// answers (it is there) or refuses.
func refusesConnections(ctx context.Context, cfg Config) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for {
		_, _, err := preflightCall(ctx, cfg, http.MethodGet, "/server-info/ping", nil, nil)
		switch {
		case err == nil:
			return false
		case errors.Is(err, syscall.ECONNREFUSED):
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
}

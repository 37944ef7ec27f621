package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
)

// A scenario leaves no trace on its target: what it makes through the API
// is taken away again when it ends, whether it passed or failed, the last
// made first. The harness sees every answer its steps receive (Config's
// made hook), so whatever a request made is known, however the step that
// sent it was written: an upload, an album, a link, a user (removed with
// everything of theirs), an API key, a session, a partner, an activity.
// What a step changes in place (a setting, a user's name) it takes back
// itself, with later. A scenario whose traces cannot all be taken away
// fails, saying which remain.

// undoTimeout bounds the taking away of one scenario's traces.
const undoTimeout = 60 * time.Second

// undo is one step of taking a scenario's traces away.
type undo struct {
	what string
	do   func(ctx context.Context) error
}

// traces are what a scenario has made and will take away.
type traces struct {
	mu    sync.Mutex
	undos []undo
	// owners are the credentials of the links' owners, by key: an upload
	// through a link is its owner's, who takes it away.
	owners map[string]credentials
}

// later keeps do, to take back what the scenario changed, when it ends.
func (s *scenario) later(what string, do func(ctx context.Context) error) {
	s.traces.mu.Lock()
	defer s.traces.mu.Unlock()
	s.traces.undos = append(s.traces.undos, undo{what, do})
}

// registerCleanup takes the scenario's traces away when it ends.
func (s *scenario) registerCleanup(sc *godog.ScenarioContext) {
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if left := s.cleanUp(); left != nil {
			return ctx, errors.Join(err, left)
		}
		return ctx, err
	})
}

// cleanUp runs the undos, the last kept first, each whatever became of the
// others, on a context of its own: a scenario cut short by its deadline,
// or a run by Ctrl-C, still takes its traces away.
func (s *scenario) cleanUp() error {
	s.traces.mu.Lock()
	undos := s.traces.undos
	s.traces.undos = nil
	s.traces.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), undoTimeout)
	defer cancel()
	var left []string
	for _, u := range slices.Backward(undos) {
		if err := u.do(ctx); err != nil {
			left = append(left, fmt.Sprintf("%s: %v", u.what, err))
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("the scenario left a trace on the target: %s", strings.Join(left, "; "))
	}
	return nil
}

// made is told of every answer the scenario's requests receive, and keeps
// the undo of whatever a successful one made.
func (s *scenario) made(ar apiRequest, resp *response) {
	if resp == nil || resp.status < 200 || resp.status > 299 {
		return
	}
	var out struct {
		ID          string `json:"id"`
		Key         string `json:"key"`
		AccessToken string `json:"accessToken"`
		APIKey      struct {
			ID string `json:"id"`
		} `json:"apiKey"`
	}
	_ = json.Unmarshal(resp.body, &out)
	creds := ar.creds
	switch route := ar.method + " " + strings.SplitN(ar.path, "?", 2)[0]; {
	case route == "POST /asset/upload" && resp.status == http.StatusCreated && out.ID != "":
		if owner, ok := s.linkOwner(creds); ok {
			creds = owner
		}
		s.later("the upload "+out.ID, func(ctx context.Context) error { return s.removeAsset(ctx, creds, out.ID) })
	case route == "POST /albums" && out.ID != "":
		s.later("the album "+out.ID, s.removing(creds, http.MethodDelete, "/albums/"+out.ID, nil))
	case route == "POST /shared-links" && out.ID != "":
		s.traces.mu.Lock()
		if s.traces.owners == nil {
			s.traces.owners = map[string]credentials{}
		}
		s.traces.owners[out.Key] = creds
		s.traces.mu.Unlock()
		s.later("the link "+out.ID, s.removing(creds, http.MethodDelete, "/shared-links/"+out.ID, nil))
	case route == "POST /admin/users" && out.ID != "":
		s.later("the user "+out.ID, s.removing(creds, http.MethodDelete, "/admin/users/"+out.ID, map[string]any{"force": true}))
	case route == "POST /api-keys" && out.APIKey.ID != "":
		s.later("the API key "+out.APIKey.ID, s.removing(creds, http.MethodDelete, "/api-keys/"+out.APIKey.ID, nil))
	case route == "POST /auth/login" && out.AccessToken != "":
		s.later("the session of a login", s.removing(credentials{bearer: out.AccessToken}, http.MethodPost, "/auth/logout", nil))
	case partnerRoute.MatchString(route):
		s.later("the partner "+ar.path, s.removing(creds, http.MethodDelete, ar.path, nil))
	case route == "POST /activities" && out.ID != "":
		s.later("the activity "+out.ID, s.removing(creds, http.MethodDelete, "/activities/"+out.ID, nil))
	}
}

// partnerRoute is POST /partners/{id}, which makes a partner.
var partnerRoute = regexp.MustCompile(`^POST /partners/[^/]+$`)

// linkOwner is the credentials of the owner of the link whose key creds
// carry, when the scenario made that link.
func (s *scenario) linkOwner(creds credentials) (credentials, bool) {
	if creds.linkKey == "" {
		return credentials{}, false
	}
	s.traces.mu.Lock()
	defer s.traces.mu.Unlock()
	owner, ok := s.traces.owners[creds.linkKey]
	return owner, ok
}

// removing is an undo that sends a request taking something away. What is
// gone already (the scenario took it away itself, or with its user) is
// no trace: 400 or 404 for it, or 401 for credentials of a user removed.
func (s *scenario) removing(creds credentials, method, path string, in any) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		var body []byte
		if in != nil {
			var err error
			if body, err = json.Marshal(in); err != nil {
				return err
			}
		}
		resp, err := s.cfg.send(ctx, apiRequest{method: method, path: path, creds: creds, contentType: "application/json", body: body})
		if resp == nil {
			return err
		}
		switch {
		case resp.status >= 200 && resp.status <= 299, resp.status == http.StatusBadRequest, resp.status == http.StatusNotFound, resp.status == http.StatusUnauthorized:
			return nil
		}
		return fmt.Errorf("%s", resp)
	}
}

// removeAsset takes an upload away for good, with the video of its live
// photo, which the server keeps as an asset of its own.
func (s *scenario) removeAsset(ctx context.Context, creds credentials, id string) error {
	ids := []string{id}
	var a struct {
		LivePhotoVideoID *string `json:"livePhotoVideoId"`
	}
	if resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/asset/" + id, creds: creds}); err == nil && resp.status == http.StatusOK {
		if json.Unmarshal(resp.body, &a) == nil && a.LivePhotoVideoID != nil {
			ids = append(ids, *a.LivePhotoVideoID)
		}
	}
	return s.removing(creds, http.MethodDelete, "/asset", map[string]any{"ids": ids, "force": true})(ctx)
}

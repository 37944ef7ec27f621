package steps

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
)

// A run leaves no trace on its target: what its scenarios make through
// the API is taken away again, whether they passed or failed, the last
// made first. The harness sees every answer its steps receive (Config's
// made hook), so whatever a request made is known, however the step that
// sent it was written: an upload, an album, a link, a user (removed with
// everything of theirs), an API key, a session, a partner, an activity, a memory, a tag.
// What a step changes in place (a setting, a user's name) it takes back
// itself, with later. The runner takes the traces away once the scenarios
// running at once have all ended (Traces): taken away as each ends, they
// would vanish under the others, which read the user's whole library (a
// listing of every link), and a server that races a deletion with a read
// answers that read wrongly. Without Config.Traces, a scenario takes its
// own away as it ends. What cannot be taken away is said, and fails the
// run (or the scenario).

// undoTimeout bounds the taking away of one scenario's traces, or of a
// batch of scenarios'.
const undoTimeout = 2 * time.Minute

// undo is one step of taking a scenario's traces away.
type undo struct {
	what string
	do   func(ctx context.Context) error
}

// traces are what a scenario has made and will take away itself, where
// the run does not.
type traces struct {
	mu    sync.Mutex
	undos []undo
	// owners are the credentials of the links' owners, by key: an upload
	// through a link is its owner's, who takes it away.
	owners map[string]credentials
}

// Traces are the undos of a run's scenarios, kept as each is made, so that
// a run cut short (Ctrl-C) still takes away what its scenarios made. Safe
// for concurrent use.
type Traces struct {
	mu    sync.Mutex
	undos []undo
}

// NewTraces is an empty set of traces.
func NewTraces() *Traces { return &Traces{} }

func (t *Traces) add(u undo) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.undos = append(t.undos, u)
}

// TakeAway runs every undo kept, the last kept first, whatever became of
// the others, on a context of its own (a run cut short by Ctrl-C still
// takes its traces away), and says what could not be taken away.
func (t *Traces) TakeAway() []string {
	t.mu.Lock()
	undos := t.undos
	t.undos = nil
	t.mu.Unlock()
	return runUndos(undos)
}

func runUndos(undos []undo) []string {
	ctx, cancel := context.WithTimeout(context.Background(), undoTimeout)
	defer cancel()
	var pending confirmations
	ctx = context.WithValue(ctx, confirmationsKey{}, &pending)
	var left []string
	for _, u := range slices.Backward(undos) {
		if err := u.do(ctx); err != nil {
			left = append(left, fmt.Sprintf("%s: %v", u.what, err))
		}
	}
	return append(left, pending.wait(ctx)...)
}

// A server may take something away a while after it said so (the
// reference deletes assets and users in a job): what the undos removed is
// confirmed gone, each asked again until it is, within confirmWithin.
const confirmWithin = 30 * time.Second

// confirmation asks whether something removed is gone: nil once it is.
type confirmation struct {
	what  string
	check func(ctx context.Context) error
}

// confirmations are those the undos of one taking-away asked for.
type confirmations struct {
	mu   sync.Mutex
	list []confirmation
}

type confirmationsKey struct{}

// confirmGone asks, within the undos running on ctx, that check be
// confirmed once they have all run.
func confirmGone(ctx context.Context, what string, check func(ctx context.Context) error) {
	if c, ok := ctx.Value(confirmationsKey{}).(*confirmations); ok {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.list = append(c.list, confirmation{what, check})
	}
}

// wait asks each confirmation until it holds, or confirmWithin is over;
// it says what is still there.
func (c *confirmations) wait(ctx context.Context) []string {
	ctx, cancel := context.WithTimeout(ctx, confirmWithin)
	defer cancel()
	pending := c.list
	for {
		var still []confirmation
		var errs []string
		for _, cf := range pending {
			if err := cf.check(ctx); err != nil {
				still = append(still, cf)
				errs = append(errs, fmt.Sprintf("%s: %v", cf.what, err))
			}
		}
		if len(still) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return errs
		case <-time.After(settlePoll):
		}
		pending = still
	}
}

// later keeps do, to take back what the scenario changed: for the run,
// or for the scenario's end.
func (s *scenario) later(what string, do func(ctx context.Context) error) {
	u := undo{what: s.name + ": " + what, do: do}
	if s.cfg.Traces != nil {
		s.cfg.Traces.add(u)
		return
	}
	s.traces.mu.Lock()
	defer s.traces.mu.Unlock()
	s.traces.undos = append(s.traces.undos, u)
}

// registerCleanup notes the scenario's name, for what its traces are
// called, and takes its traces away when it ends where the run does not.
func (s *scenario) registerCleanup(sc *godog.ScenarioContext) {
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		s.name = p.Name
		return ctx, nil
	})
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		s.traces.mu.Lock()
		undos := s.traces.undos
		s.traces.undos = nil
		s.traces.mu.Unlock()
		if left := runUndos(undos); len(left) > 0 {
			return ctx, errors.Join(err, fmt.Errorf("the scenario left a trace on the target: %s", strings.Join(left, "; ")))
		}
		return ctx, err
	})
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
	case route == "POST /asset/upload" && resp.status == http.StatusOK && ar.header.Get(s.cfg.ChecksumHeader) != "":
		// A server that answers "duplicate" to the checksum header may
		// store the body all the same, as the reference does.
		s.later("what an upload announced as a duplicate stored", func(ctx context.Context) error { return s.removeStoredBody(ctx, creds, ar, out.ID) })
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
		s.later("the user "+out.ID, func(ctx context.Context) error {
			if err := s.removeUser(ctx, creds, out.ID); err != nil {
				return err
			}
			confirmGone(ctx, "the user "+out.ID, s.userGone(creds, out.ID))
			return nil
		})
	case route == "POST /api-keys" && out.APIKey.ID != "":
		s.later("the API key "+out.APIKey.ID, s.removing(creds, http.MethodDelete, "/api-keys/"+out.APIKey.ID, nil))
	case route == "POST /auth/login" && out.AccessToken != "":
		s.later("the session of a login", s.removing(credentials{bearer: out.AccessToken}, http.MethodPost, "/auth/logout", nil))
	case partnerRoute.MatchString(route):
		s.later("the partner "+ar.path, s.removing(creds, http.MethodDelete, ar.path, nil))
	case route == "POST /libraries" && out.ID != "":
		s.later("the library "+out.ID, s.removingLibrary(creds, out.ID))
	case route == "POST /activities" && out.ID != "":
		s.later("the activity "+out.ID, s.removing(creds, http.MethodDelete, "/activities/"+out.ID, nil))
	case route == "POST /memories" && out.ID != "":
		s.later("the memory "+out.ID, s.removing(creds, http.MethodDelete, "/memories/"+out.ID, nil))
	case route == "POST /tags" && out.ID != "":
		s.later("the tag "+out.ID, s.removing(creds, http.MethodDelete, "/tags/"+out.ID, nil))
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
		return removed(s.cfg.send(ctx, apiRequest{method: method, path: path, creds: creds, contentType: "application/json", body: body}))
	}
}

// removed judges the answer to a request that takes something away.
func removed(resp *response, err error) error {
	if resp == nil {
		return err
	}
	switch {
	case resp.status >= 200 && resp.status <= 299, resp.status == http.StatusBadRequest, resp.status == http.StatusNotFound, resp.status == http.StatusUnauthorized:
		return nil
	}
	return fmt.Errorf("%s", resp)
}

// removeUser takes a user away for good, with everything of theirs. A
// user a scenario deleted and did not restore is only marked deleted, and
// a server deletes them no further (the reference answers 400 "User not
// found", as for a user that is gone): such a user is restored, then
// removed.
func (s *scenario) removeUser(ctx context.Context, admin credentials, id string) error {
	path := "/admin/users/" + id
	remove := s.removing(admin, http.MethodDelete, path, map[string]any{"force": true})
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodDelete, path: path, creds: admin, contentType: "application/json", body: []byte(`{"force":true}`)})
	if resp == nil || resp.status != http.StatusBadRequest {
		return removed(resp, err)
	}
	restored, err := s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: path + "/restore", creds: admin})
	switch {
	case restored == nil:
		return err
	case restored.status < 200 || restored.status > 299:
		return nil // gone already
	}
	return remove(ctx)
}

// userGone confirms a user removed is gone, with everything of theirs: no
// longer among the users, deleted ones included, that an admin lists (a
// server that failed to remove what was theirs keeps them there).
func (s *scenario) userGone(admin credentials, id string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		var users []struct {
			ID string `json:"id"`
		}
		if err := s.call(ctx, "listing the users", http.MethodGet, "/admin/users?withDeleted=true", admin, nil, &users, http.StatusOK); err != nil {
			return err
		}
		if slices.ContainsFunc(users, func(u struct {
			ID string `json:"id"`
		}) bool {
			return u.ID == id
		}) {
			return fmt.Errorf("still listed among the users")
		}
		return nil
	}
}

// assetGone confirms an upload removed is gone: its owner no longer reads
// it (credentials refused: the owner is gone, and userGone confirms them).
func (s *scenario) assetGone(creds credentials, id string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/asset/" + id, creds: creds})
		switch {
		case resp == nil:
			return err
		case resp.status == http.StatusOK:
			return fmt.Errorf("its owner still reads it")
		}
		return nil
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
	if err := s.removing(creds, http.MethodDelete, "/asset", map[string]any{"ids": ids, "force": true})(ctx); err != nil {
		return err
	}
	for _, id := range ids {
		confirmGone(ctx, "the upload "+id, s.assetGone(creds, id))
	}
	return nil
}

// removeStoredBody takes away what a server stored of an upload it
// answered as the duplicate of announced: the asset its file's bytes
// make, found by their checksum, if it is another than announced. The
// harness's files are made unique, so no asset of the user's own has
// those bytes.
func (s *scenario) removeStoredBody(ctx context.Context, creds credentials, ar apiRequest, announced string) error {
	sum, ok := assetDataChecksum(ar)
	if !ok {
		return nil
	}
	var out struct {
		Results []struct {
			Action, Reason string
			AssetID        string `json:"assetId"`
		} `json:"results"`
	}
	in := map[string]any{"assets": []map[string]string{{"id": "stored", "checksum": sum}}}
	if err := s.call(ctx, "asking what the body's checksum names", http.MethodPost, "/asset/bulk-upload-check", creds, in, &out, http.StatusOK); err != nil {
		return err
	}
	for _, r := range out.Results {
		if r.Action == "reject" && r.AssetID != "" && r.AssetID != announced {
			return s.removeAsset(ctx, creds, r.AssetID)
		}
	}
	return nil
}

// assetDataChecksum is the base64 SHA-1 of an upload's assetData part, as
// a server writes an asset's checksum.
func assetDataChecksum(ar apiRequest) (string, bool) {
	_, params, err := mime.ParseMediaType(ar.contentType)
	if err != nil || ar.body == nil {
		return "", false
	}
	mr := multipart.NewReader(bytes.NewReader(ar.body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			return "", false
		}
		if p.FormName() == "assetData" {
			h := sha1.New()
			if _, err := io.Copy(h, p); err != nil {
				return "", false
			}
			return base64.StdEncoding.EncodeToString(h.Sum(nil)), true
		}
	}
}

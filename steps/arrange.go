package steps

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"syscall"
	"time"

	"github.com/cucumber/godog"
)

// Scenarios arrange what they need through the API's own operations, so
// that a real server can run them: users through POST /admin/users, their
// sessions through POST /auth/login and keys through POST /api-keys, albums
// through POST /albums, links through POST /shared-links.

// canMakeUsers says whether the harness has an admin's credentials.
func (cfg Config) canMakeUsers() bool {
	return cfg.AdminAPIKey != "" || (cfg.AdminEmail != "" && cfg.AdminPassword != "")
}

// call sends a JSON request with creds and decodes the answer into out,
// which it expects with status want; what is told of a failure names the
// step of the set-up.
func (s *scenario) call(ctx context.Context, what, method, path string, creds credentials, in, out any, want int) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: method, path: path, creds: creds, contentType: "application/json", body: body})
	if err := judgeNow(resp, err, want); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if out != nil {
		if err := json.Unmarshal(resp.body, out); err != nil {
			return fmt.Errorf("%s: %s: %w", what, resp, err)
		}
	}
	return nil
}

// login starts a session and returns its access token.
func (s *scenario) login(ctx context.Context, email, password string) (string, error) {
	var out struct {
		AccessToken string `json:"accessToken"`
	}
	in := map[string]string{"email": email, "password": password}
	if err := s.call(ctx, "logging in as "+email, http.MethodPost, "/auth/login", credentials{}, in, &out, http.StatusCreated); err != nil {
		return "", err
	}
	if out.AccessToken == "" {
		return "", fmt.Errorf("logging in as %s: the answer has no accessToken", email)
	}
	return out.AccessToken, nil
}

// admin is how the harness acts as an admin: their API key, or a session
// of their login.
func (s *scenario) admin(ctx context.Context) (credentials, error) {
	if s.cfg.AdminAPIKey != "" {
		return credentials{apiKey: s.cfg.AdminAPIKey}, nil
	}
	token, err := s.login(ctx, s.cfg.AdminEmail, s.cfg.AdminPassword)
	return credentials{bearer: token}, err
}

// newUser makes a user with the admin's credentials, logs them in and makes
// them an API key: a user the harness knows all the credentials of.
func (s *scenario) newUser(ctx context.Context) (*user, error) {
	return s.newUserWith(ctx, nil)
}

// newUserWith is newUser, with more fields of POST /admin/users (such as
// quotaSizeInBytes).
func (s *scenario) newUserWith(ctx context.Context, fields map[string]any) (*user, error) {
	if !s.cfg.canMakeUsers() {
		return nil, skip("needs to make a user: give --admin-api-key (or --admin-email and --admin-password)")
	}
	admin, err := s.admin(ctx)
	if err != nil {
		return nil, err
	}
	suffix := randomHex(6)
	u := &user{email: "mediaspec-" + suffix + "@example.com", password: "mediaspec-" + randomHex(12)}
	var made struct {
		ID string `json:"id"`
	}
	in := map[string]any{"email": u.email, "password": u.password, "name": "Conformance " + suffix, "shouldChangePassword": false}
	maps.Copy(in, fields)
	if err := s.call(ctx, "making a user", http.MethodPost, "/admin/users", admin, in, &made, http.StatusCreated); err != nil {
		return nil, err
	}
	u.id = made.ID
	if u.session, err = s.login(ctx, u.email, u.password); err != nil {
		return nil, err
	}
	var key struct {
		Secret string `json:"secret"`
	}
	if err := s.call(ctx, "making the new user an API key", http.MethodPost, "/api-keys", credentials{bearer: u.session}, map[string]any{"name": "mediaspec conformance"}, &key, http.StatusCreated); err != nil {
		return nil, err
	}
	if key.Secret == "" {
		return nil, fmt.Errorf("making the new user an API key: the answer has no secret")
	}
	u.apiKey = key.Secret
	return u, nil
}

// session is an access token of the scenario's user: from their login when
// it was given, else of a user the harness makes.
func (s *scenario) session(ctx context.Context) (string, error) {
	if s.cfg.Password == "" {
		if !s.cfg.canMakeUsers() {
			return "", skip("needs a login: give --email and --password of the API key's user, or --admin-api-key to let the harness make one")
		}
		u, err := s.newUser(ctx)
		if err != nil {
			return "", err
		}
		return u.session, nil
	}
	email := s.cfg.Email
	if email == "" {
		var me struct {
			Email string `json:"email"`
		}
		if err := s.call(ctx, "finding the email of the API key's user", http.MethodGet, "/users/me", credentials{apiKey: s.me.apiKey}, nil, &me, http.StatusOK); err != nil {
			return "", err
		}
		email = me.Email
	}
	return s.login(ctx, email, s.cfg.Password)
}

// makeLink makes a shared link acting as u: for an ALBUM link, first an
// album holding req's assetIds (named albumName). The other fields of req
// go to POST /shared-links as they are; allowUpload is false unless asked.
func (s *scenario) makeLink(ctx context.Context, u *user, req map[string]any) (*link, error) {
	creds := credentials{apiKey: u.apiKey}
	in := map[string]any{"allowUpload": false}
	for k, v := range req {
		if k != "albumName" {
			in[k] = v
		}
	}
	if req["type"] == "ALBUM" {
		var album struct {
			ID string `json:"id"`
		}
		albumIn := map[string]any{"albumName": req["albumName"]}
		if ids, ok := req["assetIds"].([]string); ok && len(ids) > 0 {
			albumIn["assetIds"] = ids
		}
		if err := s.call(ctx, "making the link's album", http.MethodPost, "/albums", creds, albumIn, &album, http.StatusCreated); err != nil {
			return nil, err
		}
		in["albumId"] = album.ID
		delete(in, "assetIds")
		s.wf.album = album.ID
	}
	var l link
	if err := s.call(ctx, "making the link", http.MethodPost, "/shared-links", creds, in, &l, http.StatusCreated); err != nil {
		return nil, err
	}
	if l.Key == "" || l.UserID == "" || l.ID == "" {
		return nil, fmt.Errorf("making the link: the answer has no id, key or userId")
	}
	if u.id != "" && l.UserID != u.id {
		return nil, fmt.Errorf("making the link: the link made for user %s has userId %s", u.id, l.UserID)
	}
	u.id = l.UserID
	s.link = &l
	return &l, nil
}

// assetOf reads one of the scenario's user's assets, as GET /asset/{id} shows it.
func (s *scenario) assetOf(ctx context.Context, id string, out any) error {
	return s.call(ctx, "reading asset "+id, http.MethodGet, "/asset/"+id, credentials{apiKey: s.me.apiKey}, nil, out, http.StatusOK)
}

// DefaultSettle is how long the harness waits, by default, for what a
// server derives from a file after the upload.
const DefaultSettle = 30 * time.Second

// settlePoll is how often a scenario that waits asks again.
const settlePoll = 200 * time.Millisecond

// settle runs check until it passes, the scenario is skipped, the server
// refuses to connect (it is not there to derive anything), or the
// configured settle time runs out: then check's last failure is the
// scenario's, saying how long the harness waited. A server reads a file's
// metadata and makes its thumbnails after the upload; the harness never
// sleeps blindly for them.
func (s *scenario) settle(ctx context.Context, check func() error) error {
	limit := cmp.Or(s.cfg.Settle, DefaultSettle)
	start := time.Now()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		err := check()
		if err == nil && s.cfg.Settled != nil {
			s.cfg.Settled(time.Since(start))
		}
		if err == nil || errors.Is(err, godog.ErrSkip) || errors.Is(err, syscall.ECONNREFUSED) {
			return err
		}
		if waited := time.Since(start); waited >= limit {
			return fmt.Errorf("%w (still so after %s: the --settle time a server has to derive it)", err, waited.Round(time.Millisecond))
		}
		t.Reset(settlePoll)
	}
}

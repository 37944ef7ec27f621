package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
)

// OAuth, turned off: what the server refuses, and how it sends the mobile
// app back to itself.

// oauthSteps are the steps of logging in with OAuth.
func (s *scenario) oauthSteps() []step {
	return []step{
		{`^the server has OAuth turned off$`, s.oauthOff},
		{`^I ask where to log in with OAuth, (?:with the redirect URI "([^"]*)"|saying no redirect URI)$`, s.oauthAuthorize},
		{`^I finish an OAuth login(?: with the URL "([^"]*)"|, saying no URL)$`, s.oauthCallback},
		{`^I tie my account to OAuth(?: with the URL "([^"]*)"|, saying no URL)$`, s.oauthLink},
		{`^they untie their account from OAuth$`, s.oauthUnlink},
		{`^the answer is them as they read themselves, with no OAuth id$`, s.unlinkedAsTheyAre},
		{`^the mobile app comes back from OAuth with (?:"([^"]*)"|nothing)$`, s.mobileComesBack},
		{`^it is redirected to "([^"]*)"$`, s.redirectedTo},
	}
}

// oauthOff skips the scenario on a server whose admin turned OAuth on.
func (s *scenario) oauthOff(ctx context.Context) error {
	var features struct {
		OAuth bool `json:"oauth"`
	}
	if err := s.call(ctx, "reading the server's features", http.MethodGet, "/server-info/features", credentials{}, nil, &features, http.StatusOK); err != nil {
		return err
	}
	if features.OAuth {
		return skip("the target has OAuth turned on")
	}
	return nil
}

// oauthBody is a body of one field, or an empty one when value is "".
func oauthBody(field, value string) map[string]any {
	if value == "" {
		return map[string]any{}
	}
	return map[string]any{field: value}
}

// oauthAuthorize asks where to log in, without credentials.
func (s *scenario) oauthAuthorize(ctx context.Context, redirectURI string) error {
	return s.sendJSON(ctx, http.MethodPost, "/oauth/authorize", credentials{}, oauthBody("redirectUri", redirectURI))
}

// oauthCallback finishes a login, without credentials.
func (s *scenario) oauthCallback(ctx context.Context, u string) error {
	return s.sendJSON(ctx, http.MethodPost, "/oauth/callback", credentials{}, oauthBody("url", u))
}

// oauthLink ties the scenario's user to a provider's account.
func (s *scenario) oauthLink(ctx context.Context, u string) error {
	return s.sendJSON(ctx, http.MethodPost, "/oauth/link", s.creds, oauthBody("url", u))
}

// oauthUnlink unties the new user's account.
func (s *scenario) oauthUnlink(ctx context.Context) error {
	u, err := s.newcomer()
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodPost, "/oauth/unlink", credentials{apiKey: u.apiKey}, nil)
}

// unlinkedAsTheyAre judges the answer of untying: the new user as they
// read themselves, oauthId empty.
func (s *scenario) unlinkedAsTheyAre(ctx context.Context) error {
	if err := s.wantStatus(http.StatusCreated); err != nil {
		return err
	}
	var got map[string]any
	if err := json.Unmarshal(s.last.body, &got); err != nil {
		return fmt.Errorf("the answer is not a user: %w", err)
	}
	u, err := s.newcomer()
	if err != nil {
		return err
	}
	var me map[string]any
	if err := s.call(ctx, "reading themselves", http.MethodGet, "/users/me", credentials{apiKey: u.apiKey}, nil, &me, http.StatusOK); err != nil {
		return err
	}
	switch {
	case got["oauthId"] != "":
		return fmt.Errorf("oauthId is %v, want \"\"", got["oauthId"])
	case !reflect.DeepEqual(got, me):
		return fmt.Errorf("the answer %v is not the user as they read themselves, %v", got, me)
	}
	return nil
}

// mobileComesBack asks the redirect to the mobile app, with a query.
func (s *scenario) mobileComesBack(ctx context.Context, query string) error {
	path := "/oauth/mobile-redirect"
	if query != "" {
		path += "?" + query
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: path})
	return s.keep(resp, nil, err)
}

// redirectedTo judges a 307 to the location.
func (s *scenario) redirectedTo(location string) error {
	if err := s.wantStatus(http.StatusTemporaryRedirect); err != nil {
		return err
	}
	if got := s.last.header.Get("Location"); got != location {
		return fmt.Errorf("redirected to %q, want %q", got, location)
	}
	return nil
}

package api

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/spec"
)

func TestOAuthOff(t *testing.T) {
	srv := newTestServer(t)
	for _, c := range []struct {
		path, body string
		headers    []string
		status     int
		message    any
	}{
		{"/api/oauth/authorize", `{}`, nil, 400, []any{"redirectUri must be a string", "redirectUri should not be empty"}},
		{"/api/oauth/authorize", `{"redirectUri":""}`, nil, 400, []any{"redirectUri should not be empty"}},
		{"/api/oauth/authorize", `{"redirectUri":5}`, nil, 400, []any{"redirectUri must be a string"}},
		{"/api/oauth/authorize", `{"redirectUri":"app.immich:/"}`, nil, 400, "OAuth is not enabled"},
		{"/api/oauth/callback", `{}`, nil, 400, []any{"url must be a string", "url should not be empty"}},
		{"/api/oauth/callback", `{"url":"http://x/cb?code=1&state=2"}`, nil, 400, "OAuth2 is not enabled"},
		{"/api/oauth/link", `{}`, nil, 401, "Authentication required"},
		{"/api/oauth/link", `{}`, []string{"x-api-key", keyBob}, 400, []any{"url must be a string", "url should not be empty"}},
		{"/api/oauth/link", `{"url":"http://x/cb?code=1"}`, []string{"x-api-key", keyBob}, 400, "OAuth2 is not enabled"},
		{"/api/oauth/unlink", ``, nil, 401, "Authentication required"},
		{"/api/oauth/unlink", ``, []string{"x-api-key", "nope"}, 401, "Invalid API key"},
	} {
		requireError(t, postJSON(t, srv, c.path, c.body, c.headers...), c.status, c.message)
	}

	rep := postJSON(t, srv, "/api/oauth/unlink", ``, "x-api-key", keyBob)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var me model.UserAdmin
	rep.json(t, &me)
	assert.Equal(t, bobID, me.ID)
	assert.Empty(t, me.OauthID)
	var again model.UserAdmin
	getJSON(t, srv, "/api/users/me", &again, "x-api-key", keyBob)
	assert.Equal(t, again, me, "as the user reads themselves: nothing to change")
}

func TestOAuthOn(t *testing.T) {
	cfg := model.DefaultSystemConfig()
	cfg.OAuth.Enabled = true
	srv := newTestServer(t, func(c *Config) {
		d := c.Dataset
		c.Dataset = func() model.Dataset { ds := d(); ds.SystemConfig = &cfg; return ds }
	})
	discovery := "Error in OAuth discovery: the mock reaches no OAuth provider (it answers as the reference does when discovery fails)"
	for _, rep := range []reply{
		postJSON(t, srv, "/api/oauth/authorize", `{"redirectUri":"app.immich:/"}`),
		postJSON(t, srv, "/api/oauth/callback", `{"url":"app.immich:/?code=1"}`),
		postJSON(t, srv, "/api/oauth/link", `{"url":"app.immich:/?code=1"}`, "x-api-key", keyBob),
	} {
		assert.Equal(t, http.StatusInternalServerError, rep.status)
		assert.JSONEq(t, `{"message":"`+discovery+`","statusCode":500}`, string(rep.body), "no error name, as the reference's")
	}
	requireError(t, postJSON(t, srv, "/api/oauth/authorize", `{}`), 400, []any{"redirectUri must be a string", "redirectUri should not be empty"})
}

func TestOAuthMobileRedirect(t *testing.T) {
	srv := newTestServer(t)
	v := loadValidators(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct{ query, accept, location, contentType, body string }{
		{"?code=1&state=2", "", "app.immich:/?code=1&state=2", "text/plain; charset=utf-8", "Temporary Redirect. Redirecting to app.immich:/?code=1&state=2"},
		{"", "*/*", "app.immich:/?", "text/plain; charset=utf-8", "Temporary Redirect. Redirecting to app.immich:/?"},
		{"?a=b%20c&x", "text/html", "app.immich:/?a=b%20c&x", "text/html; charset=utf-8", `<p>Temporary Redirect. Redirecting to <a href="app.immich:/?a=b%20c&amp;x">app.immich:/?a=b%20c&amp;x</a></p>`},
		{"?a=%3Cb%3E", "application/json", "app.immich:/?a=%3Cb%3E", "", ""},
		{"?a=%zz&b=|^`{}$[]&c='()*,;:@!~", "", "app.immich:/?a=%25zz&b=%7C%5E%60%7B%7D$[]&c='()*,;:@!~", "text/plain; charset=utf-8", ""},
	} {
		req := newRequest(t, http.MethodGet, srv.URL+"/api/oauth/mobile-redirect"+c.query, nil, "x-api-key", "ignored")
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		res, err := client.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		_ = res.Body.Close()
		requireValid(t, "openapi/openapi.yaml", v.ours.ValidateResponse(t.Context(), req, spec.Response{Status: res.StatusCode, Header: res.Header, Body: body}), req, reply{status: res.StatusCode, header: res.Header, body: body})
		assert.Equal(t, http.StatusTemporaryRedirect, res.StatusCode, c.query)
		assert.Equal(t, c.location, res.Header.Get("Location"), c.query)
		assert.Equal(t, c.contentType, res.Header.Get("Content-Type"), c.query)
		if c.body != "" || c.contentType == "" {
			assert.Equal(t, c.body, string(body), c.query)
		}
	}
	rep := postJSON(t, srv, "/api/oauth/mobile-redirect", `{}`)
	assert.Equal(t, http.StatusNotFound, rep.status, "GET only")
}

package api

import (
	"html"
	"net/http"
	"strconv"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// OAuth (the upstream's oauth controller). The mock has no OAuth
// provider and reaches none: with OAuth off (the reference's default)
// every operation answers as the reference does; turned on in the system
// config, those that would ask the provider answer as the reference does
// when its discovery fails (docs/differences.md).

// mobileRedirect is where the reference sends the mobile app back to
// (MOBILE_REDIRECT).
const mobileRedirect = "app.immich:/"

// OAuthConfigDto: POST /api/oauth/authorize.
var oauthConfigBody = dto.NewClass("OAuthConfigDto",
	dto.Field("redirectUri", isNotEmpty, isString).Limit(store.MaxDescriptionChars),
)

// OAuthCallbackDto: POST /api/oauth/callback and /api/oauth/link.
var oauthCallbackBody = dto.NewClass("OAuthCallbackDto",
	dto.Field("url", isNotEmpty, isString).Limit(store.MaxDescriptionChars),
)

// errOAuthDiscovery is the reference's answer when OAuth is on and its
// provider cannot be reached: the mock never reaches one.
// Its body, as the reference's, has no error name.
var errOAuthDiscovery = &httpx.Error{Status: http.StatusInternalServerError, Bare: true,
	Message: "Error in OAuth discovery: the mock reaches no OAuth provider (it answers as the reference does when discovery fails)"}

// oauthClient is the reference's getOAuthClient: OAuth off → 400, on →
// the discovery that fails.
func (s *server) oauthClient() error {
	if !s.config().OAuth.Enabled {
		return store.Fail(store.Invalid, "OAuth2 is not enabled")
	}
	return errOAuthDiscovery
}

// oauthAuthorize is POST /api/oauth/authorize: where to send the user to
// log in with the provider.
func (s *server) oauthAuthorize(_ *call, _ dto.Body) error {
	if !s.config().OAuth.Enabled {
		return store.Fail(store.Invalid, "OAuth is not enabled")
	}
	return errOAuthDiscovery
}

// oauthCallback is POST /api/oauth/callback: the login that the
// provider's answer (url) makes.
func (s *server) oauthCallback(_ *call, _ dto.Body) error { return s.oauthClient() }

// oauthLink is POST /api/oauth/link: the caller's account tied to the
// provider's.
func (s *server) oauthLink(_ *call, _ dto.Body) error { return s.oauthClient() }

// oauthUnlink is POST /api/oauth/unlink: the caller's account no longer
// tied to a provider's. The mock ties none, so the account is answered as
// it is (the reference saves no change where oauthId is already empty).
func (s *server) oauthUnlink(c *call) error {
	var out model.UserAdmin
	s.store.Read(func(v *store.View) { out = userAdminAnswer(v, v.User(c.p().User.ID)) })
	return c.json(http.StatusCreated, out)
}

// oauthMobileRedirect is GET /api/oauth/mobile-redirect: a 307 to the
// mobile app with the request's query, as Express redirects (its body as
// Accept asks).
func (s *server) oauthMobileRedirect(c *call) error {
	query := ""
	if _, q, ok := strings.Cut(c.r.RequestURI, "?"); ok {
		query = q
	}
	to := encodeURL(mobileRedirect + "?" + query)
	h := c.w.Header()
	h.Set("Location", to)
	h.Set("Vary", "Accept")
	var body string
	switch accept := c.r.Header.Get("Accept"); {
	case accept == "" || strings.Contains(accept, "text/plain") || strings.Contains(accept, "text/*") || strings.Contains(accept, "*/*"):
		h.Set("Content-Type", "text/plain; charset=utf-8")
		body = "Temporary Redirect. Redirecting to " + to
	case strings.Contains(accept, "text/html"):
		h.Set("Content-Type", "text/html; charset=utf-8")
		u := html.EscapeString(to)
		body = `<p>Temporary Redirect. Redirecting to <a href="` + u + `">` + u + `</a></p>`
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	c.w.WriteHeader(http.StatusTemporaryRedirect)
	_, err := c.w.Write([]byte(body))
	return ignoreWriteError(err)
}

// ignoreWriteError drops the error of writing an answer: the client left.
func ignoreWriteError(error) error { return nil }

// encodeURL is the reference's Location as Express encodes it
// (encodeurl): every byte that may not stand in a URL percent-encoded, the
// escapes already there kept, a stray '%' encoded.
func encodeURL(u string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		ch := u[i]
		if urlByte(ch) || ch == '%' && escapeAt(u, i) {
			b.WriteByte(ch)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[ch>>4])
		b.WriteByte(hex[ch&15])
	}
	return b.String()
}

// escapeAt says whether the '%' at i begins an escape encodeurl keeps: two
// hex digits, or one at the very end (as the reference keeps it).
func escapeAt(u string, i int) bool {
	switch {
	case i+1 >= len(u) || !isHex(u[i+1]):
		return false
	case i+2 >= len(u):
		return true
	}
	return isHex(u[i+2])
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// urlByte says whether a byte stands as it is in the reference's
// Location: [\x21\x23-\x3B\x3D\x3F-\x5B\x5D\x5F\x61-\x7A\x7E] ('%' aside).
func urlByte(c byte) bool {
	return c != '%' && (c == 0x21 || c >= 0x23 && c <= 0x3B || c == 0x3D || c >= 0x3F && c <= 0x5B ||
		c == 0x5D || c == 0x5F || c >= 0x61 && c <= 0x7A || c == 0x7E)
}

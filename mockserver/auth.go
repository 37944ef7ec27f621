package mockserver

import (
	"net/http"
	"net/url"
	"strings"
)

// credentialsOf reads the credentials a request presents, where the
// reference looks for them: a shared link's key (query key, header
// x-immich-share-key), a session's access token (Authorization: Bearer,
// cookie immich_access_token, header x-immich-user-token) and an API key
// (header x-api-key, query apiKey). Nothing else of the request is read.
func credentialsOf(r *http.Request) credentials {
	var c credentials
	q := r.URL.Query()
	c.shareKey = firstOf(query(q, "key"), header(r, "x-immich-share-key"))
	c.session = firstOf(bearer(r), cookie(r, "immich_access_token"), header(r, "x-immich-user-token"))
	c.apiKey = firstOf(header(r, "x-api-key"), query(q, "apiKey"))
	if v := query(q, "token"); v != nil {
		c.linkTokens = append(c.linkTokens, strings.Split(*v, ",")...)
	}
	if v := cookie(r, "immich_shared_link_token"); v != nil {
		if u, err := url.QueryUnescape(*v); err == nil { // the cookie carries it URL-encoded
			*v = u
		}
		c.linkTokens = append(c.linkTokens, strings.Split(*v, ",")...)
	}
	return c
}

func firstOf(vs ...*string) *string {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

func query(q map[string][]string, name string) *string {
	if vs, ok := q[name]; ok && len(vs) > 0 {
		return &vs[0]
	}
	return nil
}

func header(r *http.Request, name string) *string {
	if vs, ok := r.Header[http.CanonicalHeaderKey(name)]; ok && len(vs) > 0 {
		return new(strings.TrimSpace(vs[0]))
	}
	return nil
}

func cookie(r *http.Request, name string) *string {
	if c, err := r.Cookie(name); err == nil {
		return &c.Value
	}
	return nil
}

// bearer is the token of an "Authorization: Bearer <token>" header; any
// other scheme (Basic) is no credential.
func bearer(r *http.Request) *string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return nil
	}
	return new(strings.TrimSpace(token))
}

// authenticate is the principal of r's credentials. The key of a link with
// a password needs the token the password gives (query token, or the cookie
// immich_shared_link_token): the reference checks the password only when
// the link is opened, and so lets a bare key read what the password guards.
func (s *server) authenticate(r *http.Request) (principal, error) {
	p, err := s.store.authenticate(credentialsOf(r))
	if err == nil && p.locked {
		return principal{}, fail(errUnauthenticated, "Invalid password")
	}
	return p, err
}

// authenticateKeyOnly is authenticate without the password's check: for
// the operations that check it themselves (opening a link) or never (an
// upload, as the contract says).
func (s *server) authenticateKeyOnly(r *http.Request) (principal, error) {
	return s.store.authenticate(credentialsOf(r))
}

// authenticateUser is authenticate for what only a user may do: a shared
// link's key there gets 403.
func (s *server) authenticateUser(r *http.Request) (principal, error) {
	p, err := s.authenticateKeyOnly(r)
	if err != nil {
		return principal{}, err
	}
	if _, err := p.asUser(); err != nil {
		return principal{}, err
	}
	return p, nil
}

package mockserver

import (
	"net/http"
	"strings"
)

// credentialsOf reads the credentials a request presents: the key query
// parameter (a shared link), a bearer token, the x-api-key header. Nothing
// else of the request is read.
func credentialsOf(r *http.Request) credentials {
	var c credentials
	if q := r.URL.Query(); q.Has("key") {
		c.shareKey = new(q.Get("key"))
	}
	if token, ok := bearerToken(r.Header.Get("Authorization")); ok {
		c.bearer = &token
	}
	if keys, ok := r.Header[http.CanonicalHeaderKey("x-api-key")]; ok {
		c.apiKey = new(strings.TrimSpace(keys[0]))
	}
	return c
}

// authenticate is the principal of r's credentials.
func (s *server) authenticate(r *http.Request) (principal, error) {
	return s.store.authenticate(credentialsOf(r))
}

// authenticateUser is authenticate for what only a user may do: a shared
// link's key there gets 403.
func (s *server) authenticateUser(r *http.Request) (principal, error) {
	p, err := s.authenticate(r)
	if err != nil {
		return principal{}, err
	}
	if _, err := p.asUser(); err != nil {
		return principal{}, err
	}
	return p, nil
}

// bearerToken returns the token of an "Authorization: Bearer <token>" value.
func bearerToken(v string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

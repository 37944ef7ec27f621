package mockserver

import (
	"net/http"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// principal is who a request acts for: a user, or a user through one of
// their shared links.
type principal struct {
	user *model.UserRecord
	link *model.SharedLinkRecord
}

// authenticate finds the request's principal. The first credential present
// wins, in the reference's order: the key query parameter (a shared link),
// a bearer token, then the x-api-key header. Nothing else of the request is
// read.
func (s *store) authenticate(r *http.Request) (principal, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.state
	if q := r.URL.Query(); q.Has("key") {
		l := st.linkByKey[q.Get("key")]
		if l == nil || (l.ExpiresAt != nil && !l.ExpiresAt.After(s.now())) {
			return principal{}, errorf(http.StatusUnauthorized, "Invalid share key")
		}
		return principal{user: st.userByID[l.UserID], link: l}, nil
	}
	if token, ok := bearerToken(r.Header.Get("Authorization")); ok {
		u := st.userByKey[token]
		if u == nil {
			return principal{}, errorf(http.StatusUnauthorized, "Invalid user token")
		}
		return principal{user: u}, nil
	}
	if keys, ok := r.Header[http.CanonicalHeaderKey("x-api-key")]; ok {
		u := st.userByKey[strings.TrimSpace(keys[0])]
		if u == nil {
			return principal{}, errorf(http.StatusUnauthorized, "Invalid API key")
		}
		return principal{user: u}, nil
	}
	return principal{}, errorf(http.StatusUnauthorized, "Authentication required")
}

// authenticateUser is authenticate for what only a user may do: list their
// links, and use the control API. A shared link's key there gets 403.
func (s *store) authenticateUser(r *http.Request) (*model.UserRecord, error) {
	p, err := s.authenticate(r)
	if err != nil {
		return nil, err
	}
	if p.link != nil {
		return nil, errorf(http.StatusForbidden, "Forbidden resource")
	}
	return p.user, nil
}

// bearerToken returns the token of an "Authorization: Bearer <token>" value.
func bearerToken(v string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

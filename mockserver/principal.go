package mockserver

import (
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// credentials are what a request presents to say who it acts for, read
// from it by the HTTP layer (credentialsOf). A nil field was not presented.
type credentials struct {
	shareKey *string // a shared link's key
	session  *string // a session's access token
	apiKey   *string // an API key
	// linkTokens are the tokens that open password-protected links, as
	// the holder got them for the right password.
	linkTokens []string
}

// principal is who a request acts for: a user, or a user through one of
// their shared links.
type principal struct {
	user *model.UserRecord
	link *model.SharedLinkRecord
	// locked: the link has a password and no token of the request opens it.
	locked bool
}

// asUser is the principal for what only a user may do (list their links,
// use the control API): a shared link's holder is forbidden there.
func (p principal) asUser() (*model.UserRecord, error) {
	if p.link != nil {
		return nil, fail(errForbidden, "Forbidden resource")
	}
	return p.user, nil
}

// authenticate finds the principal that c names. The first credential
// present wins, in the reference's order: a shared link's key, a session's
// access token, then an API key. An API key is no access token.
func (db *store) authenticate(c credentials) (principal, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	st := db.state
	switch {
	case c.shareKey != nil:
		l := st.linkByKey[*c.shareKey]
		if l == nil || (l.ExpiresAt != nil && !l.ExpiresAt.After(db.now())) {
			return principal{}, fail(errUnauthenticated, "Invalid share key")
		}
		locked := protected(l) && !slices.Contains(c.linkTokens, sharedLinkToken(l))
		return principal{user: st.userByID[l.UserID], link: l, locked: locked}, nil
	case c.session != nil:
		se := st.sessionByHash[tokenHash(*c.session)]
		if se == nil {
			return principal{}, fail(errUnauthenticated, "Invalid user token")
		}
		return principal{user: st.userByID[se.UserID]}, nil
	case c.apiKey != nil:
		u := st.userByKey[*c.apiKey]
		if u == nil {
			return principal{}, fail(errUnauthenticated, "Invalid API key")
		}
		return principal{user: u}, nil
	}
	return principal{}, fail(errUnauthenticated, "Authentication required")
}

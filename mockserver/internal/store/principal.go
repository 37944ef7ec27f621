package store

import (
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Credentials are what a request presents to say who it acts for, read
// from it by the HTTP layer. A nil field was not presented.
type Credentials struct {
	ShareKey *string // a shared link's key
	Session  *string // a session's access token
	APIKey   *string // an API key
	// LinkTokens are the tokens that open password-protected links, as
	// the holder got them for the right password.
	LinkTokens []string
}

// Principal is who a request acts for: a user, or a user through one of
// their shared links.
type Principal struct {
	User *model.UserRecord
	Link *model.SharedLinkRecord
	// Session is the login the request came with, if it came with one.
	Session *model.SessionRecord
	// Locked: the link has a password and no token of the request opens it.
	Locked bool
}

// Authenticate finds the principal that c names.
func (db *Store) Authenticate(c Credentials) (Principal, error) {
	var p Principal
	var err error
	db.Read(func(v *View) { p, err = v.Authenticate(c) })
	return p, err
}

// Authenticate finds the principal that c names. The first credential
// present wins, in the reference's order: a shared link's key, a session's
// access token, then an API key. An API key is no access token.
func (v *View) Authenticate(c Credentials) (Principal, error) {
	st := v.st
	switch {
	case c.ShareKey != nil:
		// A deleted user's links open no more.
		l := st.linkByKey[*c.ShareKey]
		if l == nil || (l.ExpiresAt != nil && !l.ExpiresAt.After(v.Now())) || v.ActiveUser(l.UserID) == nil {
			return Principal{}, Fail(Unauthenticated, "Invalid share key")
		}
		locked := Protected(l) && !slices.Contains(c.LinkTokens, LinkToken(l))
		return Principal{User: st.userByID[l.UserID], Link: l, Locked: locked}, nil
	case c.Session != nil:
		se := st.sessionByHash[tokenHash(*c.Session)]
		if se == nil || v.ActiveUser(se.UserID) == nil {
			return Principal{}, Fail(Unauthenticated, "Invalid user token")
		}
		return Principal{User: st.userByID[se.UserID], Session: se}, nil
	case c.APIKey != nil:
		u := st.userByKey[*c.APIKey]
		if u == nil || Deleted(u) {
			return Principal{}, Fail(Unauthenticated, "Invalid API key")
		}
		return Principal{User: u}, nil
	}
	return Principal{}, Fail(Unauthenticated, "Authentication required")
}

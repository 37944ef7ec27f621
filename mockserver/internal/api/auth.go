package api

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// presented is one credential a request carries: its kind, as the request
// log names it, and its value.
type presented struct {
	kind  string
	value *string
}

// The canonical names of the headers that carry credentials, as
// http.Header keys them: looked up as they are, with no canonicalizing on
// every request.
const (
	headerShareKey     = "X-Immich-Share-Key"
	headerUserToken    = "X-Immich-User-Token"
	headerSessionToken = "X-Immich-Session-Token"
	headerAPIKey       = "X-Api-Key"
)

// The places of the credentials a request may carry, in presentedSet.
const (
	shareKeyPlaces = 2
	sessionPlaces  = 5
	apiKeyPlaces   = 2
)

// presentedSet is every place a credential may be presented, in the order
// the reference tries them (presentedCredentials); a nil value was not
// presented.
type presentedSet [shareKeyPlaces + sessionPlaces + apiKeyPlaces]presented

func (ps *presentedSet) shareKeys() []presented { return ps[:shareKeyPlaces] }
func (ps *presentedSet) sessions() []presented {
	return ps[shareKeyPlaces : shareKeyPlaces+sessionPlaces]
}
func (ps *presentedSet) apiKeys() []presented { return ps[shareKeyPlaces+sessionPlaces:] }

// presentedCredentials are the credentials r may carry, where the reference
// looks for them, in the order it tries them: a shared link's key (header
// x-immich-share-key, query key), a session's access token (headers
// x-immich-user-token and x-immich-session-token, query sessionKey,
// Authorization: Bearer, cookie immich_access_token), an API key (header
// x-api-key, query apiKey).
func presentedCredentials(r *http.Request, q url.Values) presentedSet {
	return presentedSet{
		{"share-key", header(r, headerShareKey)}, {"share-key", query(q, "key")},
		{"user-token", header(r, headerUserToken)}, {"user-token", header(r, headerSessionToken)},
		{"user-token", query(q, "sessionKey")}, {"bearer", bearer(r)}, {"cookie", cookie(r, "immich_access_token")},
		{"api-key", header(r, headerAPIKey)}, {"api-key", query(q, "apiKey")},
	}
}

// credentialsOf reads the credentials a request presents
// (presentedCredentials) and the tokens that open password-protected
// links. Nothing else of the request is read.
func credentialsOf(r *http.Request) store.Credentials {
	var c store.Credentials
	q := queryOf(r)
	ps := presentedCredentials(r, q)
	c.ShareKey = first(ps.shareKeys()).value
	c.Session = first(ps.sessions()).value
	c.APIKey = first(ps.apiKeys()).value
	if v := query(q, "token"); v != nil {
		c.LinkTokens = append(c.LinkTokens, strings.Split(*v, ",")...)
	}
	if v := cookie(r, "immich_shared_link_token"); v != nil {
		if u, err := url.QueryUnescape(*v); err == nil { // the cookie carries it URL-encoded
			*v = u
		}
		c.LinkTokens = append(c.LinkTokens, strings.Split(*v, ",")...)
	}
	return c
}

// credentialOf is the credential that decides who r acts for: the first
// one presented. Its value is nil when r presents none.
func credentialOf(r *http.Request) presented {
	ps := presentedCredentials(r, queryOf(r))
	return first(ps[:])
}

// queryOf is r's query, parsed; nil (no allocation) when it has none.
func queryOf(r *http.Request) url.Values {
	if r.URL.RawQuery == "" {
		return nil
	}
	return r.URL.Query()
}

// first is the first credential of list that was presented, or one with a
// nil value.
func first(list []presented) presented {
	for _, p := range list {
		if p.value != nil {
			return p
		}
	}
	return presented{}
}

func query(q map[string][]string, name string) *string {
	if vs, ok := q[name]; ok && len(vs) > 0 {
		return &vs[0]
	}
	return nil
}

// header is the value of the header of canonical name, trimmed; nil when
// r has none.
func header(r *http.Request, name string) *string {
	if vs, ok := r.Header[name]; ok && len(vs) > 0 {
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
	vs := r.Header["Authorization"]
	if len(vs) == 0 {
		return nil
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(vs[0]), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return nil
	}
	return new(strings.TrimSpace(token))
}

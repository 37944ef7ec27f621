package mockserver

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// presented is one credential a request carries: its kind, as the request
// log names it, and its value.
type presented struct {
	kind  string
	value *string
}

// presentedCredentials are the credentials r may carry, where the reference
// looks for them, in the order it tries them: a shared link's key (header
// x-immich-share-key, query key), a session's access token (headers
// x-immich-user-token and x-immich-session-token, query sessionKey,
// Authorization: Bearer, cookie immich_access_token), an API key (header
// x-api-key, query apiKey). A nil value was not presented.
func presentedCredentials(r *http.Request, q url.Values) (shareKeys, sessions, apiKeys []presented) {
	shareKeys = []presented{{"share-key", header(r, "x-immich-share-key")}, {"share-key", query(q, "key")}}
	sessions = []presented{
		{"user-token", header(r, "x-immich-user-token")}, {"user-token", header(r, "x-immich-session-token")},
		{"user-token", query(q, "sessionKey")}, {"bearer", bearer(r)}, {"cookie", cookie(r, "immich_access_token")},
	}
	apiKeys = []presented{{"api-key", header(r, "x-api-key")}, {"api-key", query(q, "apiKey")}}
	return shareKeys, sessions, apiKeys
}

// credentialsOf reads the credentials a request presents
// (presentedCredentials) and the tokens that open password-protected
// links. Nothing else of the request is read.
func credentialsOf(r *http.Request) store.Credentials {
	var c store.Credentials
	q := r.URL.Query()
	shareKeys, sessions, apiKeys := presentedCredentials(r, q)
	c.ShareKey = first(shareKeys).value
	c.Session = first(sessions).value
	c.APIKey = first(apiKeys).value
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
	shareKeys, sessions, apiKeys := presentedCredentials(r, r.URL.Query())
	return first(slices.Concat(shareKeys, sessions, apiKeys))
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

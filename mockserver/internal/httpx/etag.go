package httpx

import (
	"crypto/sha1"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

// Every JSON answer carries an ETag, as the reference's web framework
// (Express) tags them: `"<length in hex>-<27 characters of the base64
// SHA-1 of the body>"`; a GET or HEAD whose If-None-Match names it gets
// 304 and no body, for an answer of status 2xx.

// ETagOf is the reference's ETag of a body.
func ETagOf(body []byte) string {
	sum := sha1.Sum(body)
	return ETagOfSum(len(body), sum[:])
}

// ETagOfSum is the ETag of a body of size bytes whose SHA-1 is sum.
func ETagOfSum(size int, sum []byte) string {
	return `"` + strconv.FormatInt(int64(size), 16) + "-" + base64.StdEncoding.EncodeToString(sum)[:27] + `"`
}

// conditionalWriter carries what a request asks of its answer's tag.
type conditionalWriter struct {
	http.ResponseWriter
	ifNoneMatch string // "" when not asked
}

func (c *conditionalWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// Conditional lets the answers of GET and HEAD requests that carry
// If-None-Match be answered 304 where their tag matches.
func Conditional(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inm := r.Header.Get("If-None-Match")
		if inm == "" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(&conditionalWriter{ResponseWriter: w, ifNoneMatch: inm}, r)
	})
}

// notModified says whether an answer of status tagged etag is answered
// 304 for w's request: as Express's freshness check, any of the tags
// asked (weak ones too), or *, matches.
func notModified(w http.ResponseWriter, status int, etag string) bool {
	cw := writerOf[*conditionalWriter](w)
	if cw == nil || status < 200 || status >= 300 {
		return false
	}
	if strings.TrimSpace(cw.ifNoneMatch) == "*" {
		return true
	}
	for _, tag := range strings.Split(cw.ifNoneMatch, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == etag {
			return true
		}
	}
	return false
}

// writerOf finds the writer of type T in the chain of writers that wrap
// one another, or nil.
func writerOf[T http.ResponseWriter](w http.ResponseWriter) T {
	var zero T
	for w != nil {
		if t, ok := w.(T); ok {
			return t
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return zero
		}
		w = u.Unwrap()
	}
	return zero
}

package api

import (
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
)

// maxMockDelay bounds x-mock-delay, so a typo cannot hold a connection for hours.
const maxMockDelay = time.Minute

// middleware wraps the routes with what every request gets, outermost first:
// the request log, the end of bodies left unread, CORS (so that every answer carries it, the header limit's
// 431 too), the header limit, the x-mock-* headers and the configured latency.
func (s *server) middleware(h http.Handler) http.Handler {
	h = s.latency(h)
	h = httpx.Conditional(h)
	h = guardControl(h)
	h = mockHeaders(h)
	h = httpx.LimitHeaders(h)
	h = s.cors(h)
	h = s.guardBodies(h)
	return s.logRequests(h)
}

// dispatch dispatches to the mux. A path that is not clean (//api/x,
// /api/./x, /api/x/../y) is no route: the mux would redirect it with an
// HTML body, and the reference answers 404. (The mux also redirects /x to
// /x/ where a pattern /x/ is registered: none is, "/" aside, which every
// path matches as it is.)
func (s *server) dispatch() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p != cleanPath(p) {
			httpx.WriteError(w, httpx.Errorf(http.StatusNotFound, "Cannot %s %s", r.Method, p))
			return
		}
		s.mux.ServeHTTP(w, r) // the mux sets the path's wildcards
	})
}

// unknownRoute answers what no route matches, an unknown path and a wrong
// method alike, with the JSON 404, as the reference answers both (the mux
// would answer its own plain-text 404 or 405). It is the mux's pattern
// "/", which every request matches that no other pattern does.
func unknownRoute(w http.ResponseWriter, r *http.Request) {
	httpx.WriteError(w, httpx.Errorf(http.StatusNotFound, "Cannot %s %s", r.Method, r.URL.Path))
}

// route registers the handler of a pattern.
func (s *server) route(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// cleanPath is p as the mux cleans it before matching: rooted, without
// empty, . or .. elements, a trailing slash kept.
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	return clean
}

// cors lets a browser app on any origin call the API, with credentials
// (cookies, a session) and with headers of its own: every answer carries
// the CORS headers, errors too, and a preflight is answered at once,
// without credentials. A request from a page gets its origin back with
// Allow-Credentials (browsers refuse `*` for a credentialed call); one
// without an Origin, or with one that is no origin, gets `*`, which grants
// no credentials. The control API is not granted to other origins: a web
// page open beside the mock could read every key in /__mock/dataset, or
// wipe the data. Only Config.ControlOrigin, if set, may call it from a
// browser.
func (s *server) cors(h http.Handler) http.Handler {
	own := []string{"x-api-key", "authorization", "content-type", strings.ToLower(s.cfg.ChecksumHeader),
		"x-immich-share-key", "x-immich-user-token", "x-mock-status", "x-mock-delay"}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		origin := r.Header.Get("Origin")
		hd.Add("Vary", "Origin")
		switch {
		case strings.HasPrefix(r.URL.Path, controlPrefix):
			if s.cfg.ControlOrigin != "" && origin == s.cfg.ControlOrigin {
				hd.Set("Access-Control-Allow-Origin", s.cfg.ControlOrigin)
			}
		case isOrigin(origin):
			hd.Set("Access-Control-Allow-Origin", origin)
			hd.Set("Access-Control-Allow-Credentials", "true")
		default:
			hd.Set("Access-Control-Allow-Origin", "*")
		}
		granted := hd.Get("Access-Control-Allow-Origin") != ""
		if granted {
			hd.Set("Access-Control-Expose-Headers", "Content-Disposition, Content-Range, Content-Length, Content-Type")
		}
		if r.Method == http.MethodOptions {
			hd.Add("Vary", "Access-Control-Request-Headers")
			if granted {
				hd.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
				hd.Set("Access-Control-Allow-Headers", strings.Join(allowHeaders(own, r.Header.Get("Access-Control-Request-Headers")), ", "))
				hd.Set("Access-Control-Max-Age", "86400")
			}
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Bounds of what a preflight's Access-Control-Request-Headers may ask for:
// more than an app would ever send, little enough that the answer stays
// small. A list beyond them gets the mock's own headers only.
const (
	maxAskedHeaders    = 1024 // bytes of the whole list
	maxAskedHeaderName = 128  // bytes of one name
)

// allowHeaders is what a preflight allows: the mock's own headers, then
// those it asks for (lower case, each once). A name that is no HTTP token
// is left out; a list too long is not read.
func allowHeaders(own []string, asked string) []string {
	allowed := slices.Clone(own)
	if len(asked) > maxAskedHeaders {
		return allowed
	}
	for name := range strings.SplitSeq(asked, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" || len(name) > maxAskedHeaderName || !isToken(name) || slices.Contains(allowed, name) {
			continue
		}
		allowed = append(allowed, name)
	}
	return allowed
}

// isToken says whether s is an HTTP token (RFC 9110 5.6.2), as a header's
// name must be.
func isToken(s string) bool {
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return s != ""
}

// maxOrigin bounds an Origin the mock echoes.
const maxOrigin = 512

// isOrigin says whether v is an origin as a browser sends it: "null" (a
// file or sandboxed page), or scheme://host[:port] and nothing more. Only
// that is echoed back.
func isOrigin(v string) bool {
	if v == "null" {
		return true
	}
	if v == "" || len(v) > maxOrigin {
		return false
	}
	for _, c := range []byte(v) {
		if c <= ' ' || c >= 0x7f {
			return false
		}
	}
	u, err := url.Parse(v)
	return err == nil && u.Scheme != "" && u.Host != "" && u.User == nil && u.Opaque == "" &&
		u.Scheme+"://"+u.Host == v
}

// controlPrefix is where the control API lives, beside the API.
const controlPrefix = "/__mock/"

// guardControl lets through to the control API only what a browser could
// send from another origin only after a preflight: a POST must say it is
// JSON (a form or text/plain body can be sent by any page). And it answers
// only requests for localhost or an IP address: a name that resolves to
// the mock's address (DNS rebinding) is refused.
func guardControl(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, controlPrefix) {
			h.ServeHTTP(w, r)
			return
		}
		host := r.Host
		if hh, _, err := net.SplitHostPort(host); err == nil {
			host = hh
		}
		host = strings.Trim(host, "[]")
		if net.ParseIP(host) == nil && host != "localhost" && !strings.HasSuffix(host, ".localhost") {
			httpx.WriteError(w, httpx.Errorf(http.StatusForbidden, "The control API answers only requests for localhost or an IP address, not %q", host))
			return
		}
		if r.Method == http.MethodPost {
			mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if mediaType != "application/json" {
				httpx.WriteError(w, httpx.Errorf(http.StatusUnsupportedMediaType, "The control API takes JSON: send Content-Type: application/json"))
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// mockHeaders honours x-mock-delay (wait before answering) and x-mock-status
// (answer that error), before anything else of the request is looked at, so
// a frontend can show its loading and error states. A client that closes
// its side during the delay (TCP cannot tell leaving from being done
// sending) is answered at once, as it asked.
func mockHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("X-Mock-Delay"); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > maxMockDelay {
				httpx.WriteError(w, httpx.Errorf(http.StatusBadRequest, "x-mock-delay must be a duration from 0s to %s, like 300ms", maxMockDelay))
				return
			}
			if !httpx.Wait(r, d) {
				// The client closed its side: it may have left, or only be
				// done sending. Either way it gets the answer it asked for,
				// never an empty one; if it left, writing it fails.
				httpx.ClientGone(w)
			}
		}
		if v := r.Header.Get("X-Mock-Status"); v != "" {
			status, err := strconv.Atoi(v)
			if err != nil || status < 400 || status > 599 || http.StatusText(status) == "" {
				httpx.WriteError(w, httpx.Errorf(http.StatusBadRequest, "x-mock-status must be an error status from 400 to 599 that HTTP names, like 503"))
				return
			}
			msg := http.StatusText(status)
			httpx.ForcedStatus(w, "x-mock-status")
			httpx.WriteError(w, httpx.Errorf(status, "%s (asked for by x-mock-status)", msg))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// latency delays every API response by the configured time.
func (s *server) latency(h http.Handler) http.Handler {
	if s.cfg.Latency <= 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") && !httpx.Wait(r, s.cfg.Latency) {
			httpx.ClientGone(w) // and answered all the same, as after x-mock-delay
		}
		h.ServeHTTP(w, r)
	})
}

// logRequests logs one line per request: what was answered, or that the
// client left before an answer; the query, its credentials masked; which
// credential the request presented (its kind and last four characters);
// the message of an error answer, with the detail a client is not told of
// an internal one; whether x-mock-status forced the status. The level is
// the status's: 5xx ERROR, 4xx WARN, the rest INFO.
func (s *server) logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.log.Enabled(r.Context(), slog.LevelError) {
			// A logger that takes no line (serve --quiet): nothing to
			// gather for one.
			h.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		lw := &httpx.LoggingWriter{ResponseWriter: w}
		h.ServeHTTP(lw, r)
		attrs := make([]slog.Attr, 0, maxRequestAttrs)
		attrs = append(attrs, slog.String("method", r.Method), slog.String("path", r.URL.Path))
		if q := maskQuery(r.URL.RawQuery); q != "" {
			attrs = append(attrs, slog.String("query", q))
		}
		switch {
		case lw.Status == 0 && (lw.Gone || r.Context().Err() != nil):
			attrs = append(attrs, slog.String("outcome", "client gone before the answer"))
		case lw.WriteErr != nil:
			attrs = append(attrs, slog.Int("status", lw.Status),
				slog.String("outcome", "client gone during the answer"))
		case lw.Gone:
			attrs = append(attrs, slog.Int("status", lw.Status),
				slog.String("outcome", "client closed its side while the answer was delayed; answered at once"))
		default:
			if lw.Status == 0 {
				lw.Status = http.StatusOK
			}
			attrs = append(attrs, slog.Int("status", lw.Status))
		}
		level := slog.LevelInfo
		switch {
		case lw.Status >= 500:
			level = slog.LevelError
		case lw.Status >= 400:
			level = slog.LevelWarn
		}
		if lw.Status >= 400 && lw.Message != nil {
			attrs = append(attrs, slog.String("message", logMessage(lw.Message)))
		}
		if lw.Detail != nil {
			attrs = append(attrs, slog.String("error", lw.Detail.Error()))
		}
		if lw.Forced != "" {
			attrs = append(attrs, slog.String("forced", lw.Forced))
		}
		if c := credentialOf(r); c.value != nil {
			attrs = append(attrs, credentialAttr(c))
		}
		end := time.Now()
		attrs = append(attrs, slog.Int64("bytes", lw.Bytes), slog.Duration("duration", end.Sub(start)))
		// The record is made here, as slog's own wrappers make theirs: the
		// line has no source to name, so the caller's frames are not read.
		if h := s.log.Handler(); h.Enabled(r.Context(), level) {
			rec := slog.NewRecord(end, level, "request", 0)
			rec.AddAttrs(attrs...)
			_ = h.Handle(r.Context(), rec)
		}
	})
}

// maxRequestAttrs is the most attributes a request's line has.
const maxRequestAttrs = 11

// maxLogged bounds what a log line repeats of a request or an answer (the
// query, a message), so that a line stays a line.
const maxLogged = 512

// cutLogged cuts s to maxLogged bytes, marking the cut.
func cutLogged(s string) string {
	if len(s) <= maxLogged {
		return s
	}
	cut := maxLogged
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// logMessage is an error answer's message on one line: a list of field
// problems joined with "; ".
func logMessage(message any) string {
	switch m := message.(type) {
	case string:
		return cutLogged(m)
	case []string:
		return cutLogged(strings.Join(m, "; "))
	}
	return cutLogged(fmt.Sprint(message))
}

// secretParamWords mark a query parameter that carries a credential: the
// mock's own (key, apiKey, token, password) and any an app adds.
var secretParamWords = [...]string{"key", "token", "password", "passwd", "secret", "auth", "session", "credential"}

// maskQuery is a raw query as the log shows it: in its order, the value of
// every parameter that carries a credential replaced by ****, and cut to
// maxLogged bytes.
func maskQuery(raw string) string {
	if raw == "" {
		return ""
	}
	params := strings.Split(raw, "&")
	for i, p := range params {
		name, _, hasValue := strings.Cut(p, "=")
		if !hasValue {
			continue
		}
		decoded, err := url.QueryUnescape(name)
		if err != nil {
			decoded = name
		}
		decoded = strings.ToLower(decoded)
		for _, w := range secretParamWords {
			if strings.Contains(decoded, w) {
				params[i] = name + "=****"
				break
			}
		}
	}
	return cutLogged(strings.Join(params, "&"))
}

// minShownSecret is the shortest credential whose last four characters the
// log shows: of a shorter one, four would be too much of it.
const minShownSecret = 8

// credentialAttr names a request's credential in the log: its kind, and
// its last four characters when it is long enough to keep the rest secret.
func credentialAttr(c presented) slog.Attr {
	if last4, ok := lastFour(*c.value); ok {
		return slog.Attr{Key: "credential", Value: slog.GroupValue(slog.String("kind", c.kind), slog.String("last4", last4))}
	}
	return slog.Attr{Key: "credential", Value: slog.GroupValue(slog.String("kind", c.kind))}
}

// lastFour is the last four characters of a credential the log may show
// them of: one of minShownSecret characters or more, whose last four are
// printable ASCII.
func lastFour(v string) (string, bool) {
	if utf8.RuneCountInString(v) < minShownSecret {
		return "", false
	}
	start := len(v)
	for range 4 {
		_, size := utf8.DecodeLastRuneInString(v[:start])
		start -= size
	}
	last4 := v[start:]
	return last4, isPrintableASCII(last4)
}

// isPrintableASCII says whether s is printable ASCII, which a log shows as
// it is.
func isPrintableASCII(s string) bool {
	for _, c := range []byte(s) {
		if c < ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

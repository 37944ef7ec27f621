package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/steps"
)

// Exchange is a request a step sent and the answer it got, as the reports
// show them: secrets masked, only the headers that matter, bodies
// pretty-printed and cut at maxShownBody.
type Exchange struct {
	Method string
	// URL is the URL the request went to, its secrets masked.
	URL            string
	RequestHeader  []Header
	RequestBody    string
	Status         int // 0: no answer came, Error says why
	ResponseHeader []Header
	ResponseBody   string
	Error          string
	// Violations are the ways the answer breaks the OpenAPI document, one
	// line each.
	Violations []string
	Duration   time.Duration
}

// Header is a header as a report shows it, its value masked if secret.
type Header struct{ Name, Value string }

// Bounds of what a report keeps of a run's requests: a full run's HTML
// report stays small enough to open and to keep as a CI artifact.
const (
	// maxShownBody bounds a body as shown, pretty-printed.
	maxShownBody = 8 << 10
	// maxExchangesPerStep bounds the requests kept of one step (a step
	// that races uploads sends many); the others are counted.
	maxExchangesPerStep = 12
	// maxShownField bounds a text part of a multipart body.
	maxShownField = 200
)

// responseHeaders are the answer's headers a reader of a report needs.
var responseHeaders = []string{
	"Content-Type", "Content-Length", "Content-Disposition", "Location", "Cache-Control",
	"Etag", "Last-Modified", "Www-Authenticate", "Retry-After", "Set-Cookie",
}

// newExchange makes what the reports show of a step's request.
func newExchange(e steps.Exchange) Exchange {
	x := Exchange{
		Method:        e.Method,
		URL:           maskURL(e.URL),
		RequestHeader: shownHeaders(e.RequestHeader, nil),
		RequestBody:   showBody(e.RequestHeader.Get("Content-Type"), e.RequestBody, e.RequestSize),
		Status:        e.Status,
		Duration:      e.Duration,
	}
	if e.Err != nil {
		x.Error = e.Err.Error()
	}
	if e.Status != 0 {
		x.ResponseHeader = shownHeaders(e.ResponseHeader, responseHeaders)
		x.ResponseBody = showBody(e.ResponseHeader.Get("Content-Type"), e.ResponseBody, int64(len(e.ResponseBody)))
	}
	for _, v := range e.Violations {
		x.Violations = append(x.Violations, v.String())
	}
	return x
}

// isSecret says whether a query parameter, header or JSON field of that
// name holds a credential: API keys, shared link keys, tokens, passwords,
// cookies.
func isSecret(name string) bool {
	n := strings.ToLower(name)
	if n == "key" || n == "authorization" || n == "cookie" || n == "set-cookie" {
		return true
	}
	for _, word := range []string{"apikey", "api-key", "api_key", "token", "password", "secret", "sharekey", "share-key", "session"} {
		if strings.Contains(n, word) {
			return true
		}
	}
	return false
}

// mask hides a secret, keeping enough of a long one (its first four
// characters) to tell two apart.
func mask(v string) string {
	if v == "" {
		return ""
	}
	if scheme, rest, ok := strings.Cut(v, " "); ok && strings.EqualFold(scheme, "bearer") {
		return scheme + " " + mask(rest)
	}
	if utf8.RuneCountInString(v) < 16 {
		return "•••"
	}
	return string([]rune(v)[:4]) + "•••"
}

// maskURL writes u with the values of its secret query parameters and its
// user information masked.
func maskURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	if u.User != nil {
		c.User = url.User("•••")
	}
	if c.RawQuery != "" {
		parts := strings.Split(c.RawQuery, "&")
		for i, p := range parts {
			name, value, _ := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); err == nil && isSecret(n) {
				if v, err := url.QueryUnescape(value); err == nil {
					value = v
				}
				parts[i] = name + "=" + mask(value)
			}
		}
		c.RawQuery = strings.Join(parts, "&")
	}
	s := c.String()
	if u.User != nil {
		s = strings.Replace(s, "%E2%80%A2%E2%80%A2%E2%80%A2@", "•••@", 1)
	}
	return s
}

// shownHeaders lists h sorted by name, the secret ones masked; with only
// set, only those.
func shownHeaders(h http.Header, only []string) []Header {
	var out []Header
	for _, name := range slices.Sorted(maps.Keys(h)) {
		if only != nil && !slices.Contains(only, http.CanonicalHeaderKey(name)) {
			continue
		}
		for _, v := range h[name] {
			if isSecret(name) {
				v = mask(v)
			}
			out = append(out, Header{Name: name, Value: v})
		}
	}
	return out
}

// secretField finds a JSON string field that holds a credential, in a body
// json.Indent wrote.
var secretField = regexp.MustCompile(`"([A-Za-z_-]*)": "((?:[^"\\]|\\.)*)"`)

// showBody writes a body as a report shows it: JSON pretty-printed, its
// secret fields masked; a multipart form as its parts; other text as it is;
// anything else as its size and type. What is longer than maxShownBody is
// cut.
func showBody(contentType string, body []byte, size int64) string {
	if size <= 0 && len(body) == 0 {
		return ""
	}
	if body == nil {
		return fmt.Sprintf("(%d bytes, streamed)", size)
	}
	mediaType, params, _ := mime.ParseMediaType(contentType)
	var shown string
	switch {
	case mediaType == "multipart/form-data" && params["boundary"] != "":
		shown = showMultipart(body, params["boundary"])
	case isJSONBody(mediaType, body):
		var b bytes.Buffer
		if err := json.Indent(&b, body, "", "  "); err != nil {
			shown = string(body)
			break
		}
		// Only what can be shown is masked (a listing may be megabytes):
		// whole lines, each a field at most, so no secret is cut in two.
		pretty, left := b.String(), 0
		if len(pretty) > 2*maxShownBody {
			if i := strings.LastIndexByte(pretty[:2*maxShownBody], '\n'); i > 0 {
				pretty, left = pretty[:i], len(pretty)-i
			}
		}
		shown = secretField.ReplaceAllStringFunc(pretty, func(m string) string {
			sub := secretField.FindStringSubmatch(m)
			if !isSecret(sub[1]) {
				return m
			}
			return fmt.Sprintf("%q: %q", sub[1], mask(sub[2]))
		})
		return cutMore(shown, maxShownBody, left)
	case utf8.Valid(body) && printable(body):
		shown = string(body)
	default:
		return fmt.Sprintf("(%d bytes of %s)", len(body), orUnknown(mediaType))
	}
	return cut(shown, maxShownBody)
}

func orUnknown(mediaType string) string {
	if mediaType == "" {
		return "data of no declared type"
	}
	return mediaType
}

func isJSONBody(mediaType string, body []byte) bool {
	if mediaType == "application/json" || strings.HasSuffix(mediaType, "+json") {
		return true
	}
	t := bytes.TrimSpace(body)
	return mediaType == "" && len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t)
}

// printable says whether text is mostly what a person can read: a body of
// control characters is data, whatever its type says.
func printable(b []byte) bool {
	bad := 0
	for _, r := range string(b) {
		if r < ' ' && r != '\n' && r != '\r' && r != '\t' {
			bad++
		}
	}
	return bad*100 <= len(b)
}

// showMultipart lists a form's parts: a text part with its value, a file
// with its name, size and type. A form that cannot be read (the harness
// sends broken ones on purpose) is told as such.
func showMultipart(body []byte, boundary string) string {
	var b strings.Builder
	r := multipart.NewReader(bytes.NewReader(body), boundary)
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(&b, "(%d bytes of multipart/form-data that cannot be read further: %v)\n", len(body), err)
			break
		}
		content, err := io.ReadAll(io.LimitReader(p, maxBody))
		name := p.FormName()
		switch {
		case p.FileName() != "":
			fmt.Fprintf(&b, "%s: file %q, %d bytes", name, p.FileName(), len(content))
			if ct := p.Header.Get("Content-Type"); ct != "" {
				fmt.Fprintf(&b, ", %s", ct)
			}
			b.WriteByte('\n')
		case isSecret(name):
			fmt.Fprintf(&b, "%s: %s\n", name, mask(string(content)))
		default:
			fmt.Fprintf(&b, "%s: %s\n", name, cut(string(content), maxShownField))
		}
		if err != nil {
			fmt.Fprintf(&b, "(cannot be read further: %v)\n", err)
			break
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// maxBody bounds a part of a form read to be shown.
const maxBody = 64 << 20

// cut shortens s to at most n bytes, on a character's boundary, and says
// how much was left out.
func cut(s string, n int) string { return cutMore(s, n, 0) }

// cutMore is cut of a text that had more bytes after s already left out.
func cutMore(s string, n, more int) string {
	if len(s) <= n && more == 0 {
		return s
	}
	i := min(n, len(s))
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("\n… (%d more bytes not shown)", len(s)-i+more)
}

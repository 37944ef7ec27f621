package steps

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/spec"
)

// maxBody bounds the body of a response the harness reads.
const maxBody = 64 << 20

// ErrNoAnswer is (wrapped in) the error of a request that got no answer:
// the connection was refused, reset or timed out.
var ErrNoAnswer = errors.New("the server does not answer")

// credentials say how a request authenticates; the zero value sends none.
type credentials struct {
	apiKey  string // x-api-key header
	bearer  string // Authorization: Bearer
	linkKey string // key query parameter
}

func (c credentials) apply(r *http.Request) {
	if c.linkKey != "" {
		q := r.URL.Query()
		q.Set("key", c.linkKey)
		r.URL.RawQuery = q.Encode()
	}
	if c.bearer != "" {
		r.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	if c.apiKey != "" {
		r.Header.Set("x-api-key", c.apiKey)
	}
}

// response is an answer read to its end.
type response struct {
	request string // "POST /api/asset/upload", for messages
	status  int
	header  http.Header
	body    []byte
}

// String describes the response for a failure message.
func (r *response) String() string {
	return fmt.Sprintf("%s answered %d %s", r.request, r.status, short(r.body))
}

func short(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// apiRequest is a request to path under the base URL, e.g. "/asset/upload".
type apiRequest struct {
	method      string
	path        string
	creds       credentials
	contentType string
	header      http.Header
	body        []byte
	// stream, when set, is the body instead, of streamLength bytes: a body
	// too large to hold.
	stream       io.Reader
	streamLength int64
}

// send sends an API request and validates the response against the OpenAPI
// document. It is safe to call from several goroutines.
func (cfg Config) send(ctx context.Context, ar apiRequest) (*response, error) {
	if ar.method == http.MethodPost {
		// A request that may make something is let finish when the run is
		// cut short (within madeGrace), so that what it made is known, and
		// taken away.
		var done context.CancelFunc
		ctx, done = outlast(ctx, madeGrace)
		defer done()
	}
	var body io.Reader
	if ar.body != nil {
		body = bytes.NewReader(ar.body)
	}
	if ar.stream != nil {
		body = ar.stream
	}
	r, err := http.NewRequestWithContext(ctx, ar.method, cfg.BaseURL+ar.path, body)
	if err != nil {
		return nil, err
	}
	if ar.stream != nil {
		r.ContentLength = ar.streamLength
	}
	for k, vs := range ar.header {
		r.Header[k] = vs
	}
	if ar.contentType != "" {
		r.Header.Set("Content-Type", ar.contentType)
	}
	ar.creds.apply(r)
	started := time.Now()
	resp, err := cfg.do(r)
	if err == nil {
		resp.request = ar.method + " " + pathOf(cfg.BaseURL) + ar.path
		err = cfg.validate(ctx, ar, resp)
	}
	if cfg.Exchanged != nil {
		cfg.Exchanged(exchange(r, ar, resp, err, started))
	}
	if cfg.made != nil {
		cfg.made(ar, resp)
	}
	if resp == nil {
		return nil, err
	}
	return resp, err
}

// madeGrace is how long a request that may make something goes on once
// the run is cut short.
const madeGrace = 10 * time.Second

// outlast is a context that ends grace after ctx does (or when done is
// called).
func outlast(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	child, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(grace, cancel) })
	return child, func() {
		stop()
		cancel()
	}
}

// exchange describes a request sent and its answer (nil when none came)
// for Config.Exchanged.
func exchange(r *http.Request, ar apiRequest, resp *response, err error, started time.Time) Exchange {
	e := Exchange{
		Method:        r.Method,
		URL:           r.URL,
		Path:          "/api" + ar.path,
		RequestHeader: r.Header,
		RequestBody:   ar.body,
		RequestSize:   r.ContentLength,
		Started:       started,
		Duration:      time.Since(started),
	}
	if resp == nil {
		e.Err = err
		return e
	}
	e.Status, e.ResponseHeader, e.ResponseBody = resp.status, resp.header, resp.body
	var v *ViolationError
	if errors.As(err, &v) {
		e.Violations = v.Violations
	} else if err != nil {
		e.Err = err
	}
	return e
}

func pathOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	return u.Path
}

// do sends r and reads the whole answer.
func (cfg Config) do(r *http.Request) (*response, error) {
	resp, err := cfg.Client.Do(r)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %w", r.Method, r.URL.Redacted(), ErrNoAnswer, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer (%d): %w", r.Method, r.URL.Redacted(), resp.StatusCode, err)
	}
	return &response{request: r.Method + " " + r.URL.Path, status: resp.StatusCode, header: resp.Header, body: b}, nil
}

// validate checks resp against the document. The request is routed as the
// document's /api base path sees it, whatever the target's base path.
func (cfg Config) validate(ctx context.Context, ar apiRequest, resp *response) error {
	r, err := http.NewRequestWithContext(ctx, ar.method, "http://target/api"+ar.path, nil)
	if err != nil {
		return err
	}
	err = cfg.Validator.ValidateResponse(ctx, r, spec.Response{Status: resp.status, Header: resp.header, Body: resp.body})
	var vs *spec.Violations
	switch {
	case err == nil:
		return nil
	case errors.As(err, &vs):
		return &ViolationError{Request: resp.request, Status: resp.status, Violations: vs.List}
	}
	return fmt.Errorf("validating the answer to %s: %w", resp.request, err)
}

// form is a multipart upload under construction: text parts and files, in order.
type form struct {
	fields [][2]string
	files  []formFile
}

type formFile struct {
	part string
	file *file
}

// set sets a text part, replacing it if present.
func (f *form) set(name, value string) {
	for i := range f.fields {
		if f.fields[i][0] == name {
			f.fields[i][1] = value
			return
		}
	}
	f.fields = append(f.fields, [2]string{name, value})
}

// field returns a text part's value.
func (f *form) field(name string) (string, bool) {
	for _, kv := range f.fields {
		if kv[0] == name {
			return kv[1], true
		}
	}
	return "", false
}

// remove drops a text part, or every file of a part.
func (f *form) remove(name string) {
	var fields [][2]string
	for _, kv := range f.fields {
		if kv[0] != name {
			fields = append(fields, kv)
		}
	}
	var files []formFile
	for _, ff := range f.files {
		if ff.part != name {
			files = append(files, ff)
		}
	}
	f.fields, f.files = fields, files
}

// encode writes the form as a multipart body.
func (f *form) encode() (body []byte, contentType string, err error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, kv := range f.fields {
		if err := mw.WriteField(kv[0], kv[1]); err != nil {
			return nil, "", err
		}
	}
	for _, ff := range f.files {
		w, err := mw.CreateFormFile(ff.part, ff.file.name)
		if err != nil {
			return nil, "", err
		}
		if _, err := w.Write(ff.file.content); err != nil {
			return nil, "", err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), mw.FormDataContentType(), nil
}

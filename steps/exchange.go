package steps

import (
	"net/http"
	"net/url"
	"time"

	"github.com/mediaspec/mediaspec/spec"
)

// Exchange is one request the steps sent and the answer they got, handed
// to Config.Exchanged for the reports. Its headers and bodies are the
// steps' own, whole and unmasked: the receiver copies what it keeps and
// never writes to them.
type Exchange struct {
	Method string
	// URL is the URL the request went to, credentials in its query
	// included.
	URL *url.URL
	// Path is the request's path under the base URL, as the OpenAPI
	// document routes it, e.g. "/api/shared-links/{id}" filled in:
	// "/api/shared-links/1b2c...".
	Path          string
	RequestHeader http.Header
	// RequestBody is nil for a body streamed rather than held;
	// RequestSize is its length all the same.
	RequestBody []byte
	RequestSize int64
	// Status is 0 when no answer came; Err then says why.
	Status         int
	ResponseHeader http.Header
	ResponseBody   []byte
	Err            error
	// Violations are the ways the answer breaks the OpenAPI document.
	Violations []spec.Violation
	Started    time.Time
	Duration   time.Duration
}

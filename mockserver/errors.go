package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// apiError is an answer of the HTTP layer: its status and its message, which
// is a string or, for field validation, a list of strings.
type apiError struct {
	status  int
	message any
	// bare: the body has no error name, as a few of the reference's have.
	bare bool
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %v", e.status, e.message) }

// errorf makes an apiError with a single message.
func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

// statusOf is the one table from a domain error's kind to its HTTP status.
// The reference answers a missing or inaccessible object with 400, not 404,
// and so does the mock.
var statusOf = map[store.Code]int{
	store.Invalid:         http.StatusBadRequest,
	store.NotFound:        http.StatusBadRequest,
	store.NoAccess:        http.StatusBadRequest,
	store.Conflict:        http.StatusBadRequest,
	store.Unauthenticated: http.StatusUnauthorized,
	store.Forbidden:       http.StatusForbidden,
	store.Full:            http.StatusInsufficientStorage,
}

// answerOf maps any error to the answer the client gets: an apiError as it
// is, a domain error by its kind, and anything else, like an internal
// domain error, as a 500 without detail (the detail goes to the log).
func answerOf(err error) *apiError {
	ae, _ := answerAndTold(err)
	return ae
}

// answerAndTold is answerOf, and whether the answer tells the client err
// as it is (false: its detail is kept from the client, for the log).
func answerAndTold(err error) (*apiError, bool) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae, true
	}
	var de *store.Error
	if errors.As(err, &de) {
		if status, ok := statusOf[de.Code]; ok {
			return &apiError{status: status, message: de.Message}, true
		}
	}
	return errorf(http.StatusInternalServerError, "Internal server error"), false
}

// errorBody is the one JSON shape of every error the mock sends.
type errorBody struct {
	Message    any    `json:"message"`
	Error      string `json:"error"`
	StatusCode int    `json:"statusCode"`
}

// writeJSON writes v as JSON with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only the mock's own types reach here; failing to encode one is a bug.
		writeError(w, fmt.Errorf("encoding the response: %w", err))
		return
	}
	writeRawJSON(w, status, b)
}

// An answer is written writeChunk bytes at a time, and each piece must be
// taken within writeBase plus its size at minWriteRate: a client that reads
// slowly but steadily gets the largest answer, and one that stops reading
// lets go of it, and of the memory behind it, within about writeBase once
// the connection's buffers are full, whatever its size.
const (
	writeBase    = 10 * time.Second
	minWriteRate = 256 << 10 // bytes per second
	writeChunk   = 256 << 10
)

// writeDeadline is how long a piece of n bytes may take to be written.
func writeDeadline(n int) time.Duration {
	return writeBase + time.Duration(n)*time.Second/minWriteRate
}

// writeRawJSON writes an already encoded JSON body, each piece within its
// deadline, with its ETag.
func writeRawJSON(w http.ResponseWriter, status int, body []byte) {
	writeTagged(w, status, body, etagOf(body))
}

// writeTagged is writeRawJSON of a body whose ETag is known: 304 without
// it to a request whose If-None-Match names it.
func writeTagged(w http.ResponseWriter, status int, body []byte, etag string) {
	writeTaggedParts(w, status, [][]byte{body}, len(body), etag)
}

// writeTaggedParts is writeTagged for a body in parts, of size bytes in all.
func writeTaggedParts(w http.ResponseWriter, status int, parts [][]byte, size int, etag string) {
	h := w.Header()
	h.Set("ETag", etag)
	if notModified(w, status, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	rc := http.NewResponseController(w)
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(size))
	// Not every ResponseWriter can set deadlines (a recorder in a test).
	// The headers and the first piece are written within the first deadline.
	_ = rc.SetWriteDeadline(time.Now().Add(writeDeadline(min(size, writeChunk))))
	w.WriteHeader(status)
	first := true
	for _, body := range parts {
		for len(body) > 0 {
			n := min(len(body), writeChunk)
			if !first {
				_ = rc.SetWriteDeadline(time.Now().Add(writeDeadline(n)))
			}
			first = false
			if _, err := w.Write(body[:n]); err != nil {
				return
			}
			body = body[n:]
		}
	}
}

// writeError answers err as the JSON error body, and hands err to the
// request log, which records what the client was not told.
func writeError(w http.ResponseWriter, err error) {
	recordError(w, err)
	ae := answerOf(err)
	writeRawJSON(w, ae.status, mustErrorBody(ae))
}

// bareErrorBody is the shape of the reference's errors without a name.
type bareErrorBody struct {
	Message    any `json:"message"`
	StatusCode int `json:"statusCode"`
}

func mustErrorBody(ae *apiError) []byte {
	var v any = errorBody{Message: ae.message, Error: http.StatusText(ae.status), StatusCode: ae.status}
	if ae.bare {
		v = bareErrorBody{Message: ae.message, StatusCode: ae.status}
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encoding an error body: %v", err)) // strings and string slices always encode
	}
	return b
}

// recordError hands err to the request log's writer: the message its
// client is told, and the detail it is not.
func recordError(w http.ResponseWriter, err error) {
	lw := loggingWriterOf(w)
	if lw == nil {
		return
	}
	ae, told := answerAndTold(err)
	lw.message = ae.message
	lw.detail = nil
	if !told {
		lw.detail = err
	}
}

// forcedStatus tells the request log that the answer's status was asked
// for by the client, with the header named.
func forcedStatus(w http.ResponseWriter, by string) {
	if lw := loggingWriterOf(w); lw != nil {
		lw.forced = by
	}
}

// clientGone tells the request log that the client left before the answer.
func clientGone(w http.ResponseWriter) {
	if lw := loggingWriterOf(w); lw != nil {
		lw.gone = true
	}
}

// loggingWriterOf finds the request log's writer, wherever it sits in the
// chain of writers that wrap one another.
func loggingWriterOf(w http.ResponseWriter) *loggingWriter { return writerOf[*loggingWriter](w) }

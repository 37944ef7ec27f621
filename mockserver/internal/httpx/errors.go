package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// Error is an answer of the HTTP layer: its status and its message, which
// is a string or, for field validation, a list of strings.
type Error struct {
	Status  int
	Message any
	// Bare: the body has no error name, as a few of the reference's have.
	Bare bool
}

func (e *Error) Error() string { return fmt.Sprintf("%d %v", e.Status, e.Message) }

// Errorf makes an Error with a single message.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
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

// answerOf maps any error to the answer the client gets: an Error as it
// is, a domain error by its kind, and anything else, like an internal
// domain error, as a 500 without detail (the detail goes to the log).
func answerOf(err error) *Error {
	ae, _ := answerAndTold(err)
	return ae
}

// answerAndTold is answerOf, and whether the answer tells the client err
// as it is (false: its detail is kept from the client, for the log).
func answerAndTold(err error) (*Error, bool) {
	var ae *Error
	if errors.As(err, &ae) {
		return ae, true
	}
	var de *store.Error
	if errors.As(err, &de) {
		if status, ok := statusOf[de.Code]; ok {
			return &Error{Status: status, Message: de.Message}, true
		}
	}
	return Errorf(http.StatusInternalServerError, "Internal server error"), false
}

// errorBody is the one JSON shape of every error the mock sends.
type errorBody struct {
	Message    any    `json:"message"`
	Error      string `json:"error"`
	StatusCode int    `json:"statusCode"`
}

// WriteJSON writes v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only the mock's own types reach here; failing to encode one is a bug.
		WriteError(w, fmt.Errorf("encoding the response: %w", err))
		return
	}
	WriteRawJSON(w, status, b)
}

// An answer is written WriteChunk bytes at a time, and each piece must be
// taken within WriteBase plus its size at MinWriteRate: a client that reads
// slowly but steadily gets the largest answer, and one that stops reading
// lets go of it, and of the memory behind it, within about WriteBase once
// the connection's buffers are full, whatever its size.
const (
	WriteBase    = 10 * time.Second
	MinWriteRate = 256 << 10 // bytes per second
	WriteChunk   = 256 << 10
)

// WriteDeadline is how long a piece of n bytes may take to be written.
func WriteDeadline(n int) time.Duration {
	return WriteBase + time.Duration(n)*time.Second/MinWriteRate
}

// WriteRawJSON writes an already encoded JSON body, each piece within its
// deadline, with its ETag.
func WriteRawJSON(w http.ResponseWriter, status int, body []byte) {
	WriteTagged(w, status, body, ETagOf(body))
}

// WriteTagged is WriteRawJSON of a body whose ETag is known: 304 without
// it to a request whose If-None-Match names it.
func WriteTagged(w http.ResponseWriter, status int, body []byte, etag string) {
	writeTaggedParts(w, status, [][]byte{body}, len(body), etag)
}

// writeTaggedParts is WriteTagged for a body in parts, of size bytes in all.
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
	_ = rc.SetWriteDeadline(time.Now().Add(WriteDeadline(min(size, WriteChunk))))
	w.WriteHeader(status)
	first := true
	for _, body := range parts {
		for len(body) > 0 {
			n := min(len(body), WriteChunk)
			if !first {
				_ = rc.SetWriteDeadline(time.Now().Add(WriteDeadline(n)))
			}
			first = false
			if _, err := w.Write(body[:n]); err != nil {
				return
			}
			body = body[n:]
		}
	}
}

// WriteError answers err as the JSON error body, and hands err to the
// request log, which records what the client was not told.
func WriteError(w http.ResponseWriter, err error) {
	recordError(w, err)
	ae := answerOf(err)
	WriteRawJSON(w, ae.Status, mustErrorBody(ae))
}

// bareErrorBody is the shape of the reference's errors without a name.
type bareErrorBody struct {
	Message    any `json:"message"`
	StatusCode int `json:"statusCode"`
}

func mustErrorBody(ae *Error) []byte {
	var v any = errorBody{Message: ae.Message, Error: http.StatusText(ae.Status), StatusCode: ae.Status}
	if ae.Bare {
		v = bareErrorBody{Message: ae.Message, StatusCode: ae.Status}
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
	lw.Message = ae.Message
	lw.Detail = nil
	if !told {
		lw.Detail = err
	}
}

// ForcedStatus tells the request log that the answer's status was asked
// for by the client, with the header named.
func ForcedStatus(w http.ResponseWriter, by string) {
	if lw := loggingWriterOf(w); lw != nil {
		lw.Forced = by
	}
}

// ClientGone tells the request log that the client left before the answer.
func ClientGone(w http.ResponseWriter) {
	if lw := loggingWriterOf(w); lw != nil {
		lw.Gone = true
	}
}

// loggingWriterOf finds the request log's writer, wherever it sits in the
// chain of writers that wrap one another.
func loggingWriterOf(w http.ResponseWriter) *LoggingWriter { return writerOf[*LoggingWriter](w) }

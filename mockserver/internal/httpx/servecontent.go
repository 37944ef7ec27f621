package httpx

import (
	"io"
	"net/http"
	"time"
)

// ServeContent is http.ServeContent (Range, conditional requests) with
// the errors it writes as text answered as the JSON error every other
// answer has.
func ServeContent(w http.ResponseWriter, r *http.Request, modified time.Time, content io.ReadSeeker) {
	http.ServeContent(&jsonErrors{ResponseWriter: w}, r, "", modified, content)
}

// jsonErrors makes the errors http.ServeContent writes as text (416 for a
// range past the file, 412 for a failed If-Match) the JSON error every
// other answer has.
type jsonErrors struct {
	http.ResponseWriter
	failed bool
}

func (j *jsonErrors) WriteHeader(code int) {
	if code < http.StatusBadRequest || j.failed {
		j.ResponseWriter.WriteHeader(code)
		return
	}
	j.failed = true
	j.Header().Del("X-Content-Type-Options")
	WriteError(j.ResponseWriter, Errorf(code, "%s", http.StatusText(code)))
}

// Write drops the text of an error already answered as JSON.
func (j *jsonErrors) Write(p []byte) (int, error) {
	if j.failed {
		return len(p), nil
	}
	return j.ResponseWriter.Write(p)
}

// Unwrap lets a ResponseController reach the connection.
func (j *jsonErrors) Unwrap() http.ResponseWriter { return j.ResponseWriter }

package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// apiError is an error the API answers with: its status and its message,
// which is a string or, for field validation, a list of strings.
type apiError struct {
	status  int
	message any
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %v", e.status, e.message) }

// errorf makes an apiError with a single message.
func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
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
		status, b = http.StatusInternalServerError, mustErrorBody(http.StatusInternalServerError, "response could not be encoded")
	}
	writeRawJSON(w, status, b)
}

// writeRawJSON writes an already encoded JSON body.
func writeRawJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeError answers err as the JSON error body. Errors that are not
// apiErrors are the mock's own faults and answer 500 without detail.
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = errorf(http.StatusInternalServerError, "Internal server error")
	}
	writeRawJSON(w, ae.status, mustErrorBody(ae.status, ae.message))
}

func mustErrorBody(status int, message any) []byte {
	b, err := json.Marshal(errorBody{Message: message, Error: http.StatusText(status), StatusCode: status})
	if err != nil {
		panic(fmt.Sprintf("encoding an error body: %v", err)) // strings and string slices always encode
	}
	return b
}

package httpx

import "net/http"

// LoggingWriter remembers, for the request log, the status, the bytes, the
// message of an error answered and its detail when the client is not told
// it, who forced the status, and whether writing failed (the client went
// away) of a response.
type LoggingWriter struct {
	http.ResponseWriter
	Status   int
	Bytes    int64
	Message  any
	Detail   error
	Forced   string
	WriteErr error
	Gone     bool
}

func (w *LoggingWriter) WriteHeader(status int) {
	if w.Status == 0 {
		w.Status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *LoggingWriter) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.Bytes += int64(n)
	if err != nil && w.WriteErr == nil {
		w.WriteErr = err
	}
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (w *LoggingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

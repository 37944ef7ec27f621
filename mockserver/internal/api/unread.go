package api

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
)

// guardBodies bounds how a request's body is read. A handler that reads it
// reads through httpx.GuardedBody: a body that stalls, or drips too slowly,
// is cut off (BodyTimeout). And a request whose body its handler did not
// read to the end is answered, and its connection closed, at once:
// net/http would read up to 256 KiB of the rest before writing the answer,
// and again after it, with no deadline, so a client that announced a body
// and never sent it (a wrong key, an unknown route, a GET with a
// Content-Length) held its connection, unanswered, forever.
func (s *server) guardBodies(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		orig := r.Body
		tb := &trackedBody{ReadCloser: orig}
		r.Body = struct {
			io.Reader
			io.Closer
		}{httpx.NewGuardedBody(w, tb, s.cfg.BodyTimeout), tb}
		uw := &unreadWriter{ResponseWriter: w, body: tb}
		h.ServeHTTP(uw, r)
		uw.answering()
		// net/http looks at the body it made once the handler is done: seen
		// closed early, it waits for the answer to reach the client before
		// closing the connection, rather than resetting it.
		r.Body = orig
	})
}

// trackedBody notes whether a body was read to its end.
type trackedBody struct {
	io.ReadCloser
	sawEOF bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.sawEOF = true
	}
	return n, err
}

// unreadGrace is how long the rest of an unread body may still arrive once
// its request is answered: net/http drains a little of it before closing,
// so that a client still sending reads its answer rather than a reset.
const unreadGrace = time.Second

// unreadWriter, before the first byte of the answer, ends the reading of a
// body that was not read to its end: the answer says Connection: close (so
// net/http answers without reading the rest first), and the rest may take
// at most unreadGrace.
type unreadWriter struct {
	http.ResponseWriter
	body *trackedBody
	done bool
}

func (w *unreadWriter) answering() {
	if w.done {
		return
	}
	w.done = true
	if w.body.sawEOF {
		return
	}
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w.ResponseWriter).SetReadDeadline(time.Now().Add(unreadGrace))
}

func (w *unreadWriter) WriteHeader(status int) {
	w.answering()
	w.ResponseWriter.WriteHeader(status)
}

func (w *unreadWriter) Write(b []byte) (int, error) {
	w.answering()
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController and the request log reach the writers below.
func (w *unreadWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

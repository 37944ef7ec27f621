package mockserver

import (
	"log/slog"
	"net/http"
	"time"
)

// Limits of the HTTP layer. Headers up to maxServerHeaderBytes reach the
// mock, which answers any over maxHeaderBytes with its JSON 431; only beyond
// that does net/http answer on its own.
const (
	maxHeaderBytes       = 64 << 10
	maxServerHeaderBytes = 1<<20 + 64<<10
)

// HTTPServer is the http.Server a mock runs in, with the timeouts and limits
// that keep slow or hostile clients from holding it: headers must arrive in
// 10 s, idle connections close after 2 minutes, and upload bodies are
// guarded by the handler (Config.BodyTimeout).
func HTTPServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxServerHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		ConnContext:       withConn,
	}
}

// limitHeaders answers 431 with the JSON error body to a request whose
// headers (and URL) are larger than maxHeaderBytes.
func limitHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size := len(r.URL.RawQuery) + len(r.URL.Path)
		for k, vs := range r.Header {
			for _, v := range vs {
				size += len(k) + len(v) + 4
			}
		}
		if size > maxHeaderBytes {
			writeError(w, errorf(http.StatusRequestHeaderFieldsTooLarge, "Request headers are larger than %d bytes", maxHeaderBytes))
			return
		}
		h.ServeHTTP(w, r)
	})
}

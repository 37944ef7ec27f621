package mockserver

import "net/http"

// handleSharedLinks is GET /api/shared-links: the caller's own links, newest
// first. A shared link key is not enough to list links.
func (s *server) handleSharedLinks() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateUser(r)
		if err != nil {
			writeError(w, err)
			return
		}
		body, err := s.store.sharedLinksJSON(p.user.ID)
		if err != nil {
			writeError(w, err)
			return
		}
		s.large.write(w, http.StatusOK, body)
	})
}

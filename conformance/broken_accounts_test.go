package conformance_test

import (
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Broken variants of TestBrokenVariantsAreCaught for the scenarios of
// accounts.feature: a server whose links forget their owner's deletion,
// and one that lets uploads past a quota.

// opensDeletedUsersLinks lets the keys of a deleted user's links in, as a
// server whose lookup of a key forgets that the link's owner is deleted.
func opensDeletedUsersLinks(h http.Handler, _ model.Dataset) http.Handler {
	var u asIfUndone
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, isUser := strings.CutPrefix(r.URL.Path, "/api/admin/users/")
		switch {
		case isUser && r.Method == http.MethodDelete:
			var in struct{ Force bool }
			readBody(r, &in)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code == http.StatusOK && !in.Force {
				u.record(id,
					func() *http.Request { return jsonRequest(http.MethodPost, "/api/admin/users/"+id+"/restore", nil) },
					func() *http.Request {
						return jsonRequest(http.MethodDelete, "/api/admin/users/"+id, map[string]any{"force": false})
					})
			}
			copyAnswer(w, rec)
		case isUser && r.Method == http.MethodPost && strings.HasSuffix(id, "/restore"):
			u.forget(strings.TrimSuffix(id, "/restore"))
			h.ServeHTTP(w, r)
		default:
			u.serve(h, w, r)
		}
	})
}

// letsUploadsPastQuota answers an upload over its owner's quota as a new
// asset, as a server that does not enforce quotas.
func letsUploadsPastQuota(h http.Handler, d model.Dataset) http.Handler {
	return editJSON(isUpload, func(status int, body any) (int, any) {
		if m, ok := body.(map[string]any); ok && status == http.StatusBadRequest && m["message"] == "Quota has been exceeded!" {
			return http.StatusCreated, map[string]any{"id": newUUID(), "duplicate": false}
		}
		return status, body
	})(h, d)
}

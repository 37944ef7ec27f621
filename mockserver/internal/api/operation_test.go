package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
)

// TestABadBodyIsAnsweredBeforeABadID: the reference's pipes answer the
// argument its controller declares last, most often the body, so a call
// with both wrong hears of its body; a good body with a bad id hears of
// the id; the routes whose controller declares the body first answer the
// id. Every route of the table that reads a JSON body is asked, so a new
// one cannot judge them the other way round. (Each case checked on the
// reference.)
func TestABadBodyIsAnsweredBeforeABadID(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/albums/abc/assets", `{}`, "x-api-key", keyAlice), 400,
		[]any{"each value in ids must be a UUID", "ids should not be empty", "ids must be an array"})
	requireError(t, sendJSON(t, srv, http.MethodPatch, "/api/albums/abc", `{}`, "x-api-key", keyAlice), 400,
		[]any{"id must be a UUID"})
	requireError(t, sendJSON(t, srv, http.MethodPatch, "/api/albums/abc", `{"description":5}`, "x-api-key", keyAlice), 400,
		[]any{"description must be a string"})
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/api-keys/abc", `{}`, "x-api-key", keyAlice), 400,
		[]any{"name should not be empty", "name must be a string"})
	requireError(t, sendJSON(t, srv, http.MethodDelete, "/api/albums/abc/assets", `{}`, "x-api-key", keyAlice), 400,
		[]any{"id must be a UUID"})
	// Credentials still come first: a caller who may not call the route
	// hears nothing of its body.
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/albums/abc/assets", `{}`), 401, "Authentication required")

	m, err := New(Config{Dataset: testDataset, Now: testNow})
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	checked := 0
	for _, r := range m.s.routeTable() {
		if r.body == nil || !strings.Contains(r.pattern, "{id}") {
			continue
		}
		method, path, _ := strings.Cut(r.pattern, " ")
		path = strings.ReplaceAll(path, "{id}", "abc")
		path = pathParam.ReplaceAllString(path, "6f1c4f4e-1f6b-4b8e-9d55-0c6b9f0e7a11")
		want := any([]any{"id must be a UUID"})
		if _, err := r.body.Decode([]byte(`{}`)); err != nil && r.order != idFirst {
			var problems dto.Problems
			require.ErrorAs(t, err, &problems, r.pattern)
			var messages []any
			for _, p := range problems {
				messages = append(messages, p)
			}
			want = messages
		}
		rep := sendJSON(t, srv, method, path, `{}`, "x-api-key", keyAlice)
		requireError(t, rep, http.StatusBadRequest, want)
		checked++
	}
	assert.Greater(t, checked, 20, "the routes of a JSON body and an id")
}

package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestServeContentErrorsAreJSON: the errors http.ServeContent writes as
// text (a range past the end) are the JSON error of every other answer; a
// range within the content is served as ever.
func TestServeContentErrorsAreJSON(t *testing.T) {
	serve := func(rang string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Range", rang)
		ServeContent(w, r, time.Time{}, strings.NewReader("0123456789"))
		return w
	}
	w := serve("bytes=100-")
	assert.Equal(t, http.StatusRequestedRangeNotSatisfiable, w.Code)
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	assert.JSONEq(t, `{"message":"Requested Range Not Satisfiable","error":"Requested Range Not Satisfiable","statusCode":416}`, w.Body.String())

	w = serve("bytes=2-4")
	assert.Equal(t, http.StatusPartialContent, w.Code)
	assert.Equal(t, "234", w.Body.String())
}

package steps

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/spec"
)

// TestRemoveUser: a user the harness made is taken away with force, and
// one a scenario deleted without force (and did not restore), which a
// server refuses to delete again as it refuses a user that is gone, is
// restored first: a run cut short between the two leaves no trace.
func TestRemoveUser(t *testing.T) {
	for _, tt := range []struct {
		name  string
		state string // of the user on the server: "active", "deleted" or "gone"
		sent  []string
	}{
		{"an active user", "active", []string{"DELETE force"}},
		{"a user deleted without force", "deleted", []string{"DELETE force", "POST restore", "DELETE force"}},
		{"a user gone already", "gone", []string{"DELETE force", "POST restore"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			state := tt.state
			var sent []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				w.Header().Set("Content-Type", "application/json")
				switch {
				case r.Method == http.MethodDelete && r.URL.Path == "/api/admin/users/u1" && strings.Contains(string(body), `"force":true`):
					sent = append(sent, "DELETE force")
					if state != "active" {
						w.WriteHeader(http.StatusBadRequest)
						_, _ = io.WriteString(w, `{"message":"User not found","error":"Bad Request","statusCode":400}`)
						return
					}
					state = "gone"
					_, _ = io.WriteString(w, `{}`)
				case r.Method == http.MethodPost && r.URL.Path == "/api/admin/users/u1/restore":
					sent = append(sent, "POST restore")
					if state != "deleted" {
						w.WriteHeader(http.StatusBadRequest)
						_, _ = io.WriteString(w, `{"message":"User not found","error":"Bad Request","statusCode":400}`)
						return
					}
					state = "active"
					w.WriteHeader(http.StatusCreated)
					_, _ = io.WriteString(w, `{}`)
				default:
					sent = append(sent, r.Method+" "+r.URL.Path)
					w.WriteHeader(http.StatusNotFound)
				}
			}))
			t.Cleanup(srv.Close)
			v, err := spec.Load(t.Context())
			require.NoError(t, err)
			cfg, err := Config{BaseURL: srv.URL + "/api", Client: srv.Client(), Validator: v}.check()
			require.NoError(t, err)
			s := &scenario{cfg: cfg}

			require.NoError(t, s.removeUser(t.Context(), credentials{apiKey: "admin"}, "u1"))
			assert.Equal(t, tt.sent, sent)
			assert.Equal(t, "gone", state)
		})
	}
}

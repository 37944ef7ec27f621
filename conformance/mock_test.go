package conformance_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// apiKey is the default user's API key of the test mock.
const apiKey = "mediaspec-dev-key"

// anchor is the generated data's anchor: a fixed day, so runs repeat.
var anchor = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// The datasets the tests start from: the one `mediaspec check` runs against
// by default, and a smaller one (it is judged once for every broken variant
// of broken_test.go).
var (
	defaultData = fake.Options{Seed: 1, Anchor: anchor, Links: 12, Users: 3, APIKey: apiKey}
	smallData   = fake.Options{Seed: 2, Anchor: anchor, Links: 4, Users: 1, APIKey: apiKey}
)

// startMock starts a mock on the dataset opts generates, its handler
// wrapped by wrap (nil: as it is), and returns the API's base URL.
func startMock(t *testing.T, opts fake.Options, wrap func(http.Handler, model.Dataset) http.Handler) string {
	t.Helper()
	d := fake.Generate(opts)
	h, err := mockserver.New(mockserver.Config{Dataset: func() model.Dataset { return d }, MediaDir: t.TempDir()})
	require.NoError(t, err)
	if wrap != nil {
		h = wrap(h, d)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/api"
}

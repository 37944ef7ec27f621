package conformance_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
)

// startEmptyArrayStub starts a server that answers 200 [] to every request.
func startEmptyArrayStub(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, "[]")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/api"
}

// TestStatusJudgedFirst: against a server that answers 200 [] to
// everything, an upload that should be refused fails with the wrong
// status, and the schema violations of its body follow as detail.
func TestStatusJudgedFirst(t *testing.T) {
	t.Parallel()
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target: startEmptyArrayStub(t), APIKey: apiKey, Tags: "@upload and not @robustness", Concurrency: 4,
	})
	require.NoError(t, err)
	refused := 0
	for _, s := range res.Scenarios {
		if !strings.HasPrefix(s.Name, "Uploads without valid credentials are refused") {
			continue
		}
		refused++
		require.Equal(t, conformance.Failed, s.Status, s.Name)
		first, rest, _ := strings.Cut(s.Failure, "\n")
		assert.Equal(t, "want status 401, got 200", first, s.Name)
		assert.Contains(t, rest, "POST /api/asset/upload answered 200 []")
		assert.Contains(t, rest, "breaks the OpenAPI document", "the violations follow as detail")
		// The step that judges the status failed; the upload itself did not.
		require.Len(t, s.Steps, 3)
		assert.Equal(t, conformance.Passed, s.Steps[1].Status, "When I upload ...")
		assert.Equal(t, conformance.Failed, s.Steps[2].Status, "Then the request is refused ...")
	}
	assert.Equal(t, 4, refused, "the outline's four rows")
}

// judgeFeatures: a violation with the right status fails the step that
// judges the status; one that no later step judges fails the step after
// the request, or the request's own when it is the last.
var judgeFeatures = fstest.MapFS{
	"judge.feature": {Data: []byte(`Feature: Judging

  Scenario: The status is right, the shape is not
    Given I use my API key
    When I upload a new photo "IMG_4021.JPG"
    Then the request succeeds

  Scenario: Nothing judges the answer
    Given I use my API key
    When I upload a new photo "IMG_4021.JPG"
    And I use no credentials

  Scenario: The request is the last step
    Given I use my API key
    When I upload a new photo "IMG_4021.JPG"
`)},
}

func TestUnjudgedViolationsAreReported(t *testing.T) {
	t.Parallel()
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target: startEmptyArrayStub(t), APIKey: apiKey, Features: judgeFeatures,
	})
	require.NoError(t, err)
	require.Len(t, res.Scenarios, 3)
	failedStep := map[string]int{
		"The status is right, the shape is not": 2,
		"Nothing judges the answer":             2,
		"The request is the last step":          1,
	}
	for _, s := range res.Scenarios {
		require.Equal(t, conformance.Failed, s.Status, s.Name)
		assert.Contains(t, s.Failure, "POST /api/asset/upload answered 200, which breaks the OpenAPI document:", s.Name)
		i := failedStep[s.Name]
		require.Greater(t, len(s.Steps), i, s.Name)
		assert.Equal(t, conformance.Failed, s.Steps[i].Status, "%s: step %d", s.Name, i)
		for _, st := range s.Steps[:i] {
			assert.Equal(t, conformance.Passed, st.Status, "%s: %s", s.Name, st.Text)
		}
	}
}

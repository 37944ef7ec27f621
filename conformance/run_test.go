package conformance_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/mockserver/fake"
)

// TestMockPassesEverything runs every feature against the in-process mock:
// every scenario must pass, none may be skipped.
func TestMockPassesEverything(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:      startMock(t, defaultData, nil),
		APIKey:      apiKey,
		Password:    fake.DefaultPassword,
		AdminAPIKey: apiKey,
		Output:      &out,
		Concurrency: 4,
	})
	require.NoError(t, err, out.String())
	var summary bytes.Buffer
	require.NoError(t, res.WriteSummary(&summary))
	t.Log(summary.String())
	assert.NotEmpty(t, res.Scenarios)
	assert.Zero(t, res.Failed, "failed scenarios")
	assert.Zero(t, res.Skipped, "skipped scenarios")
	assert.Empty(t, res.Violations)
	assert.Equal(t, len(res.Scenarios), res.Passed)
}

package conformance_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
)

// coverageOp is an operation of the coverage report, as a reader decodes it.
type coverageOp struct {
	OperationID   string         `json:"operationId"`
	Method        string         `json:"method"`
	Path          string         `json:"path"`
	Responses     int            `json:"responses"`
	Received      map[string]int `json:"received"`
	NotReceived   []string       `json:"notReceived"`
	FieldsSeen    []string       `json:"fieldsSeen"`
	FieldsNotSeen []string       `json:"fieldsNotSeen"`
	Enums         []struct {
		Field   string   `json:"field"`
		Seen    []string `json:"seen"`
		NotSeen []string `json:"notSeen"`
	} `json:"enums"`
}

// TestCoverageReport: --format coverage:FILE writes, for every operation of
// the document, the statuses the run received, the fields and enum values
// its answers showed, and what they never did; the summary ends with a
// short table of it.
func TestCoverageReport(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "coverage.json")
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:   startReportTarget(t),
		APIKey:   apiKey,
		Features: reportFeatures,
		Formats:  []conformance.Format{{Name: "coverage", File: file}},
	})
	require.NoError(t, err)

	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc struct {
		Operations   []coverageOp `json:"operations"`
		NotExercised []string     `json:"notExercised"`
	}
	require.NoError(t, json.Unmarshal(b, &doc), "%s", b)
	require.NotEmpty(t, doc.Operations)
	i := slices.IndexFunc(doc.Operations, func(o coverageOp) bool {
		return o.OperationID == "getAllSharedLinks"
	})
	require.GreaterOrEqual(t, i, 0)
	list := doc.Operations[i]
	assert.Equal(t, "GET", list.Method)
	assert.Equal(t, "/shared-links", list.Path)
	assert.Positive(t, list.Received["200"])
	assert.Positive(t, list.Received["401"])
	assert.Contains(t, list.NotReceived, "403", "no scenario here lists links with a link's key")
	assert.Contains(t, list.FieldsSeen, "[*].key")
	assert.Contains(t, list.FieldsSeen, "message")
	var types []string
	for _, e := range list.Enums {
		if e.Field == "[*].type" {
			types = append(e.Seen, e.NotSeen...)
		}
	}
	assert.ElementsMatch(t, []string{"ALBUM", "INDIVIDUAL"}, types)
	assert.Contains(t, doc.NotExercised, "POST /asset/upload (uploadFile)")
	assert.Len(t, doc.Operations, len(res.Coverage.Operations))

	var summary bytes.Buffer
	require.NoError(t, res.WriteSummary(&summary))
	assert.Regexp(t, `Spec coverage: \d+ of \d+ operations exercised`, summary.String())
	assert.Regexp(t, `(?m)^  getAllSharedLinks +GET /shared-links +200 401 +never 403`, summary.String())
	assert.Contains(t, summary.String(), "Never exercised: ")
}

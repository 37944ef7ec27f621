package spec_test

import (
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/spec"
)

// operation finds an operation of a coverage report by its id.
func operation(t *testing.T, rep spec.CoverageReport, id string) spec.OperationCoverage {
	t.Helper()
	i := slices.IndexFunc(rep.Operations, func(o spec.OperationCoverage) bool { return o.OperationID == id })
	require.GreaterOrEqual(t, i, 0, "operation %s", id)
	return rep.Operations[i]
}

func TestCoverage(t *testing.T) {
	v, err := spec.Load(t.Context())
	require.NoError(t, err)
	cov := v.NewCoverage()

	listing := `[{"id":"l1","key":"k","type":"ALBUM","userId":"u","assets":[{"id":"a1","type":"IMAGE"},{"id":"a2","type":"VIDEO"}],
		"allowDownload":true,"allowUpload":false,"showMetadata":true,"password":null,"description":null,"expiresAt":null,"createdAt":"2024-01-01T00:00:00.000Z","surprise":1}]`
	var wg sync.WaitGroup
	for range 4 { // from several goroutines at once, as scenarios run
		wg.Go(func() {
			cov.Add(http.MethodGet, "/api/shared-links", http.StatusOK, jsonHeader, []byte(listing))
		})
	}
	wg.Wait()
	cov.Add(http.MethodGet, "/api/shared-links?key=abc", http.StatusForbidden, jsonHeader, []byte(`{"message":"Forbidden resource","error":"Forbidden","statusCode":403}`))
	cov.Add(http.MethodGet, "/api/shared-links", http.StatusTeapot, jsonHeader, []byte(`{"message":"teapot","error":"I'm a teapot","statusCode":418}`))
	cov.Add(http.MethodPost, "/api/asset/upload", http.StatusCreated, jsonHeader, []byte(`{"id":"x","duplicate":false}`))
	cov.Add(http.MethodPost, "/api/asset/upload", http.StatusOK, http.Header{"Content-Type": {"text/plain"}}, []byte(`{"id":"x"}`))
	cov.Add(http.MethodGet, "/api/no-such-route", http.StatusNotFound, jsonHeader, []byte(`{}`))
	rep := cov.Report()

	list := operation(t, rep, "getAllSharedLinks")
	assert.Equal(t, http.MethodGet, list.Method)
	assert.Equal(t, "/shared-links", list.Path)
	assert.Equal(t, 6, list.Responses)
	assert.Equal(t, map[string]int{"200": 4, "403": 1, "418": 1}, list.Received)
	assert.Equal(t, []string{"200", "401", "403", "default"}, list.Documented)
	assert.Equal(t, []string{"401"}, list.NotReceived, "418 is an error the default response documents")
	assert.Contains(t, list.FieldsSeen, "[*].assets[*].type")
	assert.Contains(t, list.FieldsSeen, "[*].surprise", "a field the document does not describe is seen all the same")
	assert.Contains(t, list.FieldsSeen, "message", "error bodies count too")
	assert.Contains(t, list.FieldsNotSeen, "[*].album", "no ALBUM link had its album")
	assert.Contains(t, list.FieldsNotSeen, "[*].token")
	assert.NotContains(t, list.FieldsNotSeen, "[*].id")

	enums := map[string]spec.EnumCoverage{}
	for _, e := range list.Enums {
		enums[e.Field] = e
	}
	require.Contains(t, enums, "[*].type")
	assert.Equal(t, []string{"ALBUM"}, enums["[*].type"].Seen)
	assert.Equal(t, []string{"INDIVIDUAL"}, enums["[*].type"].NotSeen)
	require.Contains(t, enums, "[*].assets[*].type")
	assert.Equal(t, []string{"IMAGE", "VIDEO"}, enums["[*].assets[*].type"].Seen)
	assert.ElementsMatch(t, []string{"AUDIO", "OTHER"}, enums["[*].assets[*].type"].NotSeen)

	upload := operation(t, rep, "uploadFile")
	assert.Equal(t, map[string]int{"200": 1, "201": 1}, upload.Received)
	assert.Equal(t, []string{"duplicate", "id"}, upload.FieldsSeen, "a body that is not JSON adds no field")
	assert.Contains(t, upload.NotReceived, "default")

	profile := operation(t, rep, "getProfileImage")
	assert.False(t, profile.Exercised())
	assert.Contains(t, rep.NotExercised, "GET /users/{id}/profile-image (getProfileImage)")
	assert.NotContains(t, rep.NotExercised, "GET /shared-links (getAllSharedLinks)")
	assert.Equal(t, 1, rep.Unrouted)
}

// TestCoverageBounds: a target that answers with ever new field names does
// not grow the tally without end.
func TestCoverageBounds(t *testing.T) {
	v, err := spec.Load(t.Context())
	require.NoError(t, err)
	cov := v.NewCoverage()
	for i := range 5000 {
		body := []byte(`{"field` + strconv.Itoa(i) + `":1}`)
		cov.Add(http.MethodGet, "/api/users/me", http.StatusOK, jsonHeader, body)
	}
	me := operation(t, cov.Report(), "getMyUser")
	assert.LessOrEqual(t, len(me.FieldsSeen), 2000)
	assert.Equal(t, 5000, me.Responses)
}

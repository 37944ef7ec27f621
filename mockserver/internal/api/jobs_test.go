package api

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/jobs"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/spec"
)

// jobNames is the message of a queue's name that is none.
const jobNames = "id must be one of the following values: thumbnailGeneration, metadataExtraction, videoConversion, " +
	"faceDetection, facialRecognition, smartSearch, duplicateDetection, backgroundTask, storageTemplateMigration, " +
	"migration, search, sidecar, library, notifications"

// jobCommands are the messages of a command that is none.
var jobCommands = []string{"command must be one of the following values: start, pause, resume, empty, clear-failed", "command should not be empty"}

// jobsJSON sends a JSON body (or none, for "") as key, and checks the
// answer against the project's document.
func jobsJSON(t *testing.T, srv *httptest.Server, method, path, key, body string) reply {
	t.Helper()
	var r *http.Request
	if body == "" {
		r = newRequest(t, method, srv.URL+path, nil)
	} else {
		r = newRequest(t, method, srv.URL+path, strings.NewReader(body), "Content-Type", "application/json")
	}
	if key != "" {
		r.Header.Set("x-api-key", key)
	}
	rep := do(t, r)
	v := loadValidators(t)
	requireValid(t, "openapi/openapi.yaml", v.ours.ValidateResponse(t.Context(), r, spec.Response{Status: rep.status, Header: rep.header, Body: rep.body}), r, rep)
	return rep
}

// allJobs is GET /api/jobs as Alice, an admin.
func allJobs(t *testing.T, srv *httptest.Server) map[string]model.JobStatus {
	t.Helper()
	rep := jobsJSON(t, srv, http.MethodGet, "/api/jobs", keyAlice, "")
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var out map[string]model.JobStatus
	rep.json(t, &out)
	return out
}

// jobCommand is PUT /api/jobs/{name} as Alice: the queue's status after.
func jobCommand(t *testing.T, srv *httptest.Server, name, body string) model.JobStatus {
	t.Helper()
	rep := jobsJSON(t, srv, http.MethodPut, "/api/jobs/"+name, keyAlice, body)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var out model.JobStatus
	rep.json(t, &out)
	return out
}

// TestJobsListEveryQueue: an admin reads every queue of the reference, in
// its order; anyone else is refused.
func TestJobsListEveryQueue(t *testing.T) {
	srv := newTestServer(t)
	rep := jobsJSON(t, srv, http.MethodGet, "/api/jobs", keyAlice, "")
	require.Equal(t, http.StatusOK, rep.status)
	var keys []string
	for _, name := range jobs.Names {
		keys = append(keys, `"`+name+`"`)
	}
	at := -1
	for _, k := range []string{`"thumbnailGeneration"`, `"metadataExtraction"`, `"videoConversion"`, `"smartSearch"`,
		`"storageTemplateMigration"`, `"migration"`, `"backgroundTask"`, `"search"`, `"duplicateDetection"`,
		`"faceDetection"`, `"facialRecognition"`, `"sidecar"`, `"library"`, `"notifications"`} {
		i := bytes.Index(rep.body, []byte(k))
		require.Greater(t, i, at, "%s after the one before, as the reference orders them", k)
		at = i
	}
	assert.Len(t, allJobs(t, srv), len(keys))

	requireError(t, jobsJSON(t, srv, http.MethodGet, "/api/jobs", keyBob, ""), http.StatusForbidden, "Forbidden resource")
	requireError(t, jobsJSON(t, srv, http.MethodGet, "/api/jobs", "", ""), http.StatusUnauthorized, "Authentication required")
	requireError(t, jobsJSON(t, srv, http.MethodPut, "/api/jobs/sidecar", keyBob, `{"command":"pause"}`), http.StatusForbidden, "Forbidden resource")
}

// TestJobCommandsAreJudgedAsTheReferences: the queue's name first, then
// the body, with the reference's messages; three queues are no one's to
// start.
func TestJobCommandsAreJudgedAsTheReferences(t *testing.T) {
	srv := newTestServer(t)
	for _, tt := range []struct {
		name, path, body string
		message          any
	}{
		{"no queue", "/api/jobs/nightly", `{"command":"start"}`, []string{jobNames}},
		// The body is judged before the queue's name, as the reference's pipes
		// answer the argument its controller declares last.
		{"no queue, bad command too", "/api/jobs/nightly", `{"command":"x"}`, []string{jobCommands[0]}},
		{"no queue, no body", "/api/jobs/nightly", `{}`, jobCommands},
		{"no command", "/api/jobs/sidecar", `{}`, jobCommands},
		{"no body", "/api/jobs/sidecar", "", jobCommands},
		{"an array", "/api/jobs/sidecar", `[]`, jobCommands},
		{"an unknown command", "/api/jobs/sidecar", `{"command":"x","force":1}`,
			[]string{"command must be one of the following values: start, pause, resume, empty, clear-failed", "force must be a boolean value"}},
		{"a number", "/api/jobs/sidecar", `{"command":5}`, []string{jobCommands[0]}},
		{"force null", "/api/jobs/sidecar", `{"command":"start","force":null}`, []string{"force must be a boolean value"}},
		{"malformed", "/api/jobs/sidecar", `null`, `Unexpected token 'n', "null" is not valid JSON`},
		{"search", "/api/jobs/search", `{"command":"start","force":"true"}`, "Invalid job name: search"},
		{"background tasks", "/api/jobs/backgroundTask", `{"command":"start"}`, "Invalid job name: backgroundTask"},
		{"notifications", "/api/jobs/notifications", `{"command":"start"}`, "Invalid job name: notifications"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, jobsJSON(t, srv, http.MethodPut, tt.path, keyAlice, tt.body), http.StatusBadRequest, tt.message)
		})
	}
	requireError(t, do(t, newRequest(t, http.MethodPut, srv.URL+"/api/jobs/", strings.NewReader(`{"command":"start"}`), "x-api-key", keyAlice)),
		http.StatusNotFound, "Cannot PUT /api/jobs/")

	// Queues without work of the mock's: a start counts the one job that
	// finds none; every other command answers the status.
	st := jobCommand(t, srv, jobs.Sidecar, `{"command":"start","force":true}`)
	assert.Equal(t, model.JobCounts{Completed: 1}, st.JobCounts)
	assert.Equal(t, model.QueueStatus{IsPaused: true}, jobCommand(t, srv, jobs.Notifications, `{"command":"pause"}`).QueueStatus)
	assert.True(t, allJobs(t, srv)[jobs.Notifications].QueueStatus.IsPaused)
	assert.Equal(t, model.QueueStatus{}, jobCommand(t, srv, jobs.Notifications, `{"command":"resume","force":false}`).QueueStatus)
	jobCommand(t, srv, jobs.Library, `{"command":"empty"}`)
	jobCommand(t, srv, jobs.Library, `{"command":"clear-failed"}`)
}

// TestPausedPicturesWait: with the thumbnail queue paused an upload is
// answered, and its pictures wait (paused, 404) until an admin resumes
// the queue; emptied, they are not made until a start queues them again.
func TestPausedPicturesWait(t *testing.T) {
	srv, _ := newMediaServer(t)
	jobCommand(t, srv, jobs.ThumbnailGeneration, `{"command":"pause"}`)
	first := uploadJPEG(t, srv, "first.jpg")
	second := uploadJPEG(t, srv, "second.jpg")
	all := allJobs(t, srv)
	assert.Equal(t, model.JobStatus{JobCounts: model.JobCounts{Paused: 2}, QueueStatus: model.QueueStatus{IsPaused: true}}, all[jobs.ThumbnailGeneration])
	assert.Equal(t, 2, all[jobs.MetadataExtraction].JobCounts.Completed, "read as they arrived")
	time.Sleep(50 * time.Millisecond)
	assert.Equal(t, http.StatusNotFound, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/thumbnail/"+first, nil, "x-api-key", keyAlice)).status)

	jobCommand(t, srv, jobs.ThumbnailGeneration, `{"command":"resume"}`)
	waitForPicture(t, srv, "/api/asset/thumbnail/"+first)
	waitForPicture(t, srv, "/api/asset/thumbnail/"+second)
	require.Eventually(t, func() bool {
		return allJobs(t, srv)[jobs.ThumbnailGeneration].JobCounts == model.JobCounts{Completed: 2}
	}, 10*time.Second, 20*time.Millisecond)

	jobCommand(t, srv, jobs.ThumbnailGeneration, `{"command":"pause"}`)
	third := uploadJPEG(t, srv, "third.jpg")
	st := jobCommand(t, srv, jobs.ThumbnailGeneration, `{"command":"empty"}`)
	assert.Equal(t, model.JobCounts{Completed: 2}, st.JobCounts)
	jobCommand(t, srv, jobs.ThumbnailGeneration, `{"command":"resume"}`)
	time.Sleep(50 * time.Millisecond)
	assert.Equal(t, http.StatusNotFound, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/thumbnail/"+third, nil, "x-api-key", keyAlice)).status, "dropped")

	// A start queues the uploads without pictures; with force, every upload.
	jobCommand(t, srv, jobs.ThumbnailGeneration, `{"command":"start"}`)
	waitForPicture(t, srv, "/api/asset/thumbnail/"+third)
	require.Eventually(t, func() bool {
		return allJobs(t, srv)[jobs.ThumbnailGeneration].JobCounts == model.JobCounts{Completed: 3}
	}, 10*time.Second, 20*time.Millisecond)
	jobCommand(t, srv, jobs.ThumbnailGeneration, `{"command":"start","force":true}`)
	require.Eventually(t, func() bool {
		return allJobs(t, srv)[jobs.ThumbnailGeneration].JobCounts == model.JobCounts{Completed: 6}
	}, 10*time.Second, 20*time.Millisecond)
	jobCommand(t, srv, jobs.MetadataExtraction, `{"command":"start","force":true}`)
	require.Eventually(t, func() bool {
		return allJobs(t, srv)[jobs.MetadataExtraction].JobCounts == model.JobCounts{Completed: 6}
	}, 10*time.Second, 20*time.Millisecond)

	// A reset resumes a paused queue.
	jobCommand(t, srv, jobs.ThumbnailGeneration, `{"command":"pause"}`)
	require.Equal(t, http.StatusOK, controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", map[string]any{}).status)
	assert.Equal(t, model.JobStatus{}, allJobs(t, srv)[jobs.ThumbnailGeneration])
}

// uploadJPEG uploads a small JPEG as Alice, and is its asset's id.
func uploadJPEG(t *testing.T, srv *httptest.Server, name string) string {
	t.Helper()
	content := testJPEG(t, 64, 48)
	content = append(content, name...) // unique
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", name, string(content)), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)
	return res.ID
}

// TestReferenceShapesCountNoCompletedJobs: the reference's queues drop a
// job once it is done.
func TestReferenceShapesCountNoCompletedJobs(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.ReferenceShapes = true })
	uploadAsset(t, srv, keyAlice, "counted")
	assert.Equal(t, model.JobCounts{}, jobCommand(t, srv, jobs.Sidecar, `{"command":"start"}`).JobCounts)
	assert.Equal(t, model.JobCounts{}, allJobs(t, srv)[jobs.MetadataExtraction].JobCounts)
}

// TestAssetJobs: the owner runs jobs on their assets; another's asset, or
// none, refuses the whole request, with the reference's messages.
func TestAssetJobs(t *testing.T) {
	srv, _ := newMediaServer(t)
	id := uploadJPEG(t, srv, "job.jpg")
	waitForPicture(t, srv, "/api/asset/thumbnail/"+id)
	for _, tt := range []struct {
		name, key, body string
		status          int
		message         any
	}{
		{"nothing", keyAlice, `{}`, 400, []string{"name must be one of the following values: regenerate-thumbnail, refresh-metadata, transcode-video",
			"each value in assetIds must be a UUID", "assetIds should not be empty", "assetIds must be an array"}},
		{"a bad name", keyAlice, `{"assetIds":[],"name":"x"}`, 400, []string{"name must be one of the following values: regenerate-thumbnail, refresh-metadata, transcode-video"}},
		{"ids not a list", keyAlice, `{"assetIds":"x","name":"regenerate-thumbnail"}`, 400, []string{"each value in assetIds must be a UUID", "assetIds must be an array"}},
		{"another's asset", keyBob, `{"assetIds":["` + id + `"],"name":"regenerate-thumbnail"}`, 400, "Not found or no asset.update access"},
		{"no asset", keyAlice, `{"assetIds":["aa02bcd3-35fb-4924-9389-90607d2b0950"],"name":"refresh-metadata"}`, 400, "Not found or no asset.update access"},
		{"no one", "", `{}`, 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, jobsJSON(t, srv, http.MethodPost, "/api/asset/jobs", tt.key, tt.body), tt.status, tt.message)
		})
	}
	before := allJobs(t, srv)
	for _, name := range []string{"regenerate-thumbnail", "refresh-metadata", "transcode-video"} {
		rep := jobsJSON(t, srv, http.MethodPost, "/api/asset/jobs", keyAlice, `{"assetIds":["`+strings.ToUpper(id)+`","`+aliceAssetID+`"],"name":"`+name+`"}`)
		require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
		assert.Empty(t, rep.body)
	}
	require.Eventually(t, func() bool {
		after := allJobs(t, srv)
		return after[jobs.ThumbnailGeneration].JobCounts.Completed == before[jobs.ThumbnailGeneration].JobCounts.Completed+2 &&
			after[jobs.MetadataExtraction].JobCounts.Completed == before[jobs.MetadataExtraction].JobCounts.Completed+2 &&
			after[jobs.VideoConversion].JobCounts.Completed == 2
	}, 10*time.Second, 20*time.Millisecond)
	assert.Equal(t, http.StatusNoContent, jobsJSON(t, srv, http.MethodPost, "/api/asset/jobs", keyAlice, `{"assetIds":[],"name":"transcode-video"}`).status)
}

// TestReverseGeocodingState: the import of the built-in GeoNames cities
// (the reference's own), to admins only.
func TestReverseGeocodingState(t *testing.T) {
	srv := newTestServer(t)
	rep := jobsJSON(t, srv, http.MethodGet, "/api/system-metadata/reverse-geocoding-state", keyAlice, "")
	require.Equal(t, http.StatusOK, rep.status)
	assert.JSONEq(t, `{"lastUpdate":"2023-03-05T00:00:00+00:00","lastImportFileName":"cities500.txt"}`, string(rep.body))
	requireError(t, jobsJSON(t, srv, http.MethodGet, "/api/system-metadata/reverse-geocoding-state", keyBob, ""), http.StatusForbidden, "Forbidden resource")
	requireError(t, jobsJSON(t, srv, http.MethodGet, "/api/system-metadata/reverse-geocoding-state", "", ""), http.StatusUnauthorized, "Authentication required")
}

// fileReport is GET /api/reports as Alice.
func fileReport(t *testing.T, srv *httptest.Server) model.FileReport {
	t.Helper()
	rep := jobsJSON(t, srv, http.MethodGet, "/api/reports", keyAlice, "")
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var out model.FileReport
	rep.json(t, &out)
	return out
}

// TestFileReport: a consistent folder reports nothing; an asset deleted
// for good leaves its files as extras, whose checksums are those of their
// bytes; a fix points an asset at a file of the folder.
func TestFileReport(t *testing.T) {
	srv, dir := newMediaServer(t)
	dir, err := filepath.Abs(dir)
	require.NoError(t, err)
	id := uploadJPEG(t, srv, "kept.jpg")
	gone := uploadJPEG(t, srv, "gone.jpg")
	waitForPicture(t, srv, "/api/asset/thumbnail/"+id)
	waitForPicture(t, srv, "/api/asset/thumbnail/"+gone)
	assert.Equal(t, model.FileReport{Orphans: []model.FileReportItem{}, Extras: []string{}}, fileReport(t, srv))

	original := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+gone, nil, "x-api-key", keyAlice)).body
	rep := jobsJSON(t, srv, http.MethodDelete, "/api/asset", keyAlice, `{"ids":["`+gone+`"],"force":true}`)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	report := fileReport(t, srv)
	assert.Empty(t, report.Orphans)
	upload := filepath.Join(dir, "upload", gone)
	assert.ElementsMatch(t, []string{upload, filepath.Join(dir, "thumbs", gone+"-thumbnail.webp"), filepath.Join(dir, "thumbs", gone+"-preview.jpeg")}, report.Extras)

	rep = jobsJSON(t, srv, http.MethodPost, "/api/reports/checksum", keyAlice, `{"filenames":["`+upload+`"]}`)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	sum := sha1.Sum(original)
	assert.JSONEq(t, `[{"filename":"`+upload+`","checksum":"`+base64.StdEncoding.EncodeToString(sum[:])+`"}]`, string(rep.body))

	for _, tt := range []struct {
		name, path, body string
		message          any
	}{
		{"checksum: no names", "/api/reports/checksum", `{}`, []string{"each value in filenames must be a string"}},
		{"checksum: not strings", "/api/reports/checksum", `{"filenames":[1]}`, []string{"each value in filenames must be a string"}},
		{"checksum: outside", "/api/reports/checksum", `{"filenames":["/etc/passwd"]}`, "Could not get the checksum of /etc/passwd because the file isn't accessible by Immich"},
		{"checksum: a string", "/api/reports/checksum", `{"filenames":"x"}`, "Could not get the checksum of x because the file isn't accessible by Immich"},
		{"checksum: no such file", "/api/reports/checksum", `{"filenames":["` + dir + `/upload/nothing"]}`, "Could not get the checksum of " + dir + "/upload/nothing because there is no such file"},
		{"fix: no items", "/api/reports/fix", `{}`, []string{"items must be an array"}},
		{"fix: not objects", "/api/reports/fix", `{"items":[1]}`, []string{"items.each value in nested property items must be either object or array"}},
		{"fix: an empty item", "/api/reports/fix", `{"items":[{}]}`, []string{"items.0.entityId must be a UUID", "items.0.entityId should not be empty",
			"items.0.entityId must be a string", "items.0.entityType must be one of the following values: asset, person, user",
			"items.0.pathType must be one of the following values: ", "items.0.pathValue must be a string"}},
		{"fix: outside", "/api/reports/fix", `{"items":[{"entityId":"` + id + `","entityType":"asset","pathType":"original","pathValue":"/x"}]}`,
			"Could not fix item " + id + " with path /x because the file isn't accessible by Immich"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, jobsJSON(t, srv, http.MethodPost, tt.path, keyAlice, tt.body), http.StatusBadRequest, tt.message)
		})
	}
	for _, path := range []string{"/api/reports", "/api/reports/checksum", "/api/reports/fix"} {
		method := http.MethodPost
		if path == "/api/reports" {
			method = http.MethodGet
		}
		requireError(t, jobsJSON(t, srv, method, path, keyBob, `{}`), http.StatusForbidden, "Forbidden resource")
	}

	// The kept asset takes the deleted one's original: the extra is named.
	rep = jobsJSON(t, srv, http.MethodPost, "/api/reports/fix", keyAlice,
		`{"items":[{"entityId":"`+id+`","entityType":"asset","pathType":"original","pathValue":"`+upload+`"}]}`)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	assert.Empty(t, rep.body)
	assert.Equal(t, original, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+id, nil, "x-api-key", keyAlice)).body)
	assert.Len(t, fileReport(t, srv).Extras, 3, "the kept asset's own original is now the extra")
}

// TestFileReportWithoutMediaFolder: nothing kept, nothing to report; no
// name is the folder's.
func TestFileReportWithoutMediaFolder(t *testing.T) {
	srv := newTestServer(t)
	assert.Equal(t, model.FileReport{Orphans: []model.FileReportItem{}, Extras: []string{}}, fileReport(t, srv))
	rep := jobsJSON(t, srv, http.MethodPost, "/api/reports/checksum", keyAlice, `{"filenames":[]}`)
	require.Equal(t, http.StatusCreated, rep.status)
	assert.JSONEq(t, `[]`, string(rep.body))
	requireError(t, jobsJSON(t, srv, http.MethodPost, "/api/reports/checksum", keyAlice, `{"filenames":["upload/x"]}`), http.StatusBadRequest,
		"Could not get the checksum of upload/x because the file isn't accessible by Immich")
	assert.Equal(t, http.StatusCreated, jobsJSON(t, srv, http.MethodPost, "/api/reports/fix", keyAlice, `{"items":[]}`).status)
}

// TestRunningQueueIsNotStartedAgain: a queue that runs a job answers a
// start with the reference's 400, and starts once it is done.
func TestRunningQueueIsNotStartedAgain(t *testing.T) {
	m, err := New(Config{Dataset: testDataset, Now: testNow})
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	end := m.s.jobs.Queue(jobs.Library).Begin()
	requireError(t, jobsJSON(t, srv, http.MethodPut, "/api/jobs/library", keyAlice, `{"command":"start","force":true}`), http.StatusBadRequest, "Job is already running")
	st := jobCommand(t, srv, jobs.Library, `{"command":"pause"}`)
	assert.Equal(t, model.JobStatus{JobCounts: model.JobCounts{Active: 1}, QueueStatus: model.QueueStatus{IsActive: true, IsPaused: true}}, st)
	end(nil)
	assert.Equal(t, model.JobCounts{Completed: 2}, jobCommand(t, srv, jobs.Library, `{"command":"start"}`).JobCounts)
}

// TestQueueStarter: a queue whose work set a starter is started by it, its
// error the answer.
func TestQueueStarter(t *testing.T) {
	m, err := New(Config{Dataset: testDataset, Now: testNow})
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	var forced []bool
	m.s.jobs.Queue(jobs.Library).SetStarter(func(force bool) error {
		forced = append(forced, force)
		if force {
			return store.Fail(store.Invalid, "No library to scan")
		}
		return nil
	})
	assert.Equal(t, model.JobCounts{}, jobCommand(t, srv, jobs.Library, `{"command":"start"}`).JobCounts)
	requireError(t, jobsJSON(t, srv, http.MethodPut, "/api/jobs/library", keyAlice, `{"command":"start","force":"true"}`), http.StatusBadRequest, "No library to scan")
	assert.Equal(t, []bool{false, true}, forced)
}

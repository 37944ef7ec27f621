package steps

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The server's work: the queues an admin reads and commands (the web app's
// job page), the jobs an owner runs on their photos, the file report of the
// media folder (the repair page), and the reverse geocoder's state. A queue
// a scenario pauses it resumes when it ends, whatever happened.

// jobQueues are the queues the reference's job page shows.
var jobQueues = []string{"thumbnailGeneration", "metadataExtraction", "videoConversion", "faceDetection",
	"facialRecognition", "smartSearch", "duplicateDetection", "backgroundTask", "storageTemplateMigration",
	"migration", "search", "sidecar", "library", "notifications"}

// jobStatusSeen is a queue as the harness reads it.
type jobStatusSeen struct {
	JobCounts *struct {
		Active, Completed, Failed, Delayed, Waiting, Paused *int
	} `json:"jobCounts"`
	QueueStatus *struct {
		IsActive, IsPaused *bool
	} `json:"queueStatus"`
}

// jobSteps are the steps of the server's work.
func (s *scenario) jobSteps() []step {
	return []step{
		{`^an admin asks for the queues of the server's work$`, s.adminAsksQueues},
		{`^every queue of the job page is there, with its jobs counted by state and whether it runs or is paused$`, s.everyQueueThere},
		{`^an admin has paused the queue "([^"]*)"$`, s.adminPausedQueue},
		{`^an admin resumes the queue "([^"]*)"$`, s.adminResumesQueue},
		{`^the queue "([^"]*)" is paused, holding at least one job$`, s.queuePausedHolding},
		{`^the queue "([^"]*)" is not paused$`, s.queueNotPaused},
		{`^that photo has no thumbnail yet$`, s.noThumbnailYet},
		{`^an admin sends the queue "([^"]*)" the command (.+)$`, s.adminSendsCommand},
		{`^I ask for the pictures of that photo to be made again$`, s.askPicturesAgain},
		{`^the other user asks for the pictures of that photo to be made again$`, s.otherAsksPicturesAgain},
		{`^I ask for the job "([^"]*)" on no photo$`, s.askJobOnNothing},
		{`^it is taken, with no answer$`, s.takenWithNoAnswer},
		{`^an admin asks for the state of the reverse geocoder$`, s.adminAsksGeocoder},
		{`^it names the file of places it imported, and when$`, s.geocoderNamesImport},
		{`^an admin asks for the file report$`, s.adminAsksFileReport},
		{`^it names no file of that photo, as missing or as one no record names$`, s.reportNamesNoFileOfPhoto},
		{`^an admin asks for the checksums of the files (.*)$`, s.adminAsksChecksums},
		{`^an admin has a photo's original pointed at the file "([^"]*)"$`, s.adminFixesOriginal},
		{`^they (read the queues of the server's work|pause a queue|read the file report|ask for the checksums of files|fix the file report|read the state of the reverse geocoder)$`, s.nonAdminTriesWork},
	}
}

// adminAsksQueues reads the queues as an admin.
func (s *scenario) adminAsksQueues(ctx context.Context) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	return s.sendAs(ctx, nil, admin, http.MethodGet, "/jobs", nil)
}

// everyQueueThere judges the queues: every one of the job page, each with
// its counts and flags.
func (s *scenario) everyQueueThere() error {
	var all map[string]jobStatusSeen
	if err := s.decodeLast(http.StatusOK, &all); err != nil {
		return err
	}
	for _, name := range jobQueues {
		q, ok := all[name]
		if !ok {
			return fmt.Errorf("the queue %q is missing: %s", name, s.last)
		}
		if err := q.judge(); err != nil {
			return fmt.Errorf("the queue %q: %w", name, err)
		}
	}
	if len(all) != len(jobQueues) {
		return fmt.Errorf("%d queues, want the job page's %d: %s", len(all), len(jobQueues), s.last)
	}
	return nil
}

// judge checks that a queue has every count, none negative, and both flags.
func (q jobStatusSeen) judge() error {
	c := q.JobCounts
	if c == nil || q.QueueStatus == nil || q.QueueStatus.IsActive == nil || q.QueueStatus.IsPaused == nil {
		return fmt.Errorf("no jobCounts or queueStatus, or a flag missing")
	}
	for _, n := range []*int{c.Active, c.Completed, c.Failed, c.Delayed, c.Waiting, c.Paused} {
		if n == nil || *n < 0 {
			return fmt.Errorf("a count is missing or negative")
		}
	}
	return nil
}

// queueCommand sends a queue a command as an admin, and reads its status.
func (s *scenario) queueCommand(ctx context.Context, queue, command string) (jobStatusSeen, error) {
	var st jobStatusSeen
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return st, err
	}
	err = s.call(ctx, command+" the queue "+queue, http.MethodPut, "/jobs/"+queue, admin, map[string]any{"command": command}, &st, http.StatusOK)
	return st, err
}

// adminPausedQueue pauses a queue, and resumes it when the scenario ends.
func (s *scenario) adminPausedQueue(ctx context.Context, queue string) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	s.later("resuming the queue "+queue, s.removing(admin, http.MethodPut, "/jobs/"+queue, map[string]any{"command": "resume"}))
	st, err := s.queueCommand(ctx, queue, "pause")
	if err != nil {
		return err
	}
	if st.QueueStatus == nil || st.QueueStatus.IsPaused == nil || !*st.QueueStatus.IsPaused {
		return fmt.Errorf("paused, the queue %s does not say so", queue)
	}
	return nil
}

// adminResumesQueue resumes a queue.
func (s *scenario) adminResumesQueue(ctx context.Context, queue string) error {
	_, err := s.queueCommand(ctx, queue, "resume")
	return err
}

// queueStatus reads one queue as an admin.
func (s *scenario) queueStatus(ctx context.Context, queue string) (jobStatusSeen, error) {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return jobStatusSeen{}, err
	}
	var all map[string]jobStatusSeen
	if err := s.call(ctx, "reading the queues", http.MethodGet, "/jobs", admin, nil, &all, http.StatusOK); err != nil {
		return jobStatusSeen{}, err
	}
	q := all[queue]
	return q, q.judge()
}

// queuePausedHolding waits until the queue, paused, holds a job (the
// reference queues a photo's pictures after its metadata is read).
func (s *scenario) queuePausedHolding(ctx context.Context, queue string) error {
	return s.settle(ctx, func() error {
		q, err := s.queueStatus(ctx, queue)
		if err != nil {
			return err
		}
		if !*q.QueueStatus.IsPaused || *q.JobCounts.Paused+*q.JobCounts.Waiting < 1 {
			return fmt.Errorf("the queue %s is paused %v, holding %d paused and %d waiting jobs", queue, *q.QueueStatus.IsPaused, *q.JobCounts.Paused, *q.JobCounts.Waiting)
		}
		return nil
	})
}

// queueNotPaused judges a queue running.
func (s *scenario) queueNotPaused(ctx context.Context, queue string) error {
	q, err := s.queueStatus(ctx, queue)
	if err != nil {
		return err
	}
	if *q.QueueStatus.IsPaused {
		return fmt.Errorf("the queue %s is still paused", queue)
	}
	return nil
}

// noThumbnailYet asks for the photo's thumbnail, a moment after its upload:
// not there while its queue is paused.
func (s *scenario) noThumbnailYet(ctx context.Context) error {
	if s.firstID == "" {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	time.Sleep(300 * time.Millisecond) // what a running queue takes to make it
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/asset/thumbnail/" + s.firstID, creds: s.creds})
	if err != nil {
		return err
	}
	if resp.status != http.StatusNotFound {
		return fmt.Errorf("want 404 while the pictures wait, got: %s", resp)
	}
	return nil
}

// adminSendsCommand sends a queue a body as written, as an admin.
func (s *scenario) adminSendsCommand(ctx context.Context, queue, body string) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPut, path: "/jobs/" + queue, creds: admin,
		contentType: "application/json", body: []byte(body)})
	return s.keep(resp, nil, err)
}

// askPicturesAgain asks, as the photo's owner, for its pictures to be made
// again.
func (s *scenario) askPicturesAgain(ctx context.Context) error {
	if s.firstID == "" {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPost, "/asset/jobs", map[string]any{"assetIds": []string{s.firstID}, "name": "regenerate-thumbnail"})
}

// otherAsksPicturesAgain asks, as the other user, for the pictures of my
// photo to be made again.
func (s *scenario) otherAsksPicturesAgain(ctx context.Context) error {
	if s.firstID == "" {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, other, credentials{apiKey: other.apiKey}, http.MethodPost, "/asset/jobs",
		map[string]any{"assetIds": []string{s.firstID}, "name": "regenerate-thumbnail"})
}

// askJobOnNothing asks for a job, by name as written, on no photo.
func (s *scenario) askJobOnNothing(ctx context.Context, name string) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodPost, "/asset/jobs", map[string]any{"assetIds": []string{}, "name": name})
}

// takenWithNoAnswer judges the last answer a 204 without a body.
func (s *scenario) takenWithNoAnswer() error {
	if err := s.wantStatus(http.StatusNoContent); err != nil {
		return err
	}
	if len(s.last.body) != 0 {
		return fmt.Errorf("a 204 with a body: %s", s.last)
	}
	return nil
}

// adminAsksGeocoder reads the reverse geocoder's state as an admin.
func (s *scenario) adminAsksGeocoder(ctx context.Context) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	return s.sendAs(ctx, nil, admin, http.MethodGet, "/system-metadata/reverse-geocoding-state", nil)
}

// geocoderNamesImport judges the state: the file imported, and a date.
func (s *scenario) geocoderNamesImport() error {
	var st struct {
		LastUpdate         *string `json:"lastUpdate"`
		LastImportFileName *string `json:"lastImportFileName"`
	}
	if err := s.decodeLast(http.StatusOK, &st); err != nil {
		return err
	}
	if st.LastImportFileName == nil || *st.LastImportFileName == "" || st.LastUpdate == nil {
		return fmt.Errorf("no file or date of the import: %s", s.last)
	}
	if _, err := time.Parse(time.RFC3339, *st.LastUpdate); err != nil {
		return fmt.Errorf("lastUpdate %q is no date: %w", *st.LastUpdate, err)
	}
	return nil
}

// adminAsksFileReport reads the file report as an admin.
func (s *scenario) adminAsksFileReport(ctx context.Context) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	return s.sendAs(ctx, nil, admin, http.MethodGet, "/reports", nil)
}

// reportNamesNoFileOfPhoto judges the report: the photo is no orphan, and
// no extra is named after it.
func (s *scenario) reportNamesNoFileOfPhoto() error {
	var report struct {
		Orphans []struct {
			EntityID  string `json:"entityId"`
			PathValue string `json:"pathValue"`
		} `json:"orphans"`
		Extras []string `json:"extras"`
	}
	if err := s.decodeLast(http.StatusOK, &report); err != nil {
		return err
	}
	if report.Orphans == nil || report.Extras == nil {
		return fmt.Errorf("no orphans or extras: %s", s.last)
	}
	for _, o := range report.Orphans {
		if o.EntityID == s.firstID {
			return fmt.Errorf("the photo %s is reported missing its file %s", s.firstID, o.PathValue)
		}
	}
	if i := slices.IndexFunc(report.Extras, func(e string) bool { return strings.Contains(e, s.firstID) }); i >= 0 {
		return fmt.Errorf("a file of the photo %s is reported as one no record names: %s", s.firstID, report.Extras[i])
	}
	return nil
}

// adminAsksChecksums asks for the checksums of files named as written, a
// JSON list.
func (s *scenario) adminAsksChecksums(ctx context.Context, names string) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: "/reports/checksum", creds: admin,
		contentType: "application/json", body: []byte(`{"filenames":` + names + `}`)})
	return s.keep(resp, nil, err)
}

// noSuchEntity is an id no record has, for a fix that must be refused
// before any record is looked at.
const noSuchEntity = "00000000-0000-4000-8000-000000000000"

// adminFixesOriginal has an admin point an asset's original at a path.
func (s *scenario) adminFixesOriginal(ctx context.Context, path string) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	item := map[string]any{"entityId": noSuchEntity, "entityType": "asset", "pathType": "original", "pathValue": path}
	return s.sendAs(ctx, nil, admin, http.MethodPost, "/reports/fix", map[string]any{"items": []any{item}})
}

// nonAdminTriesWork asks, as the new user who is no admin, for what only
// an admin may of the server's work.
func (s *scenario) nonAdminTriesWork(ctx context.Context, try string) error {
	u := s.settings.user
	if u == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	creds := credentials{apiKey: u.apiKey}
	switch try {
	case "read the queues of the server's work":
		return s.sendKept(ctx, u, creds, http.MethodGet, "/jobs", nil)
	case "pause a queue":
		return s.sendKept(ctx, u, creds, http.MethodPut, "/jobs/library", map[string]any{"command": "pause"})
	case "read the file report":
		return s.sendKept(ctx, u, creds, http.MethodGet, "/reports", nil)
	case "ask for the checksums of files":
		return s.sendKept(ctx, u, creds, http.MethodPost, "/reports/checksum", map[string]any{"filenames": []string{}})
	case "fix the file report":
		return s.sendKept(ctx, u, creds, http.MethodPost, "/reports/fix", map[string]any{"items": []any{}})
	}
	return s.sendKept(ctx, u, creds, http.MethodGet, "/system-metadata/reverse-geocoding-state", nil)
}

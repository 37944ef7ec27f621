package api

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/jobs"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Jobs: the queues of the mock's own work, as the reference's job page
// shows and commands them (the upstream's job controller), and the jobs a
// user runs on their assets (POST /api/asset/jobs). The queues are the
// board of package jobs: the pictures of uploads are its
// thumbnailGeneration queue, each upload's metadata step a job of
// metadataExtraction, and other work (library scans) reports into its own.

// The commands of JobCommandDto.
const (
	jobStart       = "start"
	jobPause       = "pause"
	jobResume      = "resume"
	jobEmpty       = "empty"
	jobClearFailed = "clear-failed"
)

// JobIdParamDto: the {id} of PUT /api/jobs/{id}, a queue's name.
var jobNameParam = dto.NewClass("JobIdParamDto",
	dto.Field("id", isNotEmpty, dto.As(dto.IsEnum(jobs.Names...))),
)

// JobCommandDto: PUT /api/jobs/{id}.
var jobCommandBody = dto.NewClass("JobCommandDto",
	dto.Field("command", isNotEmpty, dto.As(dto.IsEnum(jobStart, jobPause, jobResume, jobEmpty, jobClearFailed))),
	dto.Field("force", optionalBool),
)

// The jobs of AssetJobsDto (AssetJobName).
const (
	assetJobThumbnail = "regenerate-thumbnail"
	assetJobMetadata  = "refresh-metadata"
	assetJobTranscode = "transcode-video"
)

// AssetJobsDto: POST /api/asset/jobs, AssetIdsDto's ids judged after the
// name.
var assetJobsBody = dto.NewClass("AssetJobsDto",
	dto.Field("name", dto.As(dto.IsEnum(assetJobThumbnail, assetJobMetadata, assetJobTranscode))),
	dto.Field("assetIds", uuids),
)

// againPrefix marks a thumbnailGeneration job that makes an asset's
// pictures once more (a start with force, an asset job): no
// on_upload_success follows, as on the reference, whose event is the
// upload's alone.
const againPrefix = "again:"

// jobRoutes are the queues of the server's work, the asset jobs, the file
// report of the media folder and the reverse geocoder's state.
func (s *server) jobRoutes() []route {
	return []route{
		{pattern: "GET /api/jobs", policy: admin, op: s.allJobs},
		{pattern: "PUT /api/jobs/{name}", policy: admin, op: s.jobCommand},
		{pattern: "POST /api/asset/jobs", policy: user, body: assetJobsBody, do: s.runAssetJobs},
		{pattern: "GET /api/reports", policy: admin, op: s.fileReport},
		{pattern: "POST /api/reports/checksum", policy: admin, body: fileChecksumBody, do: s.fileChecksums},
		{pattern: "POST /api/reports/fix", policy: admin, body: fileReportFixBody, do: s.fixFiles},
		{pattern: "GET /api/system-metadata/reverse-geocoding-state", policy: admin, op: s.reverseGeocodingState},
	}
}

// pictureJob is the work of a thumbnailGeneration job: an upload's
// pictures, then its on_upload_success; or, for a job againPrefix marks,
// the pictures alone.
func (s *server) pictureJob(job string) error {
	if id, ok := strings.CutPrefix(job, againPrefix); ok {
		return s.makeUploadPictures(id)
	}
	return s.makePicturesThenTell(job)
}

// jobStatus is a queue's status as JobStatusDto shows it. The reference's
// queues drop a job once it is completed, so that it counts none: with
// ReferenceShapes, neither does the mock.
func (s *server) jobStatus(st jobs.Status) model.JobStatus {
	c := st.Counts
	if s.cfg.ReferenceShapes {
		c.Completed = 0
	}
	return model.JobStatus{
		JobCounts:   model.JobCounts{Active: c.Active, Completed: c.Completed, Failed: c.Failed, Delayed: c.Delayed, Waiting: c.Waiting, Paused: c.Paused},
		QueueStatus: model.QueueStatus{IsActive: st.IsActive, IsPaused: st.IsPaused},
	}
}

// allJobs is GET /api/jobs: every queue.
func (s *server) allJobs(c *call) error {
	all := s.jobs.Status()
	st := func(name string) model.JobStatus { return s.jobStatus(all[name]) }
	return c.json(http.StatusOK, model.AllJobStatus{
		ThumbnailGeneration: st(jobs.ThumbnailGeneration), MetadataExtraction: st(jobs.MetadataExtraction),
		VideoConversion: st(jobs.VideoConversion), SmartSearch: st(jobs.SmartSearch),
		StorageTemplateMigration: st(jobs.StorageTemplateMigrate), Migration: st(jobs.Migration),
		BackgroundTask: st(jobs.BackgroundTask), Search: st(jobs.Search), DuplicateDetection: st(jobs.DuplicateDetection),
		FaceDetection: st(jobs.FaceDetection), FacialRecognition: st(jobs.FacialRecognition), Sidecar: st(jobs.Sidecar),
		Library: st(jobs.Library), Notifications: st(jobs.Notifications),
	})
}

// jobCommand is PUT /api/jobs/{id}: start, pause, resume, empty or clear
// the failed jobs of a queue; the answer is the queue's status after. The
// name is judged before the body, as the reference's pipes judge them.
func (s *server) jobCommand(c *call) error {
	// The body first, then the name: the reference's pipes answer the
	// argument its controller declares last.
	b, done, err := s.readBody(c, jobCommandBody)
	if err != nil {
		return err
	}
	defer done()
	name := c.r.PathValue("name")
	if _, err := jobNameParam.Validate(map[string]any{"id": name}); err != nil {
		return bodyError(err)
	}
	q := s.jobs.Queue(name)
	command, _ := b.String("command")
	switch command {
	case jobStart:
		force, _ := b.Bool("force")
		if err := s.startJob(q, force); err != nil {
			return err
		}
	case jobPause:
		q.Pause()
	case jobResume:
		q.Resume()
	case jobEmpty:
		q.Empty()
	case jobClearFailed:
		q.ClearFailed()
	}
	return c.json(http.StatusOK, s.jobStatus(q.Status()))
}

// startJob queues a queue's work, as the reference's start does: the
// pictures of the uploads that have none (force: of every upload), the
// metadata of every upload (force only: the mock reads it at the upload);
// a queue whose work set a starter (jobs.Queue.SetStarter), what it says;
// the other queues the mock has no work for count the one job that finds
// none.
// Three queues are no one's to start, and a queue that runs a job is
// started once.
func (s *server) startJob(q *jobs.Queue, force bool) error {
	if q.Status().IsActive {
		return store.Fail(store.Invalid, "Job is already running")
	}
	switch q.Name() {
	case jobs.BackgroundTask, jobs.Search, jobs.Notifications:
		return store.Fail(store.Invalid, "Invalid job name: %s", q.Name())
	case jobs.ThumbnailGeneration:
		for _, id := range s.uploads(func(a *model.AssetRecord) bool { return force || !a.Resized }) {
			q.Push(againPrefix + id)
		}
	case jobs.MetadataExtraction:
		if force {
			s.queueMetadata(s.uploads(nil))
		}
	default:
		if start := q.Starter(); start != nil {
			return start(force)
		}
		q.Begin()(nil)
	}
	return nil
}

// uploads are the ids of the assets, every user's, whose original the
// media folder keeps and which want says are to be queued (nil: all).
func (s *server) uploads(want func(a *model.AssetRecord) bool) []string {
	if s.folder == nil {
		return nil
	}
	var ids []string
	s.store.Read(func(v *store.View) {
		for _, u := range v.Users() {
			for _, a := range v.AssetsOwnedBy(u.ID) {
				if (want == nil || want(a)) && s.folder.Has(media.Original, a.ID) {
					ids = append(ids, a.ID)
				}
			}
		}
	})
	return ids
}

// queueMetadata queues metadataExtraction jobs of ids, its worker started
// the first time. The mock reads an upload's metadata once, as it arrives,
// from the file it keeps unchanged (a seeded asset's is its dataset's): a
// job finds the asset still there (completed) or gone (failed), and reads
// nothing new.
func (s *server) queueMetadata(ids []string) {
	q := s.jobs.Queue(jobs.MetadataExtraction)
	q.Start(1, func(id string) error {
		var ok bool
		s.store.Read(func(v *store.View) { ok = v.Asset(id) != nil })
		if !ok {
			return fmt.Errorf("asset %s is gone", id)
		}
		return nil
	})
	for _, id := range ids {
		q.Push(id)
	}
}

// metadataRead counts the metadata step of an upload (its file's, with
// its live photo's video and sidecar) as one metadataExtraction job
// completed.
func (s *server) metadataRead() {
	s.jobs.Queue(jobs.MetadataExtraction).Begin()(nil)
}

// runAssetJobs is POST /api/asset/jobs: the owner's assets' pictures made
// again, metadata refreshed, or videos transcoded (the mock transcodes
// nothing: each job completes at once, as the reference's does for an
// asset that is no video). Another's asset, or none, refuses the request.
func (s *server) runAssetJobs(c *call, b dto.Body) error {
	ids := b.Strings("assetIds")
	for i := range ids {
		ids[i] = strings.ToLower(ids[i])
	}
	_, err := store.Query(s.store, func(v *store.View) (struct{}, error) {
		for _, id := range ids {
			if a := v.Asset(id); a == nil || a.OwnerID != c.p().User.ID {
				return struct{}{}, store.Fail(store.NoAccess, "Not found or no asset.update access")
			}
		}
		return struct{}{}, nil
	})
	if err != nil {
		return err
	}
	name, _ := b.String("name")
	switch name {
	case assetJobThumbnail:
		q := s.jobs.Queue(jobs.ThumbnailGeneration)
		for _, id := range ids {
			if s.folder != nil && s.folder.Has(media.Original, id) {
				q.Push(againPrefix + id)
			} else {
				q.Begin()(nil) // painted on demand: nothing to make
			}
		}
	case assetJobMetadata:
		s.queueMetadata(ids)
	case assetJobTranscode:
		q := s.jobs.Queue(jobs.VideoConversion)
		for range ids {
			q.Begin()(nil)
		}
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

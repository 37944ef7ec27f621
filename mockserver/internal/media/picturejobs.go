package media

import (
	"log/slog"

	"github.com/mediaspec/mediaspec/mockserver/internal/jobs"
)

// Pictures of uploads are made as the reference makes them: after the
// upload has been answered, by a few workers, so that an upload answers as
// fast as it did. A thumbnail asked for before it is made answers the
// reference's 404; it is there milliseconds later (a 12 MP JPEG: about
// half a second).
//
// PictureWorkers is how many workers the mock starts.
const PictureWorkers = 2

// PictureJobs is the queue of uploads whose pictures are to be made: the
// board's thumbnailGeneration queue, whose counts and pause switch the
// reference's job page shows and an admin turns (PUT /api/jobs).
type PictureJobs struct {
	queue *jobs.Queue
	log   *slog.Logger
}

// StartPictureJobs starts workers on q that make the pictures of the
// uploads queued, one at a time each: do makes those of the upload id (the
// server's work), and its error is logged and counted failed.
func StartPictureJobs(q *jobs.Queue, workers int, log *slog.Logger, do func(id string) error) *PictureJobs {
	q.Start(workers, do)
	return &PictureJobs{queue: q, log: log}
}

// Add queues an upload, and says whether it did; with the queue full, its
// pictures are not made (they answer 404, as the reference's do when its
// jobs fail), and the log says so. Once the queue is closed, nothing is
// queued.
func (j *PictureJobs) Add(id string) bool {
	if !j.queue.Push(id) {
		j.log.Warn("making pictures", "asset", id, "error", "the queue is full or closed; its pictures will not be made")
		return false
	}
	return true
}

// Close stops the workers once the queued pictures are made, and waits
// for them: the media folder may then be removed.
func (j *PictureJobs) Close() { j.queue.Close() }

package media

import (
	"fmt"
	"log/slog"
	"sync"
)

// Pictures of uploads are made as the reference makes them: after the
// upload has been answered, by a few workers, so that an upload answers as
// fast as it did. A thumbnail asked for before it is made answers the
// reference's 404; it is there milliseconds later (a 12 MP JPEG: about
// half a second).
//
// PictureWorkers is how many workers the mock starts; pictureQueue how
// many uploads may wait for them.
const (
	PictureWorkers = 2
	pictureQueue   = 10_000
)

// PictureJobs is the queue of uploads whose pictures are to be made.
type PictureJobs struct {
	queue chan string
	log   *slog.Logger
	wg    sync.WaitGroup

	mu     sync.Mutex
	closed bool
}

// StartPictureJobs starts workers that make the pictures of the uploads
// queued, one at a time each: do makes those of the upload id (the
// server's work), and its error is logged.
func StartPictureJobs(workers int, log *slog.Logger, do func(id string) error) *PictureJobs {
	j := &PictureJobs{queue: make(chan string, pictureQueue), log: log}
	for range workers {
		j.wg.Go(func() {
			for id := range j.queue {
				if err := safely(do, id); err != nil {
					log.Error("making pictures", "asset", id, "error", err)
				}
			}
		})
	}
	return j
}

// safely runs do, a panic of which (a decoder's or encoder's bug, on a file
// a client sent) is an error of that upload, never the mock's end.
func safely(do func(id string) error, id string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("making its pictures panicked: %v", r)
		}
	}()
	return do(id)
}

// Add queues an upload, and says whether it did; with the queue full, its
// pictures are not made (they answer 404, as the reference's do when its
// jobs fail), and the log says so. Once the queue is closed, nothing is
// queued.
func (j *PictureJobs) Add(id string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return false
	}
	select {
	case j.queue <- id:
		return true
	default:
		j.log.Warn("making pictures", "asset", id, "error", "the queue is full; its pictures will not be made")
		return false
	}
}

// Close stops the workers once the queued pictures are made, and waits
// for them: the media folder may then be removed.
func (j *PictureJobs) Close() {
	j.mu.Lock()
	if !j.closed {
		j.closed = true
		close(j.queue)
	}
	j.mu.Unlock()
	j.wg.Wait()
}

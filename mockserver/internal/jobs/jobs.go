// Package jobs is the mock's board of background work, as the reference's
// job page shows its queues: a queue per name of the reference's
// QueueName, each with its counts (waiting, active, completed, failed) and
// a pause switch.
//
// Work reports into it in one of two ways:
//
//   - A queue of ids with workers of its own: Push an id, Start workers
//     once; the queue hands each id to a worker unless it is paused, and
//     counts it waiting, active, then completed or failed (the pictures of
//     uploads, through media.PictureJobs).
//   - Work run elsewhere (a step of an upload, a library scan in a
//     goroutine of its own): Queue.Begin counts one job active and gives
//     the function that ends it, completed or failed; Queue.WhilePaused
//     and Queue.Paused let such work wait while an admin pauses its queue.
//
// What an admin's start of a queue does is the work's own: Queue.SetStarter.
//
// The package knows nothing of HTTP, JSON or the store: the handlers of
// GET and PUT /api/jobs (package api) read Board.Status and send commands.
package jobs

import (
	"fmt"
	"log/slog"
	"sync"
)

// The names of the queues, as the reference's QueueName, in its order.
const (
	ThumbnailGeneration    = "thumbnailGeneration"
	MetadataExtraction     = "metadataExtraction"
	VideoConversion        = "videoConversion"
	FaceDetection          = "faceDetection"
	FacialRecognition      = "facialRecognition"
	SmartSearch            = "smartSearch"
	DuplicateDetection     = "duplicateDetection"
	BackgroundTask         = "backgroundTask"
	StorageTemplateMigrate = "storageTemplateMigration"
	Migration              = "migration"
	Search                 = "search"
	Sidecar                = "sidecar"
	Library                = "library"
	Notifications          = "notifications"
)

// Names are the queues' names, in the reference's order.
var Names = []string{
	ThumbnailGeneration, MetadataExtraction, VideoConversion, FaceDetection, FacialRecognition, SmartSearch,
	DuplicateDetection, BackgroundTask, StorageTemplateMigrate, Migration, Search, Sidecar, Library, Notifications,
}

// MaxWaiting is how many ids one queue holds waiting; past it Push
// refuses (the work is not done, and the log says so).
const MaxWaiting = 10_000

// Counts are a queue's jobs by state, as the reference's JobCountsDto.
// Delayed is always 0 (the mock retries nothing); Paused counts the jobs
// waiting in a paused queue (the reference's queue moves them there), and
// Waiting those of a running one.
type Counts struct {
	Active, Completed, Failed, Delayed, Waiting, Paused int
}

// Status is a queue's counts and switches, as the reference's JobStatusDto:
// IsActive while a job runs, IsPaused while an admin has paused it.
type Status struct {
	Counts   Counts
	IsActive bool
	IsPaused bool
}

// Board is the queues, each by its name; made once per server and shared
// by every piece of work that reports into it.
type Board struct {
	log    *slog.Logger
	queues map[string]*Queue
}

// NewBoard is a board of every queue of Names, none paused, with nothing
// counted; log gets the errors of the jobs that fail.
func NewBoard(log *slog.Logger) *Board {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Board{log: log, queues: make(map[string]*Queue, len(Names))}
	for _, name := range Names {
		q := &Queue{name: name, log: log}
		q.cond = sync.NewCond(&q.mu)
		b.queues[name] = q
	}
	return b
}

// Queue is the queue named name, or nil for a name not in Names.
func (b *Board) Queue(name string) *Queue { return b.queues[name] }

// Status is every queue's status, by name.
func (b *Board) Status() map[string]Status {
	out := make(map[string]Status, len(b.queues))
	for name, q := range b.queues {
		out[name] = q.Status()
	}
	return out
}

// Reset resumes every queue and forgets what they counted as done (the
// mock's state went back to its dataset); what waits or runs goes on.
func (b *Board) Reset() {
	for _, q := range b.queues {
		q.mu.Lock()
		q.completed, q.failed, q.paused = 0, 0, false
		q.cond.Broadcast()
		q.mu.Unlock()
	}
}

// Close stops every queue's workers once what waits is done, and waits
// for them.
func (b *Board) Close() {
	for _, q := range b.queues {
		q.Close()
	}
}

// Queue is one queue of the board: its waiting ids, its counts and its
// pause switch.
type Queue struct {
	name string
	log  *slog.Logger

	mu                        sync.Mutex
	cond                      *sync.Cond // signalled when an id arrives, the queue resumes, or closes
	waiting                   []string
	active, completed, failed int
	paused, closed, started   bool
	workers                   sync.WaitGroup
	starter                   func(force bool) error
}

// Name is the queue's name.
func (q *Queue) Name() string { return q.name }

// SetStarter sets what an admin's start of the queue does (PUT
// /api/jobs/{name} with "start"): queue its work, all of it with force.
// Its error is the answer. Work that owns a queue sets it once, when the
// server is made (a library scan: every library scanned).
func (q *Queue) SetStarter(start func(force bool) error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.starter = start
}

// Starter is what SetStarter set, or nil.
func (q *Queue) Starter() func(force bool) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.starter
}

// Start starts workers that take the queue's ids one at a time each and
// do them: do's error, or panic, counts the job failed and is logged. Only
// the first call starts any.
func (q *Queue) Start(workers int, do func(id string) error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.started || q.closed {
		return
	}
	q.started = true
	for range workers {
		q.workers.Go(func() {
			for {
				id, ok := q.take()
				if !ok {
					return
				}
				q.finish(id, safely(do, id))
			}
		})
	}
}

// take is the next id for a worker, once the queue is not paused; false
// once the queue is closed and nothing waits.
func (q *Queue) take() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.waiting) == 0 || (q.paused && !q.closed) {
		if q.closed && len(q.waiting) == 0 {
			return "", false
		}
		q.cond.Wait()
	}
	id := q.waiting[0]
	q.waiting[0] = ""
	q.waiting = q.waiting[1:]
	q.active++
	return id, true
}

// finish counts a job done.
func (q *Queue) finish(id string, err error) {
	if err != nil {
		q.log.Error("job failed", "queue", q.name, "id", id, "error", err)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.active--
	if err != nil {
		q.failed++
	} else {
		q.completed++
	}
}

// safely runs do, a panic of which (a decoder's bug, on a file a client
// sent) is that job's error, never the mock's end.
func safely(do func(id string) error, id string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the job panicked: %v", r)
		}
	}()
	return do(id)
}

// Push queues id for the workers, and says whether it did: not once the
// queue is closed, nor with MaxWaiting ids waiting.
func (q *Queue) Push(id string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(q.waiting) >= MaxWaiting {
		return false
	}
	q.waiting = append(q.waiting, id)
	q.cond.Signal()
	return true
}

// Begin counts one job of work run elsewhere active; end counts it
// completed (err nil) or failed. end is called once.
func (q *Queue) Begin() (end func(err error)) {
	q.mu.Lock()
	q.active++
	q.mu.Unlock()
	var once sync.Once
	return func(err error) { once.Do(func() { q.finish("", err) }) }
}

// Paused says whether an admin has paused the queue.
func (q *Queue) Paused() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.paused
}

// WhilePaused blocks work run elsewhere while the queue is paused (and
// not closed): a scan calls it between files.
func (q *Queue) WhilePaused() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.paused && !q.closed {
		q.cond.Wait()
	}
}

// Pause stops the workers taking ids (those running finish theirs).
func (q *Queue) Pause() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.paused = true
}

// Resume lets the workers take ids again.
func (q *Queue) Resume() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.paused = false
	q.cond.Broadcast()
}

// Empty drops the ids waiting, and says how many.
func (q *Queue) Empty() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.waiting)
	q.waiting = nil
	return n
}

// ClearFailed forgets the failed jobs, and says how many.
func (q *Queue) ClearFailed() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := q.failed
	q.failed = 0
	return n
}

// Status is the queue's counts and switches now.
func (q *Queue) Status() Status {
	q.mu.Lock()
	defer q.mu.Unlock()
	c := Counts{Active: q.active, Completed: q.completed, Failed: q.failed, Waiting: len(q.waiting)}
	if q.paused {
		c.Paused, c.Waiting = c.Waiting, 0
	}
	return Status{Counts: c, IsActive: q.active > 0, IsPaused: q.paused}
}

// Close stops the workers once the ids waiting are done (a paused queue
// runs them too), and waits for them; nothing is queued after.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
	q.workers.Wait()
}

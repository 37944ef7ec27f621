package api

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/exif"
	"github.com/mediaspec/mediaspec/mockserver/internal/ingest"
	"github.com/mediaspec/mediaspec/mockserver/internal/jobs"
	"github.com/mediaspec/mediaspec/mockserver/internal/libraryfs"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// A library's scan, as the reference's library jobs do it, in the
// background: it walks the import paths (libraryfs), imports the media
// files it has not seen as assets of the library's owner, read as uploads
// are (ingest: EXIF, a video's boxes, an XMP sidecar beside it) with their
// pictures made by the picture workers, and marks offline the assets whose
// file it no longer finds (online again once it finds them). A plain scan
// reads no file it already knows; refreshModifiedFiles reads those whose
// mtime changed, refreshAllFiles every one. It holds a batch of files at
// a time, whatever the size of the folders, and reads each file through
// its head and the parts its metadata lies in; it never writes a file.

// scanBatch is how many files a scan reads before it stores them.
const scanBatch = 100

// scanRequest is what a scan is asked to read again beyond new files.
type scanRequest struct{ modified, all bool }

// scans are the libraries' scans: at most one at a time per library; a
// scan asked for while one runs follows it (asked for twice, once, with
// both requests' options). Each scan asked for is a job of the board's
// library queue (GET /api/jobs), counted active from when it is asked for
// until it ends; a scan waits between files while an admin pauses that
// queue.
type scans struct {
	run   func(ctx context.Context, id string, req scanRequest)
	board *jobs.Queue // the board's library queue; nil: none

	mu      sync.Mutex
	ctx     context.Context
	stop    context.CancelFunc
	running map[string]*scanJob
	wg      sync.WaitGroup

	// Scans running and waiting, and the files scans have found.
	active, waiting, files atomic.Int64
}

// scanJob is a library's scan running, and the one to follow it, each
// with the end of its job on the board.
type scanJob struct {
	cancel  context.CancelFunc
	end     func(error)
	next    *scanRequest
	nextEnd func(error)
}

func newScans(queue *jobs.Queue, run func(ctx context.Context, id string, req scanRequest)) *scans {
	ctx, stop := context.WithCancel(context.Background())
	return &scans{run: run, board: queue, ctx: ctx, stop: stop, running: map[string]*scanJob{}}
}

// begin counts a job of the library queue active; its end counts it done.
func (sc *scans) begin() func(error) {
	if sc.board == nil {
		return func(error) {}
	}
	return sc.board.Begin()
}

// queue asks for a scan of the library id.
func (sc *scans) queue(id string, req scanRequest) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.ctx.Err() != nil {
		return
	}
	if j := sc.running[id]; j != nil {
		if j.next == nil {
			j.next, j.nextEnd = &scanRequest{}, sc.begin()
			sc.waiting.Add(1)
		}
		j.next.modified = j.next.modified || req.modified
		j.next.all = j.next.all || req.all
		return
	}
	ctx, cancel := context.WithCancel(sc.ctx)
	j := &scanJob{cancel: cancel, end: sc.begin()}
	sc.running[id] = j
	sc.active.Add(1)
	sc.wg.Go(func() {
		defer cancel()
		for {
			sc.run(ctx, id, req)
			sc.mu.Lock()
			j.end(ctx.Err())
			if j.next == nil || ctx.Err() != nil {
				if j.next != nil {
					sc.waiting.Add(-1)
					j.nextEnd(ctx.Err())
				}
				delete(sc.running, id)
				sc.active.Add(-1)
				sc.mu.Unlock()
				return
			}
			req, j.end, j.next, j.nextEnd = *j.next, j.nextEnd, nil, nil
			sc.waiting.Add(-1)
			sc.mu.Unlock()
		}
	})
}

// forget stops the scan of a library deleted.
func (sc *scans) forget(id string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if j := sc.running[id]; j != nil {
		j.cancel()
	}
}

// close stops every scan and waits for them.
func (sc *scans) close() {
	sc.mu.Lock()
	sc.stop()
	sc.mu.Unlock()
	sc.wg.Wait()
}

// Counts are the scans running and waiting.
func (sc *scans) Counts() (active, waiting int) {
	return int(sc.active.Load()), int(sc.waiting.Load())
}

// whilePaused holds a scan between files while an admin pauses the
// library queue.
func (sc *scans) whilePaused() {
	if sc.board != nil {
		sc.board.WhilePaused()
	}
}

// libraryIDs are every library's id.
func (s *server) libraryIDs() []string {
	var ids []string
	s.store.Read(func(v *store.View) {
		for _, l := range v.Libraries() {
			ids = append(ids, l.ID)
		}
	})
	return ids
}

// scanAll asks for a scan of every library: an admin's start of the
// library queue, as the reference's LIBRARY_QUEUE_SCAN_ALL (with force
// every file is read again, else those whose mtime changed).
func (s *server) scanAll(force bool) error {
	// The queueing is a job of the queue itself, as on the reference.
	defer s.jobs.Queue(jobs.Library).Begin()(nil)
	for _, id := range s.libraryIDs() {
		s.scans.queue(id, scanRequest{modified: !force, all: force})
	}
	return nil
}

// scanAtStart scans every library, with Config.ScanLibraries.
func (s *server) scanAtStart() {
	if !s.cfg.ScanLibraries {
		return
	}
	for _, id := range s.libraryIDs() {
		s.scans.queue(id, scanRequest{})
	}
}

// errLibraryGone stops a scan whose library was deleted meanwhile.
var errLibraryGone = errors.New("the library is gone")

// scanLibraryFiles is one scan of the library id.
func (s *server) scanLibraryFiles(ctx context.Context, id string, req scanRequest) {
	var lib model.LibraryRecord
	var known map[string]store.LibraryFile
	s.store.Read(func(v *store.View) {
		if l := v.Library(id); l != nil {
			lib, known = *l, v.LibraryFiles(id)
		}
	})
	if known == nil {
		return
	}
	b := &scanBatchOf{s: s, ctx: ctx, lib: id}
	ex := libraryfs.NewExclusions(lib.ExclusionPatterns)
	for _, dir := range lib.ImportPaths {
		if msg := libraryfs.Check(dir, s.mediaDir()); msg != "" {
			s.log.Warn("library scan: skipping an import path", "library", id, "path", dir, "reason", msg)
			continue
		}
		err := libraryfs.Walk(ctx, dir, ex, func(f libraryfs.File) error {
			s.scans.whilePaused()
			s.scans.files.Add(1)
			k, ok := known[f.Path]
			if ok {
				delete(known, f.Path)
				if !k.Offline && !req.modified && !req.all {
					s.linkOriginal(k.ID, f) // a dataset's asset, loaded anew
					return nil
				}
			}
			return b.add(f, k, ok, req)
		})
		if err != nil {
			return // ended (a reset, a deletion, the mock stopping)
		}
	}
	if b.flush() != nil {
		return
	}
	var vanished []string
	for _, k := range known {
		if !k.Offline {
			vanished = append(vanished, k.ID)
		}
	}
	if err := s.store.Write(func(tx *store.Tx) error {
		if err := tx.SetOffline(vanished, true); err != nil {
			return err
		}
		return tx.SetLibraryRefreshed(id)
	}); err != nil {
		s.log.Error("library scan", "library", id, "error", err)
	}
}

// scanBatchOf is the files a scan has read and not yet stored.
type scanBatchOf struct {
	s   *server
	ctx context.Context
	lib string

	added     []model.AssetRecord
	addedFrom []libraryfs.File
	refreshed []model.AssetRecord
	refreshOf []string // the assets' ids
	roots     []string // of refreshed
}

// add reads a file found: new (known false), or known as k and to be read
// again where req says so.
func (b *scanBatchOf) add(f libraryfs.File, k store.LibraryFile, known bool, req scanRequest) error {
	a, mtime, ok := readLibraryFile(f, b.s.places)
	switch {
	case !ok:
		return nil
	case !known:
		b.added, b.addedFrom = append(b.added, a), append(b.addedFrom, f)
	case !k.Offline && !req.all && model.At(mtime).Equal(k.Modified.Time):
		return nil // unchanged
	default:
		b.refreshed, b.refreshOf, b.roots = append(b.refreshed, a), append(b.refreshOf, k.ID), append(b.roots, f.Root)
	}
	if len(b.added)+len(b.refreshed) < scanBatch {
		return nil
	}
	return b.flush()
}

// flush stores what the batch read, and queues the assets' pictures.
func (b *scanBatchOf) flush() error {
	s := b.s
	if len(b.added)+len(b.refreshed) == 0 {
		return nil
	}
	s.waitForPictureRoom(b.ctx)
	ids, err := store.Update(s.store, func(tx *store.Tx) ([]string, error) {
		ids, err := tx.AddLibraryAssets(b.lib, b.added)
		if err != nil {
			return nil, err
		}
		for i, id := range b.refreshOf {
			if err := tx.RefreshLibraryAsset(id, b.refreshed[i]); err != nil {
				return nil, err
			}
		}
		return ids, nil
	})
	if err != nil {
		if store.CodeOf(err) != store.NotFound {
			s.log.Error("library scan", "library", b.lib, "error", err)
		}
		return errLibraryGone
	}
	for i, id := range ids {
		if id != "" {
			s.libraryPictures(id, b.addedFrom[i].Path, b.addedFrom[i].Root)
		}
	}
	for i, id := range b.refreshOf {
		s.libraryPictures(id, b.refreshed[i].OriginalPath, b.roots[i])
	}
	b.added, b.addedFrom, b.refreshed, b.refreshOf, b.roots = b.added[:0], b.addedFrom[:0], b.refreshed[:0], b.refreshOf[:0], b.roots[:0]
	return b.ctx.Err()
}

// waitForPictureRoom holds a scan back while half the most the
// thumbnailGeneration queue holds wait there (paused ones too), so that
// uploads always find room.
func (s *server) waitForPictureRoom(ctx context.Context) {
	q := s.jobs.Queue(jobs.ThumbnailGeneration)
	for s.pictureJobs != nil && ctx.Err() == nil {
		if c := q.Status().Counts; c.Waiting+c.Paused <= jobs.MaxWaiting/2 {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// linkOriginal names a library asset's file as its original.
func (s *server) linkOriginal(id string, f libraryfs.File) {
	if s.folder != nil {
		s.folder.Link(id, f.Path, f.Root)
	}
}

// libraryPictures names a library asset's file as its original, read in
// place, and makes its pictures; its owner hears of it once they are
// made, as of an upload.
func (s *server) libraryPictures(id, path, root string) {
	if s.folder == nil || s.pictureJobs == nil {
		s.tellUploaded(id)
		return
	}
	s.folder.Link(id, path, root)
	if !s.pictureJobs.Add(id) {
		s.tellUploaded(id)
	}
}

// readLibraryFile reads a library's file as an upload of it would be
// read, and its mtime; ok false for a file that cannot be read, or whose
// name or path is past the store's bounds.
func readLibraryFile(f libraryfs.File, places ingest.Places) (a model.AssetRecord, mtime time.Time, ok bool) {
	name := filepath.Base(f.Path)
	if len(name) > store.MaxFileNameBytes || len(f.Path) > store.MaxPathBytes {
		return a, mtime, false
	}
	fh, err := media.OpenWithin(f.Path, f.Root)
	if err != nil {
		return a, mtime, false
	}
	defer fh.Close()
	info, err := fh.Stat()
	if err != nil {
		return a, mtime, false
	}
	mtime, size := nodeTime(info.ModTime()), info.Size()
	head := make([]byte, exif.SniffSize)
	n, err := fh.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return a, mtime, false
	}
	a = model.AssetRecord{
		DeviceAssetID: strings.Join(strings.Fields(name), ""), DeviceID: "Library Import",
		Type: f.Type, OriginalPath: f.Path, OriginalFileName: name, Duration: model.DefaultDuration,
		FileCreatedAt: model.At(mtime), FileModifiedAt: model.At(mtime), LocalDateTime: model.At(mtime),
		IsVisible: true,
	}
	file := ingest.File{Head: head[:n], Whole: io.NewSectionReader(fh, 0, size), Size: size, IsVideo: f.Type == model.AssetVideo}
	ingest.Read(&a, file, readSidecar(f.Path+".xmp", f.Root), mtime, mtime, places)
	return a, mtime, true
}

// nodeTime is t to the millisecond as Node.js rounds a file's times
// (fs.Stats' dates are made from milliseconds + 0.5): the reference
// compares mtimes so, and a file touched 1 ms later by a tool that writes
// seconds as a float is changed for it.
func nodeTime(t time.Time) time.Time {
	return time.UnixMilli((t.UnixNano() + 500_000) / 1_000_000).UTC()
}

// readSidecar is the XMP sidecar beside a library's file (FILE.xmp, as
// the reference's import looks for it), within its import path; nil for
// none.
func readSidecar(path, root string) []byte {
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	f, err := media.OpenWithin(path, root)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, exif.MaxXMP+1))
	if err != nil || len(b) > exif.MaxXMP {
		return nil
	}
	return b
}

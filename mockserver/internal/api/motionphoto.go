package api

import (
	"crypto/sha1"
	"fmt"
	"io"

	"github.com/mediaspec/mediaspec/mockserver/internal/ingest"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/mp4"
)

// A motion photo is a still that carries its few seconds of video inside
// its own file: Samsung's phones append it to a JPEG (in the trailer their
// Gallery reads) or keep it in a HEIC's mpvd box; Google's, and Samsung's
// too, name its length in the JPEG's XMP (Camera:MotionPhoto with a
// Container:Directory, or the older MicroVideoOffset). The reference
// extracts that video as a hidden VIDEO asset, the still's
// livePhotoVideoId, as it does a live photo's livePhotoData; the mock
// does too, at the upload, reading the file it has just kept.

// motionVideo is the video a motion photo carries: the part the upload
// reads as its live photo's video, and where it lies in the still's file.
type motionVideo struct {
	part      *filePart
	off, size int64
}

// motionVideoName is the name given to the part: the hidden video is named
// after the still, with this extension, as the reference names it.
const motionVideoName = "motion.mp4"

// kept is an upload's file as it was written to the media folder, read in
// place; nil without a media folder.
func (up *upload) kept(f *filePart) *io.SectionReader {
	var a *media.Arriving
	switch f {
	case up.asset:
		a = up.assetFile
	case up.live:
		a = up.liveFile
	}
	if a == nil {
		return nil
	}
	return a.Written()
}

// readMotionVideo finds the video a still carries, if any, and makes it
// the upload's live photo video: hashed, and its boxes read, from the file
// kept in place. A live photo's own livePhotoData wins over it.
func (up *upload) readMotionVideo(f *filePart) {
	if up.live != nil || f != up.asset {
		return
	}
	file := up.kept(f)
	if file == nil {
		return // no media folder: the file's end was not kept
	}
	off, n, ok := ingest.FindMotionVideo(file, f.head)
	if !ok {
		return
	}
	h := sha1.New()
	scan := &mp4.Scanner{SkipCover: true}
	if _, err := io.Copy(io.MultiWriter(h, scan), io.NewSectionReader(file, off, n)); err != nil {
		return
	}
	part := &filePart{filename: motionVideoName, size: n, video: scan}
	h.Sum(part.sum[:0])
	up.motion = &motionVideo{part: part, off: off, size: n}
	up.live = part
}

// keepMotionVideo keeps an upload's motion video as the original of its
// hidden video asset, the bytes of the still's own file, and queues its
// pictures.
func (s *server) keepMotionVideo(up *upload, res store.Upload) {
	m := up.motion
	if m == nil || s.folder == nil || res.Duplicate || res.LiveVideoID == "" || s.folder.Has(media.Original, res.LiveVideoID) {
		return
	}
	if err := s.folder.Section(media.Original, res.LiveVideoID, res.ID, m.off, m.size); err != nil {
		s.log.Error("upload", "error", fmt.Errorf("the motion photo's video: %w", err))
		return
	}
	s.pictureJobs.Add(res.LiveVideoID)
}

// readMetadata sets what the reference's metadata job derives from an
// uploaded file on its asset (ingest.Read): first the video a motion
// photo carries, which becomes the upload's live photo video.
func (up *upload) readMetadata(a *model.AssetRecord, f *filePart, sidecar *filePart, places ingest.Places) {
	whole := up.kept(f)
	up.readMotionVideo(f)
	if up.motion != nil && f == up.motion.part {
		// As the reference names the video it extracts.
		a.DeviceAssetID, a.DeviceID = "NONE", "NONE"
	}
	var side []byte
	if sidecar != nil {
		side = sidecar.head
	}
	ingest.Read(a, ingest.File{Head: f.head, Whole: whole, Video: f.video, Size: f.size}, side, up.fileCreatedAt, up.fileModifiedAt, places)
}

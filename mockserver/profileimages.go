package mockserver

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/formdata"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
)

// Limits of profile images: one image, and all of them kept in memory
// where there is no media folder, those being read included.
const (
	maxProfileImage      = 16 << 20
	maxProfileImagesHeld = 64 << 20
)

// profileExtensions are the files a profile image may be, as the
// reference takes them.
var profileExtensions = []string{".avif", ".dng", ".heic", ".heif", ".jpeg", ".jpg", ".png", ".webp", ".svg"}

// profileImages keeps the pictures users upload as their profile image,
// by the path the user's profileImagePath names: in the media folder,
// written there as they arrive, each holding one of the places for a file
// an upload holds; or without one in memory, within maxProfileImagesHeld
// for those held and those being read.
type profileImages struct {
	media *media.Folder // nil: in memory

	mu    sync.Mutex
	held  map[string]heldImage
	bytes int // of held images, and reserved by those being read
}

type heldImage struct {
	body []byte
	at   time.Time
}

func newProfileImages(m *media.Folder) *profileImages {
	return &profileImages{media: m, held: map[string]heldImage{}}
}

// newImage is a profile image that has arrived, not yet kept: its file in
// the media folder, or its bytes in memory (their room reserved). put
// keeps it; discard gives up one that was not kept.
type newImage struct {
	name string
	file *media.Arriving
	body []byte
}

// errNoRoomForImages is the answer to a profile image the memory kept for
// them has no room for.
var errNoRoomForImages = errorf(http.StatusInsufficientStorage, "No room left for profile images: the mock holds %d bytes of them, those being uploaded included, without a media folder", maxProfileImagesHeld)

// reserve takes room for n bytes of an image being read, if there is.
func (p *profileImages) reserve(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+n > maxProfileImagesHeld {
		return false
	}
	p.bytes += n
	return true
}

func (p *profileImages) unreserve(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bytes -= n
}

// put keeps an image under its path.
func (p *profileImages) put(key string, img *newImage, at time.Time) error {
	if img.file != nil {
		return img.file.Keep(media.Profile, key)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.held[key] = heldImage{body: img.body, at: at} // its room was reserved as it was read
	img.body = nil
	return nil
}

// discard gives up an image that was not kept; after put it does nothing.
func (p *profileImages) discard(img *newImage) {
	if img.file != nil {
		img.file.Drop()
	}
	if img.body != nil {
		p.unreserve(cap(img.body))
		img.body = nil
	}
}

// heldReader is an image held in memory, read.
type heldReader struct{ *bytes.Reader }

func (heldReader) Close() error { return nil }

// get is the image kept under a path, and when it was kept; the caller
// closes it.
func (p *profileImages) get(key string) (io.ReadSeekCloser, time.Time, bool) {
	if p.media != nil {
		r, at, ok := p.media.Open(media.Profile, key)
		if !ok {
			return nil, time.Time{}, false
		}
		return r, at, true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	h, ok := p.held[key]
	return heldReader{bytes.NewReader(h.body)}, h.at, ok
}

// drop forgets an image held in memory (in a media folder, its bytes are
// written over in time).
func (p *profileImages) drop(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h, ok := p.held[key]; ok {
		p.bytes -= cap(h.body)
		delete(p.held, key)
	}
}

// createProfileImage is POST /api/users/profile-image: the multipart part
// "file" becomes the caller's profile image.
func (s *server) createProfileImage(c *call) error {
	bufs := s.uploadBuffers.get()
	defer s.uploadBuffers.put(bufs)
	img, err := s.profiles.receive(c.r, bufs)
	if err != nil {
		return err
	}
	defer s.profiles.discard(img) // kept by now, or no one's
	userID := c.p().User.ID
	key := fmt.Sprintf("upload/profile/%s/%s%s", userID, newImageID(), strings.ToLower(path.Ext(img.name)))
	if err := s.profiles.put(key, img, s.cfg.Now()); err != nil {
		return err
	}
	old, err := store.Update(s.store, func(tx *store.Tx) (string, error) {
		return tx.SetProfileImage(userID, key)
	})
	if err != nil {
		s.profiles.drop(key)
		return err
	}
	s.profiles.drop(old)
	return c.json(http.StatusCreated, struct {
		UserID           string `json:"userId"`
		ProfileImagePath string `json:"profileImagePath"`
	}{userID, key})
}

// newImageID names an uploaded profile image: a random UUID, as the
// reference names its files.
func newImageID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// receive reads the multipart body of a profile image through bufs: the
// part "file" streamed into the media folder, or read into memory within
// the room left. Text parts are ignored; a file under another name is
// refused. On an error, nothing of the image is kept.
func (p *profileImages) receive(r *http.Request, bufs *uploadBuffers) (_ *newImage, err error) {
	bufs.read.Reset(r.Body)
	defer bufs.read.Reset(nil)
	mr, err := multipartReader(r.Header.Get("Content-Type"), bufs.read)
	if err != nil {
		return nil, err
	}
	img := &newImage{}
	defer func() {
		if err != nil {
			p.discard(img)
		}
	}()
	for parts := 0; ; parts++ {
		if parts > maxParts {
			return nil, errorf(http.StatusBadRequest, "Too many parts: an upload has at most %d", maxParts)
		}
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, malformed(err)
		}
		if part.FileName() == "" {
			_, _ = io.Copy(io.Discard, io.LimitReader(part, maxFieldBytes))
			continue
		}
		if part.FormName() != "file" || img.name != "" {
			return nil, errorf(http.StatusBadRequest, "Unexpected field")
		}
		if img.name, err = rawFileName(part); err != nil {
			return nil, err
		}
		if !isProfileFile(img.name) {
			return nil, errorf(http.StatusBadRequest, "Unsupported file type %s", img.name)
		}
		if p.media != nil {
			err = p.write(img, part, bufs)
		} else {
			err = p.hold(img, part, r.ContentLength)
		}
		if err != nil {
			return nil, err
		}
	}
	if img.name == "" {
		return nil, errorf(http.StatusBadRequest, "File is required")
	}
	return img, nil
}

// tooLargeImage is the answer to a profile image over maxProfileImage.
var tooLargeImage = errorf(http.StatusRequestEntityTooLarge, "A profile image is at most %d bytes", maxProfileImage)

// write streams a part into a new file of the media folder, taking a
// place for it (503 while every place is taken).
func (p *profileImages) write(img *newImage, part *formdata.Part, bufs *uploadBuffers) error {
	f, err := incoming(p.media)
	if err != nil {
		return err
	}
	img.file = f
	bufs.file.Reset(f)
	defer bufs.file.Reset(nil)
	n, err := io.CopyBuffer(bufs.file, io.LimitReader(part, maxProfileImage+1), bufs.copy)
	if err == nil {
		err = bufs.file.Flush()
	}
	switch pe := (*fs.PathError)(nil); {
	case errors.Is(err, syscall.ENOSPC):
		return errorf(http.StatusInsufficientStorage, "No space left in the media folder for this profile image")
	case errors.As(err, &pe):
		return fmt.Errorf("writing a profile image: %w", err)
	case err != nil:
		return malformed(err)
	case n > maxProfileImage:
		return tooLargeImage
	}
	return nil
}

// hold reads a part into memory, taking room for it among the images held
// before each piece is read: at once for the body's length where it is
// known, else as it grows. A burst of images holds no more in all than
// maxProfileImagesHeld.
func (p *profileImages) hold(img *newImage, part *formdata.Part, bodyLength int64) error {
	const firstPiece = 64 << 10
	size := firstPiece
	if bodyLength > 0 {
		size = int(min(bodyLength, maxProfileImage+1))
	}
	if !p.reserve(size) {
		return errNoRoomForImages
	}
	img.body = make([]byte, 0, size)
	for {
		if len(img.body) == cap(img.body) {
			if len(img.body) > maxProfileImage {
				return tooLargeImage
			}
			grow := min(cap(img.body), maxProfileImage+1-cap(img.body))
			if !p.reserve(grow) {
				return errNoRoomForImages
			}
			img.body = append(make([]byte, 0, cap(img.body)+grow), img.body...) // the room taken is its cap
		}
		n, err := part.Read(img.body[len(img.body):cap(img.body)])
		img.body = img.body[:len(img.body)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return malformed(err)
		}
	}
	if len(img.body) > maxProfileImage {
		return tooLargeImage
	}
	if waste := cap(img.body) - len(img.body); waste > len(img.body)/8 {
		// A body longer than its file (text parts): held at its size.
		img.body = append(make([]byte, 0, len(img.body)), img.body...)
		p.unreserve(waste)
	}
	return nil
}

func isProfileFile(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	for _, e := range profileExtensions {
		if ext == e {
			return true
		}
	}
	return false
}

// deleteProfileImage is DELETE /api/users/profile-image.
func (s *server) deleteProfileImage(c *call) error {
	old, err := store.Update(s.store, func(tx *store.Tx) (string, error) {
		old, err := tx.SetProfileImage(c.p().User.ID, "")
		if err == nil && old == "" {
			err = store.Fail(store.Invalid, "Can't delete a missing profile Image")
		}
		return old, err
	})
	if err != nil {
		return err
	}
	s.profiles.drop(old)
	return noContent(c)
}

// profileImage is GET /api/users/{id}/profile-image: the image the user
// uploaded, as image/jpeg whatever it is, as the reference answers it; a
// seeded user's is a portrait the mock paints (the same for the same
// user); a user without one gets the reference's 404.
func (s *server) profileImage(c *call) error {
	u, err := store.Query(s.store, func(v *store.View) (model.UserRecord, error) {
		found := v.User(c.id)
		if found == nil {
			return model.UserRecord{}, store.Fail(store.Invalid, "User not found")
		}
		return *found, nil
	})
	if err != nil {
		return err
	}
	if u.ProfileImagePath == "" {
		return errorf(http.StatusNotFound, "User does not have a profile image")
	}
	h := c.w.Header()
	h.Set("Cache-Control", "public, max-age=0")
	h.Set("Content-Type", "image/jpeg")
	if r, at, ok := s.profiles.get(u.ProfileImagePath); ok {
		defer r.Close()
		size, _ := r.Seek(0, io.SeekEnd)
		_, _ = r.Seek(0, io.SeekStart)
		_ = http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(writeDeadline(int(size))))
		serveContent(c.w, c.r, at, r)
		return nil
	}
	key := "profile/" + u.ID + "/" + u.AvatarColor
	body, ok := s.pictures.Get(key)
	if !ok {
		if body, err = pictures.JPEG(pictures.Portrait(u.ID, u.AvatarColor)); err != nil {
			return fmt.Errorf("painting the profile image of %s: %w", u.ID, err)
		}
		s.pictures.Put(key, body)
	}
	_ = http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(writeDeadline(len(body))))
	changed := u.UpdatedAt
	if changed.IsZero() {
		changed = u.CreatedAt
	}
	serveContent(c.w, c.r, changed.Time, bytes.NewReader(body))
	return nil
}

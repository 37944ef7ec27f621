package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/formdata"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
)

// maxProfileImage bounds one profile image; media.MaxProfileImagesHeld
// all of them kept in memory where there is no media folder, those being
// read included.
const maxProfileImage = 16 << 20

// profileExtensions are the files a profile image may be, as the
// reference takes them.
var profileExtensions = []string{".avif", ".dng", ".heic", ".heif", ".jpeg", ".jpg", ".png", ".webp", ".svg"}

// createProfileImage is POST /api/users/profile-image: the multipart part
// "file" becomes the caller's profile image.
func (s *server) createProfileImage(c *call) error {
	bufs := s.uploadBuffers.get()
	defer s.uploadBuffers.put(bufs)
	img, err := s.receiveProfileImage(c.r, bufs)
	if err != nil {
		return err
	}
	defer s.profiles.Discard(img) // kept by now, or no one's
	userID := c.p().User.ID
	key := fmt.Sprintf("upload/profile/%s/%s%s", userID, store.NewUUID(), strings.ToLower(path.Ext(img.Name)))
	if err := s.profiles.Put(key, img, s.cfg.Now()); err != nil {
		return err
	}
	old, err := store.Update(s.store, func(tx *store.Tx) (string, error) {
		return tx.SetProfileImage(userID, key)
	})
	if err != nil {
		s.profiles.Drop(key)
		return err
	}
	s.profiles.Drop(old)
	return c.json(http.StatusCreated, struct {
		UserID           string `json:"userId"`
		ProfileImagePath string `json:"profileImagePath"`
	}{userID, key})
}

// receiveProfileImage reads the multipart body of a profile image through
// bufs: the part "file" streamed into the media folder, or read into
// memory within the room left. Text parts are ignored; a file under
// another name is refused. On an error, nothing of the image is kept.
func (s *server) receiveProfileImage(r *http.Request, bufs *uploadBuffers) (_ *media.NewImage, err error) {
	bufs.read.Reset(r.Body)
	defer bufs.read.Reset(nil)
	mr, err := multipartReader(r.Header.Get("Content-Type"), bufs.read)
	if err != nil {
		return nil, err
	}
	img := &media.NewImage{}
	defer func() {
		if err != nil {
			s.profiles.Discard(img)
		}
	}()
	for parts := 0; ; parts++ {
		if parts > maxParts {
			return nil, httpx.Errorf(http.StatusBadRequest, "Too many parts: an upload has at most %d", maxParts)
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
		if part.FormName() != "file" || img.Name != "" {
			return nil, httpx.Errorf(http.StatusBadRequest, "Unexpected field")
		}
		if img.Name, err = rawFileName(part); err != nil {
			return nil, err
		}
		if !isProfileFile(img.Name) {
			return nil, httpx.Errorf(http.StatusBadRequest, "Unsupported file type %s", img.Name)
		}
		if s.folder != nil {
			err = s.writeProfileImage(img, part, bufs)
		} else {
			err = s.holdProfileImage(img, part, r.ContentLength)
		}
		if err != nil {
			return nil, err
		}
	}
	if img.Name == "" {
		return nil, httpx.Errorf(http.StatusBadRequest, "File is required")
	}
	return img, nil
}

// errNoRoomForImages is the answer to a profile image the memory kept for
// them has no room for.
var errNoRoomForImages = httpx.Errorf(http.StatusInsufficientStorage, "No room left for profile images: the mock holds %d bytes of them, those being uploaded included, without a media folder", media.MaxProfileImagesHeld)

// tooLargeImage is the answer to a profile image over maxProfileImage.
var tooLargeImage = httpx.Errorf(http.StatusRequestEntityTooLarge, "A profile image is at most %d bytes", maxProfileImage)

// writeProfileImage streams a part into a new file of the media folder,
// taking a place for it (503 while every place is taken).
func (s *server) writeProfileImage(img *media.NewImage, part *formdata.Part, bufs *uploadBuffers) error {
	f, err := incoming(s.folder)
	if err != nil {
		return err
	}
	img.File = f
	bufs.file.Reset(f)
	defer bufs.file.Reset(nil)
	n, err := io.CopyBuffer(bufs.file, io.LimitReader(part, maxProfileImage+1), bufs.copy)
	if err == nil {
		err = bufs.file.Flush()
	}
	switch pe := (*fs.PathError)(nil); {
	case errors.Is(err, syscall.ENOSPC):
		return httpx.Errorf(http.StatusInsufficientStorage, "No space left in the media folder for this profile image")
	case errors.As(err, &pe):
		return fmt.Errorf("writing a profile image: %w", err)
	case err != nil:
		return malformed(err)
	case n > maxProfileImage:
		return tooLargeImage
	}
	return nil
}

// holdProfileImage reads a part into memory, taking room for it among the
// images held before each piece is read: at once for the body's length
// where it is known, else as it grows. A burst of images holds no more in
// all than media.MaxProfileImagesHeld.
func (s *server) holdProfileImage(img *media.NewImage, part *formdata.Part, bodyLength int64) error {
	const firstPiece = 64 << 10
	size := firstPiece
	if bodyLength > 0 {
		size = int(min(bodyLength, maxProfileImage+1))
	}
	if !s.profiles.Reserve(size) {
		return errNoRoomForImages
	}
	img.Body = make([]byte, 0, size)
	for {
		if len(img.Body) == cap(img.Body) {
			if len(img.Body) > maxProfileImage {
				return tooLargeImage
			}
			grow := min(cap(img.Body), maxProfileImage+1-cap(img.Body))
			if !s.profiles.Reserve(grow) {
				return errNoRoomForImages
			}
			img.Body = append(make([]byte, 0, cap(img.Body)+grow), img.Body...) // the room taken is its cap
		}
		n, err := part.Read(img.Body[len(img.Body):cap(img.Body)])
		img.Body = img.Body[:len(img.Body)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return malformed(err)
		}
	}
	if len(img.Body) > maxProfileImage {
		return tooLargeImage
	}
	if waste := cap(img.Body) - len(img.Body); waste > len(img.Body)/8 {
		// A body longer than its file (text parts): held at its size.
		img.Body = append(make([]byte, 0, len(img.Body)), img.Body...)
		s.profiles.Unreserve(waste)
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
	s.profiles.Drop(old)
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
		return httpx.Errorf(http.StatusNotFound, "User does not have a profile image")
	}
	h := c.w.Header()
	h.Set("Cache-Control", "public, max-age=0")
	h.Set("Content-Type", "image/jpeg")
	if r, at, ok := s.profiles.Get(u.ProfileImagePath); ok {
		defer r.Close()
		size, _ := r.Seek(0, io.SeekEnd)
		_, _ = r.Seek(0, io.SeekStart)
		_ = http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(httpx.WriteDeadline(int(size))))
		httpx.ServeContent(c.w, c.r, at, r)
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
	_ = http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(httpx.WriteDeadline(len(body))))
	changed := u.UpdatedAt
	if changed.IsZero() {
		changed = u.CreatedAt
	}
	httpx.ServeContent(c.w, c.r, changed.Time, bytes.NewReader(body))
	return nil
}

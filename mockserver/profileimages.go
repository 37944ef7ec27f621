package mockserver

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/formdata"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
)

// Limits of profile images: one image, and all of them kept in memory
// where there is no media folder.
const (
	maxProfileImage      = 16 << 20
	maxProfileImagesHeld = 64 << 20
)

// profileExtensions are the files a profile image may be, as the
// reference takes them.
var profileExtensions = []string{".avif", ".dng", ".heic", ".heif", ".jpeg", ".jpg", ".png", ".webp", ".svg"}

// profileImages keeps the pictures users upload as their profile image,
// by the path the user's profileImagePath names: in the media folder, or
// without one in memory, within maxProfileImagesHeld.
type profileImages struct {
	media *media // nil: in memory

	mu    sync.Mutex
	held  map[string]heldImage
	bytes int
}

type heldImage struct {
	body []byte
	at   time.Time
}

func newProfileImages(m *media) *profileImages {
	return &profileImages{media: m, held: map[string]heldImage{}}
}

// put keeps an image under its path.
func (p *profileImages) put(key string, body []byte, at time.Time) error {
	if p.media != nil {
		return p.media.put(blobProfile, key, body)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+len(body) > maxProfileImagesHeld {
		return errorf(http.StatusInsufficientStorage, "No room left for profile images: the mock holds %d bytes of them without a media folder", maxProfileImagesHeld)
	}
	p.held[key] = heldImage{body: body, at: at}
	p.bytes += len(body)
	return nil
}

// get is the image kept under a path, and when it was kept.
func (p *profileImages) get(key string) (io.ReadSeeker, time.Time, bool) {
	if p.media != nil {
		r, at, ok := p.media.read(blobProfile, key)
		if !ok {
			return nil, time.Time{}, false
		}
		return r, at, true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	h, ok := p.held[key]
	return bytes.NewReader(h.body), h.at, ok
}

// drop forgets an image held in memory (in a media folder, its bytes are
// written over in time).
func (p *profileImages) drop(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h, ok := p.held[key]; ok {
		p.bytes -= len(h.body)
		delete(p.held, key)
	}
}

// createProfileImage is POST /api/users/profile-image: the multipart part
// "file" becomes the caller's profile image.
func (s *server) createProfileImage(c *call) error {
	name, body, err := readProfileImage(c.r)
	if err != nil {
		return err
	}
	userID := c.p().User.ID
	key := fmt.Sprintf("upload/profile/%s/%s%s", userID, newImageID(), strings.ToLower(path.Ext(name)))
	if err := s.profiles.put(key, body, s.cfg.Now()); err != nil {
		return err
	}
	var old string
	err = s.store.Write(func(tx *store.Tx) error {
		old, err = tx.SetProfileImage(userID, key)
		return err
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

// readProfileImage reads the part "file" of a multipart body: its name and
// bytes. Text parts are ignored; a file under another name is refused.
func readProfileImage(r *http.Request) (string, []byte, error) {
	mr, err := multipartReader(r.Header.Get("Content-Type"), bufio.NewReaderSize(r.Body, smallReadSize))
	if err != nil {
		return "", nil, err
	}
	var name string
	var body []byte
	for parts := 0; ; parts++ {
		if parts > maxParts {
			return "", nil, errorf(http.StatusBadRequest, "Too many parts: an upload has at most %d", maxParts)
		}
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", nil, malformed(err)
		}
		if part.FileName() == "" {
			_, _ = io.Copy(io.Discard, io.LimitReader(part, maxFieldBytes))
			continue
		}
		if part.FormName() != "file" || name != "" {
			return "", nil, errorf(http.StatusBadRequest, "Unexpected field")
		}
		if name, err = rawFileName(part); err != nil {
			return "", nil, err
		}
		if !isProfileFile(name) {
			return "", nil, errorf(http.StatusBadRequest, "Unsupported file type %s", name)
		}
		if body, err = readAllBounded(part, maxProfileImage); err != nil {
			return "", nil, err
		}
	}
	if name == "" {
		return "", nil, errorf(http.StatusBadRequest, "File is required")
	}
	return name, body, nil
}

// readAllBounded reads a part whole, if it is within limit bytes.
func readAllBounded(part *formdata.Part, limit int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(part, limit+1))
	if err != nil {
		return nil, malformed(err)
	}
	if int64(len(body)) > limit {
		return nil, errorf(http.StatusRequestEntityTooLarge, "A profile image is at most %d bytes", limit)
	}
	return body, nil
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
	var old string
	err := s.store.Write(func(tx *store.Tx) error {
		var err error
		if old, err = tx.SetProfileImage(c.p().User.ID, ""); err == nil && old == "" {
			err = store.Fail(store.Invalid, "Can't delete a missing profile Image")
		}
		return err
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
	var u model.UserRecord
	err := s.read(func(v *store.View) error {
		found := v.User(c.id)
		if found == nil {
			return store.Fail(store.Invalid, "User not found")
		}
		u = *found
		return nil
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
		size, _ := r.Seek(0, io.SeekEnd)
		_, _ = r.Seek(0, io.SeekStart)
		_ = http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(writeDeadline(int(size))))
		serveContent(c.w, c.r, at, r)
		return nil
	}
	key := "profile/" + u.ID + "/" + u.AvatarColor
	body, ok := s.pictures.get(key)
	if !ok {
		if body, err = pictures.JPEG(pictures.Portrait(u.ID, u.AvatarColor)); err != nil {
			return fmt.Errorf("painting the profile image of %s: %w", u.ID, err)
		}
		s.pictures.put(key, body)
	}
	_ = http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(writeDeadline(len(body))))
	changed := u.UpdatedAt
	if changed.IsZero() {
		changed = u.CreatedAt
	}
	serveContent(c.w, c.r, changed.Time, bytes.NewReader(body))
	return nil
}

package media

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// MaxProfileImagesHeld bounds the profile images kept in memory where
// there is no media folder, those being read included, in bytes.
const MaxProfileImagesHeld = 64 << 20

// ProfileImages keeps the pictures users upload as their profile image,
// by the path the user's profileImagePath names: in the media folder,
// written there as they arrive, each holding one of the places for a file
// an upload holds; or without one in memory, within MaxProfileImagesHeld
// for those held and those being read.
type ProfileImages struct {
	folder *Folder // nil: in memory

	mu    sync.Mutex
	held  map[string]heldImage
	bytes int // of held images, and reserved by those being read
}

type heldImage struct {
	body []byte
	at   time.Time
}

// NewProfileImages keeps profile images in the media folder f, or in
// memory where f is nil.
func NewProfileImages(f *Folder) *ProfileImages {
	return &ProfileImages{folder: f, held: map[string]heldImage{}}
}

// NewImage is a profile image that has arrived, not yet kept: its file in
// the media folder (File, from Folder.Incoming), or its bytes in memory
// (Body, whose cap is the room Reserve took for it), and the name its
// client gave it. Put keeps it; Discard gives up one that was not kept.
type NewImage struct {
	Name string
	File *Arriving
	Body []byte
}

// Reserve takes room for n bytes of an image being read, if there is.
func (p *ProfileImages) Reserve(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+n > MaxProfileImagesHeld {
		return false
	}
	p.bytes += n
	return true
}

// Unreserve gives back the room for n bytes that Reserve took.
func (p *ProfileImages) Unreserve(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bytes -= n
}

// Put keeps an image under its path.
func (p *ProfileImages) Put(key string, img *NewImage, at time.Time) error {
	if img.File != nil {
		return img.File.Keep(Profile, key)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.held[key] = heldImage{body: img.Body, at: at} // its room was reserved as it was read
	img.Body = nil
	return nil
}

// Discard gives up an image that was not kept; after Put it does nothing.
func (p *ProfileImages) Discard(img *NewImage) {
	if img.File != nil {
		img.File.Drop()
	}
	if img.Body != nil {
		p.Unreserve(cap(img.Body))
		img.Body = nil
	}
}

// heldReader is an image held in memory, read.
type heldReader struct{ *bytes.Reader }

func (heldReader) Close() error { return nil }

// Get is the image kept under a path, and when it was kept; the caller
// closes it.
func (p *ProfileImages) Get(key string) (io.ReadSeekCloser, time.Time, bool) {
	if p.folder != nil {
		r, at, ok := p.folder.Open(Profile, key)
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

// Drop forgets an image held in memory (in a media folder, its bytes are
// written over in time).
func (p *ProfileImages) Drop(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h, ok := p.held[key]; ok {
		p.bytes -= cap(h.body)
		delete(p.held, key)
	}
}

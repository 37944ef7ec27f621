package media

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Folder is the media folder, where uploads are kept: each original as it
// came, and the thumbnail and preview made from it. They are kept as blobs
// in a few large pack files, each written by one upload at a time at its
// end, and found through an append-only index:
//
//	DIR/packs/000001 ...   the blobs, one after the other
//	DIR/blobs.index        one line per blob kept: kind, key, pack, offset, size, time
//
// A file per upload cost a create, a rename and a remove: on a journaling
// file system those, not the bytes, bounded how fast uploads were kept
// (the mock's BenchmarkUploadKept). A blob is kept once its index line
// is written; bytes written by an upload that was refused or a duplicate,
// or that a stopped mock left half-written, belong to no line and are
// written over by the next upload of that pack. The pictures of files
// that cannot be decoded are one blob per size, which each such upload's
// index lines name.
//
// A pack file is open only while someone uses it (its writer, readers of
// its blobs), and MaxIdlePacks more that were used last: whatever a burst
// of writers and readers opened is closed once they are done.
type Folder struct {
	dir string
	// open holds a place for each client writing a file (an upload's, a
	// profile image), so that clients never hold every descriptor
	// (the mock's DefaultMaxUploadFiles). The picture workers write
	// without one: there are PictureWorkers of them.
	open chan struct{}

	mu    sync.Mutex
	index *os.File
	blobs map[blobKey]blob
	packs []*pack // by number - 1
	free  []*pack // packs no writer holds
	idle  []*pack // open packs no one uses, the least recently used first
	// external are the originals of library assets, read where they are
	// (external.go).
	external map[string]external
}

// pack is a pack file: open while it has users, and the byte its next
// blob starts at.
type pack struct {
	n int
	// Under Folder.mu; f does not change while users > 0.
	f     *os.File // nil: closed
	users int      // its writer and its readers
	end   int64
}

// MaxIdlePacks is how many pack files stay open with no one using them,
// so that one upload after another does not open and close its pack each
// time.
const MaxIdlePacks = 4

// Kind is what a blob is of its asset.
type Kind byte

// The kinds of blob, as the index names them.
const (
	Original Kind = 'o'
	Thumb    Kind = 't'
	Preview  Kind = 'p'
	Profile  Kind = 'u' // a user's profile image, by its path
)

type blobKey struct {
	kind Kind
	key  string // an asset id, or a poster's name
}

// blob is where a kept file lies.
type blob struct {
	pack      *pack
	off, size int64
	at        time.Time
}

// Open opens the media folder dir, made if it is not there, with the
// blobs its index names. maxFiles, at least 1, is how many clients may be
// writing a file at once (Incoming).
func Open(dir string, maxFiles int) (*Folder, error) {
	if maxFiles < 1 {
		return nil, fmt.Errorf("media folder: %d places for files, not at least 1", maxFiles)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("media folder: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "packs"), 0o750); err != nil {
		return nil, fmt.Errorf("media folder: %w", err)
	}
	m := &Folder{dir: dir, open: make(chan struct{}, maxFiles), blobs: map[blobKey]blob{}}
	names, err := os.ReadDir(filepath.Join(dir, "packs"))
	if err != nil {
		return nil, fmt.Errorf("media folder: %w", err)
	}
	for _, e := range names {
		n, err := strconv.Atoi(e.Name())
		if err != nil || n < 1 {
			continue // not a pack
		}
		for len(m.packs) < n {
			m.newPack()
		}
	}
	if m.index, err = os.OpenFile(filepath.Join(dir, "blobs.index"), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o640); err != nil {
		return nil, fmt.Errorf("media folder: %w", err)
	}
	if err := m.readIndex(); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// Dir is the folder's absolute path.
func (m *Folder) Dir() string { return m.dir }

// newPack adds the next pack, its file created when it is first used;
// m.mu is held, or m is not shared yet.
func (m *Folder) newPack() {
	p := &pack{n: len(m.packs) + 1}
	m.packs = append(m.packs, p)
	m.free = append(m.free, p)
}

// use counts one more user of p, opening its file if it is closed; m.mu
// is held.
func (m *Folder) use(p *pack) error {
	switch {
	case p.f == nil:
		f, err := os.OpenFile(filepath.Join(m.dir, "packs", fmt.Sprintf("%06d", p.n)), os.O_RDWR|os.O_CREATE, 0o640)
		if err != nil {
			return fmt.Errorf("media folder: %w", err)
		}
		p.f = f
	case p.users == 0:
		m.idle = slices.DeleteFunc(m.idle, func(q *pack) bool { return q == p })
	}
	p.users++
	return nil
}

// unuse counts one user of p less: a pack no one uses joins the idle
// ones, and beyond MaxIdlePacks of them the least recently used is
// closed; m.mu is held.
func (m *Folder) unuse(p *pack) {
	if p.users--; p.users > 0 || p.f == nil {
		return
	}
	m.idle = append(m.idle, p)
	if len(m.idle) > MaxIdlePacks {
		old := m.idle[0]
		m.idle = slices.Delete(m.idle, 0, 1)
		_ = old.f.Close() // read only by its users, and it has none
		old.f = nil
	}
}

// readIndex reads the blobs kept by earlier runs. A line cut short by a
// mock that stopped while writing it names no blob.
func (m *Folder) readIndex() error {
	sc := bufio.NewScanner(m.index)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 6 || len(f[0]) != 1 {
			continue
		}
		n, err1 := strconv.Atoi(f[2])
		off, err2 := strconv.ParseInt(f[3], 10, 64)
		size, err3 := strconv.ParseInt(f[4], 10, 64)
		at, err4 := strconv.ParseInt(f[5], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil || n < 1 || n > len(m.packs) || off < 0 || size < 0 {
			continue
		}
		p := m.packs[n-1]
		m.blobs[blobKey{Kind(f[0][0]), f[1]}] = blob{pack: p, off: off, size: size, at: time.Unix(0, at)}
		p.end = max(p.end, off+size)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("media folder: the index: %w", err)
	}
	return nil
}

// ErrTooManyFiles is Incoming's error while every place for a file is
// taken: the mock answers the upload, or the profile image, 503.
var ErrTooManyFiles = errors.New("media folder: every place for a file is taken")

// Arriving is a file being written at the end of a pack, which its writer
// holds until it keeps or drops the file.
type Arriving struct {
	m        *Folder
	p        *pack
	off, n   int64
	slot     bool // holds a place in m.open
	released bool
}

// Write writes the file's next bytes.
func (a *Arriving) Write(b []byte) (int, error) {
	n, err := a.p.f.WriteAt(b, a.off+a.n)
	a.n += int64(n)
	return n, err
}

// Written is the bytes written so far, read in place.
func (a *Arriving) Written() *io.SectionReader {
	return io.NewSectionReader(a.p.f, a.off, a.n)
}

// Incoming is a new file for a client's upload that is arriving, which
// holds one of the places for a file (ErrTooManyFiles while every one is
// taken); it must be kept or dropped.
func (m *Folder) Incoming() (*Arriving, error) {
	select {
	case m.open <- struct{}{}:
	default:
		return nil, ErrTooManyFiles
	}
	a, err := m.take()
	if err != nil {
		<-m.open
		return nil, fmt.Errorf("a file for the upload: %w", err)
	}
	a.slot = true
	return a, nil
}

// take takes a pack no one writes, or a new one, and opens it.
func (m *Folder) take() (*Arriving, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.free) == 0 {
		m.newPack()
	}
	p := m.free[len(m.free)-1]
	if err := m.use(p); err != nil {
		return nil, err
	}
	m.free = m.free[:len(m.free)-1]
	return &Arriving{m: m, p: p, off: p.end}, nil
}

// Keep keeps an arrived file as the blob of kind for key: its index line
// written, its bytes are the pack's.
func (a *Arriving) Keep(kind Kind, key string) error {
	m := a.m
	m.mu.Lock()
	defer m.mu.Unlock()
	defer a.release()
	b := blob{pack: a.p, off: a.off, size: a.n, at: time.Now()}
	if err := m.writeLine(kind, key, b); err != nil {
		return fmt.Errorf("keeping the %c blob of %s: %w", kind, key, err)
	}
	m.blobs[blobKey{kind, key}] = b
	a.p.end = a.off + a.n
	return nil
}

// maxDroppedBytes is how many bytes of a dropped file may stay at the end
// of its pack until the next file there writes over them; a larger one is
// cut off at once, so a refused 1 GiB upload does not hold 1 GiB of disk.
const maxDroppedBytes = 1 << 20

// Drop gives an arrived file no one keeps back: its bytes will be written
// over. Dropping a kept or dropped file does nothing.
func (a *Arriving) Drop() {
	a.m.mu.Lock()
	defer a.m.mu.Unlock()
	if !a.released && a.n > maxDroppedBytes {
		_ = a.p.f.Truncate(a.off) // best effort: what stays is written over
	}
	a.release()
}

// release gives the pack and the place back; m.mu is held.
func (a *Arriving) release() {
	if a.released {
		return
	}
	a.released = true
	a.m.free = append(a.m.free, a.p)
	a.m.unuse(a.p)
	if a.slot {
		<-a.m.open
	}
}

// writeLine appends a blob's index line; m.mu is held.
func (m *Folder) writeLine(kind Kind, key string, b blob) error {
	_, err := fmt.Fprintf(m.index, "%c %s %d %d %d %d\n", kind, key, b.pack.n, b.off, b.size, b.at.UnixNano())
	return err
}

// Put keeps body whole as the blob of kind for key. It holds no place
// for a file: only the picture workers put, and they are few.
func (m *Folder) Put(kind Kind, key string, body []byte) error {
	a, err := m.take()
	if err != nil {
		return err
	}
	if _, err := a.Write(body); err != nil {
		a.Drop()
		return err
	}
	return a.Keep(kind, key)
}

// Alias makes key's blob of kind the blob of kind from: a poster's
// pictures are one blob, whatever the uploads that show them.
func (m *Folder) Alias(kind Kind, key, from string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.blobs[blobKey{kind, from}]
	if !ok {
		return fmt.Errorf("no %c blob of %s", kind, from)
	}
	if err := m.writeLine(kind, key, b); err != nil {
		return err
	}
	m.blobs[blobKey{kind, key}] = b
	return nil
}

// Section makes the bytes [off, off+size) of from's blob of kind the blob
// of kind for key.
func (m *Folder) Section(kind Kind, key, from string, off, size int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.blobs[blobKey{kind, from}]
	if !ok || off < 0 || size < 0 || off+size > b.size {
		return fmt.Errorf("no %c blob of %s holding %d bytes at %d", kind, from, size, off)
	}
	b.off += off
	b.size = size
	if err := m.writeLine(kind, key, b); err != nil {
		return err
	}
	m.blobs[blobKey{kind, key}] = b
	return nil
}

// KeptFile is a kept blob, read in place: it holds its pack's file open
// until it is closed.
type KeptFile struct {
	*io.SectionReader
	m    *Folder
	p    *pack    // nil: closed, or never open
	file *os.File // a library's original, read in place; nil for a blob
}

// Close lets the pack's file go; closing twice does nothing.
func (k *KeptFile) Close() error {
	if k.file != nil {
		f := k.file
		k.file = nil
		return f.Close()
	}
	if k.m == nil {
		return nil // no folder's: a test's
	}
	k.m.mu.Lock()
	defer k.m.mu.Unlock()
	if k.p != nil {
		k.m.unuse(k.p)
		k.p = nil
	}
	return nil
}

// Open is the blob of kind for key, read in place, and when it was kept;
// the caller closes it. Where its pack cannot be opened, its reads fail
// with why: an answer is cut short rather than quietly another.
func (m *Folder) Open(kind Kind, key string) (*KeptFile, time.Time, bool) {
	if kind == Original {
		if e, ok := m.linked(key); ok {
			return openExternal(e)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.blobs[blobKey{kind, key}]
	if !ok {
		return nil, time.Time{}, false
	}
	if err := m.use(b.pack); err != nil {
		return &KeptFile{SectionReader: io.NewSectionReader(unreadable{err}, 0, b.size), m: m}, b.at, true
	}
	return &KeptFile{SectionReader: io.NewSectionReader(b.pack.f, b.off, b.size), m: m, p: b.pack}, b.at, true
}

// unreadable is a file that could not be opened.
type unreadable struct{ err error }

func (u unreadable) ReadAt([]byte, int64) (int, error) { return 0, u.err }

// Has reports whether the blob of kind for key is kept.
func (m *Folder) Has(kind Kind, key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.blobs[blobKey{kind, key}]
	return ok
}

// InUse is how many writers and readers hold its packs now.
func (m *Folder) InUse() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, p := range m.packs {
		n += p.users
	}
	return n
}

// PosterKey names the poster pictures of a size.
func PosterKey(w, h int) string { return fmt.Sprintf("poster-%dx%d", w, h) }

// Close closes the pack files and the index: the folder may then go.
func (m *Folder) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var errs []error
	for _, p := range m.packs {
		if p.f != nil {
			errs = append(errs, p.f.Close())
			p.f = nil
		}
	}
	m.idle = nil
	if m.index != nil {
		errs = append(errs, m.index.Close())
	}
	return errors.Join(errs...)
}

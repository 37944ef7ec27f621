package mockserver

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// datasetView is the whole state at one moment: the records themselves,
// which never change once stored, so that it costs a pointer a record and
// can be encoded after the lock is let go, as slowly as its reader reads.
type datasetView struct {
	seed     int64
	anchor   model.Time
	users    []*model.UserRecord
	people   []*model.PersonRecord
	tags     []*model.Tag
	assets   []*model.AssetRecord
	albums   []*model.AlbumRecord
	links    []*model.SharedLinkRecord
	apiKeys  []*model.APIKeyRecord
	sessions []*model.SessionRecord
	mediaDir string
}

func (db *store) datasetView() datasetView {
	db.mu.RLock()
	defer db.mu.RUnlock()
	st := db.state
	return datasetView{
		seed: st.seed, anchor: st.anchor,
		users: slices.Clone(st.users), people: slices.Clone(st.people), tags: slices.Clone(st.tags),
		assets: slices.Clone(st.assets), albums: slices.Clone(st.albums), links: slices.Clone(st.links),
		apiKeys: slices.Clone(st.apiKeys), sessions: slices.Clone(st.sessions),
		mediaDir: db.mediaDir,
	}
}

// writeDataset writes v as JSON, the bytes json.Marshal gives for the same
// model.Dataset, one record at a time: however large the state, a reader
// holds a pointer a record and a buffer, never the whole encoding.
func writeDataset(w io.Writer, v datasetView) error {
	ew := &errWriter{w: w}
	ew.raw(`{"seed":`)
	ew.value(v.seed)
	ew.raw(`,"anchor":`)
	ew.value(v.anchor)
	writeList(ew, "users", v.users, false)
	writeList(ew, "people", v.people, false)
	writeList(ew, "tags", v.tags, false)
	writeList(ew, "assets", v.assets, false)
	writeList(ew, "albums", v.albums, false)
	writeList(ew, "sharedLinks", v.links, false)
	writeList(ew, "apiKeys", v.apiKeys, true)
	writeList(ew, "sessions", v.sessions, true)
	if v.mediaDir != "" {
		ew.raw(`,"mediaDir":`)
		ew.value(v.mediaDir)
	}
	ew.raw("}")
	return ew.err
}

// writeList writes `,"name":[...]`, or nothing for an empty list when the
// field is omitempty.
func writeList[T any](ew *errWriter, name string, list []*T, omitEmpty bool) {
	if omitEmpty && len(list) == 0 {
		return
	}
	ew.raw(`,"` + name + `":[`)
	for i, r := range list {
		if i > 0 {
			ew.raw(",")
		}
		ew.value(r)
	}
	ew.raw("]")
}

// errWriter writes until the first error, and keeps it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) raw(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}

func (e *errWriter) value(v any) {
	if e.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	_, e.err = e.w.Write(b)
}

// deadlineWriter gives each write to an answer its deadline (writeDeadline
// of its size), as writeRawJSON does for each piece.
type deadlineWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (d deadlineWriter) Write(p []byte) (int, error) {
	_ = d.rc.SetWriteDeadline(time.Now().Add(writeDeadline(len(p))))
	return d.w.Write(p)
}

// streamDataset answers the whole state, in pieces of writeChunk bytes.
func streamDataset(w http.ResponseWriter, v datasetView) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(deadlineWriter{w: w, rc: http.NewResponseController(w)}, writeChunk)
	if err := writeDataset(bw, v); err != nil {
		return err
	}
	return bw.Flush()
}

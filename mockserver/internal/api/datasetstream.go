package api

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// writeDataset writes v as JSON, the bytes json.Marshal gives for the same
// model.Dataset, one record at a time: however large the state, a reader
// holds a pointer a record and a buffer, never the whole encoding.
func writeDataset(w io.Writer, v store.Records) error {
	ew := &errWriter{w: w}
	ew.raw(`{"seed":`)
	ew.value(v.Seed)
	ew.raw(`,"anchor":`)
	ew.value(v.Anchor)
	writeList(ew, "users", v.Users, false)
	writeList(ew, "people", v.People, false)
	writeList(ew, "tags", v.Tags, false)
	writeList(ew, "assets", v.Assets, false)
	writeList(ew, "albums", v.Albums, false)
	writeList(ew, "sharedLinks", v.Links, false)
	writeList(ew, "apiKeys", v.APIKeys, true)
	writeList(ew, "sessions", v.Sessions, true)
	writeList(ew, "partners", v.Partners, true)
	writeList(ew, "activities", v.Activities, true)
	writeList(ew, "memories", v.Memories, true)
	writeList(ew, "libraries", v.Libraries, true)
	if v.Audit != nil {
		ew.raw(`,"audit":`)
		ew.value(v.Audit)
	}
	if v.SystemConfig != nil {
		ew.raw(`,"systemConfig":`)
		ew.value(v.SystemConfig)
	}
	if v.AdminOnboarded {
		ew.raw(`,"adminOnboarded":true`)
	}
	if v.MediaDir != "" {
		ew.raw(`,"mediaDir":`)
		ew.value(v.MediaDir)
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

// deadlineWriter gives each write to an answer its deadline
// (httpx.WriteDeadline of its size), as httpx.WriteRawJSON does for each
// piece.
type deadlineWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (d deadlineWriter) Write(p []byte) (int, error) {
	_ = d.rc.SetWriteDeadline(time.Now().Add(httpx.WriteDeadline(len(p))))
	return d.w.Write(p)
}

// streamDataset answers the whole state, in pieces of httpx.WriteChunk bytes.
func streamDataset(w http.ResponseWriter, v store.Records) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(deadlineWriter{w: w, rc: http.NewResponseController(w)}, httpx.WriteChunk)
	if err := writeDataset(bw, v); err != nil {
		return err
	}
	return bw.Flush()
}

package api

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// The bounds of JSON bodies. Each operation's body has a bound in bytes
// (its class's, else smallBody): a larger one is refused before a byte of
// it is kept, by its Content-Length when it has one. A body's bytes, and
// the values it decodes to (dto.ValueCost each, counted before any is
// made), are set aside from the memory requests may hold
// (httpx.MemoryBudget) before they are held.
const (
	// smallBody bounds a body of a few fields (a login, a rename): twice
	// what its longest texts take with every character escaped.
	smallBody = 64 << 10
	// listBody bounds a body that carries lists of ids: 100,000 ids fit.
	listBody = 8 << 20
	// configBody bounds the server's settings (PUT /api/system-config).
	configBody = 1 << 20
	// bodyStep is what a body of unknown length is first given room for.
	bodyStep = 16 << 10
)

// heldBody is a JSON body read, and the memory set aside for it, which its
// reader gives back with Release once it is done with the body and what it
// decoded to.
type heldBody struct {
	data []byte // nil: no body, or not JSON
	*httpx.Reservation
}

// readJSON reads c's body, within limit bytes and with memory set aside
// for it from m, when it is JSON by its Content-Type; one that is not is
// read as no body, as the reference's body parser leaves it. The caller
// releases what it holds.
func readJSON(m *httpx.MemoryBudget, c *call, limit int64) (*heldBody, error) {
	mediaType, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if mediaType != "application/json" && !strings.HasSuffix(mediaType, "+json") {
		return &heldBody{Reservation: m.Reserve()}, nil
	}
	return readRaw(m, c, limit)
}

// readRaw reads c's body whatever its Content-Type, within limit bytes and
// with memory set aside for it from m. The caller releases what it holds.
func readRaw(m *httpx.MemoryBudget, c *call, limit int64) (*heldBody, error) {
	h := &heldBody{Reservation: m.Reserve()}
	tooLarge := httpx.Errorf(http.StatusRequestEntityTooLarge, "The request body is larger than the limit of %d bytes", limit)
	size := int64(bodyStep)
	if n := c.r.ContentLength; n > limit {
		return nil, tooLarge
	} else if n >= 0 {
		size = n + 1 // the one byte more finds the end without growing
	}
	size = min(size, limit+1)
	if !h.Take(size) {
		return nil, h.NoRoom(c.w)
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				h.Release()
				return nil, tooLarge
			}
			more := min(int64(cap(buf)), limit+1-int64(cap(buf)))
			if !h.Take(more) {
				h.Release()
				return nil, h.NoRoom(c.w)
			}
			grown := make([]byte, len(buf), int64(cap(buf))+more)
			copy(grown, buf)
			buf = grown
		}
		n, err := c.r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			h.Release()
			return nil, bodyReadError(err)
		}
	}
	if int64(len(buf)) > limit {
		h.Release()
		return nil, tooLarge
	}
	h.data = buf
	return h, nil
}

// problems collects the failed rules of a request, in the reference's
// order, for one 400 that lists them all.
type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

// err is the 400 listing every problem, or nil.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return store.InvalidFields(p)
}

// queryBool reads an optional boolean query parameter: "true" or "false",
// else the reference's message for it.
func queryBool(q url.Values, name string, pr *problems) *bool {
	if !q.Has(name) {
		return nil
	}
	switch q.Get(name) {
	case "true":
		return new(true)
	case "false":
		return new(false)
	}
	pr.add("%s must be a boolean value", name)
	return nil
}

// bodyReadError is the answer to a body that could not be read: one that
// came too slowly, or broke off.
func bodyReadError(err error) error {
	if errors.Is(err, httpx.ErrBodyTooSlow) {
		return httpx.Errorf(http.StatusRequestTimeout, "Request body cut off: %v", err)
	}
	return httpx.Errorf(http.StatusBadRequest, "The request body could not be read")
}

// countedBody is what the values of a body take, set aside from its
// memory, or why the body is refused: the error of count (a syntax error,
// too many values), or no room.
func (h *heldBody) countedBody(w http.ResponseWriter, count func([]byte) (int, error)) error {
	n, err := count(h.data)
	if err != nil {
		return bodyError(err)
	}
	if !h.Take(int64(n) * dto.ValueCost) {
		return h.NoRoom(w)
	}
	return nil
}

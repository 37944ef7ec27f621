package api

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// policy says who may call an operation. The route checks it first, before
// anything else of the request is read: authentication (401), then the
// gate (403).
type policy int

const (
	// anyone: no credentials needed; any sent, even bad ones, are ignored.
	anyone policy = iota
	// user: a user, by session or API key; a link's key is refused (403).
	user
	// admin: a user who is an admin; anyone else is refused (403).
	admin
	// userOrLink: a user, or a link's holder, with the token its password
	// gave where the link has one.
	userOrLink
	// userOrLinkKey: a user, or a link's key whatever its password (an
	// upload, as the contract says).
	userOrLinkKey
	// linkKey: only a link's key, its password checked by the operation;
	// anyone else gets the reference's bare 403.
	linkKey
)

// call is one request to an operation, as its route's policy let it through.
type call struct {
	w   http.ResponseWriter
	r   *http.Request
	aud audience
	// id is the path's {id}, checked as a UUID, in lower case.
	id string
	// badID is the answer to a path's {id} that is no UUID, kept while the
	// body is judged (see judging).
	badID error
}

// judging says which of a call's inputs is answered first when both are
// wrong: the path's {id}, or the JSON body. The reference's pipes answer
// the one its controller declares last, most often the body: PUT
// /albums/abc/assets with {} answers the ids' messages, DELETE
// /albums/abc/assets (whose controller declares the body first) "id must
// be a UUID", as does PATCH /albums/abc with {}, a good body.
type judging int

const (
	_ judging = iota // not set
	idFirst
	bodyFirst
)

// p is who the call acts for.
func (c *call) p() store.Principal { return c.aud.p }

// operation is what an operation does with a call it was let in: it
// answers (with c.json, or on its own) and returns nil, or returns the
// error to answer.
type operation func(c *call) error

// as is the handler of an operation that pol lets in: authentication, the
// gate, the path's {id} when the route has one (after the body, for an
// operation judged bodyFirst), then the operation; an error at any step is
// the answer.
func (s *server) as(pol policy, op operation, order judging) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{w: w, r: r, aud: audience{reference: s.cfg.ReferenceShapes}}
		if err := s.let(pol, c); err != nil {
			httpx.WriteError(w, err)
			return
		}
		if c.badID != nil && order != bodyFirst {
			httpx.WriteError(w, c.badID)
			return
		}
		if err := op(c); err != nil {
			httpx.WriteError(w, err)
		}
	})
}

// let checks pol for c, and reads the path's {id}: c.id, or c.badID.
func (s *server) let(pol policy, c *call) error {
	if pol != anyone {
		p, err := s.store.Authenticate(credentialsOf(c.r))
		if err != nil {
			return err
		}
		switch pol {
		case user, admin:
			if p.Link != nil {
				return errForbidden
			}
			if pol == admin && !p.User.IsAdmin {
				return errForbidden
			}
		case userOrLink:
			if p.Locked {
				return store.Fail(store.Unauthenticated, "Invalid password")
			}
		case linkKey:
			if p.Link == nil {
				return errMyLinkForbidden
			}
		}
		c.aud.p = p
	}
	if strings.Contains(c.r.Pattern, "{id}") {
		id := c.r.PathValue("id")
		if !dto.IsUUIDString(id) {
			c.badID = store.InvalidFields([]string{"id must be a UUID"})
			return nil
		}
		c.id = strings.ToLower(id)
	}
	return nil
}

// errForbidden is the answer to a principal a route's policy does not let in.
var errForbidden = store.Fail(store.Forbidden, "Forbidden resource")

// errMyLinkForbidden is the answer of the routes only a link's key may
// call, to anyone else: the reference's 403 without an error name.
var errMyLinkForbidden = &httpx.Error{Status: http.StatusForbidden, Message: "Forbidden", Bare: true}

// json answers v with status.
func (c *call) json(status int, v any) error {
	httpx.WriteJSON(c.w, status, v)
	return nil
}

// withBody is an operation on a JSON body of class: read, judged, then
// (with the path's id good) handed to op with the call; the memory the
// body holds is given back once op is done.
func (s *server) withBody(class *dto.Class, op func(c *call, b dto.Body) error) operation {
	return func(c *call) error {
		b, done, err := s.readBody(c, class)
		if err != nil {
			return err
		}
		defer done()
		if c.badID != nil {
			return c.badID
		}
		return op(c, b)
	}
}

// readBody reads c's JSON body as class declares it, within the class's
// bound in bytes (smallBody if it has none) and with memory set aside for
// it and its values first; done gives that memory back. Malformed JSON is
// a 400 with the parser's words, as the reference answers it; a body that
// is not JSON (by its Content-Type), empty, or no object, has no members.
func (s *server) readBody(c *call, class *dto.Class) (b dto.Body, done func(), err error) {
	h, err := readJSON(s.held, c, int64(cmp.Or(class.MaxBytes(), smallBody)))
	if err != nil {
		return nil, nil, err
	}
	if err := h.countedBody(c.w, class.Count); err != nil {
		h.Release()
		return nil, nil, err
	}
	if b, err = class.Decode(h.data); err != nil {
		h.Release()
		return nil, nil, bodyError(err)
	}
	return b, h.Release, nil
}

// bodyError is the answer to a body that class.Decode refused: every
// failed rule, the one message of a transform that threw, or the parser's
// words for malformed JSON.
func bodyError(err error) error {
	var problems dto.Problems
	var thrown dto.Thrown
	var syntax dto.SyntaxError
	var tooMany dto.TooManyValues
	switch {
	case errors.As(err, &problems):
		return store.InvalidFields(problems)
	case errors.As(err, &thrown):
		return store.Fail(store.Invalid, "%s", string(thrown))
	case errors.As(err, &syntax):
		return httpx.Errorf(http.StatusBadRequest, "%s", string(syntax))
	case errors.As(err, &tooMany):
		return httpx.Errorf(http.StatusRequestEntityTooLarge, "%s", tooMany.Error())
	}
	return fmt.Errorf("reading a body: %w", err)
}

// answer answers v with status, or returns err: the end of a handler that
// reads or writes its answer in one step of the store.
func answer(c *call, status int, v any, err error) error {
	if err != nil {
		return err
	}
	return c.json(status, v)
}

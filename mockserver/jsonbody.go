package mockserver

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// maxJSONBody bounds an API request's JSON body: far above any real
// request (100,000 asset ids fit), far below what could hurt the mock.
const maxJSONBody = 8 << 20

// readJSONBytes reads r's body when it is JSON by its Content-Type; one
// that is not is read as no body, as the reference's body parser leaves it.
func readJSONBytes(r *http.Request) ([]byte, error) {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "application/json" && !strings.HasSuffix(mediaType, "+json") {
		return nil, nil
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
	if err != nil {
		return nil, bodyReadError(err)
	}
	if len(data) > maxJSONBody {
		return nil, errorf(http.StatusRequestEntityTooLarge, "The request body is larger than the limit of %d bytes", maxJSONBody)
	}
	return data, nil
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
	if errors.Is(err, errBodyTooSlow) {
		return errorf(http.StatusRequestTimeout, "Request body cut off: %v", err)
	}
	return errorf(http.StatusBadRequest, "The request body could not be read")
}

package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// maxJSONBody bounds an API request's JSON body: far above any real
// request (100,000 asset ids fit), far below what could hurt the mock.
const maxJSONBody = 8 << 20

// jsonBody is an API request's JSON body as the reference's validation
// sees it: the top-level object's members, each still encoded. A body that
// is not JSON (by its Content-Type), or empty, is an empty object, as the
// reference's body parser leaves it; unknown members are ignored.
type jsonBody map[string]json.RawMessage

// readJSON reads r's body. Malformed JSON is a 400 with the parser's words,
// as the reference answers it.
func readJSON(r *http.Request) (jsonBody, error) {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "application/json" && !strings.HasSuffix(mediaType, "+json") {
		return jsonBody{}, nil
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
	if err != nil {
		return nil, bodyReadError(err)
	}
	if len(data) > maxJSONBody {
		return nil, errorf(http.StatusRequestEntityTooLarge, "The request body is larger than the limit of %d bytes", maxJSONBody)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return jsonBody{}, nil
	}
	if bytes.TrimSpace(data)[0] != '{' {
		if err := json.Unmarshal(data, new(any)); err != nil {
			return nil, errorf(http.StatusBadRequest, "%s", parseErrorText(data, err))
		}
		return jsonBody{}, nil // a JSON array or value: no members to validate
	}
	var b jsonBody
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, errorf(http.StatusBadRequest, "%s", parseErrorText(data, err))
	}
	return b, nil
}

// parseErrorText is a JSON syntax error in the words of the reference's
// parser (JavaScript's JSON.parse), never Go's.
func parseErrorText(data []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) || strings.Contains(se.Error(), "unexpected end") {
		return "Unexpected end of JSON input"
	}
	pos := max(se.Offset-1, 0)
	r, _ := utf8.DecodeRune(data[pos:])
	return fmt.Sprintf("Unexpected token %c in JSON at position %d", r, pos)
}

// has says whether the member is there and not null: the reference's
// optional fields treat null as absent.
func (b jsonBody) has(name string) bool {
	raw, ok := b[name]
	return ok && string(raw) != "null"
}

// isNull says whether the member is there as null (which clears a field
// where the operation allows it).
func (b jsonBody) isNull(name string) bool {
	raw, ok := b[name]
	return ok && string(raw) == "null"
}

// str is the member as a string, and whether it is one.
func (b jsonBody) str(name string) (string, bool) {
	var s string
	if raw, ok := b[name]; !ok || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// boolean is the member as a boolean, and whether it is one: true and
// false, or the strings "true" and "false", as the reference takes them.
func (b jsonBody) boolean(name string) (v, ok bool) {
	switch string(b[name]) {
	case "true", `"true"`:
		return true, true
	case "false", `"false"`:
		return false, true
	}
	return false, false
}

// int64 is the member as a whole number, and whether it is one.
func (b jsonBody) int64(name string) (int64, bool) {
	var n json.Number
	if raw, ok := b[name]; !ok || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	v, err := n.Int64()
	return v, err == nil
}

// array is the member's elements, and whether it is an array.
func (b jsonBody) array(name string) ([]json.RawMessage, bool) {
	var a []json.RawMessage
	raw, ok := b[name]
	if !ok || len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &a) != nil {
		return nil, false
	}
	return a, true
}

// date is the member as an ISO 8601 date-time, and whether it reads as one.
func (b jsonBody) date(name string) (time.Time, bool) {
	s, ok := b.str(name)
	if !ok {
		return time.Time{}, false
	}
	return parseDate(s)
}

// uuidPattern is what the reference takes for a UUID: any version.
var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func isUUID(s string) bool { return uuidPattern.MatchString(s) }

// uuids reads the member as an array of UUIDs, the reference's way: an
// array whose every element is a UUID string. each is false when some
// element is not; isArray is false when the member is not an array.
func (b jsonBody) uuids(name string) (ids []string, isArray, each bool) {
	elems, isArray := b.array(name)
	if !isArray {
		_, present := b[name]
		// A lone value is judged as one element, as the reference does.
		var s string
		return nil, false, present && json.Unmarshal(b[name], &s) == nil && isUUID(s)
	}
	ids = make([]string, 0, len(elems))
	each = true
	for _, e := range elems {
		var s string
		if json.Unmarshal(e, &s) != nil || !isUUID(s) {
			each = false
			continue
		}
		ids = append(ids, strings.ToLower(s))
	}
	return ids, true, each
}

// emailPattern is a plain email address: something, @, a domain with a dot.
var emailPattern = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

func isEmail(s string) bool { return len(s) <= 254 && emailPattern.MatchString(s) }

// problems collects the failed rules of a body, in the reference's order,
// for one 400 that lists them all.
type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

// err is the 400 listing every problem, or nil.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return invalidFields(p)
}

// pathID reads a path's {id}, which must be a UUID: else the reference's 400.
func pathID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if !isUUID(id) {
		return "", invalidFields([]string{"id must be a UUID"})
	}
	return strings.ToLower(id), nil
}

// bodyReadError is the answer to a body that could not be read: one that
// came too slowly, or broke off.
func bodyReadError(err error) error {
	if errors.Is(err, errBodyTooSlow) {
		return errorf(http.StatusRequestTimeout, "Request body cut off: %v", err)
	}
	return errorf(http.StatusBadRequest, "The request body could not be read")
}

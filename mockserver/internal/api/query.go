package api

import (
	"net/url"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
)

// readQuery judges a request's query as class declares it, as the
// reference's ValidationPipe judges @Query() DTOs: every value a string,
// a name given twice a list of them.
func readQuery(q url.Values, class *dto.Class) (dto.Body, error) {
	obj := make(map[string]any, len(q))
	for k, vs := range q {
		if len(vs) == 1 {
			obj[k] = vs[0]
			continue
		}
		list := make([]any, len(vs))
		for i, v := range vs {
			list[i] = v
		}
		obj[k] = list
	}
	b, err := class.Validate(obj)
	if err != nil {
		return nil, bodyError(err)
	}
	return b, nil
}

// optionalID is a member of b that a rule checked for a UUID, in lower
// case, or nil when it is absent.
func optionalID(b dto.Body, name string) *string {
	if v, ok := b.String(name); ok {
		return new(strings.ToLower(v))
	}
	return nil
}

// boolOf is a member of b that a rule checked for a boolean, or nil
// when it is absent.
func boolOf(b dto.Body, name string) *bool {
	if v, ok := b.Bool(name); ok {
		return &v
	}
	return nil
}

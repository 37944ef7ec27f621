package api

import (
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// listing is the links of the audience's user, newest first, as the
// listing shows them: what the tests compare an answer with.
func listing(v *store.View, aud audience) []model.SharedLink {
	var out []model.SharedLink
	_ = eachListed(v, aud, func(l any) error { out = append(out, l.(model.SharedLink)); return nil })
	return out
}

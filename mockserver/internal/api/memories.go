package api

import (
	"math"
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Memories: a user's selections of assets for a day, which their web app
// shows as stories (the upstream's memory controller). Only their owner
// reads, changes or deletes one.

// maxSafeInteger is the largest whole number JavaScript counts exactly: a
// memory's year past it is refused (a rule of the mock's).
const maxSafeInteger = 1<<53 - 1

// OnThisDayDto: a memory's data, for the type on_this_day.
var onThisDay = dto.NewClass("OnThisDayDto",
	dto.Field("year", dto.As(yearBound), dto.As(dto.IsInt()), dto.As(dto.IsPositive())),
)

// yearBound is the mock's rule on a year, judged after the upstream's and
// only of a number.
var yearBound = dto.Check(func(v any) bool {
	f, ok := numberOf(v)
	return !ok || f <= maxSafeInteger
}, "$property must not be greater than 9007199254740991")

// memoryBaseDTO is MemoryBaseDto's members, which MemoryCreateDto and
// MemoryUpdateDto extend (their own members are judged first).
var memoryBaseDTO = []dto.Property{
	dto.Field("isSaved", optionalBool),
	dto.Field("seenAt", dto.ValidateDate(dto.ValidateDateOptions{Optional: true})),
}

// memoryCreateOf is MemoryCreateDto with its data judged as data: the
// upstream's Type picks OnThisDayDto for the type on_this_day, and a
// plain object, with no rule, for any other.
func memoryCreateOf(data *dto.Class) *dto.Class {
	return dto.NewClass("MemoryCreateDto", append([]dto.Property{
		dto.Field("type", dto.As(dto.IsEnum(model.MemoryOnThisDay))),
		dto.Field("data", dto.As(dto.IsObject()), dto.ValidateNested(data, false)),
		dto.Field("memoryAt", dto.ValidateDate(dto.ValidateDateOptions{})),
		dto.Field("assetIds", optionalUUIDs),
	}, memoryBaseDTO...)...).Within(listBody)
}

// MemoryCreateDto: POST /api/memories, for the type on_this_day and for
// any other; memoryTypeOnly reads the type that picks one.
var (
	memoryCreateBody      = memoryCreateOf(onThisDay)
	memoryCreateOtherBody = memoryCreateOf(dto.NewClass("Object"))
	memoryTypeOnly        = dto.NewClass("MemoryType", dto.Field("type"))
)

// MemoryUpdateDto: PUT /api/memories/{id}.
var memoryUpdateBody = dto.NewClass("MemoryUpdateDto", append([]dto.Property{
	dto.Field("memoryAt", dto.ValidateDate(dto.ValidateDateOptions{Optional: true})),
}, memoryBaseDTO...)...)

// withMemoryCreateBody is withBody for MemoryCreateDto, whose class its
// type picks.
func (s *server) withMemoryCreateBody(op func(c *call, b dto.Body) error) operation {
	return func(c *call) error {
		h, err := readJSON(s.held, c, listBody)
		if err != nil {
			return err
		}
		defer h.Release()
		if err := h.countedBody(c.w, memoryCreateBody.Count); err != nil {
			return err
		}
		class := memoryCreateOtherBody
		if t, err := memoryTypeOnly.Decode(h.data); err == nil {
			if kind, _ := t.String("type"); kind == model.MemoryOnThisDay {
				class = memoryCreateBody
			}
		}
		b, err := class.Decode(h.data)
		if err != nil {
			return bodyError(err)
		}
		return op(c, b)
	}
}

// memoryLook is how a memory shows its assets: in the reference's shapes
// as the reference loads them (no owner, no exifInfo, no favourite);
// else as their owner reads them in their library.
func (a audience) memoryLook() assetLook {
	if a.reference {
		return assetLook{}
	}
	look := a.libraryRead()
	look.owner = true
	return look
}

// memoryAnswer is m as MemoryResponseDto shows it: its assets out of the
// trash.
func memoryAnswer(v *store.View, m *model.MemoryRecord, look assetLook) model.Memory {
	return model.Memory{
		ID: m.ID, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt, MemoryAt: m.MemoryAt, SeenAt: m.SeenAt,
		OwnerID: m.OwnerID, Type: m.Type, Data: m.Data, IsSaved: m.IsSaved,
		Assets: assetAnswers(v, v.MemoryAssets(m), look),
	}
}

// memories is GET /api/memories: the caller's, the latest memoryAt first.
// (The reference fails with a 500 as soon as the caller has one.)
func (s *server) memories(c *call) error {
	look := c.aud.memoryLook()
	out, err := store.Query(s.store, func(v *store.View) ([]model.Memory, error) {
		found := v.MemoriesOf(c.p().User.ID)
		out := make([]model.Memory, 0, len(found))
		for _, m := range found {
			out = append(out, memoryAnswer(v, m, look))
		}
		return out, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// memory is GET /api/memories/{id}.
func (s *server) memory(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.Memory, error) {
		m, err := v.OwnMemory(c.p().User.ID, c.id, "memory.read")
		if err != nil {
			return model.Memory{}, err
		}
		return memoryAnswer(v, m, c.aud.memoryLook()), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// optionalTime is the date member name of b, if it is one.
func optionalTime(b dto.Body, name string) *model.Time {
	if t, ok := b.Time(name); ok {
		return new(model.At(t))
	}
	return nil
}

// createMemory is POST /api/memories: 201 with the new memory.
func (s *server) createMemory(c *call, b dto.Body) error {
	kind, _ := b.String("type")
	data, _ := b["data"].(dto.Body)
	f, _ := numberOf(data["year"]) // a whole number, written as 2.021e3 too
	year := int64(math.Trunc(f))
	memoryAt, _ := b.Time("memoryAt")
	saved, _ := b.Bool("isSaved")
	nm := store.NewMemory{
		Type: kind, Year: year, IsSaved: saved, MemoryAt: model.At(memoryAt),
		SeenAt: optionalTime(b, "seenAt"), AssetIDs: lower(b.Strings("assetIds")),
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Memory, error) {
		m, err := tx.CreateMemory(c.p().User.ID, nm)
		if err != nil {
			return model.Memory{}, err
		}
		return memoryAnswer(&tx.View, m, c.aud.memoryLook()), nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// numberOf is a JSON number of a body as a float.
func numberOf(v any) (float64, bool) {
	n, ok := v.(interface{ Float64() (float64, error) })
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// updateMemory is PUT /api/memories/{id}. A null memoryAt is refused (the
// reference fails with a 500); a null seenAt clears it.
func (s *server) updateMemory(c *call, b dto.Body) error {
	if b.IsNull("memoryAt") {
		return store.InvalidFields([]string{"memoryAt should not be empty"})
	}
	mp := store.MemoryPatch{MemoryAt: optionalTime(b, "memoryAt"), SeenAt: optionalTime(b, "seenAt"), ClearSeenAt: b.IsNull("seenAt")}
	if saved, ok := b.Bool("isSaved"); ok {
		mp.IsSaved = &saved
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Memory, error) {
		m, err := tx.UpdateMemory(c.p().User.ID, c.id, mp)
		if err != nil {
			return model.Memory{}, err
		}
		return memoryAnswer(&tx.View, m, c.aud.memoryLook()), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// deleteMemory is DELETE /api/memories/{id}: 204.
func (s *server) deleteMemory(c *call) error {
	if err := s.store.Write(func(tx *store.Tx) error { return tx.RemoveMemory(c.p().User.ID, c.id) }); err != nil {
		return err
	}
	return noContent(c)
}

// memoryAssets is PUT (add) and DELETE (remove) /api/memories/{id}/assets:
// each id's outcome.
func (s *server) memoryAssets(add bool) func(c *call, b dto.Body) error {
	return func(c *call, b dto.Body) error {
		ids := lower(b.Strings("ids"))
		out, err := store.Update(s.store, func(tx *store.Tx) ([]model.BulkIDResult, error) {
			if add {
				return tx.AddMemoryAssets(c.p().User.ID, c.id, ids)
			}
			return tx.RemoveMemoryAssets(c.p().User.ID, c.id, ids)
		})
		return answer(c, http.StatusOK, out, err)
	}
}

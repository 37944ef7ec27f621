package api

import (
	"math"
	"net/http"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The mobile app's sync (the upstream's sync controller) and the audit of
// deletions (its audit controller's getAuditDeletes).

var requiredDate = dto.ValidateDate(dto.ValidateDateOptions{})

// AssetFullSyncDto: POST /api/sync/full-sync.
var fullSyncBody = dto.NewClass("AssetFullSyncDto",
	dto.Field("lastId", optionalUUID),
	dto.Field("lastCreationDate", dto.ValidateDate(dto.ValidateDateOptions{Optional: true})),
	dto.Field("updatedUntil", requiredDate),
	dto.Field("limit", dto.As(dto.IsInt()), dto.As(dto.IsPositive())),
	dto.Field("userId", optionalUUID),
)

// AssetDeltaSyncDto: POST /api/sync/delta-sync.
var deltaSyncBody = dto.NewClass("AssetDeltaSyncDto",
	dto.Field("updatedAfter", requiredDate),
	dto.Field("userIds", uuids),
).Within(listBody)

// AuditDeletesDto: GET /api/audit/deletes.
var auditDeletesQuery = dto.NewClass("AuditDeletesDto",
	dto.Field("after", requiredDate),
	dto.Field("entityType", dto.As(dto.IsEnum(model.AuditAsset, model.AuditAlbum))),
	dto.Field("userId", optional, dto.As(dto.IsUUID())),
)

// syncLook is an asset as the sync shows it: as the timeline does, with
// exifInfo, and its stack where withStack.
func syncLook(viewer string, withStack bool) assetLook {
	return assetLook{exif: true, stack: withStack, favoriteOf: viewer}
}

// fullSync is POST /api/sync/full-sync: a page of the assets of the caller
// or of a partner who shares with them (userId), the newest first, trashed
// and archived ones too, those changed after updatedUntil left out.
func (s *server) fullSync(c *call, b dto.Body) error {
	q := store.FullSyncPage{UserID: c.p().User.ID, LastID: optionalID(b, "lastId"), Limit: math.MaxInt}
	if id := optionalID(b, "userId"); id != nil {
		q.UserID = *id
	}
	q.UpdatedUntil, _ = b.Time("updatedUntil")
	if t, ok := b.Time("lastCreationDate"); ok {
		q.LastCreationDate = &t
	}
	if n, ok := b.Int64("limit"); ok && n < math.MaxInt32 {
		q.Limit = int(n)
	}
	out, err := store.Query(s.store, func(v *store.View) ([]model.Asset, error) {
		found, err := v.FullSync(c.p(), q)
		if err != nil {
			return nil, err
		}
		return assetAnswers(v, found, syncLook(c.p().User.ID, true)), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// deltaSync is POST /api/sync/delta-sync: what changed and what was
// deleted since updatedAfter, or needsFullSync.
func (s *server) deltaSync(c *call, b dto.Body) error {
	after, _ := b.Time("updatedAfter")
	ids := b.Strings("userIds")
	for i, id := range ids {
		ids[i] = strings.ToLower(id)
	}
	me := c.p().User.ID
	out, err := store.Query(s.store, func(v *store.View) (model.DeltaSync, error) {
		d, err := v.DeltaSync(c.p(), after, ids)
		if err != nil {
			return model.DeltaSync{}, err
		}
		out := model.DeltaSync{NeedsFullSync: d.NeedsFullSync, Upserted: make([]model.Asset, 0, len(d.Upserted)), Deleted: d.Deleted}
		if out.Deleted == nil {
			out.Deleted = []string{}
		}
		for _, a := range d.Upserted {
			out.Upserted = append(out.Upserted, assetAnswer(v, a, syncLook(me, a.OwnerID == me)))
		}
		return out, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// auditDeletes is GET /api/audit/deletes?after&entityType&userId: the ids
// of the assets or albums of the caller (or of a partner who shares with
// them) deleted since after.
func (s *server) auditDeletes(c *call) error {
	b, err := readQuery(c.r.URL.Query(), auditDeletesQuery)
	if err != nil {
		return err
	}
	userID := c.p().User.ID
	if id := optionalID(b, "userId"); id != nil {
		userID = *id
	}
	after, _ := b.Time("after")
	kind, _ := b.String("entityType")
	out, err := store.Query(s.store, func(v *store.View) (model.AuditDeletes, error) {
		return v.AuditDeletes(c.p(), userID, kind, after)
	})
	return answer(c, http.StatusOK, out, err)
}

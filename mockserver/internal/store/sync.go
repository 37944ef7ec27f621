package store

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The mobile app's sync: every asset of a user page by page (full sync),
// what changed since a time (delta sync), and the audit of deletions that
// tells what went.

// AuditMaxAge is how long the audit of deletions keeps an entry, as the
// reference's nightly clean-up (AUDIT_LOG_MAX_DURATION, 100 days): a
// client that last synced before then needs a full sync.
const AuditMaxAge = 100 * 24 * time.Hour

// MaxAuditRecords bounds the entries the audit keeps. Past it the oldest
// go, and a client that last synced before the newest of those needs a
// full sync, as one that last synced before AuditMaxAge does.
const MaxAuditRecords = 10_000

// MaxSyncAssets bounds a delta sync's changed assets, as the reference's
// (more need a full sync), and a full sync's page, whatever limit the
// client asks for (the mobile app asks for pages of that size).
const MaxSyncAssets = 10_000

// auditLog is the audit of deletions: its entries, the oldest first, and
// since when it is whole (nil: since ever).
type auditLog struct {
	since   *model.Time
	entries []model.AuditRecord
}

// log is the audit as the dataset holds it; nil when empty. Its entries
// are clipped, so that appending to them copies.
func (l auditLog) log() *model.AuditLog {
	if l.since == nil && len(l.entries) == 0 {
		return nil
	}
	return &model.AuditLog{Since: l.since, Entries: slices.Clip(l.entries)}
}

// loadAudit takes the dataset's audit, checking its entries.
func (st *state) loadAudit(l *model.AuditLog) error {
	if l == nil {
		return nil
	}
	if len(l.Entries) > MaxAuditRecords {
		return fmt.Errorf("audit: %d entries, more than %d", len(l.Entries), MaxAuditRecords)
	}
	for i, e := range l.Entries {
		switch {
		case e.EntityType != model.AuditAsset && e.EntityType != model.AuditAlbum:
			return fmt.Errorf("audit.entries[%d]: entityType %q is neither %s nor %s", i, e.EntityType, model.AuditAsset, model.AuditAlbum)
		case !IsUUID(e.EntityID) || !IsUUID(e.OwnerID):
			return fmt.Errorf("audit.entries[%d]: entityId and ownerId must be UUIDs", i)
		case i > 0 && e.CreatedAt.Before(l.Entries[i-1].CreatedAt.Time):
			return fmt.Errorf("audit.entries[%d]: older than the entry before it", i)
		}
		if err := inRange(timeField{"createdAt", &l.Entries[i].CreatedAt}); err != nil {
			return fmt.Errorf("audit.entries[%d]: %w", i, err)
		}
	}
	st.audit = auditLog{since: l.Since, entries: slices.Clip(l.Entries)}
	return nil
}

// IsUUID says whether s is written as a UUID (any version, lower or upper
// case).
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", c):
			return false
		}
	}
	return true
}

// audited is l with entries added at now, those older than AuditMaxAge
// let go, and the oldest let go past MaxAuditRecords.
func (l auditLog) audited(now model.Time, entries ...model.AuditRecord) auditLog {
	all := slices.Concat(l.entries, entries)
	old := now.Add(-AuditMaxAge)
	first, _ := slices.BinarySearchFunc(all, old, func(e model.AuditRecord, t time.Time) int { return e.CreatedAt.Compare(t) })
	since := l.since
	if over := len(all) - first - MaxAuditRecords; over > 0 {
		first += over
		since = &all[first-1].CreatedAt
	}
	return auditLog{since: since, entries: slices.Clip(all[first:])}
}

// audit records in tx that the assets or albums were deleted for good now.
func (tx *Tx) audit(entityType string, owners map[string]string) {
	if len(owners) == 0 {
		return
	}
	now := tx.Tick()
	entries := make([]model.AuditRecord, 0, len(owners))
	for _, id := range slices.Sorted(maps.Keys(owners)) {
		entries = append(entries, model.AuditRecord{EntityType: entityType, EntityID: id, OwnerID: owners[id], CreatedAt: now})
	}
	st := tx.st
	before := st.audit
	st.audit = before.audited(now, entries...)
	tx.did(0, func() { st.audit = before })
}

// needsFullSync says whether the audit may lack a deletion made after
// the time: older than AuditMaxAge, or than what it let go.
func (v *View) needsFullSync(after time.Time) bool {
	if v.Now().Sub(after) > AuditMaxAge {
		return true
	}
	since := v.st.audit.since
	return since != nil && after.Before(since.Time)
}

// deletedAfter is the ids of the entities of that type of the owners
// deleted after the time, each once, in the order of their ids.
func (v *View) deletedAfter(entityType string, owners map[string]bool, after time.Time) []string {
	seen := map[string]bool{}
	ids := []string{}
	for _, e := range v.st.audit.entries {
		if e.EntityType == entityType && owners[e.OwnerID] && e.CreatedAt.After(after) && !seen[e.EntityID] {
			seen[e.EntityID] = true
			ids = append(ids, e.EntityID)
		}
	}
	slices.Sort(ids)
	return ids
}

// timelineReadable is the reference's timeline.read: the user's own
// library, or a partner's who shares it with them.
func (v *View) timelineReadable(p Principal, userID string) error {
	if p.Link != nil || (userID != p.User.ID && !v.IsPartner(userID, p.User.ID)) {
		return Fail(NoAccess, "Not found or no timeline.read access")
	}
	return nil
}

// AuditDeletes is GET /api/audit/deletes: the ids of the assets or albums
// of a user (the caller, or a partner who shares with them) deleted after
// the time, and whether the audit may lack some.
func (v *View) AuditDeletes(p Principal, userID, entityType string, after time.Time) (model.AuditDeletes, error) {
	if err := v.timelineReadable(p, userID); err != nil {
		return model.AuditDeletes{}, err
	}
	ids := v.deletedAfter(entityType, map[string]bool{userID: true}, after)
	return model.AuditDeletes{NeedsFullSync: v.needsFullSync(after), IDs: ids}, nil
}

// FullSyncPage is what a page of the full sync asks for.
type FullSyncPage struct {
	UserID       string
	UpdatedUntil time.Time
	// LastCreationDate and LastID are where the page before ended; both
	// or neither (then the first page).
	LastCreationDate *time.Time
	LastID           *string
	Limit            int
}

// FullSync is a page of a user's assets (the caller's, or a partner's who
// shares with them), hidden ones left out, trashed and archived ones in,
// changed no later than UpdatedUntil, the newest (fileCreatedAt, then id)
// first.
func (v *View) FullSync(p Principal, q FullSyncPage) ([]*model.AssetRecord, error) {
	if err := v.timelineReadable(p, q.UserID); err != nil {
		return nil, err
	}
	var out []*model.AssetRecord
	for _, a := range v.st.byOwner[q.UserID] {
		if !a.IsVisible || a.UpdatedAt.After(q.UpdatedUntil) {
			continue
		}
		if q.LastCreationDate != nil && q.LastID != nil && compareSyncKey(a, *q.LastCreationDate, *q.LastID) >= 0 {
			continue
		}
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b *model.AssetRecord) int { return -compareSyncKey(a, b.FileCreatedAt.Time, b.ID) })
	return out[:min(len(out), q.Limit, MaxSyncAssets)], nil
}

// compareSyncKey compares an asset's (fileCreatedAt, id) with another's.
func compareSyncKey(a *model.AssetRecord, created time.Time, id string) int {
	return cmp.Or(a.FileCreatedAt.Compare(created), strings.Compare(strings.ToLower(a.ID), strings.ToLower(id)))
}

// DeltaSync is what changed since a time for a user who holds the assets
// of userIDs: the caller and the partners who share with them.
type DeltaSync struct {
	NeedsFullSync bool
	Upserted      []*model.AssetRecord
	Deleted       []string
}

// DeltaSync is POST /api/sync/delta-sync, as the reference decides it: a
// full sync when the time is older than the audit keeps, when userIDs are
// not the caller and the partners who share with them, or when
// MaxSyncAssets or more assets changed; else the assets changed since
// (their partners' archived ones left out) and the ids deleted since.
func (v *View) DeltaSync(p Principal, after time.Time, userIDs []string) (DeltaSync, error) {
	full := DeltaSync{NeedsFullSync: true}
	if v.Now().Sub(after) > AuditMaxAge {
		return full, nil
	}
	me := p.User.ID
	owners := map[string]bool{me: true}
	for _, pt := range v.PartnersOf(me, false) {
		owners[pt.SharedByID] = true
	}
	asked := map[string]bool{}
	for _, id := range userIDs {
		asked[id] = true
	}
	if len(asked) != len(owners) {
		return full, nil
	}
	for id := range asked {
		if !owners[id] {
			return full, nil
		}
	}
	var changed []*model.AssetRecord
	for _, a := range v.st.assets {
		if owners[a.OwnerID] && a.IsVisible && a.UpdatedAt.After(after) {
			changed = append(changed, a)
		}
	}
	if len(changed) >= MaxSyncAssets || v.needsFullSync(after) {
		return full, nil
	}
	out := DeltaSync{Upserted: []*model.AssetRecord{}, Deleted: v.deletedAfter(model.AuditAsset, owners, after)}
	for _, a := range changed {
		if a.OwnerID == me || !a.IsArchived {
			out.Upserted = append(out.Upserted, a)
		}
	}
	slices.SortStableFunc(out.Upserted, func(a, b *model.AssetRecord) int { return a.UpdatedAt.Compare(b.UpdatedAt.Time) })
	return out, nil
}

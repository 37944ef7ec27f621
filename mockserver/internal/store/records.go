package store

import (
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Records is the whole state at one moment: the records themselves, which
// never change once stored, so that it costs a pointer a record and can be
// written out after the lock is let go, as slowly as its reader reads.
type Records struct {
	Seed     int64
	Anchor   model.Time
	Users    []*model.UserRecord
	People   []*model.PersonRecord
	Tags     []*model.Tag
	Assets   []*model.AssetRecord
	Albums   []*model.AlbumRecord
	Links    []*model.SharedLinkRecord
	APIKeys  []*model.APIKeyRecord
	Sessions []*model.SessionRecord
	Partners []*model.PartnerRecord
	// Activities are the albums' comments and likes; SystemConfig the
	// settings an admin changed (nil: the defaults).
	Activities   []*model.ActivityRecord
	Memories     []*model.MemoryRecord
	Libraries    []*model.LibraryRecord
	SystemConfig *model.SystemConfig
	// Audit is the audit of deletions (nil: none); its entries are never
	// changed once stored.
	Audit    *model.AuditLog
	MediaDir string
	// AdminOnboarded: the first admin went through onboarding.
	AdminOnboarded bool
}

// Records is the whole state as it is now.
func (db *Store) Records() Records {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.recordsLocked()
}

// recordsLocked is Records; the caller holds the lock.
func (db *Store) recordsLocked() Records {
	st := db.state
	return Records{
		Seed: st.seed, Anchor: st.anchor,
		Users: slices.Clone(st.users), People: slices.Clone(st.people), Tags: slices.Clone(st.tags),
		Assets: slices.Clone(st.assets), Albums: slices.Clone(st.albums), Links: slices.Clone(st.links),
		APIKeys: slices.Clone(st.apiKeys), Sessions: slices.Clone(st.sessions), Partners: slices.Clone(st.partners),
		Activities: slices.Clone(st.activities), Memories: slices.Clone(st.memories), Libraries: slices.Clone(st.libraries), SystemConfig: st.config, Audit: st.audit.log(),
		MediaDir: db.mediaDir, AdminOnboarded: st.onboarded,
	}
}

// Dataset is the records as the dataset document holds them.
func (r Records) Dataset() model.Dataset {
	d := model.Dataset{Seed: r.Seed, Anchor: r.Anchor, MediaDir: r.MediaDir, AdminOnboarded: r.AdminOnboarded}
	d.Users = values(r.Users)
	d.People = values(r.People)
	d.Tags = values(r.Tags)
	d.Assets = values(r.Assets)
	d.Albums = values(r.Albums)
	d.SharedLinks = values(r.Links)
	if len(r.APIKeys) > 0 {
		d.APIKeys = values(r.APIKeys)
	}
	if len(r.Sessions) > 0 {
		d.Sessions = values(r.Sessions)
	}
	if len(r.Partners) > 0 {
		d.Partners = values(r.Partners)
	}
	if len(r.Activities) > 0 {
		d.Activities = values(r.Activities)
	}
	if len(r.Libraries) > 0 {
		d.Libraries = values(r.Libraries)
	}
	if len(r.Memories) > 0 {
		d.Memories = values(r.Memories)
	}
	d.Audit = r.Audit
	if r.SystemConfig != nil {
		c := r.SystemConfig.Clone()
		d.SystemConfig = &c
	}
	return d
}

func values[T any](ps []*T) []T {
	out := make([]T, len(ps))
	for i, p := range ps {
		out[i] = *p
	}
	return out
}

package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The mobile app's sync: a full sync page by page, what changed since a
// time (delta sync), and the audit of deletions. Only of users the harness
// makes (@new-user), and of their partnerships.

// syncState is what the sync steps remember within a scenario.
type syncState struct {
	// pages are the assets of the last full sync, page by page.
	pages [][]syncedAsset
	// point is when the new user last synced: the newest updatedAt of
	// their photos once the server was done with them.
	point time.Time
	// ask asks again what the last delta sync or audit asked: the
	// server may delete a photo a while after it answers.
	ask func(ctx context.Context) error
	// delta and audit are the last answers.
	delta struct {
		NeedsFullSync bool          `json:"needsFullSync"`
		Upserted      []syncedAsset `json:"upserted"`
		Deleted       []string      `json:"deleted"`
	}
	audit struct {
		NeedsFullSync bool     `json:"needsFullSync"`
		IDs           []string `json:"ids"`
	}
}

// syncedAsset is what the sync steps read of an asset.
type syncedAsset struct {
	ID            string    `json:"id"`
	FileCreatedAt time.Time `json:"fileCreatedAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
	IsFavorite    bool      `json:"isFavorite"`
	IsArchived    bool      `json:"isArchived"`
	IsTrashed     bool      `json:"isTrashed"`
	Thumbhash     *string   `json:"thumbhash"`
}

const (
	syncWho   = `(they|the other new user)`
	syncWhich = `(first|second|third)`
)

// syncSteps are the steps of the mobile app's sync and of the audit.
func (s *scenario) syncSteps() []step {
	return []step{
		{`^` + syncWho + ` asks? for a full sync of (their|the new user's|the other new user's) library in pages of (\d+)$`, s.fullSyncPages},
		{`^the pages hold those (\d+) photos, each once, the newest first$`, s.pagesHoldPhotos},
		{`^the ` + syncWhich + ` of those photos is among them, (archived|in the trash)$`, s.pagesHoldPhotoAs},
		{`^(?:they have synced, once )?the server is done with those photos$`, s.haveSynced},
		{`^they mark the ` + syncWhich + ` of those photos as a favourite$`, s.theyMarkFavourite},
		{`^they delete the ` + syncWhich + ` of those photos for good$`, s.theyDeleteForGood},
		{`^` + syncWho + ` asks? what changed since (then|yesterday|101 days ago), for (themselves|themselves and the new user|themselves and the other new user)$`, s.askDelta},
		{`^the answer needs (a|no) full sync$`, s.deltaNeedsFullSync},
		{`^what changed holds the ` + syncWhich + ` of those photos, (a favourite|not a favourite|archived)$`, s.deltaHolds},
		{`^what changed leaves out the ` + syncWhich + ` of those photos$`, s.deltaLeavesOut},
		{`^what was deleted is the ` + syncWhich + ` of those photos$`, s.deltaDeleted},
		{`^` + syncWho + ` asks? which of (their|the new user's|the other new user's) (photos|albums) were deleted since (then|yesterday|101 days ago)$`, s.askAudit},
		{`^the audit names (the first of those photos|their album|nothing)(?: alone)?, and needs no full sync$`, s.auditNames},
		{`^the audit needs a full sync$`, s.auditNeedsFullSync},
		{`^I ask for a full sync, with nothing in the body$`, s.askFullSyncEmpty},
		{`^I ask what changed, with nothing in the body$`, s.askDeltaEmpty},
		{`^I ask which photos were deleted, saying neither since when nor of what$`, s.askAuditEmpty},
	}
}

// syncUser is "they" (the new user) or "the other new user".
func (s *scenario) syncUser(who string) (*user, error) {
	u := s.changes.them
	if who == "the other new user" || who == "the other new user's" {
		u = s.changes.another
	}
	if u == nil {
		return nil, fmt.Errorf("no %s was made earlier in the scenario", strings.TrimSuffix(who, "'s"))
	}
	return u, nil
}

// syncTime is a time a step names.
func (s *scenario) syncTime(since string) (time.Time, error) {
	switch since {
	case "yesterday":
		return time.Now().Add(-24 * time.Hour), nil
	case "101 days ago":
		return time.Now().Add(-101 * 24 * time.Hour), nil
	}
	if s.sync.point.IsZero() {
		return time.Time{}, fmt.Errorf("the new user has not synced earlier in the scenario")
	}
	return s.sync.point, nil
}

// fullSyncPages asks for a user's library page by page, until a page is
// not full; a refusal ends it, for the next step to judge.
func (s *scenario) fullSyncPages(ctx context.Context, who, whose string, size int) error {
	u, err := s.syncUser(who)
	if err != nil {
		return err
	}
	in := map[string]any{"limit": size, "updatedUntil": time.Now().Add(time.Minute).UTC().Format(time.RFC3339Nano)}
	if whose != "their" {
		owner, err := s.syncUser(whose)
		if err != nil {
			return err
		}
		in["userId"] = owner.id
	}
	s.sync.pages = nil
	for range 100 {
		if err := s.sendJSON(ctx, http.MethodPost, "/sync/full-sync", credentials{apiKey: u.apiKey}, in); err != nil || s.last.status != http.StatusOK {
			return err
		}
		var page []syncedAsset
		if err := json.Unmarshal(s.last.body, &page); err != nil {
			return fmt.Errorf("the page is not a list of assets: %w", err)
		}
		s.sync.pages = append(s.sync.pages, page)
		if len(page) < size {
			return nil
		}
		last := page[len(page)-1]
		in["lastId"], in["lastCreationDate"] = last.ID, last.FileCreatedAt.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Errorf("100 pages of %d, and still more", size)
}

// synced is every asset of the pages, in their order.
func (s *scenario) synced() []syncedAsset { return slices.Concat(s.sync.pages...) }

// pagesHoldPhotos judges the pages: the scenario's photos, each once, the
// newest first (fileCreatedAt, then id).
func (s *scenario) pagesHoldPhotos(n int) error {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	all := s.synced()
	var ids []string
	for i, a := range all {
		ids = append(ids, a.ID)
		if i > 0 {
			p := all[i-1]
			if p.FileCreatedAt.Before(a.FileCreatedAt) || (p.FileCreatedAt.Equal(a.FileCreatedAt) && p.ID < a.ID) {
				return fmt.Errorf("%s (%s) comes after %s (%s): not the newest first", a.ID, a.FileCreatedAt, p.ID, p.FileCreatedAt)
			}
		}
	}
	want := slices.Sorted(slices.Values(s.changes.photos))
	if got := slices.Sorted(slices.Values(ids)); len(want) != n || !slices.Equal(got, want) {
		return fmt.Errorf("the pages hold %q, want the %d photos %q", ids, n, want)
	}
	return nil
}

// pagesHoldPhotoAs judges one photo of the pages archived or trashed.
func (s *scenario) pagesHoldPhotoAs(which, as string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	for _, a := range s.synced() {
		if a.ID == id {
			if (as == "archived" && !a.IsArchived) || (as == "in the trash" && !a.IsTrashed) {
				return fmt.Errorf("the photo %s is not %s in the pages", id, as)
			}
			return nil
		}
	}
	return fmt.Errorf("the photo %s is not in the pages", id)
}

// haveSynced waits until the server is done with the new user's photos
// (each has its thumbhash: the last thing a server derives and stores of
// a photo; before, it may still change their dates from their EXIF), and
// keeps their newest updatedAt as when they synced.
func (s *scenario) haveSynced(ctx context.Context) error {
	u, err := s.syncUser("they")
	if err != nil {
		return err
	}
	in := map[string]any{"limit": 1000, "updatedUntil": time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano)}
	return s.settle(ctx, func() error {
		var page []syncedAsset
		if err := s.call(ctx, "syncing", http.MethodPost, "/sync/full-sync", credentials{apiKey: u.apiKey}, in, &page, http.StatusOK); err != nil {
			return err
		}
		if len(page) != len(s.changes.photos) {
			return fmt.Errorf("the full sync holds %d photos, want %d", len(page), len(s.changes.photos))
		}
		s.sync.point = time.Time{}
		for _, a := range page {
			if a.Thumbhash == nil {
				return fmt.Errorf("the photo %s has no thumbhash yet", a.ID)
			}
			if a.UpdatedAt.After(s.sync.point) {
				s.sync.point = a.UpdatedAt
			}
		}
		return nil
	})
}

// theyMarkFavourite marks one of the new user's photos a favourite.
func (s *scenario) theyMarkFavourite(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	u, err := s.syncUser("they")
	if err != nil {
		return err
	}
	return s.call(ctx, "marking the photo a favourite", http.MethodPut, "/asset/"+id, credentials{apiKey: u.apiKey}, map[string]any{"isFavorite": true}, nil, http.StatusOK)
}

// theyDeleteForGood deletes one of the new user's photos, not to the trash.
func (s *scenario) theyDeleteForGood(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	u, err := s.syncUser("they")
	if err != nil {
		return err
	}
	in := map[string]any{"ids": []string{id}, "force": true}
	return s.call(ctx, "deleting the photo for good", http.MethodDelete, "/asset", credentials{apiKey: u.apiKey}, in, nil, http.StatusNoContent)
}

// askDelta asks what changed since a time, for the users a step names.
func (s *scenario) askDelta(ctx context.Context, who, since, users string) error {
	u, err := s.syncUser(who)
	if err != nil {
		return err
	}
	after, err := s.syncTime(since)
	if err != nil {
		return err
	}
	ids := []string{u.id}
	if rest, ok := strings.CutPrefix(users, "themselves and "); ok {
		other, err := s.syncUser(rest)
		if err != nil {
			return err
		}
		ids = append(ids, other.id)
	}
	in := map[string]any{"updatedAfter": after.UTC().Format(time.RFC3339Nano), "userIds": ids}
	s.sync.ask = func(ctx context.Context) error {
		if err := s.sendJSON(ctx, http.MethodPost, "/sync/delta-sync", credentials{apiKey: u.apiKey}, in); err != nil || s.last.status != http.StatusOK {
			return err
		}
		return json.Unmarshal(s.last.body, &s.sync.delta)
	}
	return s.sync.ask(ctx)
}

// askedAgain judges check against the last answer, asking again until it
// holds, up to --settle: a server deletes a photo a while after it says so.
func (s *scenario) askedAgain(ctx context.Context, check func() error) error {
	if s.sync.ask == nil {
		return fmt.Errorf("nothing was asked earlier in the scenario")
	}
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	if check() == nil {
		return nil
	}
	return s.settle(ctx, func() error {
		if err := s.sync.ask(ctx); err != nil {
			return err
		}
		if err := s.wantStatus(http.StatusOK); err != nil {
			return err
		}
		return check()
	})
}

// deltaNeedsFullSync judges whether the delta sync needs a full sync; one
// that does gives nothing else.
func (s *scenario) deltaNeedsFullSync(ctx context.Context, a string) error {
	want := a == "a"
	return s.askedAgain(ctx, func() error {
		d := s.sync.delta
		switch {
		case d.NeedsFullSync != want:
			return fmt.Errorf("needsFullSync is %v, want %v", d.NeedsFullSync, want)
		case want && (len(d.Upserted) > 0 || len(d.Deleted) > 0):
			return fmt.Errorf("a full sync is needed, yet %d changed and %d deleted are given", len(d.Upserted), len(d.Deleted))
		}
		return nil
	})
}

// deltaHolds judges a photo among what changed, as the step says.
func (s *scenario) deltaHolds(ctx context.Context, which, as string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	return s.askedAgain(ctx, func() error {
		for _, a := range s.sync.delta.Upserted {
			if a.ID != id {
				continue
			}
			switch {
			case as == "a favourite" && !a.IsFavorite, as == "not a favourite" && a.IsFavorite, as == "archived" && !a.IsArchived:
				return fmt.Errorf("the photo %s changed, but is not %s", id, as)
			}
			return nil
		}
		return fmt.Errorf("what changed (%d assets) leaves out the photo %s", len(s.sync.delta.Upserted), id)
	})
}

// deltaLeavesOut judges a photo out of what changed.
func (s *scenario) deltaLeavesOut(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	return s.askedAgain(ctx, func() error {
		for _, a := range s.sync.delta.Upserted {
			if a.ID == id {
				return fmt.Errorf("what changed holds the photo %s", id)
			}
		}
		return nil
	})
}

// deltaDeleted judges what was deleted: that photo alone.
func (s *scenario) deltaDeleted(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	return s.askedAgain(ctx, func() error {
		if !slices.Equal(s.sync.delta.Deleted, []string{id}) {
			return fmt.Errorf("what was deleted is %q, want the photo %s alone", s.sync.delta.Deleted, id)
		}
		return nil
	})
}

// askAudit asks which photos or albums of a user were deleted since a time.
func (s *scenario) askAudit(ctx context.Context, who, whose, what, since string) error {
	u, err := s.syncUser(who)
	if err != nil {
		return err
	}
	after, err := s.syncTime(since)
	if err != nil {
		return err
	}
	q := url.Values{"after": {after.UTC().Format(time.RFC3339Nano)}, "entityType": {"ASSET"}}
	if what == "albums" {
		q.Set("entityType", "ALBUM")
	}
	if whose != "their" {
		owner, err := s.syncUser(whose)
		if err != nil {
			return err
		}
		q.Set("userId", owner.id)
	}
	s.sync.ask = func(ctx context.Context) error {
		if err := s.sendJSON(ctx, http.MethodGet, "/audit/deletes?"+q.Encode(), credentials{apiKey: u.apiKey}, nil); err != nil || s.last.status != http.StatusOK {
			return err
		}
		return json.Unmarshal(s.last.body, &s.sync.audit)
	}
	return s.sync.ask(ctx)
}

// auditNames judges the audit's ids: the first photo, the album, or none.
func (s *scenario) auditNames(ctx context.Context, what string) error {
	want := []string{}
	switch what {
	case "the first of those photos":
		id, err := s.photoNamed("first")
		if err != nil {
			return err
		}
		want = []string{id}
	case "their album":
		if s.changes.album == "" {
			return fmt.Errorf("no album was made earlier in the scenario")
		}
		want = []string{s.changes.album}
	}
	return s.askedAgain(ctx, func() error {
		a := s.sync.audit
		if a.NeedsFullSync || !slices.Equal(a.IDs, want) {
			return fmt.Errorf("the audit names %q (needsFullSync %v), want %q and no full sync", a.IDs, a.NeedsFullSync, want)
		}
		return nil
	})
}

// auditNeedsFullSync judges that the audit cannot tell.
func (s *scenario) auditNeedsFullSync(ctx context.Context) error {
	return s.askedAgain(ctx, func() error {
		if !s.sync.audit.NeedsFullSync {
			return fmt.Errorf("the audit needs no full sync, want it to")
		}
		return nil
	})
}

// askFullSyncEmpty asks for a full sync with an empty object.
func (s *scenario) askFullSyncEmpty(ctx context.Context) error {
	return s.sendJSON(ctx, http.MethodPost, "/sync/full-sync", s.creds, map[string]any{})
}

// askDeltaEmpty asks what changed with an empty object.
func (s *scenario) askDeltaEmpty(ctx context.Context) error {
	return s.sendJSON(ctx, http.MethodPost, "/sync/delta-sync", s.creds, map[string]any{})
}

// askAuditEmpty asks the audit without a query.
func (s *scenario) askAuditEmpty(ctx context.Context) error {
	return s.sendJSON(ctx, http.MethodGet, "/audit/deletes", s.creds, nil)
}

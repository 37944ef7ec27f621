package steps

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// The trash: emptied for good, or restored whole. Only ever of a user the
// harness makes (@new-user): emptying or restoring the trash of a user it
// was given would destroy or bring back what is theirs.

// trashSteps are the steps of new users and their photos, and of the
// trash.
func (s *scenario) trashSteps() []step {
	return []step{
		{`^a new user$`, s.aNewUser},
		{`^a new user with (\d+) new photos?$`, s.aNewUserWithPhotos},
		{`^a new user with (\d+) new photos, in an album of theirs$`, s.aNewUserWithAlbum},
		{`^another new user, with a new photo of theirs in their trash$`, s.anotherNewUserWithTrash},
		{`^they have archived the (first|second|third) of those photos$`, s.haveArchived},
		{`^they have moved the (first|second|third|first and second) of those photos to the trash$`, s.haveTrashed},
		{`^(I|they|the other new user) (?:empty|empties) (?:my|their) trash$`, s.emptyTrash},
		{`^(I|they|the other new user) (?:restore|restores) (?:my|their) trash$`, s.restoreTrash},
		{`^the (first|second|third) of those photos is gone for good$`, s.photoGone},
		{`^the other new user's photo is gone for good$`, s.anotherPhotoGone},
		{`^the (first|second|third) of those photos is still theirs, out of the trash$`, s.photoOutOfTrash},
		{`^each of those photos is theirs, out of the trash$`, s.eachPhotoOutOfTrash},
		{`^the other new user's photo is out of the trash$`, s.anotherPhotoOutOfTrash},
		{`^the (first|second|third) of those photos is still in its owner's trash$`, s.photoStillTrashed},
		{`^their album holds the (\d+) photos again$`, s.albumHoldsAgain},
	}
}

// aNewUser makes a user for the scenario: "they".
func (s *scenario) aNewUser(ctx context.Context) error {
	u, err := s.newUser(ctx)
	s.changes.them = u
	return err
}

// aNewUserWithPhotos makes a user for the scenario and uploads n new
// photos of theirs.
func (s *scenario) aNewUserWithPhotos(ctx context.Context, n int) error {
	if err := s.aNewUser(ctx); err != nil {
		return err
	}
	return s.uploadMine(ctx, s.changes.them, n)
}

// aNewUserWithAlbum is aNewUserWithPhotos, the photos in an album of the
// new user.
func (s *scenario) aNewUserWithAlbum(ctx context.Context, n int) error {
	if err := s.aNewUserWithPhotos(ctx, n); err != nil {
		return err
	}
	return s.makeAlbumOf(ctx, s.changes.them, s.changes.photos)
}

// makeAnotherNewUser makes a second user for the scenario.
func (s *scenario) makeAnotherNewUser(ctx context.Context) error {
	u, err := s.newUser(ctx)
	s.changes.another = u
	return err
}

// anotherNewUserWithTrash makes a second user for the scenario, with a
// new photo of theirs in their trash.
func (s *scenario) anotherNewUserWithTrash(ctx context.Context) error {
	if err := s.makeAnotherNewUser(ctx); err != nil {
		return err
	}
	id, _, err := s.uploadPhoto(ctx, s.changes.another)
	if err != nil {
		return err
	}
	s.changes.theirs = id
	in := map[string]any{"ids": []string{id}}
	return s.call(ctx, "moving the other new user's photo to the trash", http.MethodDelete, "/asset", credentials{apiKey: s.changes.another.apiKey}, in, nil, http.StatusNoContent)
}

// haveArchived archives one of the new user's photos.
func (s *scenario) haveArchived(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	creds, err := s.photosOwnerCreds()
	if err != nil {
		return err
	}
	return s.call(ctx, "archiving the photo", http.MethodPut, "/asset/"+id, creds, map[string]any{"isArchived": true}, nil, http.StatusOK)
}

// haveTrashed moves photos of the new user to the trash.
func (s *scenario) haveTrashed(ctx context.Context, which string) error {
	var ids []string
	for w := range strings.SplitSeq(which, " and ") {
		id, err := s.photoNamed(w)
		if err != nil {
			return err
		}
		ids = append(ids, id)
	}
	creds, err := s.photosOwnerCreds()
	if err != nil {
		return err
	}
	if err := s.call(ctx, "moving the photos to the trash", http.MethodDelete, "/asset", creds, map[string]any{"ids": ids}, nil, http.StatusNoContent); err != nil {
		return err
	}
	s.changes.trashed = append(s.changes.trashed, ids...)
	return nil
}

// trashCreds are the credentials of whose trash a step empties or
// restores: a new user's, or the scenario's own when they are none, or
// the key of a new user's link. Never a user the harness was given: the
// step refuses to send with their credentials.
func (s *scenario) trashCreds(who string) (credentials, error) {
	switch who {
	case "they":
		if s.changes.them == nil {
			return credentials{}, fmt.Errorf("no new user was made earlier in the scenario")
		}
		return credentials{apiKey: s.changes.them.apiKey}, nil
	case "the other new user":
		if s.changes.another == nil {
			return credentials{}, fmt.Errorf("no other new user was made earlier in the scenario")
		}
		return credentials{apiKey: s.changes.another.apiKey}, nil
	}
	c := s.creds
	newUsersLink := s.link != nil && c.linkKey == s.link.Key && s.changes.them != nil && s.link.UserID == s.changes.them.id
	if c.apiKey != "" || c.bearer != "" || (c.linkKey != "" && !newUsersLink) {
		return credentials{}, fmt.Errorf("steps: the harness empties and restores only the trash of a user it makes, never with the credentials of a user it was given") // a bug of the features
	}
	return c, nil
}

// emptyTrash empties a trash.
func (s *scenario) emptyTrash(ctx context.Context, who string) error {
	creds, err := s.trashCreds(who)
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodPost, "/trash/empty", creds, nil)
}

// restoreTrash restores a trash.
func (s *scenario) restoreTrash(ctx context.Context, who string) error {
	creds, err := s.trashCreds(who)
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodPost, "/trash/restore", creds, nil)
}

// gone judges a photo deleted for good: its owner cannot read it. A server
// may empty a trash a while after it answers: the harness waits for it,
// up to --settle.
func (s *scenario) gone(ctx context.Context, u *user, id string) error {
	if err := s.wantStatus(http.StatusNoContent, http.StatusOK); err != nil {
		return err
	}
	return s.settle(ctx, func() error {
		_, status, err := s.readAsset(ctx, u, id)
		if err == nil && status != http.StatusBadRequest {
			err = fmt.Errorf("its owner still reads the photo %s (status %d), want 400: it is gone", id, status)
		}
		return err
	})
}

// photoGone judges one of the photos deleted for good.
func (s *scenario) photoGone(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	u, err := s.photosOwner()
	if err != nil {
		return err
	}
	return s.gone(ctx, u, id)
}

// anotherPhotoGone judges the other new user's photo deleted for good.
func (s *scenario) anotherPhotoGone(ctx context.Context) error {
	if s.changes.another == nil || s.changes.theirs == "" {
		return fmt.Errorf("no other new user has a photo earlier in the scenario")
	}
	return s.gone(ctx, s.changes.another, s.changes.theirs)
}

// inTrash judges whether u reads a photo of theirs in the trash or out.
func (s *scenario) inTrash(ctx context.Context, u *user, id string, want bool) error {
	a, status, err := s.readAsset(ctx, u, id)
	switch {
	case err != nil:
		return err
	case status != http.StatusOK:
		return fmt.Errorf("its owner cannot read the photo %s: status %d", id, status)
	case a.IsTrashed != want:
		return fmt.Errorf("the photo %s reads isTrashed %t, want %t", id, a.IsTrashed, want)
	}
	return nil
}

// photoOutOfTrash judges one of the photos there, out of the trash.
func (s *scenario) photoOutOfTrash(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	return s.inTrash(ctx, s.changes.owner, id, false)
}

// eachPhotoOutOfTrash judges every photo of the scenario out of the
// trash, once the last request succeeded. A server may restore a while
// after it answers: the harness waits, up to --settle.
func (s *scenario) eachPhotoOutOfTrash(ctx context.Context) error {
	if err := s.wantStatus(http.StatusNoContent, http.StatusOK); err != nil {
		return err
	}
	for _, id := range s.changes.photos {
		if err := s.settle(ctx, func() error { return s.inTrash(ctx, s.changes.owner, id, false) }); err != nil {
			return err
		}
	}
	return nil
}

// anotherPhotoOutOfTrash judges the other new user's photo restored.
func (s *scenario) anotherPhotoOutOfTrash(ctx context.Context) error {
	if err := s.wantStatus(http.StatusNoContent, http.StatusOK); err != nil {
		return err
	}
	return s.settle(ctx, func() error { return s.inTrash(ctx, s.changes.another, s.changes.theirs, false) })
}

// photoStillTrashed judges one of the photos in its owner's trash still.
func (s *scenario) photoStillTrashed(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	return s.inTrash(ctx, s.changes.owner, id, true)
}

// albumHoldsAgain judges the new user's album holding n photos, all of
// the scenario's.
func (s *scenario) albumHoldsAgain(ctx context.Context, n int) error {
	a, err := s.readAlbumAs(ctx, s.changes.owner)
	if err != nil {
		return err
	}
	if a.AssetCount != n || !sameSet(a.ids(), s.changes.photos) || len(s.changes.photos) != n {
		return fmt.Errorf("the album holds %q and counts %d, want the %d photos %q", a.ids(), a.AssetCount, n, s.changes.photos)
	}
	return nil
}

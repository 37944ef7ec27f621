package steps

import (
	"context"
	"fmt"
	"net/http"
	"slices"
)

// What the users of an album do with it, and what they and its owner see
// afterwards.

// otherCreds are the other user's credentials.
func (s *scenario) otherCreds(ctx context.Context) (credentials, error) {
	other, err := s.otherUser(ctx)
	if err != nil {
		return credentials{}, err
	}
	return credentials{apiKey: other.apiKey}, nil
}

// asOther sends a request about the album as the other user, and keeps
// the answer.
func (s *scenario) asOther(ctx context.Context, method, rest string, in any) error {
	creds, err := s.otherCreds(ctx)
	if err != nil {
		return err
	}
	path, err := s.albumPath(rest)
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, method, path, creds, in)
}

// otherRenames renames my album, as the other user.
func (s *scenario) otherRenames(ctx context.Context, name string) error {
	return s.asOther(ctx, http.MethodPatch, "", map[string]any{"albumName": name})
}

// otherAddsPhoto uploads a new photo of the other user's and adds it to
// the album, as them.
func (s *scenario) otherAddsPhoto(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	id, _, err := s.uploadPhoto(ctx, other)
	if err != nil {
		return err
	}
	if s.changes.theyAdd == "" {
		s.changes.theyAdd = id
	}
	return s.asOther(ctx, http.MethodPut, "/assets", map[string]any{"ids": []string{id}})
}

// otherMakesThemselves changes the other user's own role in my album, as
// them.
func (s *scenario) otherMakesThemselves(ctx context.Context, role string) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	if err := s.knowID(ctx, other); err != nil {
		return err
	}
	return s.asOther(ctx, http.MethodPut, "/user/"+other.id, map[string]any{"role": role})
}

// otherLeaves takes the other user off my album, as them ("me").
func (s *scenario) otherLeaves(ctx context.Context) error {
	return s.asOther(ctx, http.MethodDelete, "/user/me", nil)
}

// otherTakesNewUserOff takes the new user off my album, as the other
// user.
func (s *scenario) otherTakesNewUserOff(ctx context.Context) error {
	if s.changes.them == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	return s.asOther(ctx, http.MethodDelete, "/user/"+s.changes.them.id, nil)
}

// otherDeletes deletes my album, as the other user.
func (s *scenario) otherDeletes(ctx context.Context) error {
	return s.asOther(ctx, http.MethodDelete, "", nil)
}

// answerIsRenamedAlbum judges the answer to a change of the album: the
// album, its count, and none of its assets listed.
func (s *scenario) answerIsRenamedAlbum(name, description string, n int) error {
	var a seenAlbum
	if err := s.decodeLast(http.StatusOK, &a); err != nil {
		return err
	}
	switch {
	case a.ID != s.changes.album:
		return fmt.Errorf("the answer is the album %s, want %s", a.ID, s.changes.album)
	case a.AlbumName != name || a.Description != description:
		return fmt.Errorf("the answer names the album %q, described as %q; want %q and %q", a.AlbumName, a.Description, name, description)
	case a.AssetCount != n:
		return fmt.Errorf("the answer counts %d assets, want %d", a.AssetCount, n)
	}
	return nil
}

// albumReadsNamed reads the album again, as its owner.
func (s *scenario) albumReadsNamed(ctx context.Context, name, description string) error {
	a, err := s.readAlbumAs(ctx, s.me)
	if err != nil {
		return err
	}
	if a.AlbumName != name || a.Description != description {
		return fmt.Errorf("the album is named %q, described as %q; want %q and %q", a.AlbumName, a.Description, name, description)
	}
	return nil
}

// albumKeepsName reads the album again: the name it was made with.
func (s *scenario) albumKeepsName(ctx context.Context) error {
	a, err := s.readAlbumAs(ctx, s.me)
	if err != nil {
		return err
	}
	if a.AlbumName != s.changes.name {
		return fmt.Errorf("the album is named %q, want %q, the name it had", a.AlbumName, s.changes.name)
	}
	return nil
}

// coverIs judges the album's cover, once the change was answered.
func (s *scenario) coverIs(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	a, err := s.readAlbumAs(ctx, s.me)
	if err != nil {
		return err
	}
	if a.AlbumThumbnailAssetID == nil || *a.AlbumThumbnailAssetID != id {
		return fmt.Errorf("the album's cover is %s, want %s", strOrNull(a.AlbumThumbnailAssetID), id)
	}
	return nil
}

// coverUnchanged judges the album's cover the one it had before the
// change was asked for.
func (s *scenario) coverUnchanged(ctx context.Context) error {
	a, err := s.readAlbumAs(ctx, s.me)
	if err != nil {
		return err
	}
	if a.AlbumThumbnailAssetID == nil || *a.AlbumThumbnailAssetID != s.changes.cover {
		return fmt.Errorf("the album's cover is %s, want %s, the one it had", strOrNull(a.AlbumThumbnailAssetID), s.changes.cover)
	}
	return nil
}

// theirPhotoAdded judges the answer to the other user's adding.
func (s *scenario) theirPhotoAdded() error {
	res, err := s.lastResults()
	if err != nil {
		return err
	}
	if len(res) != 1 || res[0].ID != s.changes.theyAdd || !res[0].Success {
		return fmt.Errorf("want their photo %s added with success, got %s", s.changes.theyAdd, s.last)
	}
	return nil
}

// albumShowsOtherAs judges the other user's role in the album, as its
// owner reads it.
func (s *scenario) albumShowsOtherAs(ctx context.Context, role string) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	if err := s.knowID(ctx, other); err != nil {
		return err
	}
	a, err := s.readAlbumAs(ctx, s.me)
	if err != nil {
		return err
	}
	if got := a.roleOf(other.id); got != role {
		return fmt.Errorf("the album shows the other user %s in the role %q, want %q", other.id, got, role)
	}
	return nil
}

// albumShowsNoOther judges the other user off the album's users.
func (s *scenario) albumShowsNoOther(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	a, err := s.readAlbumAs(ctx, s.me)
	if err != nil {
		return err
	}
	if got := a.roleOf(other.id); got != "" {
		return fmt.Errorf("the album still shows the other user %s, as %q", other.id, got)
	}
	return nil
}

// otherStillSees reads the album as the other user: my photos and the
// one they added.
func (s *scenario) otherStillSees(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	a, err := s.readAlbumAs(ctx, other)
	if err != nil {
		return err
	}
	want := append(slices.Clone(s.changes.photos), s.changes.theyAdd)
	if !sameSet(a.ids(), want) {
		return fmt.Errorf("the other user sees the album holding %q, want %q", a.ids(), want)
	}
	return nil
}

// otherNoLongerSees judges the album out of the other user's sight: read
// on its own, and among the albums shared with them.
func (s *scenario) otherNoLongerSees(ctx context.Context) error {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	creds, err := s.otherCreds(ctx)
	if err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/albums/" + s.changes.album, creds: creds})
	if err := judgeNow(resp, err, http.StatusBadRequest); err != nil {
		return fmt.Errorf("the other user reading the album: %w", err)
	}
	var shared []seenAlbum
	if err := s.call(ctx, "listing the albums shared with the other user", http.MethodGet, "/albums?shared=true", creds, nil, &shared, http.StatusOK); err != nil {
		return err
	}
	if slices.ContainsFunc(shared, func(a seenAlbum) bool { return a.ID == s.changes.album }) {
		return fmt.Errorf("the albums shared with the other user still hold the album %s", s.changes.album)
	}
	return nil
}

// newUserStillSees reads the album as the new user.
func (s *scenario) newUserStillSees(ctx context.Context) error {
	_, err := s.readAlbumAs(ctx, s.changes.them)
	return err
}

// albumGone judges the album deleted: its owner cannot read it.
func (s *scenario) albumGone(ctx context.Context) error {
	path, err := s.albumPath("")
	if err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: path, creds: credentials{apiKey: s.me.apiKey}})
	if err := judgeNow(resp, err, http.StatusBadRequest); err != nil {
		return fmt.Errorf("reading the deleted album: %w", err)
	}
	return nil
}

// photosStillMine judges the photos of a deleted album still in my
// library, out of the trash.
func (s *scenario) photosStillMine(ctx context.Context) error {
	for _, id := range s.changes.photos {
		if err := s.inTrash(ctx, s.me, id, false); err != nil {
			return err
		}
	}
	return nil
}

// albumStillHolds judges the album there, holding its photos.
func (s *scenario) albumStillHolds(ctx context.Context) error {
	a, err := s.readAlbumAs(ctx, s.me)
	if err != nil {
		return err
	}
	if !sameSet(a.ids(), s.changes.photos) {
		return fmt.Errorf("the album holds %q, want %q", a.ids(), s.changes.photos)
	}
	return nil
}

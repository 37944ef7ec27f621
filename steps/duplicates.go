package steps

import (
	"context"
	"fmt"
	"net/http"
	"slices"
)

// Groups of duplicates made and resolved by hand, as the web app's bulk
// edit and duplicates page do (PUT /asset with duplicateId), by users the
// harness makes.

// newUserWithThreePhotos makes a new user who uploads three photos.
func (s *scenario) newUserWithThreePhotos(ctx context.Context) error {
	if err := s.newUserWithNoPeople(ctx); err != nil {
		return err
	}
	s.faces.photos = nil
	for range 3 {
		id, err := s.uploadFileAs(ctx, s.people.owner, newFile(uniqueName()))
		if err != nil {
			return err
		}
		s.faces.photos = append(s.faces.photos, id)
	}
	return nil
}

// setDuplicateID sets, as the new user, the group of duplicates of some
// of their photos (nil: none).
func (s *scenario) setDuplicateID(ctx context.Context, ids []string, group *string) error {
	in := map[string]any{"ids": ids, "duplicateId": group}
	return s.call(ctx, "grouping photos as duplicates", http.MethodPut, "/asset", s.ownerCreds(), in, nil, http.StatusNoContent)
}

// theyGroupThree puts the new user's three photos in one group.
func (s *scenario) theyGroupThree(ctx context.Context) error {
	group := randomUUID()
	return s.setDuplicateID(ctx, s.faces.photos, &group)
}

// oneGroupHolds judges the new user's groups: one, holding those photos.
func (s *scenario) oneGroupHolds(which string) error {
	want := s.faces.photos
	if which == "first two photos" {
		want = want[:2]
	}
	var groups []duplicateGroup
	if err := s.decodeLast(http.StatusOK, &groups); err != nil {
		return err
	}
	if len(groups) != 1 {
		return fmt.Errorf("want one group, got %d: %+v", len(groups), groups)
	}
	var got []string
	for _, a := range groups[0].Assets {
		got = append(got, a.ID)
		if a.DuplicateID == nil || *a.DuplicateID != groups[0].DuplicateID {
			return fmt.Errorf("the photo %s of the group %s has the duplicateId %s", a.ID, groups[0].DuplicateID, strOrNull(a.DuplicateID))
		}
	}
	slices.Sort(got)
	if w := slices.Sorted(slices.Values(want)); !slices.Equal(got, w) {
		return fmt.Errorf("the group holds %q, want %q", got, w)
	}
	return nil
}

// theyTrashThird moves the new user's third photo to the trash.
func (s *scenario) theyTrashThird(ctx context.Context) error {
	in := map[string]any{"ids": []string{s.faces.photos[2]}}
	return s.call(ctx, "moving a photo to the trash", http.MethodDelete, "/asset", s.ownerCreds(), in, nil, http.StatusNoContent)
}

// theyUngroupTwo takes the new user's first two photos out of their group.
func (s *scenario) theyUngroupTwo(ctx context.Context) error {
	return s.setDuplicateID(ctx, s.faces.photos[:2], nil)
}

// theyHaveNoGroup judges the new user's groups: none.
func (s *scenario) theyHaveNoGroup() error {
	var groups []duplicateGroup
	if err := s.decodeLast(http.StatusOK, &groups); err != nil {
		return err
	}
	if len(groups) > 0 {
		return fmt.Errorf("want no group, got %+v", groups)
	}
	return nil
}

// randomUUID is a new version 4 UUID.
func randomUUID() string {
	h := []byte(randomHex(16))
	h[12] = '4'
	h[16] = "89ab"[h[16]%4]
	return string(h[0:8]) + "-" + string(h[8:12]) + "-" + string(h[12:16]) + "-" + string(h[16:20]) + "-" + string(h[20:32])
}

package steps

import (
	"context"
	"fmt"
	"net/http"
)

// Users an admin manages: deleted (and restored), and limited in what they
// may store. These scenarios act on users the harness makes for them
// (@new-user): it never deletes or limits a user it was given.

// accountsState is what these steps keep within a scenario.
type accountsState struct {
	user  *user // the user the admin manages
	photo *file // their first photo, whose size their usage counts
}

// managed is the user the scenario's admin manages.
func (s *scenario) managed() (*user, error) {
	if s.accounts.user == nil {
		return nil, fmt.Errorf("no user was made for an admin to manage earlier in the scenario")
	}
	return s.accounts.user, nil
}

// accountSteps are the steps about users an admin deletes, restores and
// limits.
func (s *scenario) accountSteps() []step {
	return []step{
		{`^a new user who has shared a new photo on its own$`, s.newUserWhoShared},
		{`^an admin deletes that user$`, s.adminDeletesUser},
		{`^an admin restores that user$`, s.adminRestoresUser},

		{`^a new user whose storage quota holds one photo but not two$`, s.newUserWithQuota},
		{`^they upload (?:a|another) new photo$`, s.theyUploadPhoto},
		{`^their storage usage becomes that photo's size$`, s.usageBecomesPhotoSize},
		{`^they have (\d+) photos? and no more$`, s.theyHavePhotos},
	}
}

// newUserWhoShared makes a new user for an admin to manage, who uploads a
// new photo and shares it in a link of its own.
func (s *scenario) newUserWhoShared(ctx context.Context) error {
	u, err := s.newUser(ctx)
	if err != nil {
		return err
	}
	s.accounts.user = u
	id, _, err := s.uploadPhoto(ctx, u)
	if err != nil {
		return err
	}
	// "That photo" of the steps that open the link.
	s.firstID = id
	_, err = s.makeLink(ctx, u, map[string]any{"type": "INDIVIDUAL", "assetIds": []string{id}})
	return err
}

// adminDeletesUser deletes the managed user as an admin, not for good:
// the user may be restored.
func (s *scenario) adminDeletesUser(ctx context.Context) error {
	u, err := s.managed()
	if err != nil {
		return err
	}
	admin, err := s.admin(ctx)
	if err != nil {
		return err
	}
	return s.call(ctx, "deleting the user", http.MethodDelete, "/admin/users/"+u.id, admin, map[string]any{"force": false}, nil, http.StatusOK)
}

// adminRestoresUser restores the deleted user as an admin.
func (s *scenario) adminRestoresUser(ctx context.Context) error {
	u, err := s.managed()
	if err != nil {
		return err
	}
	admin, err := s.admin(ctx)
	if err != nil {
		return err
	}
	return s.call(ctx, "restoring the user", http.MethodPost, "/admin/users/"+u.id+"/restore", admin, nil, nil, http.StatusCreated)
}

// newUserWithQuota makes a new user whose storage quota holds one photo
// of the harness but not two: every new photo of the harness has the size
// of this one.
func (s *scenario) newUserWithQuota(ctx context.Context) error {
	size := int64(len(newFile(defaultName).content))
	u, err := s.newUserWith(ctx, map[string]any{"quotaSizeInBytes": size + size/2})
	s.accounts.user = u
	return err
}

// theyUploadPhoto uploads a new photo as the managed user, keeping the
// first one's file.
func (s *scenario) theyUploadPhoto(ctx context.Context) error {
	u, err := s.managed()
	if err != nil {
		return err
	}
	f := newFile(defaultName)
	if s.accounts.photo == nil {
		s.accounts.photo = f
	}
	return s.uploadAs(ctx, u, credentials{apiKey: u.apiKey}, uploadForm(f), "")
}

// usageBecomesPhotoSize judges the managed user's storage usage: the size
// of their one photo. A server may count an upload in its owner's usage a
// while after it answers: the harness waits for it, up to --settle.
func (s *scenario) usageBecomesPhotoSize(ctx context.Context) error {
	u, err := s.managed()
	if err != nil {
		return err
	}
	if s.accounts.photo == nil {
		return fmt.Errorf("the user uploaded no photo earlier in the scenario")
	}
	want := int64(len(s.accounts.photo.content))
	return s.settle(ctx, func() error {
		var me struct {
			QuotaUsageInBytes *int64 `json:"quotaUsageInBytes"`
		}
		if err := s.call(ctx, "reading the user's usage", http.MethodGet, "/users/me", credentials{apiKey: u.apiKey}, nil, &me, http.StatusOK); err != nil {
			return err
		}
		if me.QuotaUsageInBytes == nil || *me.QuotaUsageInBytes != want {
			return fmt.Errorf("the user's quotaUsageInBytes is %s, want %d, the size of the one photo they uploaded", intOrNull(me.QuotaUsageInBytes), want)
		}
		return nil
	})
}

// theyHavePhotos counts the managed user's assets: n images, and nothing
// else.
func (s *scenario) theyHavePhotos(ctx context.Context, n int) error {
	u, err := s.managed()
	if err != nil {
		return err
	}
	var stats struct {
		Images, Videos, Total int
	}
	if err := s.call(ctx, "counting the user's assets", http.MethodGet, "/asset/statistics", credentials{apiKey: u.apiKey}, nil, &stats, http.StatusOK); err != nil {
		return err
	}
	if stats.Images != n || stats.Total != n {
		return fmt.Errorf("the user has %d images (%d assets in all), want %d", stats.Images, stats.Total, n)
	}
	return nil
}

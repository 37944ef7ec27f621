package steps

import (
	"context"
	"fmt"
	"net/http"

	"github.com/cucumber/godog"
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

func (s *scenario) registerAccounts(sc *godog.ScenarioContext) {
	sc.Step(`^a new user who has shared a new photo on its own$`, func(ctx context.Context) error {
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
	})
	sc.Step(`^an admin deletes that user$`, func(ctx context.Context) error {
		u, err := s.managed()
		if err != nil {
			return err
		}
		admin, err := s.admin(ctx)
		if err != nil {
			return err
		}
		// Not force: the user may be restored.
		return s.call(ctx, "deleting the user", http.MethodDelete, "/admin/users/"+u.id, admin, map[string]any{"force": false}, nil, http.StatusOK)
	})
	sc.Step(`^an admin restores that user$`, func(ctx context.Context) error {
		u, err := s.managed()
		if err != nil {
			return err
		}
		admin, err := s.admin(ctx)
		if err != nil {
			return err
		}
		return s.call(ctx, "restoring the user", http.MethodPost, "/admin/users/"+u.id+"/restore", admin, nil, nil, http.StatusCreated)
	})

	sc.Step(`^a new user whose storage quota holds one photo but not two$`, func(ctx context.Context) error {
		// Every new photo of the harness has the size of this one.
		size := int64(len(newFile(defaultName).content))
		u, err := s.newUserWith(ctx, map[string]any{"quotaSizeInBytes": size + size/2})
		s.accounts.user = u
		return err
	})
	sc.Step(`^they upload (?:a|another) new photo$`, func(ctx context.Context) error {
		u, err := s.managed()
		if err != nil {
			return err
		}
		f := newFile(defaultName)
		if s.accounts.photo == nil {
			s.accounts.photo = f
		}
		return s.uploadAs(ctx, u, credentials{apiKey: u.apiKey}, uploadForm(f), "")
	})
	// A server may count an upload in its owner's usage a while after it
	// answers: the harness waits for it, up to --settle.
	sc.Step(`^their storage usage becomes that photo's size$`, func(ctx context.Context) error {
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
	})
	sc.Step(`^they have (\d+) photos? and no more$`, func(ctx context.Context, n int) error {
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
	})
}

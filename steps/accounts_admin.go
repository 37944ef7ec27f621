package steps

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
)

// What an admin does to a user: lists and reads them (deleted ones too),
// changes their name, quota, storage label, password and preferences;
// and what a user who is no admin may not do of it. Done to users the
// harness makes.

// userAdminSteps are the steps of an admin managing users.
func (s *scenario) userAdminSteps() []step {
	return []step{
		{`^an admin lists the users( with the deleted ones)?$`, s.adminListsUsers},
		{`^an admin lists the users, asking for the deleted ones with "([^"]*)"$`, s.adminListsUsersWithDeleted},
		{`^the list holds that user, with their account$`, s.listHoldsAccount},
		{`^an admin deletes that user, who may be restored$`, s.adminDeletesUserSoftly},
		{`^an admin's list no longer holds them, but holds them with the deleted ones$`, s.adminListsWithoutThem},
		{`^an admin reads them as deleted$`, s.adminReadsThemDeleted},
		{`^I no longer see them, in the list of users or on their own$`, s.noLongerSeeThem},
		{`^an admin restores them$`, s.adminRestoresThem},
		{`^I see them in the list of users again$`, s.seeThemAgain},
		{`^an admin gives them the name "([^"]*)", a quota of (\d+) bytes and a storage label with dots and slashes$`, s.adminChangesUser},
		{`^the answer shows them so, the label without its dots and slashes$`, s.answerShowsChange},
		{`^they see themselves so$`, s.seeThemselvesChanged},
		{`^an admin clears their quota and storage label$`, s.adminClearsQuotaAndLabel},
		{`^they see themselves without a quota or storage label$`, s.seeNoQuotaOrLabel},
		{`^an admin sets their password to a new one$`, s.adminSetsPassword},
		{`^an admin reads their preferences$`, s.adminReadsPreferences},
		{`^an admin chooses another avatar colour for them and turns their memories off$`, s.adminChoosesColour},
		{`^the other new user (lists the users|reads that user|renames that user|reads that user's preferences|changes that user's avatar colour) as an admin$`, s.otherNewUserActsAsAdmin},
		{`^an admin (reads|renames|reads the preferences of) the user "([^"]*)"$`, s.adminActsOnUser},
		{`^an admin gives them a quota of (-?\d+) bytes$`, s.adminGivesQuota},
		{`^an admin gives them the avatar colour "([^"]*)"$`, s.adminGivesColour},
	}
}

// asAdmin sends the request under test with the admin's credentials.
func (s *scenario) asAdmin(ctx context.Context, method, path string, in any) error {
	admin, err := s.admin(ctx)
	if err != nil {
		return err
	}
	return s.sendAs(ctx, nil, admin, method, path, in)
}

// adminUsers lists the users as an admin sees them, the deleted ones too
// with withDeleted.
func (s *scenario) adminUsers(ctx context.Context, withDeleted bool) ([]accountSeen, error) {
	admin, err := s.admin(ctx)
	if err != nil {
		return nil, err
	}
	path := "/admin/users"
	if withDeleted {
		path += "?withDeleted=true"
	}
	var list []accountSeen
	err = s.call(ctx, "listing the users as an admin", http.MethodGet, path, admin, nil, &list, http.StatusOK)
	return list, err
}

// adminListsUsers has an admin list the users, the deleted ones too when
// asked.
func (s *scenario) adminListsUsers(ctx context.Context, deleted string) error {
	path := "/admin/users"
	if deleted != "" {
		path += "?withDeleted=true"
	}
	return s.asAdmin(ctx, http.MethodGet, path, nil)
}

// adminListsUsersWithDeleted has an admin list the users, asking for the
// deleted ones with a value as written.
func (s *scenario) adminListsUsersWithDeleted(ctx context.Context, value string) error {
	return s.asAdmin(ctx, http.MethodGet, "/admin/users?withDeleted="+url.QueryEscape(value), nil)
}

// listHoldsAccount judges an admin's list of users: it holds the new user,
// with their account.
func (s *scenario) listHoldsAccount() error {
	var list []accountSeen
	if err := s.decodeLast(http.StatusOK, &list); err != nil {
		return err
	}
	i := slices.IndexFunc(list, func(a accountSeen) bool { return a.ID == s.identity.user.id })
	if i < 0 {
		return fmt.Errorf("the list of %d users does not hold the new user %s", len(list), s.identity.user.id)
	}
	if a, was := list[i], s.identity.before; a.Email != was.Email || a.Name != was.Name || a.IsAdmin || a.Status != "active" || a.DeletedAt != nil {
		return fmt.Errorf("the list shows the user as %+v, want %+v, active", a, *was)
	}
	return nil
}

// adminDeletesUserSoftly has an admin delete the new user, not for good,
// and restore them at the end should the scenario not.
func (s *scenario) adminDeletesUserSoftly(ctx context.Context) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	admin, err := s.admin(ctx)
	if err != nil {
		return err
	}
	if err := s.call(ctx, "deleting the user", http.MethodDelete, "/admin/users/"+u.id, admin, map[string]any{"force": false}, nil, http.StatusOK); err != nil {
		return err
	}
	// A deleted user cannot be removed for good: they are restored first.
	s.later("restoring the user "+u.id, s.removing(admin, http.MethodPost, "/admin/users/"+u.id+"/restore", nil))
	return nil
}

// holds says whether a list of users holds the new user.
func (s *scenario) holds(list []accountSeen) bool {
	return slices.ContainsFunc(list, func(a accountSeen) bool { return a.ID == s.identity.user.id })
}

// adminListsWithoutThem judges an admin's lists of users: without the
// deleted user, and with them among the deleted ones.
func (s *scenario) adminListsWithoutThem(ctx context.Context) error {
	active, err := s.adminUsers(ctx, false)
	if err != nil {
		return err
	}
	if s.holds(active) {
		return fmt.Errorf("an admin's list of users still holds the deleted user %s", s.identity.user.id)
	}
	all, err := s.adminUsers(ctx, true)
	if err != nil {
		return err
	}
	if !s.holds(all) {
		return fmt.Errorf("an admin's list of users with the deleted ones does not hold the deleted user %s", s.identity.user.id)
	}
	return nil
}

// adminReadsThemDeleted judges the new user as an admin reads them: deleted.
func (s *scenario) adminReadsThemDeleted(ctx context.Context) error {
	admin, err := s.admin(ctx)
	if err != nil {
		return err
	}
	var a accountSeen
	if err := s.call(ctx, "reading the user as an admin", http.MethodGet, "/admin/users/"+s.identity.user.id, admin, nil, &a, http.StatusOK); err != nil {
		return err
	}
	if a.DeletedAt == nil || a.Status != "deleted" {
		return fmt.Errorf("an admin reads the deleted user with deletedAt %v and status %q, want a date and \"deleted\"", a.DeletedAt, a.Status)
	}
	return nil
}

// usersSeen lists the users with the scenario's credentials.
func (s *scenario) usersSeen(ctx context.Context) ([]accountSeen, error) {
	var list []accountSeen
	err := s.call(ctx, "listing the users", http.MethodGet, "/users", s.creds, nil, &list, http.StatusOK)
	return list, err
}

// noLongerSeeThem judges that the deleted user is in no list of users and
// not found on their own.
func (s *scenario) noLongerSeeThem(ctx context.Context) error {
	list, err := s.usersSeen(ctx)
	if err != nil {
		return err
	}
	if s.holds(list) {
		return fmt.Errorf("the list of users still holds the deleted user %s", s.identity.user.id)
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/users/" + s.identity.user.id, creds: s.creds})
	if err := refusedNow(resp, err, http.StatusBadRequest, "User not found"); err != nil {
		return fmt.Errorf("the deleted user is still found: %w", err)
	}
	return nil
}

// adminRestoresThem has an admin restore the deleted user.
func (s *scenario) adminRestoresThem(ctx context.Context) error {
	admin, err := s.admin(ctx)
	if err != nil {
		return err
	}
	return s.call(ctx, "restoring the user", http.MethodPost, "/admin/users/"+s.identity.user.id+"/restore", admin, nil, nil, http.StatusCreated)
}

// seeThemAgain judges that the list of users holds the restored user.
func (s *scenario) seeThemAgain(ctx context.Context) error {
	list, err := s.usersSeen(ctx)
	if err != nil {
		return err
	}
	if !s.holds(list) {
		return fmt.Errorf("the list of users does not hold the restored user %s", s.identity.user.id)
	}
	return nil
}

// adminChangesUser has an admin give the new user a name, a quota and a
// storage label with dots and slashes, unique to them.
func (s *scenario) adminChangesUser(ctx context.Context, name string, quota int64) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	suffix := randomHex(6)
	s.identity.label = "mediaspec" + suffix + "x"
	s.identity.changed = &accountSeen{Name: name, QuotaSizeInBytes: &quota, StorageLabel: &s.identity.label}
	in := map[string]any{"name": name, "quotaSizeInBytes": quota, "storageLabel": "mediaspec." + suffix + "/x"}
	return s.asAdmin(ctx, http.MethodPut, "/admin/users/"+u.id, in)
}

// changedAsAsked judges a user as an admin changed them.
func (s *scenario) changedAsAsked(a *accountSeen, where string) error {
	want := s.identity.changed
	if want == nil {
		return fmt.Errorf("no admin changed the user earlier in the scenario")
	}
	if a.Name != want.Name || !samePtr(a.QuotaSizeInBytes, want.QuotaSizeInBytes) || !samePtr(a.StorageLabel, want.StorageLabel) {
		return fmt.Errorf("%s named %q, with the quota %s and the storage label %s; want %q, %d and %q",
			where, a.Name, numberOrNull(a.QuotaSizeInBytes), textOrNull(a.StorageLabel), want.Name, *want.QuotaSizeInBytes, *want.StorageLabel)
	}
	return nil
}

// numberOrNull writes an optional number for a message.
func numberOrNull(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// textOrNull writes an optional text for a message.
func textOrNull(p *string) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *p)
}

// answerShowsChange judges the answer to an admin's change of the user.
func (s *scenario) answerShowsChange() error {
	a, err := s.lastAccount()
	if err != nil {
		return err
	}
	return s.changedAsAsked(a, "the answer shows the user")
}

// seeThemselvesChanged judges the new user as they see themselves after an
// admin's change.
func (s *scenario) seeThemselvesChanged(ctx context.Context) error {
	me, err := s.accountOf(ctx, credentials{apiKey: s.identity.user.apiKey})
	if err != nil {
		return err
	}
	return s.changedAsAsked(me, "the user sees themselves")
}

// adminClearsQuotaAndLabel has an admin clear the new user's quota and
// storage label.
func (s *scenario) adminClearsQuotaAndLabel(ctx context.Context) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	return s.asAdmin(ctx, http.MethodPut, "/admin/users/"+u.id, map[string]any{"quotaSizeInBytes": nil, "storageLabel": nil})
}

// seeNoQuotaOrLabel judges the answer to the clearing, and the new user as
// they see themselves: no quota, no storage label.
func (s *scenario) seeNoQuotaOrLabel(ctx context.Context) error {
	if _, err := s.lastAccount(); err != nil {
		return err
	}
	me, err := s.accountOf(ctx, credentials{apiKey: s.identity.user.apiKey})
	if err != nil {
		return err
	}
	if me.QuotaSizeInBytes != nil || me.StorageLabel != nil {
		return fmt.Errorf("the user still has the quota %s and the storage label %s", numberOrNull(me.QuotaSizeInBytes), textOrNull(me.StorageLabel))
	}
	return nil
}

// adminSetsPassword has an admin set the new user's password to a new one.
func (s *scenario) adminSetsPassword(ctx context.Context) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	s.identity.newPassword = "mediaspec-" + randomHex(12)
	return s.asAdmin(ctx, http.MethodPut, "/admin/users/"+u.id, map[string]any{"password": s.identity.newPassword})
}

// adminReadsPreferences has an admin read the new user's preferences.
func (s *scenario) adminReadsPreferences(ctx context.Context) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	return s.asAdmin(ctx, http.MethodGet, "/admin/users/"+u.id+"/preferences", nil)
}

// adminChoosesColour has an admin choose another avatar colour for the
// new user and turn their memories off.
func (s *scenario) adminChoosesColour(ctx context.Context) error {
	if err := s.notePreferences(ctx); err != nil {
		return err
	}
	in := map[string]any{"avatar": map[string]string{"color": s.identity.colour}, "memories": map[string]bool{"enabled": false}}
	return s.asAdmin(ctx, http.MethodPut, "/admin/users/"+s.identity.user.id+"/preferences", in)
}

// otherNewUserActsAsAdmin has the other new user, who is no admin, do what
// an admin does to the new user.
func (s *scenario) otherNewUserActsAsAdmin(ctx context.Context, what string) error {
	if s.identity.other == nil {
		return fmt.Errorf("no other new user was made earlier in the scenario")
	}
	if err := s.notePreferences(ctx); err != nil {
		return err
	}
	path := "/admin/users/" + s.identity.user.id
	method, in := http.MethodGet, any(nil)
	switch what {
	case "lists the users":
		path = "/admin/users"
	case "renames that user":
		method, in = http.MethodPut, map[string]string{"name": "Renamed by no admin"}
	case "reads that user's preferences":
		path += "/preferences"
	case "changes that user's avatar colour":
		method, in, path = http.MethodPut, map[string]any{"avatar": map[string]string{"color": s.identity.colour}}, path+"/preferences"
	}
	o := s.identity.other
	return s.sendAs(ctx, o, credentials{apiKey: o.apiKey}, method, path, in)
}

// adminActsOnUser has an admin read, rename, or read the preferences of
// the user of an id as written.
func (s *scenario) adminActsOnUser(ctx context.Context, verb, id string) error {
	switch verb {
	case "renames":
		return s.asAdmin(ctx, http.MethodPut, "/admin/users/"+id, map[string]string{"name": "Nobody"})
	case "reads the preferences of":
		return s.asAdmin(ctx, http.MethodGet, "/admin/users/"+id+"/preferences", nil)
	}
	return s.asAdmin(ctx, http.MethodGet, "/admin/users/"+id, nil)
}

// adminGivesQuota has an admin give the new user a quota as written.
func (s *scenario) adminGivesQuota(ctx context.Context, quota int64) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	return s.asAdmin(ctx, http.MethodPut, "/admin/users/"+u.id, map[string]any{"quotaSizeInBytes": quota})
}

// adminGivesColour has an admin choose a colour as written for the new
// user's avatar.
func (s *scenario) adminGivesColour(ctx context.Context, colour string) error {
	if err := s.notePreferences(ctx); err != nil {
		return err
	}
	return s.asAdmin(ctx, http.MethodPut, "/admin/users/"+s.identity.user.id+"/preferences", map[string]any{"avatar": map[string]string{"color": colour}})
}

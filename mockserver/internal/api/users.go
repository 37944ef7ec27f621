package api

import (
	"cmp"
	"net/http"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/live"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/password"
)

// Users, their logins, sessions and keys, as the user and an admin see
// them.

// sessionCookieAge is how long the login cookies last, as the reference sets them.
const sessionCookieAge = 34560000 * time.Second

// loginRedirect is where the reference sends a client that logged out.
const loginRedirect = "/auth/login?autoLaunch=0"

// The cookies of a login.
const (
	accessTokenCookie     = "immich_access_token"
	authTypeCookie        = "immich_auth_type"
	isAuthenticatedCookie = "immich_is_authenticated"
)

// login is POST /api/auth/login: a new session for an email and password.
// Credentials sent along are ignored.
func (s *server) login(c *call, b dto.Body) error {
	email, _ := b.String("email")
	pw, _ := b.String("password")
	u, token, err := s.store.Login(email, pw, deviceOf(c.r))
	if err != nil {
		return err
	}
	now := s.cfg.Now()
	httpx.SetCookie(c.w, accessTokenCookie, token, sessionCookieAge, true, now)
	httpx.SetCookie(c.w, authTypeCookie, "password", sessionCookieAge, true, now)
	httpx.SetCookie(c.w, isAuthenticatedCookie, "true", sessionCookieAge, false, now) // the web app reads it
	return c.json(http.StatusCreated, model.Login{
		AccessToken: token, UserID: u.ID, UserEmail: u.Email, Name: u.Name, IsAdmin: u.IsAdmin,
		ProfileImagePath: u.ProfileImagePath, ShouldChangePassword: u.ShouldChangePassword,
	})
}

// deviceOf is what logged in, as the reference reads it: the browser's
// name, else the header devicemodel an app sends; the system's name, else
// the header devicetype.
func deviceOf(r *http.Request) store.Device {
	browser, os := userAgent(r.Header.Get("User-Agent"))
	return store.Device{
		Type: cut(cmp.Or(browser, r.Header.Get("devicemodel")), store.MaxNameChars),
		OS:   cut(cmp.Or(os, r.Header.Get("devicetype")), store.MaxNameChars),
	}
}

// cut bounds a text the mock stores.
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// userAgent names the browser and the system of a User-Agent, with the
// names the reference's parser gives the common ones.
func userAgent(ua string) (browser, os string) {
	for _, b := range []struct{ token, name string }{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"HeadlessChrome/", "Chrome Headless"},
		{"Chrome/", "Chrome"}, {"Version/", "Safari"},
	} {
		if strings.Contains(ua, b.token) {
			browser = b.name
			if b.name == "Safari" && strings.Contains(ua, "Mobile/") {
				browser = "Mobile Safari"
			}
			break
		}
	}
	for _, o := range []struct{ token, name string }{
		{"Android", "Android"}, {"iPhone", "iOS"}, {"iPad", "iOS"}, {"Windows", "Windows"}, {"Mac OS X", "Mac OS"},
		{"CrOS", "Chromium OS"}, {"Ubuntu", "Ubuntu"}, {"Linux", "Linux"},
	} {
		if strings.Contains(ua, o.token) {
			return browser, o.name
		}
	}
	return browser, ""
}

// signUpAdmin is POST /api/auth/admin-sign-up: a new server's first admin.
func (s *server) signUpAdmin(c *call, b dto.Body) error {
	nu := store.NewUser{}
	nu.Email, _ = b.String("email")
	nu.Name, _ = b.String("name")
	pw, _ := b.String("password")
	nu.PasswordHash = password.Hash(pw)
	return s.writeUserAdmin(c, http.StatusCreated, func(tx *store.Tx) (*model.UserRecord, error) { return tx.SignUpAdmin(nu) })
}

// writeUserAdmin runs a write that answers a user, and answers them as
// admins see users.
func (s *server) writeUserAdmin(c *call, status int, f func(tx *store.Tx) (*model.UserRecord, error)) error {
	out, err := store.Update(s.store, func(tx *store.Tx) (model.UserAdmin, error) {
		u, err := f(tx)
		if err != nil {
			return model.UserAdmin{}, err
		}
		return userAdminAnswer(&tx.View, u), nil
	})
	return answer(c, status, out, err)
}

// validateToken is POST /api/auth/validateToken: the credentials are good.
func validateToken(c *call) error {
	return c.json(http.StatusOK, map[string]bool{"authStatus": true})
}

// changePassword is POST /api/auth/change-password.
func (s *server) changePassword(c *call, b dto.Body) error {
	current, _ := b.String("password")
	next, _ := b.String("newPassword")
	u, err := s.store.ChangePassword(c.p().User.ID, current, next)
	if err != nil {
		return err
	}
	var out model.UserAdmin
	s.store.Read(func(v *store.View) { out = userAdminAnswer(v, u) })
	return c.json(http.StatusOK, out)
}

// logout is POST /api/auth/logout: the session ends, and its cookies go.
func (s *server) logout(c *call) error {
	if se := c.p().Session; se != nil {
		err := s.store.Write(func(tx *store.Tx) error { return tx.RemoveSession(se.UserID, se.ID) })
		if err != nil && store.CodeOf(err) != store.NoAccess { // gone already is no error
			return err
		}
	}
	for _, name := range []string{accessTokenCookie, authTypeCookie, isAuthenticatedCookie} {
		httpx.ClearCookie(c.w, name)
	}
	return c.json(http.StatusOK, struct {
		Successful  bool   `json:"successful"`
		RedirectURI string `json:"redirectUri"`
	}{true, loginRedirect})
}

// myUser is GET /api/users/me.
func (s *server) myUser(c *call) error {
	var out model.UserAdmin
	s.store.Read(func(v *store.View) { out = userAdminAnswer(v, c.p().User) })
	return c.json(http.StatusOK, out)
}

// users is GET /api/users: every user not deleted, the newest first.
func (s *server) users(c *call) error {
	var out []model.User
	s.store.Read(func(v *store.View) {
		users := v.UserList(false)
		out = make([]model.User, 0, len(users))
		for _, u := range users {
			out = append(out, userAnswer(u))
		}
	})
	return c.json(http.StatusOK, out)
}

// user is GET /api/users/{id}.
func (s *server) user(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.User, error) {
		u := v.ActiveUser(c.id)
		if u == nil {
			return model.User{}, store.Fail(store.Invalid, "User not found")
		}
		return userAnswer(u), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// userPatchOf reads what an update of a user changes. Only an admin's
// update takes the storage label, the quota and shouldChangePassword; a
// user who changes their own password need not change it again.
func userPatchOf(b dto.Body, byAdmin bool) store.UserPatch {
	var p store.UserPatch
	if v, ok := b.String("email"); ok {
		p.Email = &v
	}
	if v, ok := b.String("name"); ok {
		p.Name = &v
	}
	if v, ok := b.String("password"); ok && v != "" {
		p.PasswordHash = new(password.Hash(v))
		if !byAdmin {
			p.ShouldChangePassword = new(false)
		}
	}
	if !byAdmin {
		return p
	}
	if b.IsNull("storageLabel") {
		p.StorageLabel = new("")
	} else if v, ok := b.String("storageLabel"); ok {
		p.StorageLabel = &v
	}
	if v, ok := b.Bool("shouldChangePassword"); ok {
		p.ShouldChangePassword = &v
	}
	if b.IsNull("quotaSizeInBytes") {
		p.QuotaSizeInBytes = new((*int64)(nil))
	} else if q, ok := b.Int64("quotaSizeInBytes"); ok {
		p.QuotaSizeInBytes = new(&q)
	}
	return p
}

// updateMyUser is PUT /api/users/me.
func (s *server) updateMyUser(c *call, b dto.Body) error {
	p := userPatchOf(b, false)
	return s.writeUserAdmin(c, http.StatusOK, func(tx *store.Tx) (*model.UserRecord, error) {
		return tx.UpdateUser(c.p().User.ID, p)
	})
}

// preferencesOf reads an update of preferences.
func preferencesOf(b dto.Body) model.PreferencesRecord {
	var p model.PreferencesRecord
	if a, ok := b["avatar"].(dto.Body); ok {
		if v, ok := a.String("color"); ok {
			p.AvatarColor = &v
		}
	}
	if m, ok := b["memories"].(dto.Body); ok {
		if v, ok := m.Bool("enabled"); ok {
			p.MemoriesEnabled = &v
		}
	}
	return p
}

// myPreferences is GET /api/users/me/preferences.
func (s *server) myPreferences(c *call) error {
	return c.json(http.StatusOK, store.Preferences(c.p().User))
}

// updateMyPreferences is PUT /api/users/me/preferences.
func (s *server) updateMyPreferences(c *call, b dto.Body) error {
	return s.writePreferences(c, c.p().User.ID, preferencesOf(b))
}

func (s *server) writePreferences(c *call, userID string, p model.PreferencesRecord) error {
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Preferences, error) {
		u, err := tx.SetPreferences(userID, p)
		if err != nil {
			return model.Preferences{}, err
		}
		return store.Preferences(u), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// usersAdmin is GET /api/admin/users?withDeleted.
func (s *server) usersAdmin(c *call) error {
	var pr problems
	withDeleted := queryBool(c.r.URL.Query(), "withDeleted", &pr)
	if err := pr.err(); err != nil {
		return err
	}
	var out []model.UserAdmin
	s.store.Read(func(v *store.View) {
		users := v.UserList(withDeleted != nil && *withDeleted)
		out = make([]model.UserAdmin, 0, len(users))
		for _, u := range users {
			out = append(out, userAdminAnswer(v, u))
		}
	})
	return c.json(http.StatusOK, out)
}

// createUserAdmin is POST /api/admin/users: an admin makes a user. The
// password is hashed before the store's lock is taken.
func (s *server) createUserAdmin(c *call, b dto.Body) error {
	nu := store.NewUser{ShouldChangePassword: true}
	nu.Email, _ = b.String("email")
	nu.Name, _ = b.String("name")
	pw, _ := b.String("password")
	nu.PasswordHash = password.Hash(pw)
	if v, ok := b.String("storageLabel"); ok {
		nu.StorageLabel = &v
	}
	if q, ok := b.Int64("quotaSizeInBytes"); ok {
		nu.QuotaSizeInBytes = &q
	}
	if v, ok := b.Bool("shouldChangePassword"); ok {
		nu.ShouldChangePassword = v
	}
	return s.writeUserAdmin(c, http.StatusCreated, func(tx *store.Tx) (*model.UserRecord, error) {
		return tx.AddUserAdmin(c.p().User, nu)
	})
}

// userAdmin is GET /api/admin/users/{id}: deleted users too.
func (s *server) userAdmin(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.UserAdmin, error) {
		u := v.User(c.id)
		if u == nil {
			return model.UserAdmin{}, store.Fail(store.Invalid, "User not found")
		}
		return userAdminAnswer(v, u), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// updateUserAdmin is PUT /api/admin/users/{id}.
func (s *server) updateUserAdmin(c *call, b dto.Body) error {
	p := userPatchOf(b, true)
	return s.writeUserAdmin(c, http.StatusOK, func(tx *store.Tx) (*model.UserRecord, error) { return tx.UpdateUser(c.id, p) })
}

// deleteUserAdmin is DELETE /api/admin/users/{id} {force?}: the user is
// deleted (and may be restored), or with force removed with everything
// that is theirs.
func (s *server) deleteUserAdmin(c *call, b dto.Body) error {
	force, _ := b.Bool("force")
	out, err := store.Update(s.store, func(tx *store.Tx) (model.UserAdmin, error) {
		u, err := tx.DeleteUser(c.id, force)
		if err != nil {
			return model.UserAdmin{}, err
		}
		out := userAdminAnswer(&tx.View, u)
		if force {
			out.Status, out.QuotaUsageInBytes = store.StatusRemoving, new(int64(0))
		}
		return out, nil
	})
	if err != nil {
		return err
	}
	if force {
		// The reference's deletion job tells everyone once the user is
		// gone; here that is at once.
		s.live.Broadcast(live.UserDelete, c.id)
	}
	return c.json(http.StatusOK, out)
}

// restoreUserAdmin is POST /api/admin/users/{id}/restore.
func (s *server) restoreUserAdmin(c *call) error {
	// A POST, answered 201 as the upstream answers every POST it does not
	// say otherwise of.
	return s.writeUserAdmin(c, http.StatusCreated, func(tx *store.Tx) (*model.UserRecord, error) { return tx.RestoreUser(c.id) })
}

// userPreferencesAdmin is GET /api/admin/users/{id}/preferences.
func (s *server) userPreferencesAdmin(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.Preferences, error) {
		u := v.ActiveUser(c.id)
		if u == nil {
			return model.Preferences{}, store.Fail(store.Invalid, "User not found")
		}
		return store.Preferences(u), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// updateUserPreferencesAdmin is PUT /api/admin/users/{id}/preferences.
func (s *server) updateUserPreferencesAdmin(c *call, b dto.Body) error {
	return s.writePreferences(c, c.id, preferencesOf(b))
}

// sessions is GET /api/sessions: the caller's logins, the one it came
// with marked current.
func (s *server) sessions(c *call) error {
	var out []model.Session
	s.store.Read(func(v *store.View) {
		sessions := v.SessionsOf(c.p().User.ID)
		out = make([]model.Session, 0, len(sessions))
		for _, se := range sessions {
			out = append(out, sessionAnswer(se, c.p().Session))
		}
	})
	return c.json(http.StatusOK, out)
}

// deleteSessions is DELETE /api/sessions: every other session of the
// caller ends.
func (s *server) deleteSessions(c *call) error {
	keep := ""
	if se := c.p().Session; se != nil {
		keep = se.ID
	}
	err := s.store.Write(func(tx *store.Tx) error {
		tx.RemoveOtherSessions(c.p().User.ID, keep)
		return nil
	})
	if err != nil {
		return err
	}
	return noContent(c)
}

// deleteSession is DELETE /api/sessions/{id}.
func (s *server) deleteSession(c *call) error {
	if err := s.store.Write(func(tx *store.Tx) error { return tx.RemoveSession(c.p().User.ID, c.id) }); err != nil {
		return err
	}
	return noContent(c)
}

// noContent answers 204.
func noContent(c *call) error {
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// apiKeys is GET /api/api-keys: the keys the caller made.
func (s *server) apiKeys(c *call) error {
	var out []model.APIKey
	s.store.Read(func(v *store.View) {
		keys := v.APIKeysOf(c.p().User.ID)
		out = make([]model.APIKey, 0, len(keys))
		for _, k := range keys {
			out = append(out, apiKeyAnswer(k))
		}
	})
	return c.json(http.StatusOK, out)
}

// apiKey is GET /api/api-keys/{id}.
func (s *server) apiKey(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.APIKey, error) {
		k, err := v.APIKey(c.p().User.ID, c.id)
		if err != nil {
			return model.APIKey{}, err
		}
		return apiKeyAnswer(k), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// updateAPIKey is PUT /api/api-keys/{id}.
func (s *server) updateAPIKey(c *call, b dto.Body) error {
	name, _ := b.String("name")
	out, err := store.Update(s.store, func(tx *store.Tx) (model.APIKey, error) {
		k, err := tx.RenameAPIKey(c.p().User.ID, c.id, name)
		if err != nil {
			return model.APIKey{}, err
		}
		return apiKeyAnswer(k), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// deleteAPIKey is DELETE /api/api-keys/{id}: 200 with no body, as the
// reference answers.
func (s *server) deleteAPIKey(c *call) error {
	if err := s.store.Write(func(tx *store.Tx) error { return tx.RemoveAPIKey(c.p().User.ID, c.id) }); err != nil {
		return err
	}
	c.w.Header().Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusOK)
	return nil
}

// createAPIKey is POST /api/api-keys: a new key for the caller.
func (s *server) createAPIKey(c *call, b dto.Body) error {
	name, ok := b.String("name")
	if !ok {
		name = "API Key"
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (model.NewAPIKey, error) {
		k, err := tx.AddAPIKey(c.p().User.ID, name)
		if err != nil {
			return model.NewAPIKey{}, err
		}
		return model.NewAPIKey{Secret: k.Secret, APIKey: apiKeyAnswer(k)}, nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// adminOnboarding is GET /api/system-metadata/admin-onboarding.
func (s *server) adminOnboarding(c *call) error {
	var done bool
	s.store.Read(func(v *store.View) { done = v.AdminOnboarded() })
	return c.json(http.StatusOK, map[string]bool{"isOnboarded": done})
}

// updateAdminOnboarding is POST /api/system-metadata/admin-onboarding.
func (s *server) updateAdminOnboarding(c *call, b dto.Body) error {
	done, _ := b.Bool("isOnboarded")
	if err := s.store.Write(func(tx *store.Tx) error { tx.SetAdminOnboarded(done); return nil }); err != nil {
		return err
	}
	return noContent(c)
}

package mockserver

import (
	"net/http"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/password"
)

// sessionCookieAge is how long the login cookies last, as the reference sets them.
const sessionCookieAge = 34560000 * time.Second

// login is POST /api/auth/login: a new session for an email and password.
// Credentials sent along are ignored.
func (s *server) login(c *call, b dto.Body) error {
	email, _ := b.String("email")
	pw, _ := b.String("password")
	u, token, err := s.store.Login(email, pw)
	if err != nil {
		return err
	}
	expires := s.cfg.Now().Add(sessionCookieAge)
	for _, ck := range []*http.Cookie{
		{Name: "immich_access_token", Value: token, HttpOnly: true},
		{Name: "immich_auth_type", Value: "password", HttpOnly: true},
		{Name: "immich_is_authenticated", Value: "true"},
	} {
		ck.Path, ck.MaxAge, ck.Expires, ck.SameSite = "/", int(sessionCookieAge/time.Second), expires, http.SameSiteLaxMode
		http.SetCookie(c.w, ck)
	}
	return c.json(http.StatusCreated, model.Login{
		AccessToken: token, UserID: u.ID, UserEmail: u.Email, Name: u.Name, IsAdmin: u.IsAdmin,
		ProfileImagePath: u.ProfileImagePath, ShouldChangePassword: u.ShouldChangePassword,
	})
}

// myUser is GET /api/users/me.
func (s *server) myUser(c *call) error {
	var out model.UserAdmin
	err := s.read(func(v *store.View) error {
		u := v.User(c.p().User.ID)
		if u == nil {
			return store.Fail(store.Unauthenticated, "Invalid user token")
		}
		out = userAdminAnswer(v, u)
		return nil
	})
	if err != nil {
		return err
	}
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
	var out model.UserAdmin
	err := s.store.Write(func(tx *store.Tx) error {
		u, err := tx.AddUserAdmin(c.p().User, nu)
		if err != nil {
			return err
		}
		out = userAdminAnswer(&tx.View, u)
		return nil
	})
	if err != nil {
		return err
	}
	return c.json(http.StatusCreated, out)
}

// createAPIKey is POST /api/api-keys: a new key for the caller.
func (s *server) createAPIKey(c *call, b dto.Body) error {
	name, ok := b.String("name")
	if !ok {
		name = "API Key"
	}
	var out model.NewAPIKey
	err := s.store.Write(func(tx *store.Tx) error {
		k, err := tx.AddAPIKey(c.p().User.ID, name)
		if err != nil {
			return err
		}
		out = model.NewAPIKey{Secret: k.Secret, APIKey: model.APIKey{ID: k.ID, Name: k.Name, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}}
		return nil
	})
	if err != nil {
		return err
	}
	return c.json(http.StatusCreated, out)
}

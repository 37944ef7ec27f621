package mockserver

import (
	"net/http"
	"time"
	"unicode/utf8"
)

// maxNameChars bounds every name the mock stores (users, keys, albums):
// far above any real one.
const maxNameChars = 1024

// maxPasswordChars bounds a password: hashing reads all of it.
const maxPasswordChars = 1024

// sessionCookieAge is how long the login cookies last, as the reference sets them.
const sessionCookieAge = 34560000 * time.Second

// handleLogin is POST /api/auth/login: a new session for an email and
// password. Credentials sent along are ignored.
func (s *server) handleLogin() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := readJSON(r)
		if err != nil {
			writeError(w, err)
			return
		}
		var p problems
		email, isStr := b.str("email")
		if email == "" && (isStr || !b.has("email")) {
			p.add("email should not be empty")
		}
		if !isStr || !isEmail(email) {
			p.add("email must be an email")
		}
		pw, isStr := b.str("password")
		if (isStr && pw == "") || !b.has("password") {
			p.add("password should not be empty")
		}
		if !isStr {
			p.add("password must be a string")
		} else if utf8.RuneCountInString(pw) > maxPasswordChars {
			p.add("password must be shorter than or equal to %d characters", maxPasswordChars)
		}
		if err := p.err(); err != nil {
			writeError(w, err)
			return
		}
		res, err := s.store.login(email, pw)
		if err != nil {
			writeError(w, err)
			return
		}
		expires := s.cfg.Now().Add(sessionCookieAge)
		for _, c := range []*http.Cookie{
			{Name: "immich_access_token", Value: res.AccessToken, HttpOnly: true},
			{Name: "immich_auth_type", Value: "password", HttpOnly: true},
			{Name: "immich_is_authenticated", Value: "true"},
		} {
			c.Path, c.MaxAge, c.Expires, c.SameSite = "/", int(sessionCookieAge/time.Second), expires, http.SameSiteLaxMode
			http.SetCookie(w, c)
		}
		writeJSON(w, http.StatusCreated, res)
	})
}

// handleMyUser is GET /api/users/me.
func (s *server) handleMyUser() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateUser(r)
		if err != nil {
			writeError(w, err)
			return
		}
		me, err := s.store.me(p.user.ID)
		answer(w, http.StatusOK, me, err)
	})
}

// handleCreateUserAdmin is POST /api/admin/users: an admin makes a user.
func (s *server) handleCreateUserAdmin() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateUser(r)
		if err != nil {
			writeError(w, err)
			return
		}
		if !p.user.IsAdmin {
			writeError(w, fail(errForbidden, "Forbidden resource"))
			return
		}
		b, err := readJSON(r)
		if err != nil {
			writeError(w, err)
			return
		}
		var nu newUser
		var pr problems
		email, isStr := b.str("email")
		if !isStr || !isEmail(email) {
			pr.add("email must be an email")
		}
		nu.Email = email
		nu.Password = requiredString(b, &pr, "password", maxPasswordChars)
		nu.Name = requiredString(b, &pr, "name", maxNameChars)
		if b.has("storageLabel") {
			if v, ok := b.str("storageLabel"); !ok {
				pr.add("storageLabel must be a string")
			} else if utf8.RuneCountInString(v) > maxNameChars {
				pr.add("storageLabel must be shorter than or equal to %d characters", maxNameChars)
			} else {
				nu.StorageLabel = &v
			}
		}
		if b.has("quotaSizeInBytes") {
			if q, ok := b.int64("quotaSizeInBytes"); !ok || q < 1 {
				pr.add("quotaSizeInBytes must be a positive number")
			} else {
				nu.QuotaSizeInBytes = &q
			}
		}
		nu.ShouldChangePassword = true
		for _, name := range []string{"shouldChangePassword", "notify"} {
			if !b.has(name) {
				continue
			}
			v, ok := b.boolean(name)
			if !ok {
				pr.add("%s must be a boolean value", name)
			} else if name == "shouldChangePassword" {
				nu.ShouldChangePassword = v
			}
		}
		if err := pr.err(); err != nil {
			writeError(w, err)
			return
		}
		u, err := s.store.addUserAdmin(p.user, nu)
		answer(w, http.StatusCreated, u, err)
	})
}

// requiredString checks a required string member, with the reference's
// messages in its order, and its length.
func requiredString(b jsonBody, p *problems, name string, maxChars int) string {
	v, isStr := b.str(name)
	if !isStr {
		p.add("%s must be a string", name)
	}
	if !b.has(name) || (isStr && v == "") {
		p.add("%s should not be empty", name)
	}
	if isStr && utf8.RuneCountInString(v) > maxChars {
		p.add("%s must be shorter than or equal to %d characters", name, maxChars)
	}
	return v
}

// handleCreateAPIKey is POST /api/api-keys: a new key for the caller.
func (s *server) handleCreateAPIKey() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticateUser, false, true)
		if err != nil {
			writeError(w, err)
			return
		}
		p, b := in.principal, in.body
		name := "API Key"
		var pr problems
		if b.has("name") {
			v, ok := b.str("name")
			switch {
			case !ok:
				pr.add("name must be a string")
			case v == "":
				pr.add("name should not be empty")
			case utf8.RuneCountInString(v) > maxNameChars:
				pr.add("name must be shorter than or equal to %d characters", maxNameChars)
			}
			name = v
		}
		if err := pr.err(); err != nil {
			writeError(w, err)
			return
		}
		key, err := s.store.addAPIKey(p.user.ID, name)
		answer(w, http.StatusCreated, key, err)
	})
}

// maxEmailChars bounds an email: the longest address mail allows.
const maxEmailChars = 254

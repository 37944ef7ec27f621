package mockserver

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/password"
)

// Users, their passwords, sessions and API keys: the store's side of
// logging in and of the operations that make users and keys.

// newToken is a session's access token or an API key's secret, as the
// reference makes them: 32 random bytes in base64 without '+', '/' and '='.
func newToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return strings.NewReplacer("+", "", "/", "", "=", "").Replace(base64.StdEncoding.EncodeToString(b[:]))
}

// tokenHash is how a session's token is kept: its SHA-256 in hex.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// avatarColorOf is the colour the reference gives a new user: the colour
// at the sum of the email's code points, modulo the number of colours.
func avatarColorOf(email string) string {
	sum := 0
	for _, r := range email {
		sum += int(r)
	}
	colors := model.AvatarColors()
	return colors[sum%len(colors)]
}

// errBadLogin is the one answer to a wrong email or password, alike so
// that it does not tell which emails exist.
var errBadLogin = fail(errUnauthenticated, "Incorrect email or password")

// login checks an email (in any case) and password and starts a session:
// the answer and the new access token. The password is checked outside the
// lock: hashing takes milliseconds on purpose.
func (db *store) login(email, pw string) (model.Login, error) {
	db.mu.RLock()
	u := db.state.userByEmail[strings.ToLower(email)]
	db.mu.RUnlock()
	if u == nil || u.PasswordHash == "" {
		return model.Login{}, errBadLogin
	}
	if ok, err := password.Check(u.PasswordHash, pw); err != nil {
		return model.Login{}, internal(err)
	} else if !ok {
		return model.Login{}, errBadLogin
	}
	token := db.newToken()
	err := db.write(func(st *state, tx *undo) error {
		if st.userByID[u.ID] != u { // gone, or replaced by a reset, while the password was checked
			return errBadLogin
		}
		se := model.SessionRecord{ID: db.newID(), UserID: u.ID, TokenHash: tokenHash(token), CreatedAt: db.tick()}
		if err := st.addSession(se, tx); err != nil {
			return internal(err)
		}
		return nil
	})
	if err != nil {
		return model.Login{}, err
	}
	return model.Login{
		AccessToken: token, UserID: u.ID, UserEmail: u.Email, Name: u.Name, IsAdmin: u.IsAdmin,
		ProfileImagePath: u.ProfileImagePath, ShouldChangePassword: u.ShouldChangePassword,
	}, nil
}

// addAPIKey makes a new API key for the user.
func (db *store) addAPIKey(userID, name string) (model.NewAPIKey, error) {
	var out model.NewAPIKey
	err := db.write(func(st *state, tx *undo) error {
		if st.userByID[userID] == nil {
			return fail(errUnauthenticated, "Invalid user token")
		}
		now := db.tick()
		k := model.APIKeyRecord{ID: db.newID(), UserID: userID, Name: name, Secret: db.newToken(), CreatedAt: now, UpdatedAt: now}
		if err := st.addAPIKey(k, tx); err != nil {
			return internal(err)
		}
		out = model.NewAPIKey{Secret: k.Secret, APIKey: model.APIKey{ID: k.ID, Name: k.Name, CreatedAt: now, UpdatedAt: now}}
		return nil
	})
	return out, err
}

// newUser is what an admin gives for a new user.
type newUser struct {
	Email, Password, Name string
	StorageLabel          *string
	QuotaSizeInBytes      *int64
	ShouldChangePassword  bool
}

// addUserAdmin makes a user on an admin's behalf. The email is stored in
// lower case; the storage label loses its dots and slashes.
func (db *store) addUserAdmin(by *model.UserRecord, nu newUser) (model.UserAdmin, error) {
	if !by.IsAdmin {
		return model.UserAdmin{}, fail(errForbidden, "Forbidden resource")
	}
	hash := password.Hash(nu.Password)
	var out model.UserAdmin
	err := db.write(func(st *state, tx *undo) error {
		email := strings.ToLower(nu.Email)
		if st.userByEmail[email] != nil {
			return fail(errConflict, "User exists")
		}
		if nu.StorageLabel != nil {
			nu.StorageLabel = new(strings.NewReplacer(".", "", "/", "").Replace(*nu.StorageLabel))
		}
		now := db.tick()
		u := model.UserRecord{
			User:                 model.User{ID: db.newID(), Name: nu.Name, Email: email, AvatarColor: avatarColorOf(email)},
			APIKey:               db.newSecret(32),
			PasswordHash:         hash,
			ShouldChangePassword: nu.ShouldChangePassword,
			StorageLabel:         nu.StorageLabel,
			QuotaSizeInBytes:     nu.QuotaSizeInBytes,
			CreatedAt:            now,
			UpdatedAt:            now,
		}
		if err := st.addUser(u, tx); err != nil {
			return internal(err)
		}
		out = st.userAdminView(st.userByID[u.ID])
		return nil
	})
	return out, err
}

// me is the user as they see themselves.
func (db *store) me(userID string) (model.UserAdmin, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	u := db.state.userByID[userID]
	if u == nil {
		return model.UserAdmin{}, fail(errUnauthenticated, "Invalid user token")
	}
	return db.state.userAdminView(u), nil
}

// userAdminView is u as UserAdminResponseDto shows them.
func (st *state) userAdminView(u *model.UserRecord) model.UserAdmin {
	updated := u.UpdatedAt
	if updated.IsZero() {
		updated = u.CreatedAt
	}
	usage := st.usage[u.ID]
	return model.UserAdmin{
		User: u.User, StorageLabel: u.StorageLabel, ShouldChangePassword: u.ShouldChangePassword,
		IsAdmin: u.IsAdmin, CreatedAt: u.CreatedAt, UpdatedAt: updated,
		QuotaSizeInBytes: u.QuotaSizeInBytes, QuotaUsageInBytes: &usage, Status: "active",
	}
}

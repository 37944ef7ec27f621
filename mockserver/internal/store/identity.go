package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"hash/fnv"
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

// lowerEmail is how emails are compared: in lower case.
func lowerEmail(email string) string { return strings.ToLower(email) }

// AvatarColorOf is the colour the reference gives a new user: the colour
// at the sum of the email's code points, modulo the number of colours.
func AvatarColorOf(email string) string {
	sum := 0
	for _, r := range email {
		sum += int(r)
	}
	colors := model.AvatarColors()
	return colors[sum%len(colors)]
}

// avatarColorByID picks the colour of a user the control API makes from
// their id, so it never changes.
func avatarColorByID(id string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	colors := model.AvatarColors()
	return colors[h.Sum32()%uint32(len(colors))]
}

// errBadLogin is the one answer to a wrong email or password, alike so
// that it does not tell which emails exist.
var errBadLogin = Fail(Unauthenticated, "Incorrect email or password")

// Device is what logged in: the browser, or the app's device, and its
// system, as the request told.
type Device struct{ Type, OS string }

// Login checks an email (in any case) and password and starts a session:
// the user and the new access token. The password is checked outside the
// lock: hashing takes milliseconds on purpose.
func (db *Store) Login(email, pw string, device Device) (*model.UserRecord, string, error) {
	var u *model.UserRecord
	db.Read(func(v *View) {
		if u = v.UserByEmail(email); u != nil && Deleted(u) {
			u = nil
		}
	})
	if u == nil || u.PasswordHash == "" {
		password.CheckNone(pw)
		return nil, "", errBadLogin
	}
	if ok, err := password.Check(u.PasswordHash, pw); err != nil {
		return nil, "", internal(err)
	} else if !ok {
		return nil, "", errBadLogin
	}
	token := db.newToken()
	err := db.Write(func(tx *Tx) error {
		if !samePassword(tx.User(u.ID), u) { // gone, or its password changed, while it was checked
			return errBadLogin
		}
		now := tx.Tick()
		se := model.SessionRecord{
			ID: db.newID(), UserID: u.ID, TokenHash: tokenHash(token), CreatedAt: now, UpdatedAt: now,
			DeviceType: device.Type, DeviceOS: device.OS,
		}
		if err := tx.addSession(se); err != nil {
			return internal(err)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// samePassword says whether cur, the user as stored now, is still u, read
// before a password was checked outside the lock: there, not deleted, with
// the password that was checked. Its record may be another copy: a write
// that removes another user, or assets for good, builds every record
// anew.
func samePassword(cur, u *model.UserRecord) bool {
	return cur != nil && !Deleted(cur) && cur.ID == u.ID && cur.PasswordHash == u.PasswordHash
}

// ChangePassword sets the user's new password (hashed outside the lock),
// once their current one is checked: else 400 Wrong password.
func (db *Store) ChangePassword(userID, current, next string) (*model.UserRecord, error) {
	var u *model.UserRecord
	db.Read(func(v *View) { u = v.ActiveUser(userID) })
	if u == nil {
		return nil, Fail(Unauthenticated, "Invalid user token")
	}
	if ok, err := password.Check(u.PasswordHash, current); err != nil && u.PasswordHash != "" {
		return nil, internal(err)
	} else if !ok {
		return nil, Fail(Invalid, "Wrong password")
	}
	hash := password.Hash(next)
	var out *model.UserRecord
	err := db.Write(func(tx *Tx) error {
		if !samePassword(tx.User(userID), u) {
			return Fail(Invalid, "Wrong password") // changed while the password was checked
		}
		var err error
		out, err = tx.UpdateUser(userID, UserPatch{PasswordHash: &hash})
		return err
	})
	return out, err
}

// AddAPIKey makes a new API key for the user.
func (tx *Tx) AddAPIKey(userID, name string) (*model.APIKeyRecord, error) {
	if tx.User(userID) == nil {
		return nil, Fail(Unauthenticated, "Invalid user token")
	}
	now := tx.Tick()
	k := model.APIKeyRecord{ID: tx.db.newID(), UserID: userID, Name: name, Secret: tx.db.newToken(), CreatedAt: now, UpdatedAt: now}
	if err := tx.addAPIKey(k); err != nil {
		return nil, internal(err)
	}
	return tx.st.apiKeys[len(tx.st.apiKeys)-1], nil
}

// NewUser is what an admin gives for a new user. The password comes
// hashed (package password), as hashing takes milliseconds on purpose and
// is done outside the lock.
type NewUser struct {
	Email, PasswordHash, Name string
	StorageLabel              *string
	QuotaSizeInBytes          *int64
	ShouldChangePassword      bool
}

// AddUserAdmin makes a user on an admin's behalf. The email is stored in
// lower case; the storage label loses its dots and slashes.
func (tx *Tx) AddUserAdmin(by *model.UserRecord, nu NewUser) (*model.UserRecord, error) {
	if !by.IsAdmin {
		return nil, Fail(Forbidden, "Forbidden resource")
	}
	email := lowerEmail(nu.Email)
	if tx.UserByEmail(email) != nil {
		return nil, Fail(Conflict, "User exists")
	}
	if nu.StorageLabel != nil {
		nu.StorageLabel = new(strings.NewReplacer(".", "", "/", "").Replace(*nu.StorageLabel))
	}
	now := tx.Tick()
	u := model.UserRecord{
		User:                 model.User{ID: tx.db.newID(), Name: nu.Name, Email: email, AvatarColor: AvatarColorOf(email)},
		APIKey:               tx.db.newSecret(32),
		PasswordHash:         nu.PasswordHash,
		ShouldChangePassword: nu.ShouldChangePassword,
		StorageLabel:         nu.StorageLabel,
		QuotaSizeInBytes:     nu.QuotaSizeInBytes,
		CreatedAt:            now,
		UpdatedAt:            now,
	}
	if err := tx.addUser(u); err != nil {
		return nil, internal(err)
	}
	return tx.User(u.ID), nil
}

// AddUser stores a new user with a new id and API key, as the control API
// makes one: no password, no admin.
func (tx *Tx) AddUser(name, email string, quota *int64) (*model.UserRecord, error) {
	if tx.UserByEmail(email) != nil {
		return nil, Fail(Conflict, "A user with email %s already exists", email)
	}
	id := tx.db.newID()
	u := model.UserRecord{
		User:             model.User{ID: id, Name: name, Email: email, AvatarColor: avatarColorByID(id)},
		APIKey:           tx.db.newSecret(32),
		QuotaSizeInBytes: quota,
		CreatedAt:        tx.Tick(),
	}
	if err := tx.addUser(u); err != nil {
		return nil, internal(err)
	}
	return tx.User(id), nil
}

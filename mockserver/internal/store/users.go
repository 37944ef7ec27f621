package store

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Users as admins and the users themselves change them: the first admin,
// updates, deletion and restoring, preferences, sessions and keys.

// Statuses of a user.
const (
	StatusActive   = "active"
	StatusDeleted  = "deleted"
	StatusRemoving = "removing"
)

// Deleted says whether an admin deleted u (a deleted user can be restored).
func Deleted(u *model.UserRecord) bool { return u.DeletedAt != nil }

// ActiveUser is the user of that id, unless deleted.
func (v *View) ActiveUser(id string) *model.UserRecord {
	if u := v.st.userByID[id]; u != nil && !Deleted(u) {
		return u
	}
	return nil
}

// UserList is every user, deleted ones too with withDeleted, the newest
// first, as the upstream lists them.
func (v *View) UserList(withDeleted bool) []*model.UserRecord {
	var out []*model.UserRecord
	for _, u := range v.st.users {
		if withDeleted || !Deleted(u) {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out, func(a, b *model.UserRecord) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt.Time), strings.Compare(a.ID, b.ID))
	})
	return out
}

// HasAdmin says whether the server has an admin (not deleted): whether it
// is initialized.
func (v *View) HasAdmin() bool {
	return slices.ContainsFunc(v.st.users, func(u *model.UserRecord) bool { return u.IsAdmin && !Deleted(u) })
}

// AdminOnboarded says whether the first admin went through onboarding.
func (v *View) AdminOnboarded() bool { return v.st.onboarded }

// SetAdminOnboarded records whether the first admin went through onboarding.
func (tx *Tx) SetAdminOnboarded(done bool) {
	st := tx.st
	was := st.onboarded
	st.onboarded = done
	tx.did(Users, func() { st.onboarded = was })
}

// SignUpAdmin makes the server's first admin, as a new server asks: its
// storage label "admin". A server with an admin refuses a second.
func (tx *Tx) SignUpAdmin(nu NewUser) (*model.UserRecord, error) {
	if tx.HasAdmin() {
		return nil, Fail(Invalid, "The server already has an admin")
	}
	email := lowerEmail(nu.Email)
	if tx.UserByEmail(email) != nil {
		return nil, Fail(Conflict, "User exists")
	}
	now := tx.Tick()
	u := model.UserRecord{
		User:                 model.User{ID: tx.db.newID(), Name: nu.Name, Email: email, AvatarColor: AvatarColorOf(email)},
		APIKey:               tx.db.newSecret(32),
		PasswordHash:         nu.PasswordHash,
		IsAdmin:              true,
		ShouldChangePassword: true,
		StorageLabel:         new("admin"),
		CreatedAt:            now,
		UpdatedAt:            now,
	}
	if err := tx.addUser(u); err != nil {
		return nil, internal(err)
	}
	return tx.User(u.ID), nil
}

// UserPatch is what an update changes of a user: a nil field is kept.
type UserPatch struct {
	Email, Name, PasswordHash *string
	// StorageLabel: "" clears it.
	StorageLabel         *string
	ShouldChangePassword *bool
	// QuotaSizeInBytes: a pointer to nil clears it.
	QuotaSizeInBytes **int64
}

// UpdateUser changes the user of that id (not deleted) as p says.
func (tx *Tx) UpdateUser(id string, p UserPatch) (*model.UserRecord, error) {
	old := tx.ActiveUser(id)
	if old == nil {
		return nil, Fail(Invalid, "User not found")
	}
	u := *old
	if p.Email != nil && *p.Email != "" {
		email := lowerEmail(*p.Email)
		if other := tx.UserByEmail(email); other != nil && other.ID != id {
			return nil, Fail(Invalid, "Email already in use by another account")
		}
		u.Email = email
		if u.Preferences == nil || u.Preferences.AvatarColor == nil {
			u.AvatarColor = AvatarColorOf(email) // the default follows the email
		}
	}
	if p.Name != nil {
		u.Name = *p.Name
	}
	if p.PasswordHash != nil {
		u.PasswordHash = *p.PasswordHash
	}
	if p.StorageLabel != nil {
		label := strings.NewReplacer(".", "", "/", "").Replace(*p.StorageLabel)
		if label == "" {
			u.StorageLabel = nil
		} else {
			if slices.ContainsFunc(tx.st.users, func(o *model.UserRecord) bool {
				return o.ID != id && o.StorageLabel != nil && *o.StorageLabel == label
			}) {
				return nil, Fail(Invalid, "Storage label already in use by another account")
			}
			u.StorageLabel = &label
		}
	}
	if p.ShouldChangePassword != nil {
		u.ShouldChangePassword = *p.ShouldChangePassword
	}
	if p.QuotaSizeInBytes != nil {
		u.QuotaSizeInBytes = *p.QuotaSizeInBytes
	}
	u.UpdatedAt = tx.Tick()
	if err := tx.replaceUser(old, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// SetPreferences changes what a user (not deleted) set of their
// preferences: a nil field is kept.
func (tx *Tx) SetPreferences(id string, p model.PreferencesRecord) (*model.UserRecord, error) {
	old := tx.ActiveUser(id)
	if old == nil {
		return nil, Fail(Invalid, "User not found")
	}
	u := *old
	prefs := model.PreferencesRecord{}
	if old.Preferences != nil {
		prefs = *old.Preferences
	}
	if p.AvatarColor != nil {
		if !slices.Contains(model.AvatarColors(), *p.AvatarColor) {
			return nil, internal(errBadColor(*p.AvatarColor))
		}
		prefs.AvatarColor = p.AvatarColor
		u.AvatarColor = *p.AvatarColor
	}
	if p.MemoriesEnabled != nil {
		prefs.MemoriesEnabled = p.MemoriesEnabled
	}
	u.Preferences = &prefs
	if err := tx.replaceUser(old, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

type errBadColor string

func (e errBadColor) Error() string { return "avatar colour " + string(e) + " is none of the colours" }

// Preferences is a user's preferences: their own, or the defaults.
func Preferences(u *model.UserRecord) model.Preferences {
	var p model.Preferences
	p.Memories.Enabled = true
	p.Avatar.Color = u.AvatarColor
	if u.Preferences != nil && u.Preferences.MemoriesEnabled != nil {
		p.Memories.Enabled = *u.Preferences.MemoriesEnabled
	}
	return p
}

// SetProfileImage names the user's profile image (a path of the server's,
// "" for none), and answers the one it replaced.
func (tx *Tx) SetProfileImage(id, path string) (old string, err error) {
	prev := tx.ActiveUser(id)
	if prev == nil {
		return "", Fail(Invalid, "User not found")
	}
	u := *prev
	u.ProfileImagePath = path
	if err := tx.replaceUser(prev, &u); err != nil {
		return "", err
	}
	return prev.ProfileImagePath, nil
}

// DeleteUser deletes a user who is not an admin: softly (restorable; their
// albums and links go out of sight, their credentials stop working), or
// with force for good, with everything that is theirs. It answers the user
// as deleted.
func (tx *Tx) DeleteUser(id string, force bool) (*model.UserRecord, error) {
	old := tx.ActiveUser(id)
	if old == nil {
		return nil, Fail(Invalid, "User not found")
	}
	if old.IsAdmin {
		return nil, Fail(Forbidden, "Cannot delete admin user")
	}
	u := *old
	now := tx.Tick()
	u.DeletedAt, u.UpdatedAt = now.Ptr(), now
	if force {
		if err := tx.removeUser(old); err != nil {
			return nil, err
		}
		return &u, nil
	}
	if err := tx.replaceUser(old, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// RestoreUser brings back a deleted user.
func (tx *Tx) RestoreUser(id string) (*model.UserRecord, error) {
	old := tx.User(id)
	if old == nil {
		return nil, Fail(Invalid, "User not found")
	}
	u := *old
	u.DeletedAt = nil
	u.UpdatedAt = tx.Tick()
	if err := tx.replaceUser(old, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// replaceUser puts a changed user (same id and API key) in the place of the
// stored one, in every index.
func (tx *Tx) replaceUser(old, u *model.UserRecord) error {
	st := tx.st
	i := slices.Index(st.users, old)
	if i < 0 || u.ID != old.ID || u.APIKey != old.APIKey {
		return internal(errUserGone(old.ID))
	}
	if err := checkUser(u); err != nil {
		return Fail(Invalid, "%s", err.Error())
	}
	oldEmail, email := lowerEmail(old.Email), lowerEmail(u.Email)
	keys := map[string]*model.UserRecord{}
	for k, o := range st.userByKey {
		if o == old {
			keys[k] = o
			st.userByKey[k] = u
		}
	}
	st.users[i] = u
	st.userByID[u.ID] = u
	delete(st.userByEmail, oldEmail)
	st.userByEmail[email] = u
	tx.did(Users, func() {
		st.users[i] = old
		st.userByID[u.ID] = old
		delete(st.userByEmail, email)
		st.userByEmail[oldEmail] = old
		for k, o := range keys {
			st.userByKey[k] = o
		}
	})
	return nil
}

type errUserGone string

func (e errUserGone) Error() string { return "user " + string(e) + " is not stored" }

// removeUser takes a user out of the state with everything that is theirs
// (assets, albums, links, people, tags, sessions and keys) and their place
// in others' albums: the state is built anew from what is left.
func (tx *Tx) removeUser(u *model.UserRecord) error {
	d := tx.db.recordsLocked().Dataset()
	gone := func(owner string) bool { return owner == u.ID }
	d.Users = slices.DeleteFunc(d.Users, func(o model.UserRecord) bool { return gone(o.ID) })
	d.People = slices.DeleteFunc(d.People, func(o model.PersonRecord) bool { return gone(o.OwnerID) })
	d.Tags = slices.DeleteFunc(d.Tags, func(o model.Tag) bool { return gone(o.UserID) })
	d.Libraries = slices.DeleteFunc(d.Libraries, func(o model.LibraryRecord) bool { return gone(o.OwnerID) })
	assets := map[string]bool{}
	loaded := tx.st.loaded
	for i, a := range d.Assets {
		if gone(a.OwnerID) {
			assets[a.ID] = true
			if i < tx.st.loaded {
				loaded--
			}
		}
	}
	d.Assets = slices.DeleteFunc(d.Assets, func(o model.AssetRecord) bool { return assets[o.ID] })
	d.Albums = slices.DeleteFunc(d.Albums, func(o model.AlbumRecord) bool { return gone(o.OwnerID) })
	for i := range d.Albums {
		al := &d.Albums[i]
		al.AlbumUsers = slices.DeleteFunc(slices.Clone(al.AlbumUsers), func(au model.AlbumUserRecord) bool { return gone(au.UserID) })
		al.AssetIDs = slices.DeleteFunc(slices.Clone(al.AssetIDs), func(id string) bool { return assets[id] })
		if t := al.AlbumThumbnailAssetID; t != nil && assets[*t] {
			al.AlbumThumbnailAssetID = nil
		}
	}
	d.SharedLinks = slices.DeleteFunc(d.SharedLinks, func(o model.SharedLinkRecord) bool { return gone(o.UserID) })
	d.APIKeys = slices.DeleteFunc(d.APIKeys, func(o model.APIKeyRecord) bool { return gone(o.UserID) })
	d.Sessions = slices.DeleteFunc(d.Sessions, func(o model.SessionRecord) bool { return gone(o.UserID) })
	d.Partners = slices.DeleteFunc(d.Partners, func(o model.PartnerRecord) bool { return gone(o.SharedByID) || gone(o.SharedWithID) })
	pruneActivities(&d)
	pruneMemories(&d)
	next, err := newState(d, tx.st.maxListed)
	if err != nil {
		return internal(err)
	}
	next.loaded = loaded
	next.base, next.maxMade = tx.st.base, tx.st.maxMade
	prev := tx.st
	tx.db.state, tx.st = next, next
	tx.did(Everything, func() { tx.db.state, tx.st = prev, prev })
	return nil
}

// SessionsOf is the user's sessions, the last changed first, then the
// newest, as the reference lists them (by updatedAt, then createdAt,
// descending); the last made first where those are alike.
func (v *View) SessionsOf(userID string) []*model.SessionRecord {
	var out []*model.SessionRecord
	for _, se := range slices.Backward(v.st.sessions) {
		if se.UserID == userID {
			out = append(out, se)
		}
	}
	changed := func(se *model.SessionRecord) time.Time {
		if se.UpdatedAt.IsZero() {
			return se.CreatedAt.Time
		}
		return se.UpdatedAt.Time
	}
	slices.SortStableFunc(out, func(a, b *model.SessionRecord) int {
		return cmp.Or(changed(b).Compare(changed(a)), b.CreatedAt.Compare(a.CreatedAt.Time))
	})
	return out
}

// RemoveSession ends one of the user's sessions.
func (tx *Tx) RemoveSession(userID, id string) error {
	i := slices.IndexFunc(tx.st.sessions, func(se *model.SessionRecord) bool { return se.ID == id && se.UserID == userID })
	if i < 0 {
		return Fail(NoAccess, "Not found or no authDevice.delete access")
	}
	tx.removeSession(i)
	return nil
}

// RemoveOtherSessions ends every session of the user but keep's.
func (tx *Tx) RemoveOtherSessions(userID, keep string) {
	for i := len(tx.st.sessions) - 1; i >= 0; i-- {
		if se := tx.st.sessions[i]; se.UserID == userID && se.ID != keep {
			tx.removeSession(i)
		}
	}
}

func (tx *Tx) removeSession(i int) {
	st := tx.st
	se := st.sessions[i]
	sessions := st.sessions
	st.sessions = slices.Delete(slices.Clone(sessions), i, i+1)
	delete(st.sessionByHash, se.TokenHash)
	tx.did(Keys, func() {
		st.sessions = sessions
		st.sessionByHash[se.TokenHash] = se
	})
}

// APIKeysOf is the keys the user made, the newest first, as the reference
// lists them (by createdAt, descending); the last made first where their
// times are alike.
func (v *View) APIKeysOf(userID string) []*model.APIKeyRecord {
	var out []*model.APIKeyRecord
	for _, k := range slices.Backward(v.st.apiKeys) {
		if k.UserID == userID {
			out = append(out, k)
		}
	}
	slices.SortStableFunc(out, func(a, b *model.APIKeyRecord) int { return b.CreatedAt.Compare(a.CreatedAt.Time) })
	return out
}

// APIKey is the user's key of that id.
func (v *View) APIKey(userID, id string) (*model.APIKeyRecord, error) {
	i := slices.IndexFunc(v.st.apiKeys, func(k *model.APIKeyRecord) bool { return k.ID == id && k.UserID == userID })
	if i < 0 {
		return nil, Fail(Invalid, "API Key not found")
	}
	return v.st.apiKeys[i], nil
}

// RenameAPIKey names the user's key anew.
func (tx *Tx) RenameAPIKey(userID, id, name string) (*model.APIKeyRecord, error) {
	old, err := tx.APIKey(userID, id)
	if err != nil {
		return nil, err
	}
	st := tx.st
	i := slices.Index(st.apiKeys, old)
	k := *old
	k.Name, k.UpdatedAt = name, tx.Tick()
	st.apiKeys[i] = &k
	tx.did(Keys, func() { st.apiKeys[i] = old })
	return &k, nil
}

// RemoveAPIKey deletes the user's key: it stops working at once.
func (tx *Tx) RemoveAPIKey(userID, id string) error {
	old, err := tx.APIKey(userID, id)
	if err != nil {
		return err
	}
	st := tx.st
	keys := st.apiKeys
	i := slices.Index(keys, old)
	st.apiKeys = slices.Delete(slices.Clone(keys), i, i+1)
	owner := st.userByKey[old.Secret]
	delete(st.userByKey, old.Secret)
	tx.did(Keys, func() {
		st.apiKeys = keys
		st.userByKey[old.Secret] = owner
	})
	return nil
}

package store

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/password"
)

// checksumKey finds an owner's asset by the SHA-1 of its content, or an
// external library's asset by the SHA-1 of its path in that library (two
// libraries may hold the same file, as the reference's unique index on
// owner, library and checksum allows).
type checksumKey struct {
	owner   string
	sum     [20]byte
	library string // "" but for an external library's asset
}

// state is one dataset with its indexes.
type state struct {
	seed   int64
	anchor model.Time
	// onboarded: the first admin went through onboarding.
	onboarded bool

	users       []*model.UserRecord
	userByID    map[string]*model.UserRecord
	userByEmail map[string]*model.UserRecord // by the email in lower case
	userByKey   map[string]*model.UserRecord // by every API key: the user's own and those they made
	usage       map[string]int64             // bytes of each user's assets, for quotas

	apiKeys       []*model.APIKeyRecord
	sessions      []*model.SessionRecord
	sessionByHash map[string]*model.SessionRecord

	people     []*model.PersonRecord
	personByID map[string]*model.PersonRecord

	tags    []*model.Tag
	tagByID map[string]*model.Tag
	assets  []*model.AssetRecord // the dataset's, then the uploads in their order
	loaded  int                  // how many of assets came with the dataset
	assetBy map[string]*model.AssetRecord
	bySum   map[checksumKey]*model.AssetRecord
	byOwner map[string][]*model.AssetRecord // in the order of assets
	// maxListed bounds the assets a user's listing shows (MaxListedAssets
	// unless the store was made with another).
	maxListed int
	children  map[string][]*model.AssetRecord // stack parent id → the rest of its stack

	// base is how many records of the kinds MaxMadeRecords counts the
	// state was loaded with, and maxMade how many more may be made.
	base, maxMade int

	albums     []*model.AlbumRecord
	albumByID  map[string]*model.AlbumRecord
	albumLinks map[string]int // album id → how many links point to it

	partners []*model.PartnerRecord

	activities   []*model.ActivityRecord
	activityByID map[string]*model.ActivityRecord

	memories   []*model.MemoryRecord
	memoryByID map[string]*model.MemoryRecord
	// audit is the audit of deletions that the mobile app's sync reads.
	audit auditLog

	libraries   []*model.LibraryRecord
	libraryByID map[string]*model.LibraryRecord
	// config is the server's settings where an admin changed them; nil:
	// the defaults.
	config *model.SystemConfig

	links       []*model.SharedLinkRecord
	linkByID    map[string]*model.SharedLinkRecord
	linkByKey   map[string]*model.SharedLinkRecord
	linksByUser map[string][]*model.SharedLinkRecord
}

// decodeChecksum reads a SHA-1 written as base64 (28 characters) or hex
// (40 characters), as clients send it in the checksum header.
func decodeChecksum(v string) (sum [20]byte, ok bool) {
	var b []byte
	var err error
	switch len(v) {
	case 28:
		b, err = base64.StdEncoding.DecodeString(v)
	case 40:
		b, err = hex.DecodeString(v)
	default:
		return sum, false
	}
	if err != nil || len(b) != len(sum) {
		return sum, false
	}
	copy(sum[:], b)
	return sum, true
}

// newState indexes d, checking that every reference in it resolves, so that
// a hand-edited fixtures file fails at start-up and not in a request.
func newState(d model.Dataset, maxListed int) (*state, error) {
	st := emptyState(d, maxListed)
	tx := &Tx{View: View{st: st}, loading: true, loadListed: map[string]int{}}
	st.loaded = len(d.Assets)
	for _, load := range []func() error{
		func() error { return loadEach("users", d.Users, tx.addUser) },
		func() error { return loadEach("apiKeys", d.APIKeys, tx.addAPIKey) },
		func() error { return loadEach("sessions", d.Sessions, tx.addSession) },
		func() error { return loadEach("people", d.People, st.loadPerson) },
		func() error { return loadEach("tags", d.Tags, st.loadTag) },
		func() error { return loadEach("libraries", d.Libraries, tx.addLibrary) },
		func() error { return loadEach("assets", d.Assets, tx.addAsset) },
		st.linkAssets, // once all of them are known
		func() error { return loadEach("albums", d.Albums, tx.addAlbum) },
		func() error { return loadEach("sharedLinks", d.SharedLinks, tx.addLink) },
		func() error { return loadEach("partners", d.Partners, tx.addPartner) },
		func() error { return loadEach("activities", d.Activities, tx.addActivity) },
		func() error { return loadEach("memories", d.Memories, tx.addMemory) },
		func() error { return st.loadAudit(d.Audit) },
	} {
		if err := load(); err != nil {
			return nil, err
		}
	}
	if err := tx.setConfig(d.SystemConfig); err != nil {
		return nil, fmt.Errorf("systemConfig: %w", err)
	}
	return st, nil
}

// emptyState is a state with d's seed, anchor and onboarding, and no records.
func emptyState(d model.Dataset, maxListed int) *state {
	return &state{
		maxListed:     maxListed,
		seed:          d.Seed,
		anchor:        d.Anchor,
		onboarded:     d.AdminOnboarded,
		userByID:      map[string]*model.UserRecord{},
		userByKey:     map[string]*model.UserRecord{},
		userByEmail:   map[string]*model.UserRecord{},
		sessionByHash: map[string]*model.SessionRecord{},
		usage:         map[string]int64{},
		personByID:    map[string]*model.PersonRecord{},
		tagByID:       map[string]*model.Tag{},
		memoryByID:    map[string]*model.MemoryRecord{},
		assetBy:       map[string]*model.AssetRecord{},
		bySum:         map[checksumKey]*model.AssetRecord{},
		byOwner:       map[string][]*model.AssetRecord{},
		children:      map[string][]*model.AssetRecord{},
		albumByID:     map[string]*model.AlbumRecord{},
		albumLinks:    map[string]int{},
		linkByID:      map[string]*model.SharedLinkRecord{},
		linkByKey:     map[string]*model.SharedLinkRecord{},
		linksByUser:   map[string][]*model.SharedLinkRecord{},
	}
}

// loadEach adds every record of one of a dataset's lists with add, and
// names the first that fails by its list and place in it.
func loadEach[T any](list string, records []T, add func(T) error) error {
	for i := range records {
		if err := add(records[i]); err != nil {
			return fmt.Errorf("%s[%d]: %w", list, i, err)
		}
	}
	return nil
}

// loadPerson adds a person of the dataset, whose owner must be a user.
func (st *state) loadPerson(p model.PersonRecord) error {
	if p.ID == "" || st.personByID[p.ID] != nil {
		return fmt.Errorf("id %q is empty or not unique", p.ID)
	}
	if st.userByID[p.OwnerID] == nil {
		return fmt.Errorf("owner %q is not a user", p.OwnerID)
	}
	st.people = append(st.people, &p)
	st.personByID[p.ID] = &p
	return nil
}

// loadTag adds a tag of the dataset, whose user must be a user.
func (st *state) loadTag(t model.Tag) error {
	if t.ID == "" || st.tagByID[t.ID] != nil {
		return fmt.Errorf("id %q is empty or not unique", t.ID)
	}
	if st.userByID[t.UserID] == nil {
		return fmt.Errorf("user %q is not a user", t.UserID)
	}
	st.tags = append(st.tags, &t)
	st.tagByID[t.ID] = &t
	return nil
}

// linkAssets checks the references between the dataset's assets (a live
// photo's video, a stack's parent: an asset of the same owner) and indexes
// the stacks.
func (st *state) linkAssets() error {
	for i, a := range st.assets {
		for _, ref := range []struct {
			name string
			id   *string
		}{{"livePhotoVideoId", a.LivePhotoVideoID}, {"stackParentId", a.StackParentID}} {
			if ref.id == nil {
				continue
			}
			if o := st.assetBy[*ref.id]; o == nil || o.OwnerID != a.OwnerID {
				return fmt.Errorf("assets[%d]: %s %q is not an asset of the same owner", i, ref.name, *ref.id)
			}
		}
		if a.StackParentID != nil {
			st.children[*a.StackParentID] = append(st.children[*a.StackParentID], a)
		}
	}
	return nil
}

// addUser checks u against the state and adds it, recording in tx how to
// take it back. So do addAsset, addAlbum and addLink.
func (tx *Tx) addUser(u model.UserRecord) error {
	st := tx.st
	if err := tx.room(); err != nil {
		return err
	}
	switch {
	case u.ID == "" || st.userByID[u.ID] != nil:
		return fmt.Errorf("id %q is empty or not unique", u.ID)
	case u.APIKey == "" || st.userByKey[u.APIKey] != nil:
		return fmt.Errorf("apiKey of user %q is empty or not unique", u.ID)
	case u.Email == "" || st.userByEmail[strings.ToLower(u.Email)] != nil:
		return fmt.Errorf("email %q of user %q is empty or not unique", u.Email, u.ID)
	}
	if err := checkUser(&u); err != nil {
		return err
	}
	email := strings.ToLower(u.Email)
	n := len(st.users)
	st.users = append(st.users, &u)
	st.userByID[u.ID] = &u
	st.userByKey[u.APIKey] = &u
	st.userByEmail[email] = &u
	tx.did(Users, func() {
		st.users = st.users[:n]
		delete(st.userByID, u.ID)
		delete(st.userByKey, u.APIKey)
		delete(st.userByEmail, email)
	})
	return nil
}

// checkUser checks what a user record holds, whoever else is stored.
func checkUser(u *model.UserRecord) error {
	if !slices.Contains(model.AvatarColors(), u.AvatarColor) {
		return fmt.Errorf("avatarColor %q is not one of %s", u.AvatarColor, strings.Join(model.AvatarColors(), ", "))
	}
	for _, f := range []struct {
		name, v string
		max     int
	}{{"name", u.Name, MaxNameChars}, {"email", u.Email, MaxEmailChars}, {"storageLabel", derefOr(u.StorageLabel, ""), MaxNameChars}} {
		if err := checkText(f.name, f.v, f.max); err != nil {
			return err
		}
	}
	if u.QuotaSizeInBytes != nil && *u.QuotaSizeInBytes < 0 {
		return fmt.Errorf("quotaSizeInBytes of user %q is negative", u.ID)
	}
	if u.PasswordHash != "" {
		if err := password.Valid(u.PasswordHash); err != nil {
			return fmt.Errorf("passwordHash of user %q: %w", u.ID, err)
		}
	}
	if p := u.Preferences; p != nil && p.AvatarColor != nil && !slices.Contains(model.AvatarColors(), *p.AvatarColor) {
		return fmt.Errorf("preferences.avatarColor %q is not one of %s", *p.AvatarColor, strings.Join(model.AvatarColors(), ", "))
	}
	return nil
}

func derefOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func (tx *Tx) addAPIKey(k model.APIKeyRecord) error {
	st := tx.st
	if err := tx.room(); err != nil {
		return err
	}
	u := st.userByID[k.UserID]
	switch {
	case k.ID == "" || slices.ContainsFunc(st.apiKeys, func(o *model.APIKeyRecord) bool { return o.ID == k.ID }):
		return fmt.Errorf("id %q is empty or not unique", k.ID)
	case u == nil:
		return fmt.Errorf("userId %q is not a user", k.UserID)
	case k.Secret == "" || st.userByKey[k.Secret] != nil:
		return fmt.Errorf("the secret of key %q is empty or not unique", k.ID)
	}
	n := len(st.apiKeys)
	st.apiKeys = append(st.apiKeys, &k)
	st.userByKey[k.Secret] = u
	tx.did(Keys, func() {
		st.apiKeys = st.apiKeys[:n]
		delete(st.userByKey, k.Secret)
	})
	return nil
}

func (tx *Tx) addSession(se model.SessionRecord) error {
	st := tx.st
	if err := tx.room(); err != nil {
		return err
	}
	switch {
	case se.ID == "":
		return fmt.Errorf("id is empty")
	case st.userByID[se.UserID] == nil:
		return fmt.Errorf("userId %q is not a user", se.UserID)
	case len(se.TokenHash) != 64 || strings.Trim(se.TokenHash, "0123456789abcdef") != "":
		return fmt.Errorf("tokenHash of session %q is not a hex SHA-256", se.ID)
	case st.sessionByHash[se.TokenHash] != nil:
		return fmt.Errorf("tokenHash of session %q is not unique", se.ID)
	}
	n := len(st.sessions)
	st.sessions = append(st.sessions, &se)
	st.sessionByHash[se.TokenHash] = &se
	tx.did(Keys, func() {
		st.sessions = st.sessions[:n]
		delete(st.sessionByHash, se.TokenHash)
	})
	return nil
}

// addAsset indexes a; references to other assets are checked by the caller.
func (tx *Tx) addAsset(a model.AssetRecord) error {
	st := tx.st
	if a.ID == "" || st.assetBy[a.ID] != nil {
		return fmt.Errorf("id %q is empty or not unique", a.ID)
	}
	if err := inRange(timeField{"createdAt", &a.CreatedAt}, timeField{"fileCreatedAt", &a.FileCreatedAt}, timeField{"fileModifiedAt", &a.FileModifiedAt},
		timeField{"localDateTime", &a.LocalDateTime}, timeField{"updatedAt", &a.UpdatedAt}); err != nil {
		return err
	}
	if err := checkText("originalFileName", a.OriginalFileName, MaxFileNameBytes); err != nil {
		return err
	}
	if a.ExifInfo != nil && a.ExifInfo.FileSizeInByte != nil && *a.ExifInfo.FileSizeInByte < 0 {
		return fmt.Errorf("exifInfo.fileSizeInByte %d is negative", *a.ExifInfo.FileSizeInByte)
	}
	if st.userByID[a.OwnerID] == nil {
		return fmt.Errorf("owner %q is not a user", a.OwnerID)
	}
	// A generated asset names its owner's upload library, which is no
	// external library; one that names an external library must be its
	// owner's.
	if l := a.LibraryID; l != nil && st.libraryByID[*l] != nil && st.libraryByID[*l].OwnerID != a.OwnerID {
		return fmt.Errorf("libraryId %q is a library of another owner", *l)
	}
	switch a.Type {
	case model.AssetImage, model.AssetVideo, model.AssetAudio, model.AssetOther:
	default:
		return fmt.Errorf("type %q is not IMAGE, VIDEO, AUDIO or OTHER", a.Type)
	}
	key, err := checksumKeyOf(&a)
	if err != nil {
		return err
	}
	if st.bySum[key] != nil {
		return fmt.Errorf("checksum %q is already an asset of owner %q", a.Checksum, a.OwnerID)
	}
	for _, id := range a.TagIDs {
		if t := st.tagByID[id]; t == nil || t.UserID != a.OwnerID {
			return fmt.Errorf("tag %q is not a tag of the owner", id)
		}
	}
	for _, f := range a.Faces {
		if p := st.personByID[f.PersonID]; p == nil || p.OwnerID != a.OwnerID {
			return fmt.Errorf("face %q: person %q is not a person of the owner", f.ID, f.PersonID)
		}
	}
	n := len(st.assets)
	used, had := st.usage[a.OwnerID]
	mine := st.byOwner[a.OwnerID]
	st.assets = append(st.assets, &a)
	st.assetBy[a.ID] = &a
	st.bySum[key] = &a
	st.byOwner[a.OwnerID] = append(mine, &a)
	st.usage[a.OwnerID] += assetSize(&a)
	tx.did(AssetsAdded, func() {
		st.assets = st.assets[:n]
		delete(st.assetBy, a.ID)
		delete(st.bySum, key)
		if len(mine) == 0 {
			delete(st.byOwner, a.OwnerID)
		} else {
			st.byOwner[a.OwnerID] = mine
		}
		if had {
			st.usage[a.OwnerID] = used
		} else {
			delete(st.usage, a.OwnerID)
		}
	})
	return nil
}

// timeField is a time of a record, under the name the API gives it.
type timeField struct {
	name string
	t    *model.Time
}

// inRange checks that every time given (nil ones are absent) lies in the
// years the API can write back. The first that does not, in the order
// given (the names' order, at every call), is the error.
func inRange(times ...timeField) error {
	for _, f := range times {
		if t := f.t; t != nil && !t.IsZero() && !model.InRange(t.Time) {
			return fmt.Errorf("%s %s is not in the years 0001 to 9999", f.name, t.UTC().Format(time.RFC3339))
		}
	}
	return nil
}

// checkText checks a stored text against its limit (runes for names, bytes
// for file names, as file systems count them).
func checkText(name, v string, limit int) error {
	n := utf8.RuneCountInString(v)
	if name == "originalFileName" {
		n = len(v)
	}
	if n > limit {
		return fmt.Errorf("%s is %d long, over the limit of %d", name, n, limit)
	}
	return nil
}

// checksumKeyOf is where an asset is found by its content.
func checksumKeyOf(a *model.AssetRecord) (checksumKey, error) {
	sum, err := base64.StdEncoding.DecodeString(a.Checksum)
	if err != nil || len(sum) != 20 {
		return checksumKey{}, fmt.Errorf("checksum %q is not a base64 SHA-1", a.Checksum)
	}
	key := checksumKey{owner: a.OwnerID, sum: [20]byte(sum)}
	if a.LibraryID != nil && a.Checksum == LibraryChecksum(a.OriginalPath) {
		key.library = *a.LibraryID
	}
	return key, nil
}

// assetSize is what an asset counts against its owner's quota.
func assetSize(a *model.AssetRecord) int64 {
	if a.ExifInfo != nil && a.ExifInfo.FileSizeInByte != nil {
		return *a.ExifInfo.FileSizeInByte
	}
	return 0
}

func (tx *Tx) addAlbum(al model.AlbumRecord) error {
	st := tx.st
	if err := tx.room(); err != nil {
		return err
	}
	if al.ID == "" || st.albumByID[al.ID] != nil {
		return fmt.Errorf("id %q is empty or not unique", al.ID)
	}
	if err := inRange(timeField{"createdAt", &al.CreatedAt}, timeField{"updatedAt", &al.UpdatedAt}); err != nil {
		return err
	}
	if err := checkText("albumName", al.AlbumName, MaxNameChars); err != nil {
		return err
	}
	if st.userByID[al.OwnerID] == nil {
		return fmt.Errorf("owner %q is not a user", al.OwnerID)
	}
	for _, au := range al.AlbumUsers {
		if st.userByID[au.UserID] == nil || au.UserID == al.OwnerID {
			return fmt.Errorf("album user %q is not a user other than the owner", au.UserID)
		}
		if au.Role != model.RoleEditor && au.Role != model.RoleViewer {
			return fmt.Errorf("album user %q: role %q is not editor or viewer", au.UserID, au.Role)
		}
	}
	for _, id := range al.AssetIDs {
		a := st.assetBy[id]
		if a == nil || (a.OwnerID != al.OwnerID && !slices.ContainsFunc(al.AlbumUsers, func(au model.AlbumUserRecord) bool { return au.UserID == a.OwnerID })) {
			return fmt.Errorf("asset %q is not an asset of the album's owner or of one of its users", id)
		}
	}
	if t := al.AlbumThumbnailAssetID; t != nil && !slices.Contains(al.AssetIDs, *t) {
		return fmt.Errorf("albumThumbnailAssetId %q is not one of the album's assets", *t)
	}
	n := len(st.albums)
	st.albums = append(st.albums, &al)
	st.albumByID[al.ID] = &al
	tx.did(Albums, func() {
		st.albums = st.albums[:n]
		delete(st.albumByID, al.ID)
	})
	return nil
}

func (tx *Tx) addLink(l model.SharedLinkRecord) error {
	st := tx.st
	if err := tx.room(); err != nil {
		return err
	}
	if err := inRange(timeField{"createdAt", &l.CreatedAt}, timeField{"expiresAt", l.ExpiresAt}); err != nil {
		return err
	}
	switch {
	case l.ID == "" || st.linkByID[l.ID] != nil:
		return fmt.Errorf("id %q is empty or not unique", l.ID)
	case l.Key == "" || st.linkByKey[l.Key] != nil:
		return fmt.Errorf("the key of link %q is empty or not unique", l.ID)
	}
	if st.userByID[l.UserID] == nil {
		return fmt.Errorf("userId %q is not a user", l.UserID)
	}
	switch l.Type {
	case model.LinkAlbum:
		if l.AlbumID == nil {
			return fmt.Errorf("an ALBUM link has an albumId")
		}
	case model.LinkIndividual:
	default:
		return fmt.Errorf("type %q is not ALBUM or INDIVIDUAL", l.Type)
	}
	// Either type may name an album and assets, as the reference keeps both.
	if l.AlbumID != nil {
		if al := st.albumByID[*l.AlbumID]; al == nil || al.OwnerID != l.UserID {
			return fmt.Errorf("album %q is not an album of user %q", *l.AlbumID, l.UserID)
		}
	}
	seen := make(map[string]bool, len(l.AssetIDs))
	for _, id := range l.AssetIDs {
		if a := st.assetBy[id]; a == nil || a.OwnerID != l.UserID || seen[id] {
			return fmt.Errorf("asset %q is not an asset of user %q, or is listed twice", id, l.UserID)
		}
		seen[id] = true
	}
	listed := tx.loadListed[l.UserID]
	if !tx.loading {
		listed = st.listed(l.UserID)
	}
	if err := st.tooManyListed(listed + st.linkListed(&l)); err != nil {
		return err
	}
	if tx.loading {
		tx.loadListed[l.UserID] = listed + st.linkListed(&l)
	}
	n, mine := len(st.links), st.linksByUser[l.UserID]
	st.links = append(st.links, &l)
	st.linkByID[l.ID] = &l
	st.linkByKey[l.Key] = &l
	st.linksByUser[l.UserID] = append(mine, &l)
	if l.AlbumID != nil {
		st.albumLinks[*l.AlbumID]++
	}
	tx.did(Links, func() {
		st.links = st.links[:n]
		delete(st.linkByID, l.ID)
		delete(st.linkByKey, l.Key)
		if mine == nil {
			delete(st.linksByUser, l.UserID)
		} else {
			st.linksByUser[l.UserID] = mine
		}
		if l.AlbumID != nil {
			if st.albumLinks[*l.AlbumID]--; st.albumLinks[*l.AlbumID] == 0 {
				delete(st.albumLinks, *l.AlbumID)
			}
		}
	})
	return nil
}

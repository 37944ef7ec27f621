package mockserver

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/password"
)

// store owns all of the mock's state behind one lock. Records are never
// changed once stored: a write adds new records (or replaces the whole
// state), so views built from them can share their pointers safely.
type store struct {
	now func() time.Time
	// newID and newSecret make the ids and keys of objects created at run
	// time; tests replace them to force a write to fail halfway.
	newID     func() string
	newSecret func(n int) string
	newToken  func() string

	// referenceShapes: answer in the reference's thin and quirky shapes
	// (Config.ReferenceShapes).
	referenceShapes bool

	mu    sync.RWMutex
	state *state
	// version counts the writes; an encoded listing made at one version is
	// answered again until the next write.
	version  uint64
	listings map[string]encodedListing
	// mediaDir is where the mock keeps uploads (absolute; "" for nowhere),
	// which the dataset names.
	mediaDir string
	// listingBytes is the size of the answers in listings, at most
	// listingBudget (maxEncodedBytes).
	listingBytes, listingBudget int
	// last is the newest time given to an object created at run time;
	// the next one gets a later one, so createdAt strictly increases.
	last time.Time
}

// checksumKey finds an owner's asset by the SHA-1 of its content.
type checksumKey struct {
	owner string
	sum   [20]byte
}

// state is one dataset with its indexes.
type state struct {
	seed   int64
	anchor model.Time

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

	tags     []*model.Tag
	tagByID  map[string]*model.Tag
	assets   []*model.AssetRecord // the dataset's, then the uploads in their order
	loaded   int                  // how many of assets came with the dataset
	assetBy  map[string]*model.AssetRecord
	bySum    map[checksumKey]*model.AssetRecord
	children map[string][]*model.AssetRecord // stack parent id → the rest of its stack

	albums     []*model.AlbumRecord
	albumByID  map[string]*model.AlbumRecord
	albumLinks map[string]int // album id → how many links point to it

	links       []*model.SharedLinkRecord
	linkByID    map[string]*model.SharedLinkRecord
	linkByKey   map[string]*model.SharedLinkRecord
	linksByUser map[string][]*model.SharedLinkRecord
}

func newStore(d model.Dataset, now func() time.Time) (*store, error) {
	st, err := newState(d)
	if err != nil {
		return nil, err
	}
	return &store{now: now, newID: newUUID, newSecret: newSecret, newToken: newToken, state: st, listings: map[string]encodedListing{}, listingBudget: maxEncodedBytes}, nil
}

// undo collects how to take back each step of a write that has begun.
type undo []func()

// push records how to take back the step just made; a nil undo records
// nothing (loading a dataset, where a failure drops the whole state).
func (u *undo) push(f func()) {
	if u != nil {
		*u = append(*u, f)
	}
}

// rollback takes back every step, the newest first.
func (u *undo) rollback() {
	for i := len(*u) - 1; i >= 0; i-- {
		(*u)[i]()
	}
	*u = nil
}

// write runs f under the write lock as one all-or-nothing step: if f fails,
// every change it made to the state, and the clock it ticked, is taken back.
// f calls db.changed() when the write changes what listings show.
func (db *store) write(f func(st *state, tx *undo) error) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	var tx undo
	last := db.last
	if err := f(db.state, &tx); err != nil {
		tx.rollback()
		db.last = last
		return err
	}
	return nil
}

// encodedListing is an answer as JSON (a user's listing, an album), at a
// version of the store.
type encodedListing struct {
	version uint64
	body    []byte
}

// changed marks a write: every encoded listing is stale. The caller holds
// the write lock.
func (db *store) changed() {
	db.version++
	clear(db.listings)
	db.listingBytes = 0
}

// replace swaps the whole state for d's, or keeps it if d does not hold
// together: the mock's own datasets always do, so that is an internal error.
func (db *store) replace(d model.Dataset) error {
	st, err := newState(d)
	if err != nil {
		return internal(fmt.Errorf("the dataset: %w", err))
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.state = st
	db.changed()
	return nil
}

// tick returns the wall clock's time, later than any it returned before.
// The caller holds the write lock.
func (db *store) tick() model.Time {
	t := model.At(db.now())
	if !t.After(db.last) {
		t = model.At(db.last.Add(time.Millisecond))
	}
	db.last = t.Time
	return t
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
func newState(d model.Dataset) (*state, error) {
	st := &state{
		seed:          d.Seed,
		anchor:        d.Anchor,
		userByID:      map[string]*model.UserRecord{},
		userByKey:     map[string]*model.UserRecord{},
		userByEmail:   map[string]*model.UserRecord{},
		sessionByHash: map[string]*model.SessionRecord{},
		usage:         map[string]int64{},
		personByID:    map[string]*model.PersonRecord{},
		tagByID:       map[string]*model.Tag{},
		assetBy:       map[string]*model.AssetRecord{},
		bySum:         map[checksumKey]*model.AssetRecord{},
		children:      map[string][]*model.AssetRecord{},
		albumByID:     map[string]*model.AlbumRecord{},
		albumLinks:    map[string]int{},
		linkByID:      map[string]*model.SharedLinkRecord{},
		linkByKey:     map[string]*model.SharedLinkRecord{},
		linksByUser:   map[string][]*model.SharedLinkRecord{},
	}
	if len(d.Users) == 0 {
		return nil, errors.New("users: none; users[0] is the default user, whose key serve prints")
	}
	for i := range d.Users {
		if err := st.addUser(d.Users[i], nil); err != nil {
			return nil, fmt.Errorf("users[%d]: %w", i, err)
		}
	}
	for i := range d.APIKeys {
		if err := st.addAPIKey(d.APIKeys[i], nil); err != nil {
			return nil, fmt.Errorf("apiKeys[%d]: %w", i, err)
		}
	}
	for i := range d.Sessions {
		if err := st.addSession(d.Sessions[i], nil); err != nil {
			return nil, fmt.Errorf("sessions[%d]: %w", i, err)
		}
	}
	for i, p := range d.People {
		if p.ID == "" || st.personByID[p.ID] != nil {
			return nil, fmt.Errorf("people[%d]: id %q is empty or not unique", i, p.ID)
		}
		if st.userByID[p.OwnerID] == nil {
			return nil, fmt.Errorf("people[%d]: owner %q is not a user", i, p.OwnerID)
		}
		st.people = append(st.people, &p)
		st.personByID[p.ID] = &p
	}
	for i, t := range d.Tags {
		if t.ID == "" || st.tagByID[t.ID] != nil {
			return nil, fmt.Errorf("tags[%d]: id %q is empty or not unique", i, t.ID)
		}
		if st.userByID[t.UserID] == nil {
			return nil, fmt.Errorf("tags[%d]: user %q is not a user", i, t.UserID)
		}
		st.tags = append(st.tags, &t)
		st.tagByID[t.ID] = &t
	}
	st.loaded = len(d.Assets)
	for i := range d.Assets {
		if err := st.addAsset(d.Assets[i], nil); err != nil {
			return nil, fmt.Errorf("assets[%d]: %w", i, err)
		}
	}
	// References between assets are checked once all of them are known.
	for i, a := range st.assets {
		for _, ref := range []struct {
			name string
			id   *string
		}{{"livePhotoVideoId", a.LivePhotoVideoID}, {"stackParentId", a.StackParentID}} {
			if ref.id == nil {
				continue
			}
			if o := st.assetBy[*ref.id]; o == nil || o.OwnerID != a.OwnerID {
				return nil, fmt.Errorf("assets[%d]: %s %q is not an asset of the same owner", i, ref.name, *ref.id)
			}
		}
		if a.StackParentID != nil {
			st.children[*a.StackParentID] = append(st.children[*a.StackParentID], a)
		}
	}
	for i := range d.Albums {
		if err := st.addAlbum(d.Albums[i], nil); err != nil {
			return nil, fmt.Errorf("albums[%d]: %w", i, err)
		}
	}
	for i := range d.SharedLinks {
		if err := st.addLink(d.SharedLinks[i], nil); err != nil {
			return nil, fmt.Errorf("sharedLinks[%d]: %w", i, err)
		}
	}
	return st, nil
}

// addUser checks u against the state and adds it, recording in tx how to
// take it back. So do addAsset, addAlbum and addLink.
func (st *state) addUser(u model.UserRecord, tx *undo) error {
	switch {
	case u.ID == "" || st.userByID[u.ID] != nil:
		return fmt.Errorf("id %q is empty or not unique", u.ID)
	case u.APIKey == "" || st.userByKey[u.APIKey] != nil:
		return fmt.Errorf("apiKey of user %q is empty or not unique", u.ID)
	case u.Email == "" || st.userByEmail[strings.ToLower(u.Email)] != nil:
		return fmt.Errorf("email %q of user %q is empty or not unique", u.Email, u.ID)
	case !slices.Contains(model.AvatarColors(), u.AvatarColor):
		return fmt.Errorf("avatarColor %q is not one of %s", u.AvatarColor, strings.Join(model.AvatarColors(), ", "))
	}
	for _, f := range []struct {
		name, v string
		max     int
	}{{"name", u.Name, maxNameChars}, {"email", u.Email, maxEmailChars}} {
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
	email := strings.ToLower(u.Email)
	n := len(st.users)
	st.users = append(st.users, &u)
	st.userByID[u.ID] = &u
	st.userByKey[u.APIKey] = &u
	st.userByEmail[email] = &u
	tx.push(func() {
		st.users = st.users[:n]
		delete(st.userByID, u.ID)
		delete(st.userByKey, u.APIKey)
		delete(st.userByEmail, email)
	})
	return nil
}

func (st *state) addAPIKey(k model.APIKeyRecord, tx *undo) error {
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
	tx.push(func() {
		st.apiKeys = st.apiKeys[:n]
		delete(st.userByKey, k.Secret)
	})
	return nil
}

func (st *state) addSession(se model.SessionRecord, tx *undo) error {
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
	tx.push(func() {
		st.sessions = st.sessions[:n]
		delete(st.sessionByHash, se.TokenHash)
	})
	return nil
}

// addAsset indexes a; references to other assets are checked by the caller.
func (st *state) addAsset(a model.AssetRecord, tx *undo) error {
	if a.ID == "" || st.assetBy[a.ID] != nil {
		return fmt.Errorf("id %q is empty or not unique", a.ID)
	}
	if err := inRange(map[string]*model.Time{"fileCreatedAt": &a.FileCreatedAt, "fileModifiedAt": &a.FileModifiedAt,
		"localDateTime": &a.LocalDateTime, "createdAt": &a.CreatedAt, "updatedAt": &a.UpdatedAt}); err != nil {
		return err
	}
	if err := checkText("originalFileName", a.OriginalFileName, maxFileNameBytes); err != nil {
		return err
	}
	if a.ExifInfo != nil && a.ExifInfo.FileSizeInByte != nil && *a.ExifInfo.FileSizeInByte < 0 {
		return fmt.Errorf("exifInfo.fileSizeInByte %d is negative", *a.ExifInfo.FileSizeInByte)
	}
	if st.userByID[a.OwnerID] == nil {
		return fmt.Errorf("owner %q is not a user", a.OwnerID)
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
	st.assets = append(st.assets, &a)
	st.assetBy[a.ID] = &a
	st.bySum[key] = &a
	st.usage[a.OwnerID] += assetSize(&a)
	tx.push(func() {
		st.assets = st.assets[:n]
		delete(st.assetBy, a.ID)
		delete(st.bySum, key)
		if had {
			st.usage[a.OwnerID] = used
		} else {
			delete(st.usage, a.OwnerID)
		}
	})
	return nil
}

// inRange checks that every time given (nil ones are absent) lies in the
// years the API can write back.
func inRange(times map[string]*model.Time) error {
	for _, name := range slices.Sorted(maps.Keys(times)) {
		if t := times[name]; t != nil && !t.IsZero() && !model.InRange(t.Time) {
			return fmt.Errorf("%s %s is not in the years 0001 to 9999", name, t.UTC().Format(time.RFC3339))
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
	return checksumKey{owner: a.OwnerID, sum: [20]byte(sum)}, nil
}

// assetSize is what an asset counts against its owner's quota.
func assetSize(a *model.AssetRecord) int64 {
	if a.ExifInfo != nil && a.ExifInfo.FileSizeInByte != nil {
		return *a.ExifInfo.FileSizeInByte
	}
	return 0
}

func (st *state) addAlbum(al model.AlbumRecord, tx *undo) error {
	if al.ID == "" || st.albumByID[al.ID] != nil {
		return fmt.Errorf("id %q is empty or not unique", al.ID)
	}
	if err := inRange(map[string]*model.Time{"createdAt": &al.CreatedAt, "updatedAt": &al.UpdatedAt}); err != nil {
		return err
	}
	if err := checkText("albumName", al.AlbumName, maxNameChars); err != nil {
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
	tx.push(func() {
		st.albums = st.albums[:n]
		delete(st.albumByID, al.ID)
	})
	return nil
}

func (st *state) addLink(l model.SharedLinkRecord, tx *undo) error {
	if err := inRange(map[string]*model.Time{"createdAt": &l.CreatedAt, "expiresAt": l.ExpiresAt}); err != nil {
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
	if err := tooManyListed(st.listed(l.UserID) + st.linkListed(&l)); err != nil {
		return err
	}
	n, mine := len(st.links), st.linksByUser[l.UserID]
	st.links = append(st.links, &l)
	st.linkByID[l.ID] = &l
	st.linkByKey[l.Key] = &l
	st.linksByUser[l.UserID] = append(mine, &l)
	if l.AlbumID != nil {
		st.albumLinks[*l.AlbumID]++
	}
	tx.push(func() {
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

// assetByChecksum finds an owner's asset by the SHA-1 of its content.
func (db *store) assetByChecksum(owner string, sum [20]byte) (string, bool) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	a := db.state.bySum[checksumKey{owner: owner, sum: sum}]
	if a == nil {
		return "", false
	}
	return a.ID, true
}

// addUpload stores an asset uploaded by the owner, and the hidden video of a
// live photo, unless the owner has an asset of the same content: then it
// answers that asset's id as a duplicate and stores nothing. Checking and
// adding under one lock makes identical concurrent uploads create exactly
// one asset. The store gives the records their ids and times.
func (db *store) addUpload(owner string, a model.AssetRecord, live *model.AssetRecord) (model.UploadResult, error) {
	var res model.UploadResult
	err := db.write(func(st *state, tx *undo) error {
		u := st.userByID[owner]
		if u == nil { // the user went away with a reset while the body streamed in
			return fail(errUnauthenticated, "Invalid API key")
		}
		a.OwnerID = owner
		key, err := checksumKeyOf(&a)
		if err != nil {
			return internal(err)
		}
		if dup := st.bySum[key]; dup != nil {
			res = model.UploadResult{ID: dup.ID, Duplicate: true}
			return nil
		}
		var liveDup *model.AssetRecord
		size := assetSize(&a)
		if live != nil {
			live.OwnerID = owner
			if live.Checksum == a.Checksum {
				return fail(errInvalid, "livePhotoData is the same file as assetData")
			}
			key, err := checksumKeyOf(live)
			if err != nil {
				return internal(err)
			}
			switch liveDup = st.bySum[key]; {
			case liveDup == nil:
				size += assetSize(live)
			case liveDup.Type != model.AssetVideo:
				return fail(errInvalid, "livePhotoData is the same file as the %s asset %s, not a video", liveDup.Type, liveDup.ID)
			}
		}
		if q := u.QuotaSizeInBytes; q != nil && st.usage[u.ID]+size > *q {
			return fail(errInvalid, "Quota has been exceeded!")
		}
		// No listing changes: a new asset is in no album or link yet (uploads
		// through a link are not added to it), so the encoded listings stay.
		now := db.tick()
		if live != nil {
			if liveDup == nil {
				v := *live
				v.ID, v.CreatedAt, v.UpdatedAt = db.newID(), now, now
				if err := st.addAsset(v, tx); err != nil {
					return internal(fmt.Errorf("the live photo's video: %w", err))
				}
				liveDup = st.assetBy[v.ID]
			}
			a.LivePhotoVideoID = &liveDup.ID
		}
		a.ID, a.CreatedAt, a.UpdatedAt = db.newID(), now, now
		if err := st.addAsset(a, tx); err != nil {
			return internal(fmt.Errorf("the upload: %w", err))
		}
		res = model.UploadResult{ID: a.ID}
		return nil
	})
	return res, err
}

// sharedLinksJSON is a user's listing, encoded. It is encoded once and
// answered from memory until the next write: frontends poll it.
func (db *store) sharedLinksJSON(userID string) ([]byte, error) {
	return db.encoded("links\x00"+userID, func(*state) (any, error) {
		return db.sharedLinksLocked(userID), nil
	})
}

// maxEncoded and maxEncodedBytes bound how many encoded answers the store
// keeps, and their bytes in all: room for the largest listing
// maxListedAssets allows, which its readers then share.
const (
	maxEncoded      = 256
	maxEncodedBytes = 256 << 20
)

// encoded is the answer build makes, encoded, from memory when it was
// encoded at this version of the store. build runs under the read lock and
// returns views of the records, which are encoded after it is released;
// records never change once stored, so the views stay true. A write makes
// every encoded answer stale (changed).
func (db *store) encoded(key string, build func(st *state) (any, error)) ([]byte, error) {
	db.mu.RLock()
	cached, ok := db.listings[key]
	version := db.version
	var v any
	var err error
	if !ok || cached.version != version {
		v, err = build(db.state)
	}
	db.mu.RUnlock()
	if ok && cached.version == version {
		return cached.body, nil
	}
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding an answer: %w", err)
	}
	db.mu.Lock()
	if db.version == version && len(body) <= db.listingBudget {
		if len(db.listings) >= maxEncoded || db.listingBytes+len(body) > db.listingBudget {
			clear(db.listings)
			db.listingBytes = 0
		}
		db.listingBytes += len(body) - len(db.listings[key].body)
		db.listings[key] = encodedListing{version: version, body: body}
	}
	db.mu.Unlock()
	return body, nil
}

// sharedLinksLocked is a user's shared links, newest first, as the API
// shows them. The caller holds the lock.
func (db *store) sharedLinksLocked(userID string) []model.SharedLink {
	st := db.state
	links := slices.Clone(st.linksByUser[userID])
	slices.SortFunc(links, newestFirst)
	out := make([]model.SharedLink, 0, len(links))
	for _, l := range links {
		v := st.linkView(l)
		if db.referenceShapes {
			referenceListed(&v)
		}
		out = append(out, v)
	}
	return out
}

// assets is every asset of a user, hidden ones included, the most recently
// added first.
func (db *store) assets(userID string) []model.Asset {
	db.mu.RLock()
	defer db.mu.RUnlock()
	st := db.state
	// The most recently uploaded first: the uploads, newest first, then the
	// dataset's own assets, which are stored in no such order, by createdAt
	// (when they were uploaded), newest first. Uploads come first even where
	// the dataset's dates lie ahead of the wall clock (a future --anchor).
	var uploaded, loaded []*model.AssetRecord
	for i := len(st.assets) - 1; i >= 0; i-- {
		if a := st.assets[i]; a.OwnerID == userID {
			if i >= st.loaded {
				uploaded = append(uploaded, a)
			} else {
				loaded = append(loaded, a)
			}
		}
	}
	slices.SortStableFunc(loaded, func(a, b *model.AssetRecord) int { return b.CreatedAt.Compare(a.CreatedAt.Time) })
	out := make([]model.Asset, 0, len(uploaded)+len(loaded))
	for _, a := range slices.Concat(uploaded, loaded) {
		out = append(out, st.assetView(a, true))
	}
	return out
}

// userKey is a user as GET /__mock/users lists it.
type userKey struct {
	ID      string `json:"id"`
	Email   string `json:"email"`
	Name    string `json:"name"`
	IsAdmin bool   `json:"isAdmin"`
	APIKey  string `json:"apiKey"`
}

// userKeys answers every user, in the order they were stored, with the
// key every user has.
func (db *store) userKeys() []userKey {
	db.mu.RLock()
	defer db.mu.RUnlock()
	out := make([]userKey, 0, len(db.state.users))
	for _, u := range db.state.users {
		out = append(out, userKey{ID: u.ID, Email: u.Email, Name: u.Name, IsAdmin: u.IsAdmin, APIKey: u.APIKey})
	}
	return out
}

// addUser stores a new user with a new id and API key, and answers it.
func (db *store) addUser(name, email string, quota *int64) (model.UserRecord, error) {
	var u model.UserRecord
	err := db.write(func(st *state, tx *undo) error {
		if st.userByEmail[strings.ToLower(email)] != nil {
			return fail(errConflict, "A user with email %s already exists", email)
		}
		id := db.newID()
		u = model.UserRecord{
			User:             model.User{ID: id, Name: name, Email: email, AvatarColor: avatarColor(id)},
			APIKey:           db.newSecret(32),
			QuotaSizeInBytes: quota,
		}
		u.CreatedAt = db.tick()
		// No listing changes: a new user is in no link yet.
		if err := st.addUser(u, tx); err != nil {
			return internal(err)
		}
		return nil
	})
	return u, err
}

// avatarColor picks a user's colour from their id, so it never changes.
func avatarColor(id string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	colors := model.AvatarColors()
	return colors[h.Sum32()%uint32(len(colors))]
}

// linkRequest is what POST /__mock/shared-links asks for.
type linkRequest struct {
	Type          string      `json:"type"`
	AssetIDs      []string    `json:"assetIds"`
	AlbumName     *string     `json:"albumName"`
	AllowUpload   *bool       `json:"allowUpload"`
	AllowDownload *bool       `json:"allowDownload"`
	ShowMetadata  *bool       `json:"showMetadata"`
	Password      *string     `json:"password"`
	Description   *string     `json:"description"`
	ExpiresAt     *model.Time `json:"expiresAt"`
}

// addLink stores a new shared link of the user, and for an ALBUM link the
// album holding the assets, and answers the link as the listing shows it.
func (db *store) addLink(userID string, req linkRequest) (model.SharedLink, error) {
	var link model.SharedLink
	err := db.write(func(st *state, tx *undo) error {
		if st.userByID[userID] == nil {
			return fail(errUnauthenticated, "Invalid API key")
		}
		seen := make(map[string]bool, len(req.AssetIDs))
		for _, id := range req.AssetIDs {
			if a := st.assetBy[id]; a == nil || a.OwnerID != userID {
				return fail(errNoAccess, "Asset %s is not an asset of yours", id)
			}
			if seen[id] {
				return fail(errInvalid, "Asset %s is listed twice", id)
			}
			seen[id] = true
		}
		for _, f := range []struct {
			name string
			v    *string
			max  int
		}{{"albumName", req.AlbumName, maxNameChars}, {"description", req.Description, maxDescriptionChars}, {"password", req.Password, maxPasswordChars}} {
			if f.v != nil && utf8.RuneCountInString(*f.v) > f.max {
				return fail(errInvalid, "%s must be shorter than or equal to %d characters", f.name, f.max)
			}
		}
		switch {
		case req.Type != model.LinkAlbum && req.Type != model.LinkIndividual:
			return fail(errInvalid, "type must be one of the following values: ALBUM, INDIVIDUAL")
		case req.Type == model.LinkIndividual && len(req.AssetIDs) == 0:
			return fail(errInvalid, "An INDIVIDUAL link needs assetIds")
		}
		l := model.SharedLinkRecord{
			ID:            db.newID(),
			Key:           db.newSecret(50),
			Type:          req.Type,
			UserID:        userID,
			AllowUpload:   req.AllowUpload != nil && *req.AllowUpload,
			AllowDownload: req.AllowDownload == nil || *req.AllowDownload,
			ShowMetadata:  req.ShowMetadata == nil || *req.ShowMetadata,
			Password:      req.Password,
			Description:   req.Description,
			ExpiresAt:     req.ExpiresAt,
		}
		switch req.Type {
		case model.LinkAlbum:
			al := model.AlbumRecord{
				ID:                db.newID(),
				OwnerID:           userID,
				AlbumName:         "Untitled",
				AlbumUsers:        []model.AlbumUserRecord{},
				AssetIDs:          slices.Clone(req.AssetIDs),
				IsActivityEnabled: true,
			}
			if req.AlbumName != nil {
				al.AlbumName = *req.AlbumName
			}
			if al.AssetIDs == nil {
				al.AssetIDs = []string{}
			}
			al.CreatedAt = db.tick()
			al.UpdatedAt = al.CreatedAt
			if err := st.addAlbum(al, tx); err != nil {
				return internal(fmt.Errorf("the link's album: %w", err))
			}
			l.AlbumID = &al.ID
		case model.LinkIndividual:
			l.AssetIDs = slices.Clone(req.AssetIDs)
		}
		l.CreatedAt = db.tick()
		if err := st.addLink(l, tx); err != nil {
			return internal(fmt.Errorf("the link: %w", err))
		}
		db.changed()
		link = st.linkView(st.linkByKey[l.Key])
		return nil
	})
	return link, err
}

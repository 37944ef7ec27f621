package fake

import (
	"encoding/base64"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Violation is one way a dataset breaks an invariant of generated data.
type Violation struct {
	Kind    string // user, person, tag, asset, album, sharedLink or dataset
	ID      string // the record's id
	Problem string
}

// Error says which record breaks what: "album <id>: thumbnail ... is not one of its assets".
func (v *Violation) Error() string { return v.Kind + " " + v.ID + ": " + v.Problem }

// Check reports every way d breaks the invariants of a generated dataset,
// nil when it holds them all: ids are UUIDs and references resolve to
// records of the same owner; checksums are base64 SHA-1, unique per owner;
// file names, types, extensions and durations agree; every date lies
// before the anchor except link expiry; localDateTime is fileCreatedAt in
// the exif time zone; faces lie inside their image; tags agree with smart
// info and faces; live photos, stacks and duplicates are well formed; album
// thumbnails are among the album's assets out of the trash and album
// users are not the owner; links are created after their album and assets.
//
// Data the server creates at run time is dated by the wall clock, after the
// anchor, so Check is for generated and loaded datasets, not for a store
// after requests changed it.
func Check(d model.Dataset) []error {
	c := checker{d: d, anchor: d.Anchor.Time, zones: make(map[string]*time.Location)}
	c.run()
	return c.errs
}

var (
	uuidPattern     = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	durationPattern = regexp.MustCompile(`^\d+:[0-5]\d:[0-5]\d\.\d{6}$`)
	utcOffsetZone   = regexp.MustCompile(`^UTC([+-])(\d{1,2})(?::(\d{2}))?$`)
)

type checker struct {
	d      model.Dataset
	anchor time.Time
	zones  map[string]*time.Location
	errs   []error

	users  map[string]*model.UserRecord
	people map[string]*model.PersonRecord
	tags   map[string]*model.Tag
	assets map[string]*model.AssetRecord
	albums map[string]*model.AlbumRecord
}

func (c *checker) fail(kind, id, format string, args ...any) {
	c.errs = append(c.errs, &Violation{Kind: kind, ID: id, Problem: fmt.Sprintf(format, args...)})
}

// index records by id, reporting bad and repeated ids.
func index[T any](c *checker, kind string, records []T, id func(*T) string) map[string]*T {
	m := make(map[string]*T, len(records))
	for i := range records {
		r := &records[i]
		k := id(r)
		if !uuidPattern.MatchString(k) {
			c.fail(kind, k, "id is not a UUID")
		}
		if _, dup := m[k]; dup {
			c.fail(kind, k, "id is used twice")
		}
		m[k] = r
	}
	return m
}

func (c *checker) before(kind, id, field string, t time.Time) {
	if !t.Before(c.anchor) {
		c.fail(kind, id, "%s %s is not before the anchor %s", field, t.Format(model.TimeLayout), c.anchor.Format(model.TimeLayout))
	}
}

func (c *checker) run() {
	if len(c.d.Users) == 0 {
		c.fail("dataset", "", "has no users; the default user is Users[0]")
	}
	c.users = index(c, "user", c.d.Users, func(u *model.UserRecord) string { return u.ID })
	c.people = index(c, "person", c.d.People, func(p *model.PersonRecord) string { return p.ID })
	c.tags = index(c, "tag", c.d.Tags, func(t *model.Tag) string { return t.ID })
	c.assets = index(c, "asset", c.d.Assets, func(a *model.AssetRecord) string { return a.ID })
	c.albums = index(c, "album", c.d.Albums, func(a *model.AlbumRecord) string { return a.ID })
	c.checkUsers()
	c.checkPeople()
	c.checkTags()
	c.checkAssets()
	c.checkAlbums()
	c.checkLinks()
}

func (c *checker) checkUsers() {
	emails := map[string]bool{}
	keys := map[string]bool{}
	for _, u := range c.d.Users {
		if u.Name == "" {
			c.fail("user", u.ID, "has no name")
		}
		if at := strings.IndexByte(u.Email, '@'); at < 1 || at == len(u.Email)-1 || emails[u.Email] {
			c.fail("user", u.ID, "email %q is not a unique address", u.Email)
		}
		emails[u.Email] = true
		if u.APIKey == "" || keys[u.APIKey] {
			c.fail("user", u.ID, "API key %q is empty or not unique", u.APIKey)
		}
		keys[u.APIKey] = true
		if !slices.Contains(model.AvatarColors(), u.AvatarColor) {
			c.fail("user", u.ID, "avatarColor %q is not one of %v", u.AvatarColor, model.AvatarColors())
		}
		c.before("user", u.ID, "createdAt", u.CreatedAt.Time)
	}
}

func (c *checker) checkPeople() {
	for _, p := range c.d.People {
		if c.users[p.OwnerID] == nil {
			c.fail("person", p.ID, "owner %s does not exist", p.OwnerID)
		}
		if p.ThumbnailPath == "" {
			c.fail("person", p.ID, "has no thumbnailPath")
		}
		if p.BirthDate != nil {
			b, err := time.Parse(model.DateLayout, *p.BirthDate)
			if err != nil {
				c.fail("person", p.ID, "birthDate %q is not YYYY-MM-DD", *p.BirthDate)
			} else {
				c.before("person", p.ID, "birthDate", b)
			}
		}
	}
}

func (c *checker) checkTags() {
	seen := map[string]bool{}
	for _, t := range c.d.Tags {
		if c.users[t.UserID] == nil {
			c.fail("tag", t.ID, "user %s does not exist", t.UserID)
		}
		if t.Type != model.TagObject && t.Type != model.TagFace && t.Type != model.TagCustom {
			c.fail("tag", t.ID, "type %q is not OBJECT, FACE or CUSTOM", t.Type)
		}
		key := t.UserID + "\x00" + t.Type + "\x00" + t.Name
		if t.Name == "" || seen[key] {
			c.fail("tag", t.ID, "name %q is empty or repeats a tag of the same user", t.Name)
		}
		seen[key] = true
	}
}

func (c *checker) checkAssets() {
	checksums := map[string]string{} // owner + checksum → asset id
	duplicates := map[string][]*model.AssetRecord{}
	liveTargets := map[string]bool{}
	for i := range c.d.Assets {
		a := &c.d.Assets[i]
		c.checkAsset(a, checksums)
		if a.DuplicateID != nil {
			duplicates[*a.DuplicateID] = append(duplicates[*a.DuplicateID], a)
		}
		if a.LivePhotoVideoID != nil {
			liveTargets[*a.LivePhotoVideoID] = true
		}
	}
	for i := range c.d.Assets {
		a := &c.d.Assets[i]
		if !a.IsVisible && !liveTargets[a.ID] {
			c.fail("asset", a.ID, "is hidden but no live photo points at it")
		}
		if a.DuplicateID != nil {
			group := duplicates[*a.DuplicateID]
			if len(group) < 2 {
				c.fail("asset", a.ID, "duplicateId %s has no other asset", *a.DuplicateID)
			}
			for _, o := range group {
				if o.OwnerID != a.OwnerID {
					c.fail("asset", a.ID, "duplicateId %s groups it with asset %s of another owner", *a.DuplicateID, o.ID)
				}
			}
		}
	}
}

// checkAsset checks one asset and records its checksum in checksums
// (owner + checksum → asset id).
func (c *checker) checkAsset(a *model.AssetRecord, checksums map[string]string) {
	c.checkAssetIDs(a, checksums)
	c.checkAssetFile(a)
	c.checkAssetDates(a)
	if x := a.ExifInfo; x != nil {
		c.checkExif(a, x)
	}
	c.checkFaces(a)
	c.checkAssetTags(a)
	if a.SmartInfo != nil {
		for _, s := range append(slices.Clone(a.SmartInfo.Objects), a.SmartInfo.Tags...) {
			if s == "" {
				c.fail("asset", a.ID, "smartInfo has an empty word")
			}
		}
	}
	c.checkAssetLinks(a)
}

// checkAssetIDs checks an asset's owner, its checksum (a SHA-1, unique
// among the owner's assets) and its device ids.
func (c *checker) checkAssetIDs(a *model.AssetRecord, checksums map[string]string) {
	fail := func(format string, args ...any) { c.fail("asset", a.ID, format, args...) }
	if c.users[a.OwnerID] == nil {
		fail("owner %s does not exist", a.OwnerID)
	}
	if sum, err := base64.StdEncoding.DecodeString(a.Checksum); err != nil || len(sum) != 20 {
		fail("checksum %q is not a base64 SHA-1 (20 bytes)", a.Checksum)
	}
	if other, dup := checksums[a.OwnerID+a.Checksum]; dup {
		fail("checksum %s is also asset %s's, of the same owner", a.Checksum, other)
	}
	checksums[a.OwnerID+a.Checksum] = a.ID
	if a.DeviceAssetID == "" || a.DeviceID == "" {
		fail("deviceAssetId %q or deviceId %q is empty", a.DeviceAssetID, a.DeviceID)
	}
}

// checkAssetFile checks that an asset's type agrees with its file name
// and duration, that its path stores that name, and its thumbhash and
// library id.
func (c *checker) checkAssetFile(a *model.AssetRecord) {
	fail := func(format string, args ...any) { c.fail("asset", a.ID, format, args...) }
	ext := strings.ToLower(path.Ext(a.OriginalFileName))
	switch a.Type {
	case model.AssetImage:
		if model.AssetTypeOf(ext) != model.AssetImage {
			fail("IMAGE has file name %q", a.OriginalFileName)
		}
		if a.Duration != model.DefaultDuration {
			fail("IMAGE has duration %q, want %q", a.Duration, model.DefaultDuration)
		}
	case model.AssetVideo:
		if model.AssetTypeOf(ext) != model.AssetVideo {
			fail("VIDEO has file name %q", a.OriginalFileName)
		}
		if !durationPattern.MatchString(a.Duration) {
			fail("VIDEO duration %q is not H:MM:SS.ffffff", a.Duration)
		}
	case model.AssetAudio, model.AssetOther:
	default:
		fail("type %q is not IMAGE, VIDEO, AUDIO or OTHER", a.Type)
	}
	if !storedAs(a.OriginalPath, a.OriginalFileName) {
		fail("originalPath %q does not store %q", a.OriginalPath, a.OriginalFileName)
	}
	if a.Thumbhash != nil {
		if h, err := base64.StdEncoding.DecodeString(*a.Thumbhash); err != nil || len(h) < 5 {
			fail("thumbhash %q is not a base64 ThumbHash", *a.Thumbhash)
		}
	}
	if a.LibraryID != nil && !uuidPattern.MatchString(*a.LibraryID) {
		fail("libraryId %q is not a UUID", *a.LibraryID)
	}
}

// checkAssetDates checks that an asset's dates lie before the anchor, in
// the order a file is taken, modified and uploaded, and that its local
// time is within a time zone of fileCreatedAt.
func (c *checker) checkAssetDates(a *model.AssetRecord) {
	fail := func(format string, args ...any) { c.fail("asset", a.ID, format, args...) }
	for _, f := range []struct {
		name string
		t    time.Time
	}{{"fileCreatedAt", a.FileCreatedAt.Time}, {"fileModifiedAt", a.FileModifiedAt.Time}, {"createdAt", a.CreatedAt.Time}, {"updatedAt", a.UpdatedAt.Time}} {
		c.before("asset", a.ID, f.name, f.t)
	}
	if a.FileModifiedAt.Before(a.FileCreatedAt.Time) {
		fail("fileModifiedAt is before fileCreatedAt")
	}
	if !a.CreatedAt.After(a.FileCreatedAt.Time) {
		fail("createdAt (upload) %s is not after fileCreatedAt %s", a.CreatedAt.Format(model.TimeLayout), a.FileCreatedAt.Format(model.TimeLayout))
	}
	if a.UpdatedAt.Before(a.CreatedAt.Time) {
		fail("updatedAt is before createdAt")
	}
	if shift := a.LocalDateTime.Sub(a.FileCreatedAt.Time); shift < -12*time.Hour || shift > 14*time.Hour {
		fail("localDateTime is %v from fileCreatedAt, more than any time zone", shift)
	}
}

// checkAssetLinks checks an asset's links to other assets: its Live Photo
// video and the parent of its stack.
func (c *checker) checkAssetLinks(a *model.AssetRecord) {
	fail := func(format string, args ...any) { c.fail("asset", a.ID, format, args...) }
	if a.LivePhotoVideoID != nil {
		v := c.assets[*a.LivePhotoVideoID]
		switch {
		case a.Type != model.AssetImage:
			fail("is a %s with a livePhotoVideoId", a.Type)
		case v == nil:
			fail("livePhotoVideoId %s does not exist", *a.LivePhotoVideoID)
		case v.OwnerID != a.OwnerID || v.Type != model.AssetVideo || v.IsVisible:
			fail("livePhotoVideoId %s is not a hidden VIDEO of the same owner", v.ID)
		}
	}
	if a.StackParentID != nil {
		p := c.assets[*a.StackParentID]
		switch {
		case p == nil:
			fail("stackParentId %s does not exist", *a.StackParentID)
		case p.ID == a.ID || p.OwnerID != a.OwnerID:
			fail("stackParentId %s is itself or another owner's asset", p.ID)
		case p.StackParentID != nil:
			fail("stackParentId %s is itself in a stack", p.ID)
		}
	}
}

// storedAs reports whether a storage path holds a file of that name: the
// same name, or the name with the "+1" the server adds when it is taken.
func storedAs(stored, name string) bool {
	if name == "" || strings.ContainsRune(name, '/') {
		return false
	}
	base := path.Base(stored)
	if base == name {
		return true
	}
	ext := path.Ext(name)
	stem, ok := strings.CutPrefix(strings.TrimSuffix(base, ext), strings.TrimSuffix(name, ext)+"+")
	if !ok || !strings.HasSuffix(base, ext) {
		return false
	}
	_, err := strconv.Atoi(stem)
	return err == nil
}

func (c *checker) checkExif(a *model.AssetRecord, x *model.Exif) {
	fail := func(format string, args ...any) { c.fail("asset", a.ID, "exif: "+format, args...) }
	if (x.ExifImageWidth == nil) != (x.ExifImageHeight == nil) || x.ExifImageWidth != nil && (*x.ExifImageWidth <= 0 || *x.ExifImageHeight <= 0) {
		fail("image size is incomplete or not positive")
	}
	if x.FileSizeInByte != nil && *x.FileSizeInByte <= 0 {
		fail("fileSizeInByte %d is not positive", *x.FileSizeInByte)
	}
	if (x.Latitude == nil) != (x.Longitude == nil) {
		fail("has only one of latitude and longitude")
	}
	if x.Latitude != nil {
		if *x.Latitude < -90 || *x.Latitude > 90 || *x.Longitude < -180 || *x.Longitude > 180 {
			fail("position %v,%v is off the globe", *x.Latitude, *x.Longitude)
		}
		if x.City == nil || x.Country == nil {
			fail("has a position but no city and country")
		}
	}
	for _, f := range []struct {
		name string
		t    *model.Time
	}{{"dateTimeOriginal", x.DateTimeOriginal}, {"modifyDate", x.ModifyDate}} {
		if f.t != nil {
			c.before("asset", a.ID, "exif "+f.name, f.t.Time)
		}
	}
	if x.DateTimeOriginal != nil && !x.DateTimeOriginal.Equal(a.FileCreatedAt.Time) {
		fail("dateTimeOriginal %s is not fileCreatedAt %s", x.DateTimeOriginal.Format(model.TimeLayout), a.FileCreatedAt.Format(model.TimeLayout))
	}
	if x.TimeZone != nil {
		offset, ok := c.offset(*x.TimeZone, a.FileCreatedAt.Time)
		if !ok {
			fail("timeZone %q is neither an IANA zone nor UTC±H[:MM]", *x.TimeZone)
		} else if want := a.FileCreatedAt.Add(offset); !a.LocalDateTime.Equal(want) {
			fail("localDateTime %s is not fileCreatedAt in %s, %s", a.LocalDateTime.Format(model.TimeLayout), *x.TimeZone, want.Format(model.TimeLayout))
		}
	}
	if x.Orientation != nil {
		if o, err := strconv.Atoi(*x.Orientation); err != nil || o < 1 || o > 8 {
			fail("orientation %q is not 1 to 8", *x.Orientation)
		}
	}
}

// offset returns the UTC offset of a time zone as exif names it at t.
func (c *checker) offset(zone string, t time.Time) (time.Duration, bool) {
	if m := utcOffsetZone.FindStringSubmatch(zone); m != nil {
		h, _ := strconv.Atoi(m[2])
		mins := 0
		if m[3] != "" {
			mins, _ = strconv.Atoi(m[3])
		}
		d := time.Duration(h)*time.Hour + time.Duration(mins)*time.Minute
		if m[1] == "-" {
			d = -d
		}
		return d, true
	}
	loc, ok := c.zones[zone]
	if !ok {
		var err error
		if loc, err = gazetteer.Location(zone); err != nil || zone == "" || zone == "Local" {
			loc = nil
		}
		c.zones[zone] = loc
	}
	if loc == nil {
		return 0, false
	}
	_, off := t.In(loc).Zone()
	return time.Duration(off) * time.Second, true
}

func (c *checker) checkFaces(a *model.AssetRecord) {
	fail := func(format string, args ...any) { c.fail("asset", a.ID, format, args...) }
	for _, f := range a.Faces {
		if !uuidPattern.MatchString(f.ID) {
			fail("face id %q is not a UUID", f.ID)
		}
		if p := c.people[f.PersonID]; p == nil || p.OwnerID != a.OwnerID {
			fail("face %s: person %s does not exist or belongs to another owner", f.ID, f.PersonID)
		}
		if f.BoundingBoxX1 < 0 || f.BoundingBoxY1 < 0 || f.BoundingBoxX1 >= f.BoundingBoxX2 || f.BoundingBoxY1 >= f.BoundingBoxY2 ||
			f.BoundingBoxX2 > f.ImageWidth || f.BoundingBoxY2 > f.ImageHeight {
			fail("face %s: box (%d,%d)-(%d,%d) is not inside its %dx%d image", f.ID, f.BoundingBoxX1, f.BoundingBoxY1, f.BoundingBoxX2, f.BoundingBoxY2, f.ImageWidth, f.ImageHeight)
		}
		if x := a.ExifInfo; x != nil && x.ExifImageWidth != nil && x.ExifImageHeight != nil {
			w, h := int(*x.ExifImageWidth), int(*x.ExifImageHeight)
			rotated := x.Orientation != nil && *x.Orientation >= "5" && *x.Orientation <= "8"
			if !(f.ImageWidth == w && f.ImageHeight == h) && !(rotated && f.ImageWidth == h && f.ImageHeight == w) {
				fail("face %s: image %dx%d is not the exif image %dx%d", f.ID, f.ImageWidth, f.ImageHeight, w, h)
			}
		}
	}
}

func (c *checker) checkAssetTags(a *model.AssetRecord) {
	for _, id := range a.TagIDs {
		t := c.tags[id]
		if t == nil || t.UserID != a.OwnerID {
			c.fail("asset", a.ID, "tag %s does not exist or belongs to another user", id)
			continue
		}
		switch t.Type {
		case model.TagObject:
			if a.SmartInfo == nil || !slices.Contains(a.SmartInfo.Objects, t.Name) && !slices.Contains(a.SmartInfo.Tags, t.Name) {
				c.fail("asset", a.ID, "OBJECT tag %q is not among its smartInfo objects and tags", t.Name)
			}
		case model.TagFace:
			found := false
			for _, f := range a.Faces {
				if p := c.people[f.PersonID]; p != nil && p.Name == t.Name {
					found = true
				}
			}
			if !found {
				c.fail("asset", a.ID, "FACE tag %q names nobody whose face it shows", t.Name)
			}
		}
	}
}

func (c *checker) checkAlbums() {
	for i := range c.d.Albums {
		al := &c.d.Albums[i]
		fail := func(format string, args ...any) { c.fail("album", al.ID, format, args...) }
		if c.users[al.OwnerID] == nil {
			fail("owner %s does not exist", al.OwnerID)
		}
		if strings.TrimSpace(al.AlbumName) == "" {
			fail("has no name")
		}
		c.before("album", al.ID, "createdAt", al.CreatedAt.Time)
		c.before("album", al.ID, "updatedAt", al.UpdatedAt.Time)
		if al.UpdatedAt.Before(al.CreatedAt.Time) {
			fail("updatedAt is before createdAt")
		}
		seen := map[string]bool{}
		for _, id := range al.AssetIDs {
			a := c.assets[id]
			switch {
			case a == nil:
				fail("asset %s does not exist", id)
			case a.OwnerID != al.OwnerID:
				fail("asset %s belongs to %s, not the album's owner", id, a.OwnerID)
			case !a.IsVisible:
				fail("asset %s is a hidden live photo video", id)
			case seen[id]:
				fail("asset %s is in it twice", id)
			case !a.CreatedAt.Before(al.CreatedAt.Time):
				fail("asset %s was uploaded after the album was created", id)
			}
			seen[id] = true
		}
		// The album shows its assets out of the trash: its cover is one of
		// those, and only an album that shows none has no cover.
		shown := slices.ContainsFunc(al.AssetIDs, func(id string) bool { return c.assets[id] != nil && !c.assets[id].IsTrashed })
		switch t := al.AlbumThumbnailAssetID; {
		case t == nil && shown:
			fail("has assets out of the trash but no thumbnail")
		case t != nil && !seen[*t]:
			fail("thumbnail %s is not one of its assets", *t)
		case t != nil && c.assets[*t] != nil && c.assets[*t].IsTrashed:
			fail("thumbnail %s is in the trash, where the album does not show it", *t)
		}
		users := map[string]bool{}
		for _, u := range al.AlbumUsers {
			switch {
			case c.users[u.UserID] == nil:
				fail("album user %s does not exist", u.UserID)
			case u.UserID == al.OwnerID:
				fail("album user %s is the owner", u.UserID)
			case users[u.UserID]:
				fail("album user %s is listed twice", u.UserID)
			}
			users[u.UserID] = true
			if u.Role != model.RoleEditor && u.Role != model.RoleViewer {
				fail("album user %s has role %q", u.UserID, u.Role)
			}
		}
		if al.Order != nil && *al.Order != "asc" && *al.Order != "desc" {
			fail("order %q is not asc or desc", *al.Order)
		}
	}
}

func (c *checker) checkLinks() {
	ids := map[string]bool{}
	keys := map[string]bool{}
	for i := range c.d.SharedLinks {
		l := &c.d.SharedLinks[i]
		fail := func(format string, args ...any) { c.fail("sharedLink", l.ID, format, args...) }
		if !uuidPattern.MatchString(l.ID) || ids[l.ID] {
			fail("id is not a unique UUID")
		}
		ids[l.ID] = true
		if k, err := base64.RawURLEncoding.DecodeString(l.Key); err != nil || len(k) != 50 || keys[l.Key] {
			fail("key %q is not a unique base64url key of 50 bytes", l.Key)
		}
		keys[l.Key] = true
		if c.users[l.UserID] == nil {
			fail("user %s does not exist", l.UserID)
		}
		c.before("sharedLink", l.ID, "createdAt", l.CreatedAt.Time)
		if l.ExpiresAt != nil && !l.ExpiresAt.After(l.CreatedAt.Time) {
			fail("expiresAt is not after createdAt")
		}
		if l.Password != nil && *l.Password == "" || l.Description != nil && *l.Description == "" {
			fail("password or description is an empty string instead of null")
		}
		switch l.Type {
		case model.LinkAlbum:
			if len(l.AssetIDs) > 0 {
				fail("ALBUM link lists assets")
			}
			if l.AlbumID == nil {
				fail("ALBUM link has no album")
				continue
			}
			al := c.albums[*l.AlbumID]
			switch {
			case al == nil:
				fail("album %s does not exist", *l.AlbumID)
			case al.OwnerID != l.UserID:
				fail("userId %s is not the album owner %s", l.UserID, al.OwnerID)
			case !l.CreatedAt.After(al.CreatedAt.Time):
				fail("createdAt is not after its album's createdAt")
			}
		case model.LinkIndividual:
			if l.AlbumID != nil {
				fail("INDIVIDUAL link has an album")
			}
			if len(l.AssetIDs) == 0 {
				fail("INDIVIDUAL link has no assets")
			}
			for _, id := range l.AssetIDs {
				a := c.assets[id]
				switch {
				case a == nil:
					fail("asset %s does not exist", id)
				case a.OwnerID != l.UserID:
					fail("asset %s belongs to %s, not the link's user", id, a.OwnerID)
				case !a.IsVisible:
					fail("asset %s is a hidden live photo video", id)
				case !l.CreatedAt.After(a.CreatedAt.Time):
					fail("createdAt is not after asset %s was uploaded", id)
				}
			}
		default:
			fail("type %q is not ALBUM or INDIVIDUAL", l.Type)
		}
	}
}

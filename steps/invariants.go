package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"time"
)

// invariantSteps are the rules a client relies on when it shows the list
// of links. The rules about an album judge it as the listing shows it when
// the listing shows its assets; a server may list an album without them
// (the reference lists none, and an assetCount of 0), and then the album
// is read on its own (GET /albums/{id}), as a client does to show it.
func (s *scenario) invariantSteps() []step {
	return []step{
		{`^every album counts exactly the assets it holds$`, s.albumsCountTheirAssets},
		{`^every album with assets has one of them as its thumbnail, and an empty one has none$`, s.albumThumbnailsAreTheirs},
		{`^every album with assets starts at its earliest asset and ends at its latest, and an empty one has no dates$`, s.albumDatesSpanAssets},
		{`^each link's owner also owns its album and every one of its assets, but those its album's users added$`, s.linkOwnersOwnWhatTheyShare},
		{`^every asset's checksum is a base64-encoded SHA-1 digest$`, s.checksumsAreSHA1},
		{`^no two links have the same key or the same id$`, s.linksAreUnique},
		{`^every asset that appears more than once appears the same each time$`, s.copiesAgree},
	}
}

// albumsCountTheirAssets judges every listed album: its assetCount is the
// number of its assets.
func (s *scenario) albumsCountTheirAssets(ctx context.Context) error {
	return s.eachAlbum(ctx, func(al *album) error {
		if al.AssetCount != len(al.Assets) {
			return fmt.Errorf("assetCount is %d but it holds %d assets", al.AssetCount, len(al.Assets))
		}
		return nil
	})
}

// albumThumbnailsAreTheirs judges every listed album's thumbnail: one of
// its assets. An album without assets has no thumbnail: only there may
// albumThumbnailAssetId be null.
func (s *scenario) albumThumbnailsAreTheirs(ctx context.Context) error {
	return s.eachAlbum(ctx, func(al *album) error {
		if len(al.Assets) == 0 {
			if al.AlbumThumbnailAssetID != nil {
				return fmt.Errorf("it holds no assets, but its albumThumbnailAssetId is %s", *al.AlbumThumbnailAssetID)
			}
			return nil
		}
		if al.AlbumThumbnailAssetID == nil {
			return fmt.Errorf("it holds %d assets, but its albumThumbnailAssetId is null", len(al.Assets))
		}
		for _, a := range al.Assets {
			if a.ID == *al.AlbumThumbnailAssetID {
				return nil
			}
		}
		return fmt.Errorf("albumThumbnailAssetId %s is none of its %d assets", *al.AlbumThumbnailAssetID, len(al.Assets))
	})
}

// albumDatesSpanAssets judges every listed album's dates: from its
// earliest asset to its latest. An album without assets has no dates:
// only there may startDate and endDate be absent (or null).
func (s *scenario) albumDatesSpanAssets(ctx context.Context) error {
	return s.eachAlbum(ctx, func(al *album) error {
		if len(al.Assets) == 0 {
			if al.StartDate != nil || al.EndDate != nil {
				return fmt.Errorf("it holds no assets, but has startDate %s and endDate %s", strOrNull(al.StartDate), strOrNull(al.EndDate))
			}
			return nil
		}
		if al.StartDate == nil || al.EndDate == nil {
			return fmt.Errorf("it holds %d assets, but has startDate %s and endDate %s", len(al.Assets), strOrNull(al.StartDate), strOrNull(al.EndDate))
		}
		start, err1 := parseTime(*al.StartDate)
		end, err2 := parseTime(*al.EndDate)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		var first, last time.Time
		for i, a := range al.Assets {
			t, err := parseTime(a.FileCreatedAt)
			if err != nil {
				return fmt.Errorf("asset %s: fileCreatedAt: %w", a.ID, err)
			}
			if i == 0 || t.Before(first) {
				first = t
			}
			if i == 0 || t.After(last) {
				last = t
			}
		}
		if !start.Equal(first) || !end.Equal(last) {
			return fmt.Errorf("startDate %s and endDate %s, but its assets were created from %s to %s",
				*al.StartDate, *al.EndDate, first.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano))
		}
		return nil
	})
}

// linkOwnersOwnWhatTheyShare judges every listed link: its owner owns its
// album, and its assets but those of its album's users.
func (s *scenario) linkOwnersOwnWhatTheyShare() error {
	return s.eachLink(func(l link) error {
		// An album's editors add photos of their own to it, which its
		// links show.
		owners := []string{l.UserID}
		if l.Album != nil {
			if l.Album.OwnerID != l.UserID || l.Album.Owner.ID != l.UserID {
				return fmt.Errorf("link of user %s, album of ownerId %s and owner.id %s", l.UserID, l.Album.OwnerID, l.Album.Owner.ID)
			}
			for _, u := range l.Album.AlbumUsers {
				owners = append(owners, u.User.ID)
			}
		}
		for _, a := range l.allAssets() {
			if !slices.Contains(owners, a.OwnerID) {
				return fmt.Errorf("link of user %s, asset %s of ownerId %s, who is neither the link's owner nor a user of its album", l.UserID, a.ID, a.OwnerID)
			}
			// An asset in a link may come without its owner (the
			// reference lists none): ownerId above is judged always.
			if a.Owner != nil && a.Owner.ID != a.OwnerID {
				return fmt.Errorf("asset %s: ownerId %s but owner.id %s", a.ID, a.OwnerID, a.Owner.ID)
			}
		}
		return nil
	})
}

// checksumsAreSHA1 judges every listed asset's checksum: a base64 SHA-1.
func (s *scenario) checksumsAreSHA1() error {
	return s.eachLink(func(l link) error {
		for _, a := range l.allAssets() {
			if !isSHA1Base64(a.Checksum) {
				return fmt.Errorf("asset %s: checksum %q is not a base64-encoded SHA-1 (28 characters, 20 bytes)", a.ID, a.Checksum)
			}
		}
		return nil
	})
}

// linksAreUnique judges the list: no key and no id twice.
func (s *scenario) linksAreUnique() error {
	keys, ids := map[string]string{}, map[string]bool{}
	return s.eachLink(func(l link) error {
		if other, ok := keys[l.Key]; ok {
			return fmt.Errorf("its key is also the key of link %s", other)
		}
		if ids[l.ID] {
			return errors.New("its id appears twice")
		}
		keys[l.Key], ids[l.ID] = l.ID, true
		return nil
	})
}

// eachAlbum applies check to the album of every listed link: as listed, or
// read on its own when the listing shows none of its assets. An album the
// scenario shared with assets must be among them, holding some: a rule
// about albums with assets is then never judged on none.
func (s *scenario) eachAlbum(ctx context.Context, check func(*album) error) error {
	judged, withAssets := 0, 0
	err := s.eachLink(func(l link) error {
		if l.Album == nil {
			return nil
		}
		al := l.Album
		if len(al.Assets) == 0 {
			var own album
			if err := s.call(ctx, "reading the album, whose assets the listing leaves out", http.MethodGet, "/albums/"+al.ID,
				credentials{apiKey: s.me.apiKey}, nil, &own, http.StatusOK); err != nil {
				return err
			}
			al = &own
		}
		judged++
		if len(al.Assets) > 0 {
			withAssets++
		}
		if err := check(al); err != nil {
			return fmt.Errorf("album %s: %w", al.ID, err)
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case judged == 0:
		return skip("the user's links carry no album to judge")
	case withAssets == 0 && s.albumLink != nil && len(s.wf.photos) > 0:
		return fmt.Errorf("none of the %d albums holds an asset, though the scenario shared %d photos in album %s", judged, len(s.wf.photos), s.wf.album)
	}
	return nil
}

// copiesAgree compares every copy of an asset in the listing, as JSON. A
// stack is shown only at the top of it, so it is left out of the comparison.
// With no asset listed twice there is nothing to compare: that fails when
// the scenario shared a photo in two links, and skips otherwise.
func (s *scenario) copiesAgree() error {
	if _, err := s.listed(); err != nil {
		return err
	}
	var raw []map[string]any
	if err := json.Unmarshal(s.linksRaw, &raw); err != nil {
		return err
	}
	seen := map[string]map[string]any{}
	repeated := 0
	var walk func(path string, assets any) error
	walk = func(path string, assets any) error {
		list, _ := assets.([]any)
		for i, v := range list {
			a, ok := v.(map[string]any)
			if !ok {
				continue
			}
			id, _ := a["id"].(string)
			copyOf := maps.Clone(a)
			delete(copyOf, "stack")
			if first, ok := seen[id]; ok {
				repeated++
				if !reflect.DeepEqual(first, copyOf) {
					return fmt.Errorf("asset %s at %s[%d] differs from an earlier copy in %s", id, path, i, differingKeys(first, copyOf))
				}
			}
			seen[id] = copyOf
			if err := walk(fmt.Sprintf("%s[%d].stack", path, i), a["stack"]); err != nil {
				return err
			}
		}
		return nil
	}
	for i, l := range raw {
		if err := walk(fmt.Sprintf("$[%d].assets", i), l["assets"]); err != nil {
			return err
		}
		if al, ok := l["album"].(map[string]any); ok {
			if err := walk(fmt.Sprintf("$[%d].album.assets", i), al["assets"]); err != nil {
				return err
			}
		}
	}
	if repeated == 0 {
		if s.sharedTwice != "" {
			return fmt.Errorf("the photo %s, shared in two links, does not appear twice in the list", s.sharedTwice)
		}
		return skip("no asset appears more than once in the list: there are no copies to compare")
	}
	return nil
}

// differingKeys are the keys whose values differ in a and b.
func differingKeys(a, b map[string]any) []string {
	var keys []string
	for k := range a {
		if !reflect.DeepEqual(a[k], b[k]) {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// uploadedInLinksSteps are the steps about an uploaded photo as the
// links that share it show it.
func (s *scenario) uploadedInLinksSteps() []step {
	return []step{
		{`^the link holds that photo$`, s.linkHoldsThatPhoto},
		{`^the photo shows the file name "([^"]*)" and the checksum of the bytes I sent$`, s.photoShowsNameAndChecksum},
		{`^the photo, read on its own, names in its EXIF its camera, make "([^"]*)" and model "([^"]*)", and the size of the file$`, s.photoNamesItsCamera},
		{`^the photo is an IMAGE of mine, with the device ids and modification date I sent$`, s.photoIsMyImage},
	}
}

// linkedPhoto is the photo uploaded first, as the listed link made last
// shows it.
func (s *scenario) linkedPhoto(ctx context.Context) (*asset, error) {
	l, err := s.find(s.link)
	if err != nil {
		return nil, err
	}
	for _, a := range l.allAssets() {
		if a.ID == s.firstID {
			return &a, nil
		}
	}
	if l.Album == nil || len(l.Assets) > 0 || len(l.Album.Assets) > 0 {
		return nil, fmt.Errorf("link %s does not hold the uploaded photo %s", l.ID, s.firstID)
	}
	// The listing may leave an album link's assets out, as the reference
	// does: the link read on its own must hold the photo.
	var own link
	if err := s.call(ctx, "reading the link, whose album's assets the listing leaves out", http.MethodGet, "/shared-links/"+l.ID, credentials{apiKey: s.me.apiKey}, nil, &own, http.StatusOK); err != nil {
		return nil, err
	}
	for _, a := range own.allAssets() {
		if a.ID == s.firstID {
			return &a, nil
		}
	}
	return nil, fmt.Errorf("link %s does not hold the uploaded photo %s, neither listed nor read on its own", l.ID, s.firstID)
}

// linkHoldsThatPhoto judges the link made last: it holds the photo.
func (s *scenario) linkHoldsThatPhoto(ctx context.Context) error {
	_, err := s.linkedPhoto(ctx)
	return err
}

// photoShowsNameAndChecksum judges the linked photo's file name,
// checksum, and size where the listing shows it.
func (s *scenario) photoShowsNameAndChecksum(ctx context.Context, name string) error {
	a, err := s.linkedPhoto(ctx)
	if err != nil {
		return err
	}
	if a.OriginalFileName != name {
		return fmt.Errorf("originalFileName is %q, want %q", a.OriginalFileName, name)
	}
	if want := s.photo.checksumBase64(); a.Checksum != want {
		return fmt.Errorf("checksum is %q, want %q (the base64 SHA-1 of the bytes sent)", a.Checksum, want)
	}
	// A listed asset may come without exifInfo (the reference lists
	// none); the size is judged on the asset read on its own (the EXIF
	// step), and here only where the listing shows it.
	if a.ExifInfo != nil && a.ExifInfo.FileSizeInByte != nil && *a.ExifInfo.FileSizeInByte != int64(len(s.photo.content)) {
		return fmt.Errorf("exifInfo.fileSizeInByte is %d, but %d bytes were sent", *a.ExifInfo.FileSizeInByte, len(s.photo.content))
	}
	return nil
}

// photoNamesItsCamera reads the photo on its own and judges its EXIF: the
// camera and the file's size, waiting for them.
func (s *scenario) photoNamesItsCamera(ctx context.Context, cameraMake, model string) error {
	if s.firstID == "" {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	// A server reads a file's metadata after the upload: wait for it.
	return s.settle(ctx, func() error {
		var a asset
		if err := s.assetOf(ctx, s.firstID, &a); err != nil {
			return err
		}
		e := a.ExifInfo
		if e == nil {
			return fmt.Errorf("the photo has no exifInfo")
		}
		if e.Make == nil || *e.Make != cameraMake || e.Model == nil || *e.Model != model {
			return fmt.Errorf("exifInfo names the camera %s %s, want %q %q (from the file's EXIF)", strOrNull(e.Make), strOrNull(e.Model), cameraMake, model)
		}
		if e.FileSizeInByte == nil || *e.FileSizeInByte != int64(len(s.photo.content)) {
			return fmt.Errorf("exifInfo.fileSizeInByte is %s, want %d, the bytes sent", intOrNull(e.FileSizeInByte), len(s.photo.content))
		}
		return nil
	})
}

// photoIsMyImage judges the linked photo's type, owner, device ids and
// modification date. fileCreatedAt is not judged here: a server replaces
// it with the capture time it reads from the file, at once or a while
// later.
func (s *scenario) photoIsMyImage(ctx context.Context) error {
	a, err := s.linkedPhoto(ctx)
	if err != nil {
		return err
	}
	if a.Type != "IMAGE" {
		return fmt.Errorf("type is %q, want IMAGE", a.Type)
	}
	if a.OwnerID != s.me.id {
		return fmt.Errorf("ownerId is %s, want mine, %s", a.OwnerID, s.me.id)
	}
	deviceAssetID, _ := s.photoForm.field("deviceAssetId")
	if a.DeviceAssetID != deviceAssetID || a.DeviceID != deviceID {
		return fmt.Errorf("deviceAssetId %q and deviceId %q, want %q and %q", a.DeviceAssetID, a.DeviceID, deviceAssetID, deviceID)
	}
	got, err := parseTime(a.FileModifiedAt)
	if err != nil {
		return fmt.Errorf("fileModifiedAt: %w", err)
	}
	if want, _ := parseTime(modifiedAt); !got.Equal(want) {
		return fmt.Errorf("fileModifiedAt is %s, want %s", a.FileModifiedAt, modifiedAt)
	}
	return nil
}

// strOrNull writes s for a message, quoted, or null.
func strOrNull(s *string) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *s)
}

// intOrNull writes n for a message, or null.
func intOrNull(n *int64) string {
	if n == nil {
		return "null"
	}
	return fmt.Sprint(*n)
}

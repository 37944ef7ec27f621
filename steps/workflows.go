package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The operations around the two: albums, a link's life, opening a link as
// its holder, the uploader's batch check, API keys.

// workflow is what these steps keep within a scenario.
type workflow struct {
	photos   []string // ids of the photos uploaded by "I have uploaded N new photos"
	files    []*file  // and their files
	otherOne string   // the other user's photo
	album    string   // the album made last
	token    string   // the token the link's password gave
}

// bulkResult is one answer of a request that adds several ids.
type bulkResult struct {
	ID      string `json:"id"`
	AssetID string `json:"assetId"`
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Action  string `json:"action"`
	Reason  string `json:"reason"`
}

// uploadPhoto uploads a new photo as who and returns its id.
func (s *scenario) uploadPhoto(ctx context.Context, who *user) (string, *file, error) {
	f := newFile(defaultName)
	resp, err := s.upload(ctx, credentials{apiKey: who.apiKey}, uploadForm(f), "")
	if err != nil {
		return "", nil, err
	}
	var res uploadResult
	if resp.status != http.StatusCreated || json.Unmarshal(resp.body, &res) != nil || res.ID == nil {
		return "", nil, fmt.Errorf("uploading a new photo: %s, want 201", resp)
	}
	return *res.ID, f, nil
}

// albumSeen is an album as the harness reads it.
type albumSeen struct {
	ID                    string  `json:"id"`
	AlbumName             string  `json:"albumName"`
	AssetCount            int     `json:"assetCount"`
	AlbumThumbnailAssetID *string `json:"albumThumbnailAssetId"`
	Assets                []struct {
		ID string `json:"id"`
	} `json:"assets"`
}

// ids are the ids of the album's assets.
func (a albumSeen) ids() []string {
	var ids []string
	for _, x := range a.Assets {
		ids = append(ids, x.ID)
	}
	return ids
}

// openAlbum reads the album made last, as its owner.
func (s *scenario) openAlbum(ctx context.Context) (albumSeen, error) {
	var a albumSeen
	if s.wf.album == "" {
		return a, fmt.Errorf("no album was made earlier in the scenario")
	}
	err := s.call(ctx, "opening the album", http.MethodGet, "/albums/"+s.wf.album, credentials{apiKey: s.me.apiKey}, nil, &a, http.StatusOK)
	return a, err
}

// makeAlbum makes an album of mine holding ids, keeping the answer.
func (s *scenario) makeAlbum(ctx context.Context, name string, ids []string) (albumSeen, error) {
	var a albumSeen
	in := map[string]any{"albumName": name}
	if len(ids) > 0 {
		in["assetIds"] = ids
	}
	err := s.call(ctx, "making an album", http.MethodPost, "/albums", credentials{apiKey: s.me.apiKey}, in, &a, http.StatusCreated)
	s.wf.album = a.ID
	return a, err
}

// sendJSON sends a JSON request with the scenario's credentials and keeps
// the answer as the last one.
func (s *scenario) sendJSON(ctx context.Context, method, path string, creds credentials, in any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: method, path: path, creds: creds, contentType: "application/json", body: body})
	return s.keep(resp, s.me, err)
}

// lastResults reads the last answer as a list of per-id results.
func (s *scenario) lastResults() ([]bulkResult, error) {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return nil, err
	}
	var res []bulkResult
	if err := json.Unmarshal(s.last.body, &res); err != nil {
		var wrapped struct{ Results []bulkResult }
		if err := json.Unmarshal(s.last.body, &wrapped); err != nil {
			return nil, fmt.Errorf("the answer is not a list of results: %s", s.last)
		}
		res = wrapped.Results
	}
	return res, nil
}

// workflowSteps are the steps around the two: albums, a link's life,
// opening a link as its holder, the uploader's batch check, API keys.
func (s *scenario) workflowSteps() []step {
	return []step{
		{`^I have uploaded (\d+) new photos$`, s.haveUploadedPhotos},
		{`^the other user has uploaded a new photo$`, s.otherHasUploadedPhoto},

		// Albums.
		{`^I make an album "([^"]*)" of those photos$`, s.makeAlbumOfPhotos},
		{`^I have made an album "([^"]*)" of the first of those photos$`, s.haveMadeAlbumOfFirst},
		{`^I have made an empty album "([^"]*)"$`, s.haveMadeEmptyAlbum},
		{`^the album holds those (\d+) photos, counts them, and shows one of them as its thumbnail$`, s.albumHoldsPhotos},
		{`^I add both photos to the album$`, s.addBothPhotosToAlbum},
		{`^I add the other user's photo to the album$`, s.addOthersPhotoToAlbum},
		{`^the first is refused as a duplicate and the second is added$`, s.firstDuplicateSecondAdded},
		{`^it is refused for want of permission$`, s.refusedForPermission},

		// A link's life.
		{`^I change the link's description to "([^"]*)" and its expiry to next year$`, s.changeLinkDescription},
		{`^the link shows the description "([^"]*)" and an expiry next year$`, s.linkShowsDescription},
		{`^I delete the link$`, s.deleteTheLink},
		{`^the link's key opens nothing any more$`, s.linkKeyOpensNothing},
		{`^my list no longer holds the link$`, s.listLacksDeletedLink},

		// Opening a link as its holder.
		{`^I have shared that photo (with the password "[^"]*"|hiding its metadata|keeping its original back)$`, s.haveSharedPhotoRestricted},
		{`^its holder opens the link( with the password "[^"]*"| with the token it got)?$`, s.holderOpensLink},
		{`^the link opens with that photo( and a token that opens it again)?$`, s.linkOpensWithPhoto},
		{`^the photo shows nothing but what a page needs to show it$`, s.photoShowsOnlyPageFields},

		// The uploader's batch check.
		{`^I ask which of that photo and a new one the server already has$`, s.askWhichAreKnown},
		{`^the first is rejected as a duplicate of that photo, and the second accepted$`, s.firstRejectedSecondAccepted},

		// API keys.
		{`^I make an API key named "([^"]*)"$`, s.makeAPIKeyNamed},
		{`^the new key, named "([^"]*)", lists my shared links$`, s.newKeyListsMyLinks},
	}
}

// haveUploadedPhotos uploads n new photos of mine.
func (s *scenario) haveUploadedPhotos(ctx context.Context, n int) error {
	for range n {
		id, f, err := s.uploadPhoto(ctx, s.me)
		if err != nil {
			return err
		}
		s.wf.photos, s.wf.files = append(s.wf.photos, id), append(s.wf.files, f)
	}
	return nil
}

// otherHasUploadedPhoto uploads a new photo of the other user's.
func (s *scenario) otherHasUploadedPhoto(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	s.wf.otherOne, _, err = s.uploadPhoto(ctx, other)
	return err
}

// makeAlbumOfPhotos makes an album of my photos of the scenario.
func (s *scenario) makeAlbumOfPhotos(ctx context.Context, name string) error {
	_, err := s.makeAlbum(ctx, name, s.wf.photos)
	return err
}

// haveMadeAlbumOfFirst makes an album of the first of my photos of the
// scenario.
func (s *scenario) haveMadeAlbumOfFirst(ctx context.Context, name string) error {
	if len(s.wf.photos) == 0 {
		return fmt.Errorf("no photos were uploaded earlier in the scenario")
	}
	_, err := s.makeAlbum(ctx, name, s.wf.photos[:1])
	return err
}

// haveMadeEmptyAlbum makes an album of no photos.
func (s *scenario) haveMadeEmptyAlbum(ctx context.Context, name string) error {
	_, err := s.makeAlbum(ctx, name, nil)
	return err
}

// albumHoldsPhotos reads the album made last and judges it: it holds my
// photos, counts them, and shows one of them as its thumbnail.
func (s *scenario) albumHoldsPhotos(ctx context.Context, n int) error {
	a, err := s.openAlbum(ctx)
	if err != nil {
		return err
	}
	if !sameSet(a.ids(), s.wf.photos) || len(a.Assets) != n {
		return fmt.Errorf("the album holds %v, want the %d photos %v", a.ids(), n, s.wf.photos)
	}
	if a.AssetCount != n {
		return fmt.Errorf("the album's assetCount is %d, but it holds %d assets", a.AssetCount, n)
	}
	if a.AlbumThumbnailAssetID == nil || !slices.Contains(s.wf.photos, *a.AlbumThumbnailAssetID) {
		return fmt.Errorf("the album's thumbnail %s is none of its assets", strOrNull(a.AlbumThumbnailAssetID))
	}
	return nil
}

// addBothPhotosToAlbum adds my two photos to the album made last.
func (s *scenario) addBothPhotosToAlbum(ctx context.Context) error {
	if len(s.wf.photos) != 2 {
		return fmt.Errorf("not two photos were uploaded earlier in the scenario")
	}
	return s.sendJSON(ctx, http.MethodPut, "/albums/"+s.wf.album+"/assets", credentials{apiKey: s.me.apiKey}, map[string]any{"ids": s.wf.photos})
}

// addOthersPhotoToAlbum adds the other user's photo to my album.
func (s *scenario) addOthersPhotoToAlbum(ctx context.Context) error {
	return s.sendJSON(ctx, http.MethodPut, "/albums/"+s.wf.album+"/assets", credentials{apiKey: s.me.apiKey}, map[string]any{"ids": []string{s.wf.otherOne}})
}

// firstDuplicateSecondAdded judges the results of adding two photos to an
// album that holds the first.
func (s *scenario) firstDuplicateSecondAdded() error {
	res, err := s.lastResults()
	if err != nil {
		return err
	}
	if len(res) != 2 || res[0].ID != s.wf.photos[0] || res[0].Success || res[0].Error != "duplicate" || res[1].ID != s.wf.photos[1] || !res[1].Success {
		return fmt.Errorf("want the first refused as a duplicate and the second added, got %s", s.last)
	}
	return nil
}

// refusedForPermission judges the result of adding another user's photo
// to an album.
func (s *scenario) refusedForPermission() error {
	res, err := s.lastResults()
	if err != nil {
		return err
	}
	if len(res) != 1 || res[0].Success || res[0].Error != "no_permission" {
		return fmt.Errorf("want the photo refused with no_permission, got %s", s.last)
	}
	return nil
}

// changeLinkDescription changes the description and the expiry of the link
// made last.
func (s *scenario) changeLinkDescription(ctx context.Context, d string) error {
	if s.link == nil {
		return fmt.Errorf("no link was made earlier in the scenario")
	}
	next := time.Now().AddDate(1, 0, 0).UTC().Truncate(time.Second).Format(time.RFC3339)
	return s.sendJSON(ctx, http.MethodPatch, "/shared-links/"+s.link.ID, credentials{apiKey: s.me.apiKey}, map[string]any{"description": d, "expiresAt": next})
}

// linkShowsDescription reads the link made last and judges its
// description and expiry.
func (s *scenario) linkShowsDescription(ctx context.Context, d string) error {
	var l struct {
		Description *string `json:"description"`
		ExpiresAt   *string `json:"expiresAt"`
	}
	if err := s.call(ctx, "reading the link", http.MethodGet, "/shared-links/"+s.link.ID, credentials{apiKey: s.me.apiKey}, nil, &l, http.StatusOK); err != nil {
		return err
	}
	if l.Description == nil || *l.Description != d {
		return fmt.Errorf("the link's description is %s, want %q", strOrNull(l.Description), d)
	}
	if l.ExpiresAt == nil {
		return fmt.Errorf("the link does not expire")
	}
	t, err := parseTime(*l.ExpiresAt)
	if err != nil || t.Before(time.Now().AddDate(0, 11, 0)) {
		return fmt.Errorf("the link expires at %s, want about a year from now", *l.ExpiresAt)
	}
	return nil
}

// deleteTheLink deletes the link made last, which must succeed.
func (s *scenario) deleteTheLink(ctx context.Context) error {
	if s.link == nil {
		return fmt.Errorf("no link was made earlier in the scenario")
	}
	if err := s.sendJSON(ctx, http.MethodDelete, "/shared-links/"+s.link.ID, credentials{apiKey: s.me.apiKey}, nil); err != nil {
		return err
	}
	return s.wantStatus(http.StatusOK)
}

// linkKeyOpensNothing opens the deleted link with its key, which must be
// refused.
func (s *scenario) linkKeyOpensNothing(ctx context.Context) error {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/shared-links/me", creds: credentials{linkKey: s.link.Key}})
	if err != nil {
		return err
	}
	if resp.status != http.StatusUnauthorized || !strings.Contains(string(resp.body), "Invalid share key") {
		return fmt.Errorf("want 401 Invalid share key, got: %s", resp)
	}
	return nil
}

// listLacksDeletedLink lists my links, which must not hold the deleted
// one.
func (s *scenario) listLacksDeletedLink(ctx context.Context) error {
	links, err := s.list(ctx, s.me, credentials{apiKey: s.me.apiKey})
	if err != nil {
		return err
	}
	for _, l := range links {
		if l.ID == s.link.ID {
			return fmt.Errorf("my list still holds the deleted link %s", l.ID)
		}
	}
	return nil
}

// haveSharedPhotoRestricted shares the photo uploaded first in a link
// with a password, hiding its metadata, or keeping its original back.
func (s *scenario) haveSharedPhotoRestricted(ctx context.Context, how string) error {
	if s.firstID == "" {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	req := map[string]any{"type": "INDIVIDUAL", "assetIds": []string{s.firstID}}
	switch {
	case strings.HasPrefix(how, "with the password"):
		req["password"] = strings.Trim(strings.TrimPrefix(how, "with the password "), `"`)
	case how == "hiding its metadata":
		req["showMetadata"] = false
	default:
		req["allowDownload"] = false
	}
	_, err := s.makeLink(ctx, s.me, req)
	return err
}

// holderOpensLink opens the link made last with its key, and a password
// or the token a password gave when the step says so.
func (s *scenario) holderOpensLink(ctx context.Context, with string) error {
	if s.link == nil {
		return fmt.Errorf("no link was made earlier in the scenario")
	}
	path := "/shared-links/me"
	switch {
	case strings.HasPrefix(with, " with the password"):
		path += "?password=" + url.QueryEscape(strings.Trim(strings.TrimPrefix(with, " with the password "), `"`))
	case with != "":
		if s.wf.token == "" {
			return fmt.Errorf("the holder got no token earlier in the scenario")
		}
		path += "?token=" + url.QueryEscape(s.wf.token)
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: path, creds: credentials{linkKey: s.link.Key}})
	return s.keep(resp, nil, err)
}

// linkOpensWithPhoto judges the opened link: it shows the photo alone,
// and a token when the step asks for one, kept for the next steps.
func (s *scenario) linkOpensWithPhoto(withToken string) error {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	var l struct {
		Token  *string `json:"token"`
		Assets []struct {
			ID string `json:"id"`
		} `json:"assets"`
	}
	if err := json.Unmarshal(s.last.body, &l); err != nil {
		return fmt.Errorf("the answer is not a link: %s", s.last)
	}
	if len(l.Assets) != 1 || l.Assets[0].ID != s.firstID {
		var ids []string
		for _, a := range l.Assets {
			ids = append(ids, a.ID)
		}
		return fmt.Errorf("the link shows the assets %q, want the photo %s alone", ids, s.firstID)
	}
	if withToken != "" {
		if l.Token == nil || *l.Token == "" {
			return fmt.Errorf("the answer carries no token")
		}
		s.wf.token = *l.Token
	}
	return nil
}

// photoShowsOnlyPageFields judges the photo of the opened link: it shows
// what a page needs to show a photo, and so all that a link that hides
// metadata may show of it (the reference's sanitized asset).
func (s *scenario) photoShowsOnlyPageFields() error {
	var l struct {
		Assets []map[string]json.RawMessage `json:"assets"`
	}
	if err := json.Unmarshal(s.last.body, &l); err != nil || len(l.Assets) != 1 {
		return fmt.Errorf("want a link with the photo, got: %s", s.last)
	}
	return onlyPageFields(l.Assets[0])
}

// askWhichAreKnown asks, as an uploader does before it sends, which of
// the photo and a new one the server already has.
func (s *scenario) askWhichAreKnown(ctx context.Context) error {
	if s.photo == nil || s.firstID == "" {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	in := map[string]any{"assets": []map[string]string{
		{"id": "known", "checksum": s.photo.checksumHex()},
		{"id": "new", "checksum": newFile(defaultName).checksumBase64()},
	}}
	return s.sendJSON(ctx, http.MethodPost, "/asset/bulk-upload-check", credentials{apiKey: s.me.apiKey}, in)
}

// firstRejectedSecondAccepted judges the answer to the batch check.
func (s *scenario) firstRejectedSecondAccepted() error {
	res, err := s.lastResults()
	if err != nil {
		return err
	}
	if len(res) != 2 || res[0].ID != "known" || res[0].Action != "reject" || res[0].Reason != "duplicate" || res[0].AssetID != s.firstID ||
		res[1].ID != "new" || res[1].Action != "accept" {
		return fmt.Errorf("want known rejected as a duplicate of %s and new accepted, got %s", s.firstID, s.last)
	}
	return nil
}

// makeAPIKeyNamed makes an API key with the scenario's credentials.
func (s *scenario) makeAPIKeyNamed(ctx context.Context, name string) error {
	return s.sendJSON(ctx, http.MethodPost, "/api-keys", s.creds, map[string]any{"name": name})
}

// newKeyListsMyLinks judges the key made: its name, and that it is the
// user of the session that made it, and lists that user's links.
func (s *scenario) newKeyListsMyLinks(ctx context.Context, name string) error {
	if err := s.wantStatus(http.StatusCreated); err != nil {
		return err
	}
	var k struct {
		Secret string `json:"secret"`
		APIKey struct {
			Name string `json:"name"`
		} `json:"apiKey"`
	}
	if err := json.Unmarshal(s.last.body, &k); err != nil || k.Secret == "" {
		return fmt.Errorf("the answer carries no secret: %s", s.last)
	}
	if k.APIKey.Name != name {
		return fmt.Errorf("the key is named %q, want %q", k.APIKey.Name, name)
	}
	var session, byKey struct {
		ID string `json:"id"`
	}
	if err := s.call(ctx, "asking who the session is", http.MethodGet, "/users/me", s.creds, nil, &session, http.StatusOK); err != nil {
		return err
	}
	if err := s.call(ctx, "asking who the new key is", http.MethodGet, "/users/me", credentials{apiKey: k.Secret}, nil, &byKey, http.StatusOK); err != nil {
		return err
	}
	if byKey.ID != session.ID || session.ID == "" {
		return fmt.Errorf("the new key is user %q, but it was made in a session of user %q", byKey.ID, session.ID)
	}
	var listed []link
	if err := s.call(ctx, "listing the links with the new key", http.MethodGet, "/shared-links", credentials{apiKey: k.Secret}, nil, &listed, http.StatusOK); err != nil {
		return err
	}
	for _, l := range listed {
		if l.UserID != session.ID {
			return fmt.Errorf("the new key lists link %s of user %s, not of the session's user %s", l.ID, l.UserID, session.ID)
		}
	}
	return nil
}

// onlyPageFields judges an asset a link that hides metadata shows its
// holder: it may show what a page needs to show the photo (the reference's
// sanitized asset), and nothing else.
func onlyPageFields(a map[string]json.RawMessage) error {
	allowed := []string{"id", "type", "thumbhash", "localDateTime", "resized", "duration", "livePhotoVideoId", "hasMetadata"}
	var shown []string
	for k := range a {
		if !slices.Contains(allowed, k) {
			shown = append(shown, k)
		}
	}
	if len(shown) > 0 {
		slices.Sort(shown)
		return fmt.Errorf("the photo shows %s to the holder of a link that hides metadata; it may show only %s",
			strings.Join(shown, ", "), strings.Join(allowed, ", "))
	}
	return nil
}

// sameSet says whether a and b hold the same ids.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// fileSteps are the steps about what an upload keeps of the file.
func (s *scenario) fileSteps() []step {
	return []step{
		{`^the photo, read on its own, was taken at "([^"]*)" in "([^"]*)", "([^"]*)"$`, s.photoTakenAt},
		{`^I upload a new photo "([^"]*)" whose bytes are a JPEG's$`, s.uploadJPEGNamed},
		{`^I upload an empty photo "([^"]*)"$`, s.uploadEmptyPhoto},
		{`^the upload is refused with a 400, or kept (with a size of 0 bytes|with a name without a path)$`, s.refusedOrKept},
	}
}

// photoTakenAt reads the photo uploaded last on its own and judges when
// and where its EXIF says it was taken, waiting for it.
func (s *scenario) photoTakenAt(ctx context.Context, at, city, country string) error {
	id, _, err := s.decodeUpload(http.StatusCreated)
	if err != nil {
		return err
	}
	want, err := parseTime(at)
	if err != nil {
		return fmt.Errorf("steps: %q is no time: %w", at, err) // a bug of the features
	}
	return s.settle(ctx, func() error {
		var a struct {
			ExifInfo *struct {
				DateTimeOriginal *string `json:"dateTimeOriginal"`
				City             *string `json:"city"`
				Country          *string `json:"country"`
			} `json:"exifInfo"`
		}
		if err := s.assetOf(ctx, id, &a); err != nil {
			return err
		}
		e := a.ExifInfo
		if e == nil {
			return fmt.Errorf("the photo has no exifInfo")
		}
		if e.DateTimeOriginal == nil {
			return fmt.Errorf("exifInfo.dateTimeOriginal is null, want %s (from the file's EXIF)", at)
		}
		if got, err := parseTime(*e.DateTimeOriginal); err != nil || !got.Equal(want) {
			return fmt.Errorf("exifInfo.dateTimeOriginal is %s, want %s (from the file's EXIF)", *e.DateTimeOriginal, at)
		}
		if e.City == nil || *e.City != city || e.Country == nil || *e.Country != country {
			return fmt.Errorf("exifInfo places the photo in %s, %s, want %s, %s (from its GPS position)", strOrNull(e.City), strOrNull(e.Country), city, country)
		}
		return nil
	})
}

// uploadJPEGNamed uploads a new photo, a JPEG, under a name that may say
// otherwise.
func (s *scenario) uploadJPEGNamed(ctx context.Context, name string) error {
	s.photo = newFile(defaultName)
	s.photo.name = name
	s.photoForm = uploadForm(s.photo)
	return s.uploadAs(ctx, s.me, s.creds, s.photoForm, "")
}

// uploadEmptyPhoto uploads a file of no bytes.
func (s *scenario) uploadEmptyPhoto(ctx context.Context, name string) error {
	s.photo = &file{name: name, content: []byte{}}
	s.photoForm = uploadForm(s.photo)
	return s.uploadAs(ctx, s.me, s.creds, s.photoForm, "")
}

// refusedOrKept judges the last upload: refused with a 400, or kept as the
// step says, with a size of 0 bytes or a name without a path.
func (s *scenario) refusedOrKept(ctx context.Context, kept string) error {
	if s.last == nil {
		return fmt.Errorf("no request was sent")
	}
	switch s.last.status {
	case http.StatusBadRequest:
		return nil
	case http.StatusCreated, http.StatusOK:
	default:
		return fmt.Errorf("want 400, or the upload kept; got: %s", s.last)
	}
	var res uploadResult
	if json.Unmarshal(s.last.body, &res) != nil || res.ID == nil {
		return fmt.Errorf("the answer is not an upload result: %s", s.last)
	}
	var a struct {
		OriginalFileName string `json:"originalFileName"`
		ExifInfo         *struct {
			FileSizeInByte *int64 `json:"fileSizeInByte"`
		} `json:"exifInfo"`
	}
	if err := s.assetOf(ctx, *res.ID, &a); err != nil {
		return err
	}
	if strings.HasPrefix(kept, "with a size") {
		// An empty file's size may be unknown (exifInfo or its
		// fileSizeInByte null: the reference reads no size from it),
		// but a size it shows is 0.
		if a.ExifInfo != nil && a.ExifInfo.FileSizeInByte != nil && *a.ExifInfo.FileSizeInByte != 0 {
			return fmt.Errorf("the empty file is kept with a size of %d bytes", *a.ExifInfo.FileSizeInByte)
		}
		return nil
	}
	if strings.ContainsAny(a.OriginalFileName, `/\`) {
		return fmt.Errorf("the file is kept with the name %q, a path", a.OriginalFileName)
	}
	return nil
}

package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/mediaspec/mediaspec/fixtures"
)

// What a shared link shows as its owner's library changes: a photo
// trashed, restored, taken out of the album, added by an editor of the
// album; and the link's timeline, by month. The link's holder is judged:
// whoever opens the link with its key.

// libraryState is what these steps keep within a scenario.
type libraryState struct {
	photos []string // my photos of the scenario, in the order they were uploaded
	link   *link    // the link whose holder is judged
	album  string   // its album, for an album link
	theirs string   // the other user's photo, added to the album
}

// uploadPhotos uploads n new photos of mine.
func (s *scenario) uploadPhotos(ctx context.Context, n int) error {
	for range n {
		id, _, err := s.uploadPhoto(ctx, s.me)
		if err != nil {
			return err
		}
		s.library.photos = append(s.library.photos, id)
	}
	return nil
}

// shareLibraryAlbum shares my photos of the scenario in an album of
// their own.
func (s *scenario) shareLibraryAlbum(ctx context.Context) error {
	l, err := s.shareAlbum(ctx, s.me, "", s.library.photos...)
	if err != nil {
		return err
	}
	if l.Album != nil && l.Album.ID != "" {
		s.library.album = l.Album.ID
	} else {
		s.library.album = s.wf.album // a link answered without its album
	}
	s.library.link = l
	return nil
}

// photosNamed are my photos of the scenario a step names.
func (s *scenario) photosNamed(which string) ([]string, error) {
	p := s.library.photos
	if len(p) < 2 {
		return nil, fmt.Errorf("not two photos were uploaded earlier in the scenario")
	}
	switch which {
	case "the first":
		return p[:1], nil
	case "only the second":
		return p[1:2], nil
	case "both":
		return p[:2], nil
	}
	return nil, fmt.Errorf("steps: no photos %q", which) // a bug of the features
}

// holderSees judges what the link's holder sees, opening the link with its
// key: the link (its assets, and its album's where it shows them) and, for
// an album's link, the album. Each must hold exactly want, in any order.
func (s *scenario) holderSees(ctx context.Context, want []string) error {
	if s.library.link == nil {
		return fmt.Errorf("no link was made earlier in the scenario")
	}
	key := credentials{linkKey: s.library.link.Key}
	var opened link
	if err := s.call(ctx, "opening the link", http.MethodGet, "/shared-links/me", key, nil, &opened, http.StatusOK); err != nil {
		return err
	}
	var shown []string
	for _, a := range opened.allAssets() {
		if !slices.Contains(shown, a.ID) {
			shown = append(shown, a.ID)
		}
	}
	if !sameSet(shown, want) {
		return fmt.Errorf("the link's holder sees the assets %q, want %q", shown, want)
	}
	if opened.Album != nil && opened.Album.AssetCount != len(want) {
		return fmt.Errorf("the link's album counts %d assets, want %d", opened.Album.AssetCount, len(want))
	}
	if s.library.album == "" {
		return nil
	}
	var al album
	if err := s.call(ctx, "opening the link's album", http.MethodGet, "/albums/"+s.library.album, key, nil, &al, http.StatusOK); err != nil {
		return err
	}
	var inAlbum []string
	for _, a := range al.Assets {
		inAlbum = append(inAlbum, a.ID)
	}
	if !sameSet(inAlbum, want) || al.AssetCount != len(want) {
		return fmt.Errorf("the link's holder sees the album holding %q (assetCount %d), want %q", inAlbum, al.AssetCount, want)
	}
	return nil
}

// monthsOfFixtures are the months the photos of the fixtures were taken
// in, as their EXIF says (fixtures/README.md).
var monthsOfFixtures = map[string]string{
	"June 2023":  fixtures.LisbonJPEG,
	"April 2024": fixtures.TokyoJPEG,
}

// month is the month of a time as the API writes it, "2024-04".
func month(v string) (string, error) {
	t, err := parseTime(v)
	if err != nil {
		return "", err
	}
	return t.UTC().Format("2006-01"), nil
}

// timelineAsset is an asset of the timeline, as the harness reads it.
type timelineAsset struct {
	ID            string `json:"id"`
	LocalDateTime string `json:"localDateTime"`
}

// albumByMonth reads the album as its owner and files its assets by the
// month of their localDateTime.
func (s *scenario) albumByMonth(ctx context.Context) (map[string][]string, error) {
	var al struct {
		Assets []timelineAsset `json:"assets"`
	}
	if err := s.call(ctx, "reading the album", http.MethodGet, "/albums/"+s.library.album, credentials{apiKey: s.me.apiKey}, nil, &al, http.StatusOK); err != nil {
		return nil, err
	}
	months := map[string][]string{}
	var ids []string
	for _, a := range al.Assets {
		m, err := month(a.LocalDateTime)
		if err != nil {
			return nil, fmt.Errorf("asset %s of the album: localDateTime %q: %w", a.ID, a.LocalDateTime, err)
		}
		months[m] = append(months[m], a.ID)
		ids = append(ids, a.ID)
	}
	if !sameSet(ids, s.library.photos) {
		return nil, fmt.Errorf("the album holds %q, want the photos %q", ids, s.library.photos)
	}
	return months, nil
}

// librarySteps are the steps about what a shared link shows as its
// owner's library changes, and its timeline by month.
func (s *scenario) librarySteps() []step {
	return []step{
		{`^I have shared (\d+) new photos in a link of their own$`, s.shareNewPhotosInLink},
		{`^I have shared an album of (\d+) new photos$`, s.shareAlbumOfNewPhotos},
		{`^I have shared an album of two photos taken in (\w+ \d{4}) and one taken in (\w+ \d{4})$`, s.shareAlbumOfMonths},

		{`^I move the first of those photos to the trash$`, s.moveFirstToTrash},
		{`^I restore the first of those photos from the trash$`, s.restoreFirstFromTrash},
		{`^I take the first of those photos out of the album$`, s.takeFirstOutOfAlbum},
		{`^the other user is an editor of that album$`, s.otherIsEditorOfAlbum},
		{`^the other user uploads a new photo and adds it to the album$`, s.otherAddsPhotoToAlbum},
		{`^the link's holder sees (the first|only the second|both) of those photos( and the other user's)?$`, s.linkHolderSees},

		{`^the link's holder opens the album's timeline by month$`, s.holderOpensTimeline},
		{`^each month counts and shows exactly the album's photos of that month$`, s.monthsCountAlbumPhotos},
	}
}

// shareNewPhotosInLink uploads n new photos and shares them in a link of
// their own.
func (s *scenario) shareNewPhotosInLink(ctx context.Context, n int) error {
	if err := s.uploadPhotos(ctx, n); err != nil {
		return err
	}
	l, err := s.makeLink(ctx, s.me, map[string]any{"type": "INDIVIDUAL", "assetIds": s.library.photos})
	s.library.link = l
	return err
}

// shareAlbumOfNewPhotos uploads n new photos and shares them in an album
// of their own.
func (s *scenario) shareAlbumOfNewPhotos(ctx context.Context, n int) error {
	if err := s.uploadPhotos(ctx, n); err != nil {
		return err
	}
	return s.shareLibraryAlbum(ctx)
}

// shareAlbumOfMonths uploads two photos taken in one month and one taken
// in another, and shares them in an album. The photos' months come from
// their EXIF, which a server may read a while after the upload: the
// harness waits until the album shows them in those months, up to
// --settle.
func (s *scenario) shareAlbumOfMonths(ctx context.Context, twice, once string) error {
	want := map[string]int{}
	for _, m := range []string{twice, twice, once} {
		name, ok := monthsOfFixtures[m]
		if !ok {
			return fmt.Errorf("steps: no photo taken in %s", m) // a bug of the features
		}
		t, _ := time.Parse("January 2006", m)
		want[t.Format("2006-01")]++
		f := newFile(name)
		resp, err := s.upload(ctx, credentials{apiKey: s.me.apiKey}, uploadForm(f), "")
		if err := judgeNow(resp, err, http.StatusCreated); err != nil {
			return fmt.Errorf("uploading a new photo %s: %w", name, err)
		}
		var res uploadResult
		if json.Unmarshal(resp.body, &res) != nil || res.ID == nil {
			return fmt.Errorf("uploading a new photo %s: %s", name, resp)
		}
		s.library.photos = append(s.library.photos, *res.ID)
	}
	if err := s.shareLibraryAlbum(ctx); err != nil {
		return err
	}
	return s.settle(ctx, func() error { return s.albumCountsByMonth(ctx, want) })
}

// albumCountsByMonth judges the album's photos by the month they were
// taken in: so many in each month of want.
func (s *scenario) albumCountsByMonth(ctx context.Context, want map[string]int) error {
	months, err := s.albumByMonth(ctx)
	if err != nil {
		return err
	}
	got := map[string]int{}
	for m, ids := range months {
		got[m] = len(ids)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("the album's photos were taken, by their localDateTime, in the months %v, want %v (from their EXIF)", got, want)
	}
	return nil
}

// moveFirstToTrash moves the first of my photos of the scenario to the
// trash.
func (s *scenario) moveFirstToTrash(ctx context.Context) error {
	ids, err := s.photosNamed("the first")
	if err != nil {
		return err
	}
	return s.call(ctx, "trashing the photo", http.MethodDelete, "/asset", credentials{apiKey: s.me.apiKey}, map[string]any{"ids": ids}, nil, http.StatusNoContent)
}

// restoreFirstFromTrash restores the first of my photos of the scenario
// from the trash.
func (s *scenario) restoreFirstFromTrash(ctx context.Context) error {
	ids, err := s.photosNamed("the first")
	if err != nil {
		return err
	}
	return s.call(ctx, "restoring the photo", http.MethodPost, "/trash/restore/assets", credentials{apiKey: s.me.apiKey}, map[string]any{"ids": ids}, nil, http.StatusNoContent)
}

// takeFirstOutOfAlbum takes the first of my photos of the scenario out of
// the shared album.
func (s *scenario) takeFirstOutOfAlbum(ctx context.Context) error {
	ids, err := s.photosNamed("the first")
	if err != nil {
		return err
	}
	var res []bulkResult
	if err := s.call(ctx, "taking the photo out of the album", http.MethodDelete, "/albums/"+s.library.album+"/assets", credentials{apiKey: s.me.apiKey}, map[string]any{"ids": ids}, &res, http.StatusOK); err != nil {
		return err
	}
	if len(res) != 1 || res[0].ID != ids[0] || !res[0].Success {
		return fmt.Errorf("want the photo %s taken out with success, got %+v", ids[0], res)
	}
	return nil
}

// otherIsEditorOfAlbum shares the album with the other user, as an
// editor.
func (s *scenario) otherIsEditorOfAlbum(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	if other.id == "" {
		var me struct {
			ID string `json:"id"`
		}
		if err := s.call(ctx, "asking who the other user is", http.MethodGet, "/users/me", credentials{apiKey: other.apiKey}, nil, &me, http.StatusOK); err != nil {
			return err
		}
		other.id = me.ID
	}
	in := map[string]any{"albumUsers": []map[string]string{{"userId": other.id, "role": "editor"}}}
	return s.call(ctx, "sharing the album with the other user as an editor", http.MethodPut, "/albums/"+s.library.album+"/users", credentials{apiKey: s.me.apiKey}, in, nil, http.StatusOK)
}

// otherAddsPhotoToAlbum uploads a new photo as the other user, who adds
// it to the album they edit.
func (s *scenario) otherAddsPhotoToAlbum(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	if s.library.theirs, _, err = s.uploadPhoto(ctx, other); err != nil {
		return err
	}
	var res []bulkResult
	in := map[string]any{"ids": []string{s.library.theirs}}
	if err := s.call(ctx, "the editor adding their photo to the album", http.MethodPut, "/albums/"+s.library.album+"/assets", credentials{apiKey: other.apiKey}, in, &res, http.StatusOK); err != nil {
		return err
	}
	if len(res) != 1 || res[0].ID != s.library.theirs || !res[0].Success {
		return fmt.Errorf("want the editor's photo %s added with success, got %+v", s.library.theirs, res)
	}
	return nil
}

// linkHolderSees judges what the link's holder sees: the photos named,
// and the other user's when the step says so.
func (s *scenario) linkHolderSees(ctx context.Context, which, theirs string) error {
	want, err := s.photosNamed(which)
	if err != nil {
		return err
	}
	if theirs != "" {
		if s.library.theirs == "" {
			return fmt.Errorf("the other user added no photo earlier in the scenario")
		}
		want = append(slices.Clone(want), s.library.theirs)
	}
	return s.holderSees(ctx, want)
}

// The timeline: GET /timeline/buckets counts the assets of each month,
// GET /timeline/bucket lists one month's. Opened with the link's key, as
// its page asks for it, for the link's album.

// holderOpensTimeline asks, as the link's holder, for the album's
// timeline by month.
func (s *scenario) holderOpensTimeline(ctx context.Context) error {
	if s.library.link == nil || s.library.album == "" {
		return fmt.Errorf("no album was shared earlier in the scenario")
	}
	path := "/timeline/buckets?size=MONTH&albumId=" + url.QueryEscape(s.library.album)
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: path, creds: credentials{linkKey: s.library.link.Key}})
	return s.keep(resp, nil, err)
}

// monthsCountAlbumPhotos judges the timeline's months: each counts the
// album's photos of that month and, opened, shows them; no month of the
// album is missing.
func (s *scenario) monthsCountAlbumPhotos(ctx context.Context) error {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	var buckets []struct {
		TimeBucket string `json:"timeBucket"`
		Count      int    `json:"count"`
	}
	if err := json.Unmarshal(s.last.body, &buckets); err != nil {
		return fmt.Errorf("the answer is not a list of months: %s", s.last)
	}
	want, err := s.albumByMonth(ctx)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, b := range buckets {
		m, err := month(b.TimeBucket)
		if err != nil {
			return fmt.Errorf("the month %q: %w", b.TimeBucket, err)
		}
		if seen[m] {
			return fmt.Errorf("the month %s is counted twice: %s", m, s.last)
		}
		seen[m] = true
		if b.Count != len(want[m]) {
			return fmt.Errorf("the timeline counts %d assets in %s (%s), but the album holds %d of that month: %q", b.Count, m, b.TimeBucket, len(want[m]), want[m])
		}
		if err := s.monthShows(ctx, b.TimeBucket, m, want[m]); err != nil {
			return err
		}
	}
	for m, ids := range want {
		if !seen[m] {
			return fmt.Errorf("the timeline has no month %s, where the album holds %q", m, ids)
		}
	}
	return nil
}

// monthShows opens a month of the album's timeline, as the link's holder,
// and judges the assets it shows: want, the album's photos of month m.
func (s *scenario) monthShows(ctx context.Context, bucket, m string, want []string) error {
	var assets []timelineAsset
	path := "/timeline/bucket?size=MONTH&albumId=" + url.QueryEscape(s.library.album) + "&timeBucket=" + url.QueryEscape(bucket)
	if err := s.call(ctx, "opening the month "+m, http.MethodGet, path, credentials{linkKey: s.library.link.Key}, nil, &assets, http.StatusOK); err != nil {
		return err
	}
	var ids []string
	for _, a := range assets {
		ids = append(ids, a.ID)
	}
	if !sameSet(ids, want) {
		return fmt.Errorf("the timeline shows %q in %s, want the album's photos of that month %q", ids, m, want)
	}
	return nil
}

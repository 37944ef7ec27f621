package steps

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// link, album and asset are the parts of a shared link the harness judges.
type link struct {
	ID        string  `json:"id"`
	Key       string  `json:"key"`
	Type      string  `json:"type"`
	UserID    string  `json:"userId"`
	Album     *album  `json:"album"`
	Assets    []asset `json:"assets"`
	ExpiresAt *string `json:"expiresAt"`
	CreatedAt string  `json:"createdAt"`
}

type album struct {
	ID                    string  `json:"id"`
	AlbumThumbnailAssetID *string `json:"albumThumbnailAssetId"`
	AssetCount            int     `json:"assetCount"`
	Assets                []asset `json:"assets"`
	OwnerID               string  `json:"ownerId"`
	Owner                 struct {
		ID string `json:"id"`
	} `json:"owner"`
	StartDate *string `json:"startDate"`
	EndDate   *string `json:"endDate"`
	// AlbumUsers are the users it is shared with: an editor among them
	// adds photos of their own.
	AlbumUsers []struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"albumUsers"`
}

type asset struct {
	ID               string  `json:"id"`
	Checksum         string  `json:"checksum"`
	DeviceAssetID    string  `json:"deviceAssetId"`
	DeviceID         string  `json:"deviceId"`
	OwnerID          string  `json:"ownerId"`
	OriginalFileName string  `json:"originalFileName"`
	Type             string  `json:"type"`
	FileCreatedAt    string  `json:"fileCreatedAt"`
	FileModifiedAt   string  `json:"fileModifiedAt"`
	LivePhotoVideoID *string `json:"livePhotoVideoId"`
	Owner            *struct {
		ID string `json:"id"`
	} `json:"owner"`
	ExifInfo *struct {
		FileSizeInByte *int64  `json:"fileSizeInByte"`
		Make           *string `json:"make"`
		Model          *string `json:"model"`
	} `json:"exifInfo"`
}

// allAssets is every asset of a link: its own and its album's.
func (l *link) allAssets() []asset {
	out := append([]asset(nil), l.Assets...)
	if l.Album != nil {
		out = append(out, l.Album.Assets...)
	}
	return out
}

// parseTime reads a time as the API writes it.
func parseTime(v string) (time.Time, error) { return time.Parse(time.RFC3339Nano, v) }

// shareAlbum makes a link to a new album of u holding assetIDs; which is
// the end of the step that asks for it ("", " that allows uploads", ...).
func (s *scenario) shareAlbum(ctx context.Context, u *user, which string, assetIDs ...string) (*link, error) {
	req := map[string]any{"type": "ALBUM", "albumName": "Conformance " + randomHex(4)}
	if len(assetIDs) > 0 {
		req["assetIds"] = assetIDs // an empty album: no assetIds at all, never null
	}
	yesterday := time.Now().Add(-24 * time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")
	switch which {
	case "", " that does not allow uploads":
		req["allowUpload"] = false
	case " that allows uploads":
		req["allowUpload"] = true
	case " that allows uploads but has expired":
		req["allowUpload"] = true
		req["expiresAt"] = yesterday
	case " whose link has expired":
		req["expiresAt"] = yesterday
	default:
		return nil, fmt.Errorf("steps: no album link %q", which) // a bug of the steps
	}
	return s.makeLink(ctx, u, req)
}

// list lists the shared links of creds, keeping the answer.
func (s *scenario) list(ctx context.Context, who *user, creds credentials) ([]link, error) {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/shared-links", creds: creds})
	if err := s.keep(resp, who, err); err != nil || resp.status != http.StatusOK {
		return nil, err
	}
	var links []link
	if err := json.Unmarshal(resp.body, &links); err != nil {
		if v := s.judged(); v != nil {
			return nil, v // the shape is what is wrong
		}
		return nil, fmt.Errorf("the list of shared links cannot be read: %w", err)
	}
	s.linksRaw = resp.body
	return links, nil
}

// listed is the last list of my links; a step that judges it needs one.
func (s *scenario) listed() ([]link, error) {
	if s.links == nil {
		if s.last != nil {
			return nil, fmt.Errorf("no list of links was received: %s", s.last)
		}
		return nil, fmt.Errorf("no list of links was received")
	}
	return s.links, nil
}

// linkSteps are the steps about shared links: making them, and listing
// them as their owner.
func (s *scenario) linkSteps() []step {
	return []step{
		{`^I have shared an album( that allows uploads| that does not allow uploads| that allows uploads but has expired| whose link has expired)?$`, s.haveSharedAlbum},
		{`^I have shared a new photo on its own$`, s.haveSharedNewPhoto},
		{`^I have shared that photo (on its own|in an album)$`, s.haveSharedThatPhoto},
		{`^I have shared (\d+) new photos in an album and the first of them in two links of its own$`, s.haveSharedPhotosTwice},
		{`^I have uploaded a new photo "([^"]*)", taken with an? (.+)$`, s.haveUploadedPhotoTakenWith},
		{`^each of us has shared an album$`, s.eachHasSharedAlbum},
		{`^the other user has shared an album$`, s.otherHasSharedAlbum},
		{`^a new user who has no shared links$`, s.newUserWithoutLinks},

		{`^I also send my API key$`, s.alsoSendMyAPIKey},

		{`^I list my shared links$`, s.listMyLinks},
		{`^the other user lists their shared links$`, s.otherListsLinks},
		{`^they list their shared links$`, s.theyListLinks},
		{`^the shared links I have$`, s.theLinksIHave},

		{`^the links are in order of creation, newest first$`, s.newestFirst},
		{`^every album link carries its album$`, s.albumLinksCarryAlbum},
		{`^every individual link carries no album and at least one asset$`, s.individualLinksCarryAssets},
		{`^the photo's link comes before the album's$`, s.photoLinkBeforeAlbums},
		{`^the list holds that link$`, s.listHoldsThatLink},
		{`^that link still holds no assets$`, s.linkStillHoldsNoAssets},
		{`^that link's expiry date has passed$`, s.linkHasExpired},
		{`^the list holds my link and not the other user's$`, s.listHoldsMineNotTheirs},
		{`^every link in the list is mine$`, s.everyLinkIsMine},
		{`^no link is in both lists$`, s.noLinkInBoth},
		{`^within each list every link has the same owner, and a different one in each list$`, s.oneOwnerEachList},
		{`^that owner is the user who listed the list$`, s.ownerListedTheList},
		{`^the list is empty$`, s.listIsEmpty},
	}
}

// haveSharedAlbum makes a link to a new empty album of mine, of the kind
// the step names.
func (s *scenario) haveSharedAlbum(ctx context.Context, which string) error {
	l, err := s.shareAlbum(ctx, s.me, which)
	s.albumLink = l
	return err
}

// haveSharedNewPhoto uploads a new photo and shares it in a link of its
// own.
func (s *scenario) haveSharedNewPhoto(ctx context.Context) error {
	if err := s.uploadNew(ctx, defaultName, nil); err != nil {
		return err
	}
	if err := s.acceptedAsNew(); err != nil {
		return err
	}
	id, _, err := s.decodeUpload(http.StatusCreated)
	if err != nil {
		return err
	}
	l, err := s.makeLink(ctx, s.me, map[string]any{"type": "INDIVIDUAL", "assetIds": []string{id}})
	s.photoLink = l
	return err
}

// haveSharedThatPhoto shares the photo uploaded first, on its own or in a
// new album.
func (s *scenario) haveSharedThatPhoto(ctx context.Context, how string) error {
	if s.firstID == "" {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	if how == "in an album" {
		_, err := s.shareAlbum(ctx, s.me, "", s.firstID)
		return err
	}
	_, err := s.makeLink(ctx, s.me, map[string]any{"type": "INDIVIDUAL", "assetIds": []string{s.firstID}})
	return err
}

// haveSharedPhotosTwice uploads n new photos, shares them in an album,
// and the first of them in two links of its own: a photo listed thrice.
func (s *scenario) haveSharedPhotosTwice(ctx context.Context, n int) error {
	for range n {
		id, f, err := s.uploadPhoto(ctx, s.me)
		if err != nil {
			return err
		}
		s.wf.photos, s.wf.files = append(s.wf.photos, id), append(s.wf.files, f)
	}
	var err error
	if s.albumLink, err = s.shareAlbum(ctx, s.me, "", s.wf.photos...); err != nil {
		return err
	}
	for range 2 {
		if s.photoLink, err = s.makeLink(ctx, s.me, map[string]any{"type": "INDIVIDUAL", "assetIds": s.wf.photos[:1]}); err != nil {
			return err
		}
	}
	s.sharedTwice = s.wf.photos[0]
	return nil
}

// haveUploadedPhotoTakenWith uploads a new photo of a fixture that names
// the camera that took it. The scenario names the camera so that its
// reader knows where the EXIF it expects comes from: the fixture must say
// so too.
func (s *scenario) haveUploadedPhotoTakenWith(ctx context.Context, name, camera string) error {
	if f := newFile(name); !bytes.Contains(f.content, []byte(camera)) {
		return fmt.Errorf("steps: the fixture %s does not name the camera %q", name, camera) // a bug of the features
	}
	if err := s.uploadNew(ctx, name, nil); err != nil {
		return err
	}
	return s.acceptedAsNew()
}

// eachHasSharedAlbum makes a link to a new album of the other user's, and
// one of mine.
func (s *scenario) eachHasSharedAlbum(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	if s.otherLink, err = s.shareAlbum(ctx, other, ""); err != nil {
		return err
	}
	s.albumLink, err = s.shareAlbum(ctx, s.me, "")
	return err
}

// otherHasSharedAlbum makes a link to a new album of the other user's,
// leaving "that link" the last of mine.
func (s *scenario) otherHasSharedAlbum(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	mine := s.link
	s.otherLink, err = s.shareAlbum(ctx, other, "")
	s.link = mine
	return err
}

// newUserWithoutLinks makes a new user, who has shared nothing.
func (s *scenario) newUserWithoutLinks(ctx context.Context) error {
	u, err := s.newUser(ctx)
	s.fresh = u
	return err
}

// alsoSendMyAPIKey adds my API key to the credentials of the next
// requests.
func (s *scenario) alsoSendMyAPIKey() {
	s.creds.apiKey = s.me.apiKey
}

// listMyLinks lists the shared links with the scenario's credentials.
func (s *scenario) listMyLinks(ctx context.Context) (err error) {
	s.links, err = s.list(ctx, s.me, s.creds)
	return err
}

// otherListsLinks lists the other user's shared links, as them.
func (s *scenario) otherListsLinks(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	s.otherLinks, err = s.list(ctx, other, credentials{apiKey: other.apiKey})
	if err == nil && s.otherLinks == nil {
		return fmt.Errorf("the other user's links could not be listed: %s", s.last)
	}
	return err
}

// theyListLinks lists the shared links of the new user, as them.
func (s *scenario) theyListLinks(ctx context.Context) (err error) {
	if s.fresh == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	s.links, err = s.list(ctx, s.fresh, credentials{apiKey: s.fresh.apiKey})
	return err
}

// theLinksIHave lists my shared links, whatever they are: a scenario about
// every link is skipped when I have none.
func (s *scenario) theLinksIHave(ctx context.Context) (err error) {
	s.links, err = s.list(ctx, s.me, credentials{apiKey: s.me.apiKey})
	if err != nil {
		return err
	}
	if s.links == nil {
		return fmt.Errorf("want my shared links, got: %s", s.last)
	}
	if len(s.links) == 0 {
		return skip("the user has no shared links to judge")
	}
	return nil
}

// albumLinksCarryAlbum judges every listed album link: it carries its
// album.
func (s *scenario) albumLinksCarryAlbum() error {
	return s.eachLink(func(l link) error {
		if l.Type == "ALBUM" && l.Album == nil {
			return errors.New("an ALBUM link without its album")
		}
		return nil
	})
}

// individualLinksCarryAssets judges every listed individual link: no
// album, and assets.
func (s *scenario) individualLinksCarryAssets() error {
	return s.eachLink(func(l link) error {
		if l.Type != "INDIVIDUAL" {
			return nil
		}
		if l.Album != nil {
			return errors.New("an INDIVIDUAL link with an album")
		}
		if len(l.Assets) == 0 {
			return errors.New("an INDIVIDUAL link without assets")
		}
		return nil
	})
}

// photoLinkBeforeAlbums judges the list's order: the photo's link, made
// later, before the album's.
func (s *scenario) photoLinkBeforeAlbums() error {
	if s.photoLink == nil || s.albumLink == nil {
		return fmt.Errorf("the scenario has not made a photo link and an album link")
	}
	links, err := s.listed()
	if err != nil {
		return err
	}
	photo, album := -1, -1
	for i, l := range links {
		switch l.ID {
		case s.photoLink.ID:
			photo = i
		case s.albumLink.ID:
			album = i
		}
	}
	if photo < 0 || album < 0 || photo > album {
		return fmt.Errorf("want the photo's link %s before the album's %s, found them at $[%d] and $[%d] of %d",
			s.photoLink.ID, s.albumLink.ID, photo, album, len(links))
	}
	return nil
}

// listHoldsThatLink judges the list: it holds the link made last.
func (s *scenario) listHoldsThatLink() error {
	_, err := s.find(s.link)
	return err
}

// linkStillHoldsNoAssets judges the link made last: it holds no assets.
// A listing may show no album's assets (the reference shows none): the
// link and its album are read on their own too, where they must show what
// they hold.
func (s *scenario) linkStillHoldsNoAssets(ctx context.Context) error {
	l, err := s.find(s.link)
	if err != nil {
		return err
	}
	if n := len(l.allAssets()); n > 0 || (l.Album != nil && l.Album.AssetCount > 0) {
		return fmt.Errorf("link %s holds %d assets now, as listed", l.ID, n)
	}
	var own link
	if err := s.call(ctx, "reading the link", http.MethodGet, "/shared-links/"+l.ID, credentials{apiKey: s.me.apiKey}, nil, &own, http.StatusOK); err != nil {
		return err
	}
	if n := len(own.allAssets()); n > 0 {
		return fmt.Errorf("link %s, read on its own, holds %d assets now", l.ID, n)
	}
	if l.Album == nil {
		return nil
	}
	var al album
	if err := s.call(ctx, "reading the link's album", http.MethodGet, "/albums/"+l.Album.ID, credentials{apiKey: s.me.apiKey}, nil, &al, http.StatusOK); err != nil {
		return err
	}
	if len(al.Assets) > 0 || al.AssetCount > 0 {
		return fmt.Errorf("the link's album %s, read on its own, holds %d assets now (assetCount %d)", al.ID, len(al.Assets), al.AssetCount)
	}
	return nil
}

// linkHasExpired judges the link made last, as listed: its expiry date
// has passed.
func (s *scenario) linkHasExpired() error {
	l, err := s.find(s.link)
	if err != nil {
		return err
	}
	if l.ExpiresAt == nil {
		return fmt.Errorf("link %s has no expiry date", l.ID)
	}
	t, err := parseTime(*l.ExpiresAt)
	if err != nil {
		return fmt.Errorf("link %s: expiresAt: %w", l.ID, err)
	}
	if !t.Before(time.Now()) {
		return fmt.Errorf("link %s expires at %s, which has not passed", l.ID, *l.ExpiresAt)
	}
	return nil
}

// listHoldsMineNotTheirs judges my list: it holds my album's link, and
// not the other user's.
func (s *scenario) listHoldsMineNotTheirs() error {
	if _, err := s.find(s.albumLink); err != nil {
		return err
	}
	if s.otherLink == nil {
		return fmt.Errorf("the other user has made no link")
	}
	for _, l := range s.links {
		if l.ID == s.otherLink.ID {
			return fmt.Errorf("my list holds the other user's link %s", l.ID)
		}
	}
	return nil
}

// everyLinkIsMine judges my list: every link in it is of my user.
func (s *scenario) everyLinkIsMine() error {
	if s.me.id == "" {
		return fmt.Errorf("my user id is not known: no link of mine was made")
	}
	return s.eachLink(func(l link) error {
		if l.UserID != s.me.id {
			return fmt.Errorf("a link of user %s, not mine (%s)", l.UserID, s.me.id)
		}
		return nil
	})
}

// oneOwnerEachList judges my list and the other user's: each has one
// owner, another in each.
func (s *scenario) oneOwnerEachList() error {
	lists, err := s.bothLists()
	if err != nil {
		return err
	}
	for _, list := range lists {
		if len(list.links) == 0 {
			return skip("%s list of shared links is empty: there is nothing to compare", list.whose)
		}
		for _, l := range list.links {
			if l.UserID != list.links[0].UserID {
				return fmt.Errorf("%s list holds links of user %s and of user %s", list.whose, list.links[0].UserID, l.UserID)
			}
		}
	}
	if owner := lists[0].links[0].UserID; owner == lists[1].links[0].UserID {
		return fmt.Errorf("both lists hold links of user %s", owner)
	}
	return nil
}

// ownerListedTheList judges my list and the other user's: each holds only
// links of the user who listed it.
func (s *scenario) ownerListedTheList() error {
	lists, err := s.bothLists()
	if err != nil {
		return err
	}
	for _, list := range lists {
		if list.by.id == "" {
			return fmt.Errorf("the harness does not know the id of the user of %s list", list.whose)
		}
		for _, l := range list.links {
			if l.UserID != list.by.id {
				return fmt.Errorf("%s list holds link %s of user %s, not of %s", list.whose, l.ID, l.UserID, list.by.id)
			}
		}
	}
	return nil
}

// eachLink applies check to every listed link and reports the first
// failure. A rule about every link holds on no links at all, so with none
// the scenario is skipped rather than passed.
func (s *scenario) eachLink(check func(link) error) error {
	links, err := s.listed()
	if err != nil {
		return err
	}
	if len(links) == 0 {
		return skip("the user has no shared links to judge")
	}
	for i, l := range links {
		if err := check(l); err != nil {
			return fmt.Errorf("link $[%d] (%s): %w", i, l.ID, err)
		}
	}
	return nil
}

// find is the listed link of want's id.
func (s *scenario) find(want *link) (*link, error) {
	if want == nil {
		return nil, fmt.Errorf("no link was made earlier in the scenario")
	}
	links, err := s.listed()
	if err != nil {
		return nil, err
	}
	for i := range links {
		if links[i].ID == want.ID {
			return &links[i], nil
		}
	}
	return nil, fmt.Errorf("the list of %d links does not hold link %s", len(links), want.ID)
}

// newestFirst judges the list's order: newest first, by createdAt.
func (s *scenario) newestFirst() error {
	links, err := s.listed()
	if err != nil {
		return err
	}
	switch len(links) {
	case 0:
		return skip("the user has no shared links to judge")
	case 1:
		return skip("the user has one shared link: an order needs two to judge")
	}
	var prev time.Time
	for i, l := range links {
		t, err := parseTime(l.CreatedAt)
		if err != nil {
			return fmt.Errorf("link $[%d]: createdAt: %w", i, err)
		}
		if i > 0 && t.After(prev) {
			return fmt.Errorf("link $[%d] was created at %s, after the link before it ($[%d], %s): the list is not newest first",
				i, l.CreatedAt, i-1, links[i-1].CreatedAt)
		}
		prev = t
	}
	return nil
}

// userList is one user's list of links in a scenario with two users.
type userList struct {
	whose string // "my", "the other user's", for messages
	by    *user
	links []link
}

// bothLists is my last list and the other user's.
func (s *scenario) bothLists() ([2]userList, error) {
	mine, err := s.listed()
	if err != nil {
		return [2]userList{}, err
	}
	if s.other == nil || s.otherLinks == nil {
		return [2]userList{}, fmt.Errorf("the other user's links were not listed earlier in the scenario")
	}
	return [2]userList{{"my", s.me, mine}, {"the other user's", s.other, s.otherLinks}}, nil
}

// noLinkInBoth checks that two users' lists share no link. A list must hold
// the link the scenario made for its user; with no link made, an empty list
// leaves nothing to compare and the scenario is skipped.
func (s *scenario) noLinkInBoth() error {
	lists, err := s.bothLists()
	if err != nil {
		return err
	}
	for i, made := range []*link{s.albumLink, s.otherLink} {
		list := lists[i]
		if made != nil && !slices.ContainsFunc(list.links, func(l link) bool { return l.ID == made.ID }) {
			return fmt.Errorf("%s list of %d links does not hold link %s, made for that user", list.whose, len(list.links), made.ID)
		}
		if len(list.links) == 0 {
			return skip("%s list of shared links is empty: there is nothing to compare", list.whose)
		}
	}
	mine := map[string]bool{}
	for _, l := range lists[0].links {
		mine[l.ID] = true
	}
	for _, l := range lists[1].links {
		if mine[l.ID] {
			return fmt.Errorf("link %s is in both users' lists", l.ID)
		}
	}
	return nil
}

// listIsEmpty judges the decoded list, not its bytes: "[ ]" is as empty as
// "[]", but null (decoded to nil) is no list at all.
func (s *scenario) listIsEmpty() error {
	if s.links == nil {
		if s.last == nil {
			return fmt.Errorf("want an empty list, but no request was sent")
		}
		return fmt.Errorf("want an empty list, got: %s", s.last)
	}
	if len(s.links) > 0 {
		return fmt.Errorf("want an empty list, got %d links: %s", len(s.links), s.last)
	}
	return nil
}

// isSHA1Base64 says whether v is a SHA-1 digest in standard base64.
func isSHA1Base64(v string) bool {
	b, err := base64.StdEncoding.DecodeString(v)
	return err == nil && len(b) == 20
}

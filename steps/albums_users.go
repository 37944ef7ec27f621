package steps

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/cucumber/godog"
)

// Albums and their users: an album renamed, described, given a cover;
// shared with users as editors or viewers, their roles changed, taken off
// it; deleted with its links. The albums are the scenario's own, made of
// its new photos.

// seenAlbum is an album as these steps read it.
type seenAlbum struct {
	ID                    string  `json:"id"`
	AlbumName             string  `json:"albumName"`
	Description           string  `json:"description"`
	AlbumThumbnailAssetID *string `json:"albumThumbnailAssetId"`
	AssetCount            int     `json:"assetCount"`
	Assets                []struct {
		ID string `json:"id"`
	} `json:"assets"`
	AlbumUsers []struct {
		Role string `json:"role"`
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"albumUsers"`
}

func (a seenAlbum) ids() []string {
	var ids []string
	for _, x := range a.Assets {
		ids = append(ids, x.ID)
	}
	return ids
}

// roleOf is the role the album shows a user in, "" for none.
func (a seenAlbum) roleOf(id string) string {
	for _, au := range a.AlbumUsers {
		if au.User.ID == id {
			return au.Role
		}
	}
	return ""
}

// makeAlbumOf makes an album of u holding ids: the scenario's album.
func (s *scenario) makeAlbumOf(ctx context.Context, u *user, ids []string) error {
	var a seenAlbum
	in := map[string]any{"albumName": "Conformance " + randomHex(4)}
	if len(ids) > 0 {
		in["assetIds"] = ids
	}
	if err := s.call(ctx, "making an album", http.MethodPost, "/albums", credentials{apiKey: u.apiKey}, in, &a, http.StatusCreated); err != nil {
		return err
	}
	if a.ID == "" {
		return fmt.Errorf("making an album: the answer has no id")
	}
	s.changes.album, s.changes.name = a.ID, a.AlbumName
	return nil
}

// readAlbumAs reads the scenario's album as u, who must be able to.
func (s *scenario) readAlbumAs(ctx context.Context, u *user) (seenAlbum, error) {
	var a seenAlbum
	if s.changes.album == "" {
		return a, fmt.Errorf("no album was made earlier in the scenario")
	}
	if u == nil {
		return a, fmt.Errorf("no user to read the album as")
	}
	err := s.call(ctx, "reading the album", http.MethodGet, "/albums/"+s.changes.album, credentials{apiKey: u.apiKey}, nil, &a, http.StatusOK)
	return a, err
}

// albumPath is the path of the scenario's album, and what follows it.
func (s *scenario) albumPath(rest string) (string, error) {
	if s.changes.album == "" {
		return "", fmt.Errorf("no album was made earlier in the scenario")
	}
	return "/albums/" + s.changes.album + rest, nil
}

// albumUserSteps are the steps of albums and their users, and of the
// count of albums.
func (s *scenario) albumUserSteps() []step {
	return append([]step{
		{`^I have made an album of (\d+) new photos?$`, s.haveMadeAlbum},
		{`^I have uploaded another new photo, outside the album$`, s.haveOuterPhoto},
		{`^I have shared the album with the other user as an? (editor|viewer)$`, s.haveSharedWithOther},
		{`^I have shared the album with (a|the) new user as an? (editor|viewer)$`, s.haveSharedWithNewUser},
		{`^I have shared the album in a link$`, s.haveSharedAlbumInLink},
		{`^I rename the album "([^"]*)"(?: and describe it as "([^"]*)")?$`, s.renameAlbum},
		{`^I choose (?:the (first|second|third) of those photos|(that other photo)) as the album's cover$`, s.chooseCover},
		{`^I change the album with:$`, s.changeAlbumWith},
		{`^I make (the other user|the user "[^"]*") an? (editor|viewer|owner) of the album$`, s.makeRole},
		{`^I take (the other user|the user "[^"]*"|myself) off the album$`, s.takeOff},
		{`^I delete the album$`, s.deleteAlbum},
		{`^I (rename|delete|make a user a viewer of|take a user off) the album whose id is "([^"]*)"$`, s.actOnAlbumID},
		{`^the other user renames the album "([^"]*)"$`, s.otherRenames},
		{`^the other user adds a new photo of theirs to the album$`, s.otherAddsPhoto},
		{`^the other user makes themselves an? (editor|viewer) of the album$`, s.otherMakesThemselves},
		{`^the other user leaves the album$`, s.otherLeaves},
		{`^the other user takes the new user off the album$`, s.otherTakesNewUserOff},
		{`^the other user deletes the album$`, s.otherDeletes},
		{`^the answer is the album named "([^"]*)" and described as "([^"]*)", counting its (\d+) photos$`, s.answerIsRenamedAlbum},
		{`^the album, read again, is named "([^"]*)" and described as "([^"]*)"$`, s.albumReadsNamed},
		{`^the album, read again, keeps its name$`, s.albumKeepsName},
		{`^the album's cover is the (first|second|third) of those photos$`, s.coverIs},
		{`^the album's cover is still the one it had$`, s.coverUnchanged},
		{`^their photo is added$`, s.theirPhotoAdded},
		{`^the album shows the other user as an? (editor|viewer)$`, s.albumShowsOtherAs},
		{`^the album no longer shows the other user$`, s.albumShowsNoOther},
		{`^the other user still sees the album, holding my photo and the one they added$`, s.otherStillSees},
		{`^the other user no longer sees the album, nor finds it among the albums shared with them$`, s.otherNoLongerSees},
		{`^the new user still sees the album$`, s.newUserStillSees},
		{`^the album is gone$`, s.albumGone},
		{`^those photos are still mine$`, s.photosStillMine},
		{`^the album still holds its photo$`, s.albumStillHolds},
	}, s.albumCountSteps()...)
}

// haveMadeAlbum uploads n new photos of mine and makes an album of them.
func (s *scenario) haveMadeAlbum(ctx context.Context, n int) error {
	if err := s.uploadMine(ctx, s.me, n); err != nil {
		return err
	}
	return s.makeAlbumOf(ctx, s.me, s.changes.photos)
}

// haveOuterPhoto uploads a photo of mine that is in no album.
func (s *scenario) haveOuterPhoto(ctx context.Context) error {
	id, _, err := s.uploadPhoto(ctx, s.me)
	s.changes.outer = id
	return err
}

// shareAlbumWith shares the scenario's album with u, in a role.
func (s *scenario) shareAlbumWith(ctx context.Context, u *user, role string) error {
	if err := s.knowID(ctx, u); err != nil {
		return err
	}
	path, err := s.albumPath("/users")
	if err != nil {
		return err
	}
	in := map[string]any{"albumUsers": []map[string]string{{"userId": u.id, "role": role}}}
	return s.call(ctx, "sharing the album as a "+role, http.MethodPut, path, credentials{apiKey: s.me.apiKey}, in, nil, http.StatusOK)
}

// knowID asks who u is, if the scenario does not know yet.
func (s *scenario) knowID(ctx context.Context, u *user) error {
	if u.id != "" {
		return nil
	}
	var me struct {
		ID string `json:"id"`
	}
	if err := s.call(ctx, "asking who a user is", http.MethodGet, "/users/me", credentials{apiKey: u.apiKey}, nil, &me, http.StatusOK); err != nil {
		return err
	}
	u.id = me.ID
	return nil
}

// haveSharedWithOther shares my album with the other user.
func (s *scenario) haveSharedWithOther(ctx context.Context, role string) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	return s.shareAlbumWith(ctx, other, role)
}

// haveSharedWithNewUser shares my album with a new user (made now, for
// "a").
func (s *scenario) haveSharedWithNewUser(ctx context.Context, which, role string) error {
	if which == "a" || s.changes.them == nil {
		if err := s.aNewUser(ctx); err != nil {
			return err
		}
	}
	return s.shareAlbumWith(ctx, s.changes.them, role)
}

// haveSharedAlbumInLink shares my album in a link: "that link" of the
// steps that use its key.
func (s *scenario) haveSharedAlbumInLink(ctx context.Context) error {
	return s.shareAlbumInLink(ctx, s.me)
}

// shareAlbumInLink shares the scenario's album, u's, in a link.
func (s *scenario) shareAlbumInLink(ctx context.Context, u *user) error {
	if s.changes.album == "" {
		return fmt.Errorf("no album was made earlier in the scenario")
	}
	var l link
	in := map[string]any{"type": "ALBUM", "albumId": s.changes.album, "allowUpload": false}
	if err := s.call(ctx, "sharing the album in a link", http.MethodPost, "/shared-links", credentials{apiKey: u.apiKey}, in, &l, http.StatusCreated); err != nil {
		return err
	}
	if l.Key == "" {
		return fmt.Errorf("sharing the album in a link: the answer has no key")
	}
	s.link = &l
	return nil
}

// renameAlbum renames the album, and describes it.
func (s *scenario) renameAlbum(ctx context.Context, name, description string) error {
	path, err := s.albumPath("")
	if err != nil {
		return err
	}
	in := map[string]any{"albumName": name}
	if description != "" {
		in["description"] = description
	}
	return s.sendJSON(ctx, http.MethodPatch, path, s.creds, in)
}

// chooseCover chooses a photo as the album's cover, keeping the cover it
// had.
func (s *scenario) chooseCover(ctx context.Context, which, other string) error {
	id := s.changes.outer
	if other == "" {
		var err error
		if id, err = s.photoNamed(which); err != nil {
			return err
		}
	}
	a, err := s.readAlbumAs(ctx, s.me)
	if err != nil {
		return err
	}
	if a.AlbumThumbnailAssetID != nil {
		s.changes.cover = *a.AlbumThumbnailAssetID
	}
	return s.sendJSON(ctx, http.MethodPatch, "/albums/"+s.changes.album, s.creds, map[string]any{"albumThumbnailAssetId": id})
}

// changeAlbumWith sends a change of the album with the body given.
func (s *scenario) changeAlbumWith(ctx context.Context, body *godog.DocString) error {
	path, err := s.albumPath("")
	if err != nil {
		return err
	}
	return s.sendRaw(ctx, http.MethodPatch, path, body)
}

// userNamed is the id of a user a step names: the other user, or the
// user "<id>" as written.
func (s *scenario) userNamed(ctx context.Context, who string) (string, error) {
	if id, ok := quoted(who); ok {
		return id, nil
	}
	other, err := s.otherUser(ctx)
	if err != nil {
		return "", err
	}
	return other.id, s.knowID(ctx, other)
}

// quoted is what a step's words `the user "x"` name: x.
func quoted(words string) (string, bool) {
	_, rest, ok := strings.Cut(words, `"`)
	if !ok || !strings.HasSuffix(rest, `"`) {
		return "", false
	}
	return strings.TrimSuffix(rest, `"`), true
}

// makeRole changes the role of a user in my album.
func (s *scenario) makeRole(ctx context.Context, who, role string) error {
	id, err := s.userNamed(ctx, who)
	if err != nil {
		return err
	}
	path, err := s.albumPath("/user/" + id)
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodPut, path, s.creds, map[string]any{"role": role})
}

// takeOff takes a user off my album: the other user, one named, or me.
func (s *scenario) takeOff(ctx context.Context, who string) error {
	id := ""
	if who == "myself" {
		if err := s.knowID(ctx, s.me); err != nil {
			return err
		}
		id = s.me.id
	} else {
		var err error
		if id, err = s.userNamed(ctx, who); err != nil {
			return err
		}
	}
	path, err := s.albumPath("/user/" + id)
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodDelete, path, s.creds, nil)
}

// deleteAlbum deletes my album.
func (s *scenario) deleteAlbum(ctx context.Context) error {
	path, err := s.albumPath("")
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodDelete, path, s.creds, nil)
}

// someUser is a user id no server holds, well formed, for requests that
// must be refused before it is looked up.
const someUser = "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60"

// actOnAlbumID sends an operation on the album of an id as written.
func (s *scenario) actOnAlbumID(ctx context.Context, action, id string) error {
	switch action {
	case "rename":
		return s.sendJSON(ctx, http.MethodPatch, "/albums/"+id, s.creds, map[string]any{"albumName": "Anything"})
	case "delete":
		return s.sendJSON(ctx, http.MethodDelete, "/albums/"+id, s.creds, nil)
	case "make a user a viewer of":
		return s.sendJSON(ctx, http.MethodPut, "/albums/"+id+"/user/"+someUser, s.creds, map[string]any{"role": "viewer"})
	}
	return s.sendJSON(ctx, http.MethodDelete, "/albums/"+id+"/user/"+someUser, s.creds, nil)
}

package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Comments and likes on a shared album: its owner and its users write and
// read one thread; its owner or an author deletes; no one else. The album
// is the scenario's, shared with the second user as a viewer, and taken
// away with its thread when the scenario ends.

// activitiesState is what the activities steps keep within a scenario.
type activitiesState struct {
	album, photo string
	made         []activityMade // the comments and likes given, in order
}

// activityMade is a comment or a like given in the scenario.
type activityMade struct {
	id, kind, comment string
	byMe              bool   // mine, else the other user's
	assetID           string // "" for the album's own
}

// activitySeen is a comment or a like as the harness reads one.
type activitySeen struct {
	ID      string  `json:"id"`
	Type    string  `json:"type"`
	Comment *string `json:"comment"`
	AssetID *string `json:"assetId"`
	User    struct {
		ID string `json:"id"`
	} `json:"user"`
}

// activitiesSteps are the steps about comments and likes.
func (s *scenario) activitiesSteps() []step {
	return []step{
		{`^I have (shared an album of a new photo with the other user|made an album of a new photo, shared with no one)$`, s.albumForThread},
		{`^I have shared that album in a link$`, s.shareThreadAlbum},
		{`^(I|the other user) (?:have|has) (liked the photo|commented "[^"]*" on (?:the photo|the album))$`, s.haveGiven},
		{`^(I|the other user) (likes? the photo(?: again)?|comments? "[^"]*" on (?:the photo|the album))$`, s.give},
		{`^(I|the other user) reads? (?:the album's thread|the thread of the album "([^"]*)")$`, s.readThread},
		{`^the other user asks how many comments the album has$`, s.otherAsksCount},
		{`^it is my comment, their like and their comment, the oldest first$`, s.threadIsAll},
		{`^the photo's thread is my comment and their like, and the album's own is their comment$`, s.threadsByLevel},
		{`^the other user's likes are their one like$`, s.otherLikes},
		{`^the album counts (\d+) comments, and the photo (\d+)$`, s.commentsCounted},
		{`^the like they are given back is the first one$`, s.sameLikeBack},
		{`^the photo's thread holds that one like$`, s.oneLike},
		{`^(I|the other user) deletes? (my comment|the other user's comment|the activity "[^"]*")$`, s.deleteActivity},
		{`^the album's thread is (empty|my comment alone)$`, s.threadIs},
		{`^I turn the album's activity off$`, s.turnActivityOff},
		{`^each operation on activities is refused with status (\d+) and the message "([^"]*)"$`, s.activitiesOperationsRefused},
	}
}

// actor is who acts in an activities step: I (with the scenario's
// credentials) or the other user.
func (s *scenario) actor(ctx context.Context, who string) (*user, credentials, error) {
	if who == "I" {
		return s.me, s.creds, nil
	}
	u, err := s.otherUser(ctx)
	if err != nil {
		return nil, credentials{}, err
	}
	return u, credentials{apiKey: u.apiKey}, nil
}

// idOf is the id of a user, asked of the server once.
func (s *scenario) idOf(ctx context.Context, u *user) (string, error) {
	if u.id != "" {
		return u.id, nil
	}
	var me struct {
		ID string `json:"id"`
	}
	if err := s.call(ctx, "reading the user's id", http.MethodGet, "/users/me", credentials{apiKey: u.apiKey}, nil, &me, http.StatusOK); err != nil {
		return "", err
	}
	u.id = me.ID
	return me.ID, nil
}

// albumForThread makes an album of mine holding a new photo, shared with
// the other user as a viewer, or with no one.
func (s *scenario) albumForThread(ctx context.Context, how string) error {
	photo, _, err := s.uploadPhoto(ctx, s.me)
	if err != nil {
		return err
	}
	in := map[string]any{"albumName": "Conformance " + randomHex(4), "assetIds": []string{photo}}
	if strings.HasPrefix(how, "shared an album") {
		other, err := s.otherUser(ctx)
		if err != nil {
			return err
		}
		id, err := s.idOf(ctx, other)
		if err != nil {
			return err
		}
		in["albumUsers"] = []map[string]string{{"userId": id, "role": "viewer"}}
	}
	var a struct {
		ID string `json:"id"`
	}
	if err := s.call(ctx, "making the album", http.MethodPost, "/albums", credentials{apiKey: s.me.apiKey}, in, &a, http.StatusCreated); err != nil {
		return err
	}
	s.activities.album, s.activities.photo = a.ID, photo
	return nil
}

// threadAlbum is the album of the scenario's thread.
func (s *scenario) threadAlbum() (string, error) {
	if s.activities.album == "" {
		return "", fmt.Errorf("no album was made earlier in the scenario")
	}
	return s.activities.album, nil
}

// shareThreadAlbum shares the album in a link, the scenario's link.
func (s *scenario) shareThreadAlbum(ctx context.Context) error {
	album, err := s.threadAlbum()
	if err != nil {
		return err
	}
	var l link
	in := map[string]any{"type": "ALBUM", "albumId": album, "allowUpload": false}
	if err := s.call(ctx, "sharing the album in a link", http.MethodPost, "/shared-links", credentials{apiKey: s.me.apiKey}, in, &l, http.StatusCreated); err != nil {
		return err
	}
	s.link = &l
	return nil
}

// give gives a like or a comment (words as the step says them), and keeps
// the answer; one that is made is noted.
func (s *scenario) give(ctx context.Context, who, what string) error {
	album, err := s.threadAlbum()
	if err != nil {
		return err
	}
	u, creds, err := s.actor(ctx, who)
	if err != nil {
		return err
	}
	made := activityMade{kind: "like", byMe: who == "I", assetID: s.activities.photo}
	in := map[string]any{"albumId": album, "type": "like"}
	if before, rest, ok := strings.Cut(what, `"`); ok && strings.HasPrefix(before, "comment") {
		text, on, _ := strings.Cut(rest, `"`)
		made.kind, made.comment = "comment", text
		in["type"], in["comment"] = "comment", text
		if strings.HasSuffix(on, "the album") {
			made.assetID = ""
		}
	}
	if made.assetID != "" {
		in["assetId"] = made.assetID
	}
	if err := s.sendKept(ctx, u, creds, http.MethodPost, "/activities", in); err != nil {
		return err
	}
	// Noted without judging the answer: the step after judges it.
	var a activitySeen
	if s.last.status == http.StatusCreated && json.Unmarshal(s.last.body, &a) == nil {
		made.id = a.ID
		s.activities.made = append(s.activities.made, made)
	}
	return nil
}

// haveGiven gives a like or a comment, which must be made.
func (s *scenario) haveGiven(ctx context.Context, who, what string) error {
	verb := map[bool]string{true: "like the photo", false: "comment" + strings.TrimPrefix(what, "commented")}[what == "liked the photo"]
	if err := s.give(ctx, who, verb); err != nil {
		return err
	}
	return s.wantStatus(http.StatusCreated)
}

// readThread reads an album's thread (the scenario's, or one by id) and keeps the answer.
func (s *scenario) readThread(ctx context.Context, who, albumID string) error {
	if albumID == "" {
		var err error
		if albumID, err = s.threadAlbum(); err != nil {
			return err
		}
	}
	u, creds, err := s.actor(ctx, who)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, u, creds, http.MethodGet, "/activities?albumId="+url.QueryEscape(albumID), nil)
}

// otherAsksCount asks, as the other user, how many comments the album has.
func (s *scenario) otherAsksCount(ctx context.Context) error {
	album, err := s.threadAlbum()
	if err != nil {
		return err
	}
	u, creds, err := s.actor(ctx, "the other user")
	if err != nil {
		return err
	}
	return s.sendKept(ctx, u, creds, http.MethodGet, "/activities/statistics?albumId="+album, nil)
}

// sameThread says how a thread read differs from the activities made, in order.
func (s *scenario) sameThread(ctx context.Context, seen []activitySeen, want []activityMade) error {
	me, err := s.idOf(ctx, s.me)
	if err != nil {
		return err
	}
	if len(seen) != len(want) {
		return fmt.Errorf("the thread holds %d comments and likes, want %d: %s", len(seen), len(want), s.last)
	}
	for i, a := range seen {
		w := want[i]
		byMe := a.User.ID == me
		switch {
		case a.ID != w.id || a.Type != w.kind:
			return fmt.Errorf("the thread's %d. is the %s %s, want the %s %s: %s", i+1, a.Type, a.ID, w.kind, w.id, s.last)
		case w.kind == "comment" && (a.Comment == nil || *a.Comment != w.comment):
			return fmt.Errorf("the comment %s reads %s, want %q", a.ID, strOrNull(a.Comment), w.comment)
		case byMe != w.byMe:
			return fmt.Errorf("the %s %s is by %s, want %s", a.Type, a.ID, a.User.ID, map[bool]string{true: "me", false: "the other user"}[w.byMe])
		case (a.AssetID == nil) != (w.assetID == "") || (a.AssetID != nil && *a.AssetID != w.assetID):
			return fmt.Errorf("the %s %s is on the asset %s, want %q", a.Type, a.ID, strOrNull(a.AssetID), w.assetID)
		}
	}
	return nil
}

// threadIsAll judges the thread read: every activity made, in order.
func (s *scenario) threadIsAll(ctx context.Context) error {
	var seen []activitySeen
	if err := s.decodeLast(http.StatusOK, &seen); err != nil {
		return err
	}
	return s.sameThread(ctx, seen, s.activities.made)
}

// thread reads, as me, the album's thread filtered by query.
func (s *scenario) thread(ctx context.Context, query string) ([]activitySeen, error) {
	var seen []activitySeen
	err := s.call(ctx, "reading the thread "+query, http.MethodGet, "/activities?albumId="+s.activities.album+query, credentials{apiKey: s.me.apiKey}, nil, &seen, http.StatusOK)
	return seen, err
}

// madeWhere are the activities made that keep to keep.
func (s *scenario) madeWhere(keep func(activityMade) bool) []activityMade {
	var out []activityMade
	for _, a := range s.activities.made {
		if keep(a) {
			out = append(out, a)
		}
	}
	return out
}

// threadsByLevel judges the photo's thread and the album's own.
func (s *scenario) threadsByLevel(ctx context.Context) error {
	for _, t := range []struct {
		query string
		keep  func(activityMade) bool
	}{
		{"&assetId=" + s.activities.photo, func(a activityMade) bool { return a.assetID != "" }},
		{"&level=album", func(a activityMade) bool { return a.assetID == "" }},
	} {
		seen, err := s.thread(ctx, t.query)
		if err != nil {
			return err
		}
		if err := s.sameThread(ctx, seen, s.madeWhere(t.keep)); err != nil {
			return fmt.Errorf("the thread of %s: %w", t.query, err)
		}
	}
	return nil
}

// otherLikes judges the other user's likes.
func (s *scenario) otherLikes(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	id, err := s.idOf(ctx, other)
	if err != nil {
		return err
	}
	seen, err := s.thread(ctx, "&type=like&userId="+id)
	if err != nil {
		return err
	}
	return s.sameThread(ctx, seen, s.madeWhere(func(a activityMade) bool { return a.kind == "like" && !a.byMe }))
}

// commentsCounted judges the count of comments of the album, and of the photo.
func (s *scenario) commentsCounted(ctx context.Context, album, photo int) error {
	for _, c := range []struct {
		query string
		want  int
	}{{"", album}, {"&assetId=" + s.activities.photo, photo}} {
		var st struct {
			Comments *int `json:"comments"`
		}
		if err := s.call(ctx, "counting the comments", http.MethodGet, "/activities/statistics?albumId="+s.activities.album+c.query, credentials{apiKey: s.me.apiKey}, nil, &st, http.StatusOK); err != nil {
			return err
		}
		if st.Comments == nil || *st.Comments != c.want {
			return fmt.Errorf("the statistics of %q count %v comments, want %d", c.query, st.Comments, c.want)
		}
	}
	return nil
}

// sameLikeBack judges a like given again: the first, given back.
func (s *scenario) sameLikeBack() error {
	var a activitySeen
	if err := s.decodeLast(http.StatusOK, &a); err != nil {
		return err
	}
	if len(s.activities.made) == 0 || a.ID != s.activities.made[0].id || a.Type != "like" {
		return fmt.Errorf("a like given again answers the %s %s, want the first like: %s", a.Type, a.ID, s.last)
	}
	return nil
}

// oneLike judges the photo's thread: the one like given.
func (s *scenario) oneLike(ctx context.Context) error {
	seen, err := s.thread(ctx, "&assetId="+s.activities.photo)
	if err != nil {
		return err
	}
	return s.sameThread(ctx, seen, s.activities.made[:1])
}

// deleteActivity deletes a comment (mine or the other user's), or the activity of an id.
func (s *scenario) deleteActivity(ctx context.Context, who, which string) error {
	u, creds, err := s.actor(ctx, who)
	if err != nil {
		return err
	}
	id := ""
	if _, rest, ok := strings.Cut(which, `"`); ok {
		id = strings.TrimSuffix(rest, `"`)
	}
	for _, a := range s.activities.made {
		if id == "" && a.kind == "comment" && a.byMe == (which == "my comment") {
			id = a.id
			break
		}
	}
	if id == "" {
		return fmt.Errorf("no such comment was made earlier in the scenario")
	}
	return s.sendKept(ctx, u, creds, http.MethodDelete, "/activities/"+id, nil)
}

// threadIs judges the album's thread, as its owner reads it.
func (s *scenario) threadIs(ctx context.Context, what string) error {
	seen, err := s.thread(ctx, "")
	if err != nil {
		return err
	}
	if what == "empty" {
		return s.sameThread(ctx, seen, nil)
	}
	return s.sameThread(ctx, seen, s.madeWhere(func(a activityMade) bool { return a.byMe && a.kind == "comment" }))
}

// turnActivityOff turns the album's activity off.
func (s *scenario) turnActivityOff(ctx context.Context) error {
	album, err := s.threadAlbum()
	if err != nil {
		return err
	}
	return s.call(ctx, "turning the album's activity off", http.MethodPatch, "/albums/"+album, credentials{apiKey: s.me.apiKey}, map[string]any{"isActivityEnabled": false}, nil, http.StatusOK)
}

// activitiesOperationsRefused sends each operation on activities with the
// scenario's credentials, and judges each refused.
func (s *scenario) activitiesOperationsRefused(ctx context.Context, status int, message string) error {
	album := "albumId=" + noOne
	return s.eachRefused(ctx, status, message, []apiRequest{
		{method: http.MethodGet, path: "/activities?" + album},
		{method: http.MethodPost, path: "/activities", body: []byte(`{"albumId":"` + noOne + `","type":"like"}`)},
		{method: http.MethodGet, path: "/activities/statistics?" + album},
		{method: http.MethodDelete, path: "/activities/" + noOne},
	})
}

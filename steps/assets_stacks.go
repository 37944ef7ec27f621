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

	"github.com/cucumber/godog"
)

// Stacks: photos gathered under one of them, their parent. Random picks
// and memory lane: what a user is shown of their own photos.

// stackUnder stacks photos under the first of them, or under the other
// user's photo.
func (s *scenario) stackUnder(ctx context.Context, which, under string) error {
	ids := slices.Clone(s.changes.photos)
	switch {
	case len(ids) < 2 && under == "first" || len(ids) < 3 && which == "second and third":
		return fmt.Errorf("not enough photos were uploaded earlier in the scenario")
	case which == "second and third":
		ids = ids[1:3]
	case under == "first":
		ids = ids[1:2]
	default:
		ids = ids[:1]
	}
	parent := s.changes.theirs
	if under == "first" {
		parent = s.changes.photos[0]
	}
	if parent == "" {
		return fmt.Errorf("the other user uploaded no photo earlier in the scenario")
	}
	return s.sendJSON(ctx, http.MethodPut, "/asset", s.creds, map[string]any{"ids": ids, "stackParentId": parent})
}

// stackParent is the parent of the scenario's stack: the photo the others
// were stacked under (the first, as the features stack them), or the one
// made its parent since.
func (s *scenario) stackParent(ctx context.Context) (string, error) {
	if len(s.changes.photos) == 0 {
		return "", fmt.Errorf("no photos were uploaded earlier in the scenario")
	}
	first, err := s.ownAsset(ctx, s.changes.photos[0])
	if err != nil {
		return "", err
	}
	if first.StackParentID != nil {
		return *first.StackParentID, nil
	}
	return first.ID, nil
}

// makeStackParent makes one of the photos the parent of their stack, as me
// or as the other user.
func (s *scenario) makeStackParent(ctx context.Context, who, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	old, err := s.stackParent(ctx)
	if err != nil {
		return err
	}
	creds := s.creds
	if who == "the other user" {
		other, err := s.otherUser(ctx)
		if err != nil {
			return err
		}
		creds = credentials{apiKey: other.apiKey}
	}
	if err := s.sendJSON(ctx, http.MethodPut, "/asset/stack/parent", creds, map[string]any{"oldParentId": old, "newParentId": id}); err != nil {
		return err
	}
	if s.last.status >= 200 && s.last.status <= 299 {
		// The stack's old parent leads it again before its photos are
		// taken away: a server that makes a photo outside the stack its
		// parent (the reference does) will not delete that photo while
		// the stack names it.
		owner, err := s.photosOwner()
		if err != nil {
			return err
		}
		s.later("the parent of the stack "+old, s.removing(credentials{apiKey: owner.apiKey}, http.MethodPut, "/asset/stack/parent", map[string]any{"oldParentId": old, "newParentId": old}))
	}
	return nil
}

// changeStackParentWith sends a change of a stack's parent with the body
// given.
func (s *scenario) changeStackParentWith(ctx context.Context, body *godog.DocString) error {
	return s.sendRaw(ctx, http.MethodPut, "/asset/stack/parent", body)
}

// unstack takes one of the photos out of its stack.
func (s *scenario) unstack(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodPut, "/asset", s.creds, map[string]any{"ids": []string{id}, "removeParent": true})
}

// stackMembers are the photos a step names as a stack's.
var stackMembers = map[string][]int{"the three": {0, 1, 2}, "the first and second": {0, 1}, "the first and third": {0, 2}}

// leadsStack judges a stack: each of its photos names the parent as its
// stack's (the parent may name itself, as the reference does, or none),
// and the parent shows the others in its stack, and counts them all.
func (s *scenario) leadsStack(ctx context.Context, which, members string) error {
	parent, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	var ids []string
	for _, i := range stackMembers[members] {
		if i >= len(s.changes.photos) {
			return fmt.Errorf("not enough photos were uploaded earlier in the scenario")
		}
		ids = append(ids, s.changes.photos[i])
	}
	for _, id := range ids {
		a, err := s.ownAsset(ctx, id)
		if err != nil {
			return err
		}
		named := a.StackParentID != nil && *a.StackParentID == parent
		if id == parent && !named && a.StackParentID != nil {
			return fmt.Errorf("the stack's parent %s names %s as its stack's parent", id, *a.StackParentID)
		}
		if id != parent && !named {
			return fmt.Errorf("the photo %s names %s as its stack's parent, want %s", id, strOrNull(a.StackParentID), parent)
		}
		if id != parent {
			continue
		}
		shown := []string{parent}
		for _, m := range a.Stack {
			if m.ID != parent {
				shown = append(shown, m.ID)
			}
		}
		if !sameSet(shown, ids) {
			return fmt.Errorf("the stack's parent %s shows the stack %q, want %q", parent, shown, ids)
		}
		if a.StackCount != nil && *a.StackCount != len(ids) {
			return fmt.Errorf("the stack's parent %s counts %d in its stack, want %d", parent, *a.StackCount, len(ids))
		}
	}
	return nil
}

// inNoStack judges a photo out of every stack.
func (s *scenario) inNoStack(ctx context.Context, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	a, err := s.ownAsset(ctx, id)
	if err != nil {
		return err
	}
	if (a.StackParentID != nil && *a.StackParentID != id) || len(a.Stack) > 0 {
		return fmt.Errorf("the photo %s is still in a stack: stackParentId %s, %d in its stack", id, strOrNull(a.StackParentID), len(a.Stack))
	}
	return nil
}

// askRandom asks for photos at random, as me (with the scenario's
// credentials) or as the new user.
func (s *scenario) askRandom(ctx context.Context, who, how string) error {
	path := "/asset/random"
	switch {
	case strings.HasPrefix(how, `"`):
		path += "?count=" + url.QueryEscape(strings.Trim(strings.TrimSuffix(how, " photos"), `"`))
	case how != "a photo":
		path += "?count=" + strings.TrimSuffix(how, " photos")
	}
	creds, err := s.actorCreds(who)
	if err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: path, creds: creds})
	return s.keep(resp, nil, err)
}

// actorCreds are the credentials of who a step names: "I" (the scenario's
// credentials) or "they", the new user.
func (s *scenario) actorCreds(who string) (credentials, error) {
	if strings.HasPrefix(who, "I") {
		return s.creds, nil
	}
	if s.changes.them == nil {
		return credentials{}, fmt.Errorf("no new user was made earlier in the scenario")
	}
	return credentials{apiKey: s.changes.them.apiKey}, nil
}

// gotRandom judges random picks: n of the new user's photos out of the
// trash, none twice.
func (s *scenario) gotRandom(n int, first string) error {
	var picks []struct {
		ID string `json:"id"`
	}
	if err := s.decodeLast(http.StatusOK, &picks); err != nil {
		return err
	}
	var ids []string
	for _, p := range picks {
		if slices.Contains(ids, p.ID) {
			return fmt.Errorf("the photo %s is picked twice: %s", p.ID, s.last)
		}
		if !slices.Contains(s.changes.photos, p.ID) || slices.Contains(s.changes.trashed, p.ID) {
			return fmt.Errorf("the pick %s is none of their photos out of the trash %q", p.ID, s.outOfTrash())
		}
		ids = append(ids, p.ID)
	}
	if len(ids) != n {
		return fmt.Errorf("they got %d photos, want %d of their photos out of the trash %q", len(ids), n, s.outOfTrash())
	}
	if first != "" && !slices.Contains(ids, s.changes.photos[0]) {
		return fmt.Errorf("the picks %q do not hold the first of those photos, %s", ids, s.changes.photos[0])
	}
	return nil
}

// outOfTrash are the scenario's photos its steps did not move to the trash.
func (s *scenario) outOfTrash() []string {
	return slices.DeleteFunc(slices.Clone(s.changes.photos), func(id string) bool { return slices.Contains(s.changes.trashed, id) })
}

// walkMemoryLane asks for memory lane on a day of the year.
func (s *scenario) walkMemoryLane(ctx context.Context, who string, day int, month string) error {
	m, err := time.Parse("January", month)
	if err != nil {
		return fmt.Errorf("steps: no month %q", month) // a bug of the features
	}
	creds, err := s.actorCreds(who)
	if err != nil {
		return err
	}
	s.changes.memories = fmt.Sprintf("?day=%d&month=%d", day, int(m.Month()))
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/asset/memory-lane" + s.changes.memories, creds: creds})
	return s.keep(resp, nil, err)
}

// walkMemoryLaneOn asks for memory lane on a day and month given as
// numbers, as me.
func (s *scenario) walkMemoryLaneOn(ctx context.Context, day, month int) error {
	path := fmt.Sprintf("/asset/memory-lane?day=%d&month=%d", day, month)
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: path, creds: s.creds})
	return s.keep(resp, nil, err)
}

// memoryYear is a year of memory lane, as the harness reads it.
type memoryYear struct {
	YearsAgo int `json:"yearsAgo"`
	Assets   []struct {
		ID string `json:"id"`
	} `json:"assets"`
}

// seeMemory judges memory lane: one year, as many years ago as 2023 is,
// holding only the first photo. A server shows a photo there once it has
// read its date from the file and made its pictures: the harness asks
// again until it does, up to --settle.
func (s *scenario) seeMemory(ctx context.Context) error {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	return s.settle(ctx, func() error { return s.memoryShowsFirst(ctx, s.changes.them) })
}

// memoryShowsFirst judges u's memory lane of the day last asked for: the
// first photo alone, in its year.
func (s *scenario) memoryShowsFirst(ctx context.Context, u *user) error {
	if u == nil || len(s.changes.photos) == 0 {
		return fmt.Errorf("no new user with photos was made earlier in the scenario")
	}
	var years []memoryYear
	if err := s.call(ctx, "walking down memory lane", http.MethodGet, "/asset/memory-lane"+s.memoryDay(), credentials{apiKey: u.apiKey}, nil, &years, http.StatusOK); err != nil {
		return err
	}
	want := time.Now().Year() - 2023
	if len(years) != 1 || years[0].YearsAgo != want || len(years[0].Assets) != 1 || years[0].Assets[0].ID != s.changes.photos[0] {
		b, _ := json.Marshal(years)
		return fmt.Errorf("memory lane shows %s; want the photo %s alone, %d years ago", b, s.changes.photos[0], want)
	}
	return nil
}

// memoryDay is the query of the day of memory lane last asked for, the
// photos' own day by default.
func (s *scenario) memoryDay() string {
	if s.changes.memories == "" {
		return "?day=14&month=6"
	}
	return s.changes.memories
}

// seeNoMemory judges an empty memory lane.
func (s *scenario) seeNoMemory() error {
	var years []memoryYear
	if err := s.decodeLast(http.StatusOK, &years); err != nil {
		return err
	}
	if len(years) != 0 {
		return fmt.Errorf("memory lane shows %d years, want none: %s", len(years), s.last)
	}
	return nil
}

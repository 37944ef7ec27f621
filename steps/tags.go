package steps

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Tags: a user's labels of their own photos. The tags a scenario makes
// have names of their own ("Conformance " and random letters), so that
// runs on a server that keeps its data never meet one another's.

// tagSeen is a tag as the harness reads one.
type tagSeen struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Type   string `json:"type"`
	UserID string `json:"userId"`
}

// tagSteps are the steps about tags.
func (s *scenario) tagSteps() []step {
	return []step{
		{`^I have made a tag$`, s.haveMadeTag},
		{`^I make a tag of the same name( in upper case)?$`, s.makeSameTag},
		{`^I make a tag from (\{.*\})$`, s.makeTagFrom},
		{`^they have made a tag, labelling that photo$`, s.theyMakeTag},
		{`^I (?:have labelled|label) (those photos|the first of those photos) with the tag$`, s.labelWithTag},
		{`^I take the tag off the first of those photos, twice over$`, s.untagFirstTwice},
		{`^the tag lists (those photos|the second of those photos alone)$`, s.tagLists},
		{`^the first of those photos shows (the tag|the tag under its new name|no tag)$`, s.firstShowsTag},
		{`^I rename the tag$`, s.renameTag},
		{`^I delete the tag$`, s.deleteTag},
		{`^I (read|rename|delete|list the photos of|label a new photo of mine with) their tag$`, s.onTheirTag},
		{`^I read the tag "([^"]*)"$`, s.readTagID},
		{`^each operation on tags is refused with status (\d+) and the message "([^"]*)"$`, s.tagsOperationsRefused},
	}
}

// haveMadeTag makes a tag of mine.
func (s *scenario) haveMadeTag(ctx context.Context) error {
	name := "Conformance " + randomHex(4)
	var t tagSeen
	if err := s.call(ctx, "making a tag", http.MethodPost, "/tags", s.creds, map[string]any{"name": name, "type": "CUSTOM"}, &t, http.StatusCreated); err != nil {
		return err
	}
	if t.Name != name || t.Type != "CUSTOM" {
		return fmt.Errorf("the tag made reads %q of type %s, want %q of type CUSTOM", t.Name, t.Type, name)
	}
	s.memories.tag, s.memories.tagName = t.ID, name
	return nil
}

// makeSameTag makes a tag of the name of the last one, or of it in upper case.
func (s *scenario) makeSameTag(ctx context.Context, upper string) error {
	if s.memories.tagName == "" {
		return fmt.Errorf("no tag was made earlier in the scenario")
	}
	name := s.memories.tagName
	if upper != "" {
		name = strings.ToUpper(name)
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPost, "/tags", map[string]any{"name": name, "type": "OBJECT"})
}

// makeTagFrom sends a body of my own to make a tag.
func (s *scenario) makeTagFrom(ctx context.Context, body string) error {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: "/tags", creds: s.creds, contentType: "application/json", body: []byte(body)})
	return s.keep(resp, s.me, err)
}

// theyMakeTag makes a tag of the new user's, labelling their photo.
func (s *scenario) theyMakeTag(ctx context.Context) error {
	if s.changes.them == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	them := credentials{apiKey: s.changes.them.apiKey}
	var t tagSeen
	if err := s.call(ctx, "making their tag", http.MethodPost, "/tags", them, map[string]any{"name": "Conformance " + randomHex(4), "type": "CUSTOM"}, &t, http.StatusCreated); err != nil {
		return err
	}
	s.memories.theirTag = t.ID
	return s.call(ctx, "labelling their photo", http.MethodPut, "/tags/"+t.ID+"/assets", them, map[string]any{"assetIds": s.changes.photos}, nil, http.StatusOK)
}

// myTag is the path of the last tag I made.
func (s *scenario) myTag() (string, error) {
	if s.memories.tag == "" {
		return "", fmt.Errorf("no tag was made earlier in the scenario")
	}
	return "/tags/" + s.memories.tag, nil
}

// labelWithTag labels photos with my tag, and keeps the answer.
func (s *scenario) labelWithTag(ctx context.Context, what string) error {
	path, err := s.myTag()
	if err != nil {
		return err
	}
	ids, err := s.photosFor(what)
	if err != nil {
		return err
	}
	s.memories.lastPhoto = ids
	return s.sendKept(ctx, s.me, s.creds, http.MethodPut, path+"/assets", map[string]any{"assetIds": ids})
}

// untagFirstTwice takes my tag off the first photo, named twice in one
// request, and keeps the answer.
func (s *scenario) untagFirstTwice(ctx context.Context) error {
	path, err := s.myTag()
	if err != nil {
		return err
	}
	first, err := s.photoNamed("first")
	if err != nil {
		return err
	}
	s.memories.lastPhoto = []string{first, first}
	return s.sendKept(ctx, s.me, s.creds, http.MethodDelete, path+"/assets", map[string]any{"assetIds": s.memories.lastPhoto})
}

// tagLists judges the photos my tag lists: the oldest uploaded first.
func (s *scenario) tagLists(ctx context.Context, what string) error {
	path, err := s.myTag()
	if err != nil {
		return err
	}
	want, err := s.photosFor(what)
	if err != nil {
		return err
	}
	var seen []struct {
		ID   string    `json:"id"`
		Tags []tagSeen `json:"tags"`
	}
	if err := s.call(ctx, "listing the tag's photos", http.MethodGet, path+"/assets", s.creds, nil, &seen, http.StatusOK); err != nil {
		return err
	}
	var got []string
	for _, a := range seen {
		got = append(got, a.ID)
		if !slices.ContainsFunc(a.Tags, func(t tagSeen) bool { return t.ID == s.memories.tag }) {
			return fmt.Errorf("the photo %s the tag lists does not show the tag among its tags %v", a.ID, a.Tags)
		}
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("the tag lists %v, want %v, the oldest uploaded first", got, want)
	}
	return nil
}

// firstShowsTag judges the tags the first photo shows, read on its own.
func (s *scenario) firstShowsTag(ctx context.Context, what string) error {
	first, err := s.photoNamed("first")
	if err != nil {
		return err
	}
	var a struct {
		Tags []tagSeen `json:"tags"`
	}
	if err := s.call(ctx, "reading the photo", http.MethodGet, "/asset/"+first, s.creds, nil, &a, http.StatusOK); err != nil {
		return err
	}
	want := []tagSeen{}
	switch what {
	case "the tag":
		want = append(want, tagSeen{ID: s.memories.tag, Name: s.memories.tagName, Type: "CUSTOM"})
	case "the tag under its new name":
		want = append(want, tagSeen{ID: s.memories.tag, Name: s.memories.tagName + " renamed", Type: "CUSTOM"})
	}
	got := []tagSeen{}
	for _, t := range a.Tags {
		got = append(got, tagSeen{ID: t.ID, Name: t.Name, Type: t.Type})
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("the photo shows the tags %+v, want %+v", got, want)
	}
	return nil
}

// renameTag renames my tag: its name and " renamed".
func (s *scenario) renameTag(ctx context.Context) error {
	path, err := s.myTag()
	if err != nil {
		return err
	}
	var t tagSeen
	name := s.memories.tagName + " renamed"
	if err := s.call(ctx, "renaming the tag", http.MethodPatch, path, s.creds, map[string]any{"name": name}, &t, http.StatusOK); err != nil {
		return err
	}
	if t.Name != name || t.ID != s.memories.tag {
		return fmt.Errorf("the tag renamed reads %q (%s), want %q (%s)", t.Name, t.ID, name, s.memories.tag)
	}
	return nil
}

// deleteTag deletes my tag, and keeps the answer.
func (s *scenario) deleteTag(ctx context.Context) error {
	path, err := s.myTag()
	if err != nil {
		return err
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodDelete, path, nil)
}

// onTheirTag acts on the new user's tag as me, and keeps the answer.
func (s *scenario) onTheirTag(ctx context.Context, verb string) error {
	if s.memories.theirTag == "" {
		return fmt.Errorf("no tag of theirs was made earlier in the scenario")
	}
	path := "/tags/" + s.memories.theirTag
	switch verb {
	case "read":
		return s.sendKept(ctx, s.me, s.creds, http.MethodGet, path, nil)
	case "rename":
		return s.sendKept(ctx, s.me, s.creds, http.MethodPatch, path, map[string]any{"name": "Conformance " + randomHex(4)})
	case "delete":
		return s.sendKept(ctx, s.me, s.creds, http.MethodDelete, path, nil)
	case "list the photos of":
		return s.sendKept(ctx, s.me, s.creds, http.MethodGet, path+"/assets", nil)
	}
	mine, _, err := s.uploadPhoto(ctx, s.me)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPut, path+"/assets", map[string]any{"assetIds": []string{mine}})
}

// readTagID reads a tag by its id.
func (s *scenario) readTagID(ctx context.Context, id string) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/tags/"+id, nil)
}

// tagsOperationsRefused sends each operation on tags with the scenario's
// credentials, and judges each refused with status and message.
func (s *scenario) tagsOperationsRefused(ctx context.Context, status int, message string) error {
	ids := []byte(`{"assetIds":["` + noOne + `"]}`)
	return s.eachRefused(ctx, status, message, []apiRequest{
		{method: http.MethodGet, path: "/tags"},
		{method: http.MethodPost, path: "/tags", body: []byte(`{"name":"x","type":"CUSTOM"}`)},
		{method: http.MethodGet, path: "/tags/" + noOne},
		{method: http.MethodPatch, path: "/tags/" + noOne, body: []byte(`{"name":"y"}`)},
		{method: http.MethodDelete, path: "/tags/" + noOne},
		{method: http.MethodGet, path: "/tags/" + noOne + "/assets"},
		{method: http.MethodPut, path: "/tags/" + noOne + "/assets", body: ids},
		{method: http.MethodDelete, path: "/tags/" + noOne + "/assets", body: ids},
	})
}

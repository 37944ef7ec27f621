package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Memories and tags: a user's selections of their photos for a day, and
// their labels of them. Only their owner reads or changes either; a photo
// in the trash is out of their sight until restored. What a scenario makes
// is taken away when it ends (cleanup.go).

// memoriesState is what the memories and tags steps keep within a scenario.
type memoriesState struct {
	memory    string // the last memory I made
	created   string // its createdAt
	mine      string // a photo of mine uploaded beside another user's
	tag       string // the last tag I made
	tagName   string
	theirMem  string // the new user's memory
	theirTag  string // the new user's tag
	lastPhoto []string
}

// memorySeen is a memory as the harness reads one.
type memorySeen struct {
	ID        string  `json:"id"`
	CreatedAt string  `json:"createdAt"`
	UpdatedAt string  `json:"updatedAt"`
	SeenAt    *string `json:"seenAt"`
	IsSaved   bool    `json:"isSaved"`
	Data      struct {
		Year int `json:"year"`
	} `json:"data"`
	Assets []struct {
		ID string `json:"id"`
	} `json:"assets"`
}

// outcomeSeen is what became of one id of a request on several: a
// memory's (id) or a tag's (assetId).
type outcomeSeen struct {
	ID      string `json:"id"`
	AssetID string `json:"assetId"`
	Success bool   `json:"success"`
	Error   string `json:"error"`
}

// memorySteps are the steps about memories.
func (s *scenario) memorySteps() []step {
	return []step{
		{`^I (have made|make) a memory of the year (\d+) holding (those photos|the first of those photos|a new photo of mine and their photo)$`, s.makeMemory},
		{`^they have made a memory of the year (\d+) holding that photo$`, s.theyMakeMemory},
		{`^I make a memory from (\{.*\})$`, s.makeMemoryFrom},
		{`^the memory is of the year (\d+), holds those photos, is not saved and was never seen$`, s.memoryIsNew},
		{`^I mark (the|their) memory saved and seen$`, s.markMemory},
		{`^the memory reads saved and seen, and changed after it was made$`, s.memoryMarked},
		{`^I (read|delete) (the|their) memory$`, s.readOrDeleteMemory},
		{`^I read the memory "([^"]*)"$`, s.readMemoryID},
		{`^I (add|take) (those photos|those photos and the first again|a new photo of mine|their photo) (?:to|out of) (the|their) memory$`, s.memoryPhotos},
		{`^the outcomes are "([^"]*)"$`, s.outcomesAre},
		{`^the memory holds (no photo|those photos|the second of those photos alone|my photo alone)$`, s.memoryHolds},
		{`^the first of those photos leaves the memory$`, s.firstLeavesMemory},
		{`^I (put the first of those photos in the trash|take the first of those photos out of the trash|delete the first of those photos for good)$`, s.trashFirst},
		{`^each operation on memories is refused with status (\d+) and the message "([^"]*)"$`, s.memoriesOperationsRefused},
	}
}

// photosFor are the photos a step names, of those the scenario uploaded.
func (s *scenario) photosFor(what string) ([]string, error) {
	switch what {
	case "those photos":
		if len(s.changes.photos) == 0 {
			return nil, fmt.Errorf("no photos were uploaded earlier in the scenario")
		}
		return s.changes.photos, nil
	case "those photos and the first again":
		return append(slices.Clone(s.changes.photos), s.changes.photos[0]), nil
	case "the first of those photos":
		id, err := s.photoNamed("first")
		return []string{id}, err
	case "the second of those photos alone":
		id, err := s.photoNamed("second")
		return []string{id}, err
	case "no photo":
		return []string{}, nil
	}
	return nil, fmt.Errorf("steps: no photos %q", what) // a bug of the features
}

// makeMemory makes a memory of mine ("have made": it must be made).
func (s *scenario) makeMemory(ctx context.Context, how string, year int, what string) error {
	var ids []string
	if what == "a new photo of mine and their photo" {
		mine, _, err := s.uploadPhoto(ctx, s.me)
		if err != nil {
			return err
		}
		theirs, err := s.photoNamed("first")
		if err != nil {
			return err
		}
		s.memories.mine, ids = mine, []string{mine, theirs}
	} else {
		var err error
		if ids, err = s.photosFor(what); err != nil {
			return err
		}
	}
	in := map[string]any{"type": "on_this_day", "data": map[string]int{"year": year}, "memoryAt": fmt.Sprintf("%d-06-01T00:00:00.000Z", year), "assetIds": ids}
	if err := s.sendKept(ctx, s.me, s.creds, http.MethodPost, "/memories", in); err != nil {
		return err
	}
	var m memorySeen
	if s.last.status == http.StatusCreated && json.Unmarshal(s.last.body, &m) == nil {
		s.memories.memory, s.memories.created = m.ID, m.CreatedAt
	}
	if how == "have made" {
		return s.wantStatus(http.StatusCreated)
	}
	return nil
}

// theyMakeMemory makes a memory of the new user's, of their photo.
func (s *scenario) theyMakeMemory(ctx context.Context, year int) error {
	if s.changes.them == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	in := map[string]any{"type": "on_this_day", "data": map[string]int{"year": year}, "memoryAt": fmt.Sprintf("%d-06-01T00:00:00.000Z", year), "assetIds": s.changes.photos}
	var m memorySeen
	if err := s.call(ctx, "making their memory", http.MethodPost, "/memories", credentials{apiKey: s.changes.them.apiKey}, in, &m, http.StatusCreated); err != nil {
		return err
	}
	s.memories.theirMem = m.ID
	return nil
}

// makeMemoryFrom sends a body of my own to make a memory.
func (s *scenario) makeMemoryFrom(ctx context.Context, body string) error {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: "/memories", creds: s.creds, contentType: "application/json", body: []byte(body)})
	return s.keep(resp, s.me, err)
}

// memoryIsNew judges the memory just made.
func (s *scenario) memoryIsNew(year int) error {
	var m memorySeen
	if err := s.decodeLast(http.StatusCreated, &m); err != nil {
		return err
	}
	switch {
	case m.Data.Year != year:
		return fmt.Errorf("the memory is of the year %d, want %d", m.Data.Year, year)
	case m.IsSaved || m.SeenAt != nil:
		return fmt.Errorf("a new memory reads saved %v, seen %s: want neither", m.IsSaved, strOrNull(m.SeenAt))
	}
	return s.sameIDs("the memory's photos", m.assetIDs(), s.changes.photos)
}

func (m memorySeen) assetIDs() []string {
	out := []string{}
	for _, a := range m.Assets {
		out = append(out, a.ID)
	}
	return out
}

// sameIDs says how got differs from want, in any order.
func (s *scenario) sameIDs(what string, got, want []string) error {
	if !sameSet(got, want) {
		return fmt.Errorf("%s are %v, want %v: %s", what, got, want, s.last)
	}
	return nil
}

// memoryPath is the path of my memory, or the new user's.
func (s *scenario) memoryPath(whose string) (string, error) {
	id := s.memories.memory
	if whose == "their" {
		id = s.memories.theirMem
	}
	if id == "" {
		return "", fmt.Errorf("no such memory was made earlier in the scenario")
	}
	return "/memories/" + id, nil
}

// markMemory marks a memory saved, and seen now.
func (s *scenario) markMemory(ctx context.Context, whose string) error {
	path, err := s.memoryPath(whose)
	if err != nil {
		return err
	}
	in := map[string]any{"isSaved": true, "seenAt": time.Now().UTC().Format(time.RFC3339)}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPut, path, in)
}

// memoryMarked judges the answer to marking my memory.
func (s *scenario) memoryMarked() error {
	var m memorySeen
	if err := s.decodeLast(http.StatusOK, &m); err != nil {
		return err
	}
	made, err1 := time.Parse(time.RFC3339Nano, s.memories.created)
	changed, err2 := time.Parse(time.RFC3339Nano, m.UpdatedAt)
	switch {
	case !m.IsSaved || m.SeenAt == nil:
		return fmt.Errorf("the memory reads saved %v, seen %s: want both", m.IsSaved, strOrNull(m.SeenAt))
	case err1 != nil || err2 != nil || !changed.After(made):
		return fmt.Errorf("the memory made at %s reads changed at %s, want later", s.memories.created, m.UpdatedAt)
	}
	return nil
}

// readOrDeleteMemory reads or deletes my memory, or the new user's.
func (s *scenario) readOrDeleteMemory(ctx context.Context, verb, whose string) error {
	path, err := s.memoryPath(whose)
	if err != nil {
		return err
	}
	method := map[string]string{"read": http.MethodGet, "delete": http.MethodDelete}[verb]
	return s.sendKept(ctx, s.me, s.creds, method, path, nil)
}

// readMemoryID reads a memory by its id.
func (s *scenario) readMemoryID(ctx context.Context, id string) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/memories/"+id, nil)
}

// memoryPhotos adds photos to a memory, or takes them out.
func (s *scenario) memoryPhotos(ctx context.Context, verb, what, whose string) error {
	path, err := s.memoryPath(whose)
	if err != nil {
		return err
	}
	var ids []string
	switch what {
	case "a new photo of mine":
		id, _, err := s.uploadPhoto(ctx, s.me)
		if err != nil {
			return err
		}
		ids = []string{id}
	case "their photo":
		id, err := s.photoNamed("first")
		if err != nil {
			return err
		}
		ids = []string{id}
	default:
		if ids, err = s.photosFor(what); err != nil {
			return err
		}
	}
	s.memories.lastPhoto = ids
	method := map[string]string{"add": http.MethodPut, "take": http.MethodDelete}[verb]
	return s.sendKept(ctx, s.me, s.creds, method, path+"/assets", map[string]any{"ids": ids})
}

// outcomesAre judges what became of each id sent, in order: "success" or
// the error, separated by ", ".
func (s *scenario) outcomesAre(want string) error {
	var seen []outcomeSeen
	if err := s.decodeLast(http.StatusOK, &seen); err != nil {
		return err
	}
	var got []string
	for i, o := range seen {
		id := o.ID + o.AssetID
		if i < len(s.memories.lastPhoto) && !strings.EqualFold(id, s.memories.lastPhoto[i]) {
			return fmt.Errorf("the %d. outcome is of %s, want %s: %s", i+1, id, s.memories.lastPhoto[i], s.last)
		}
		if o.Success {
			got = append(got, "success")
		} else {
			got = append(got, o.Error)
		}
	}
	if strings.Join(got, ", ") != want {
		return fmt.Errorf("the outcomes are %q, want %q: %s", strings.Join(got, ", "), want, s.last)
	}
	return nil
}

// memoryHolds reads my memory and judges its photos, in any order.
func (s *scenario) memoryHolds(ctx context.Context, what string) error {
	want := []string{s.memories.mine}
	if what != "my photo alone" {
		var err error
		if want, err = s.photosFor(what); err != nil {
			return err
		}
	}
	path, err := s.memoryPath("the")
	if err != nil {
		return err
	}
	var m memorySeen
	if err := s.call(ctx, "reading the memory", http.MethodGet, path, s.creds, nil, &m, http.StatusOK); err != nil {
		return err
	}
	return s.sameIDs("the memory's photos", m.assetIDs(), want)
}

// firstLeavesMemory judges the first photo, deleted for good, gone from
// my memory: adding it again finds no photo to add (no_permission) rather
// than one it holds (duplicate). A server may delete a while after it
// answers (the reference deletes in a job, and lists the photo until
// then): the harness waits for it, up to --settle.
func (s *scenario) firstLeavesMemory(ctx context.Context) error {
	path, err := s.memoryPath("the")
	if err != nil {
		return err
	}
	first, err := s.photoNamed("first")
	if err != nil {
		return err
	}
	return s.settle(ctx, func() error {
		var seen []outcomeSeen
		if err := s.call(ctx, "adding the deleted photo again", http.MethodPut, path+"/assets", s.creds, map[string]any{"ids": []string{first}}, &seen, http.StatusOK); err != nil {
			return err
		}
		if len(seen) != 1 || seen[0].Success || seen[0].Error != "no_permission" {
			return fmt.Errorf("adding the photo deleted for good answers %+v, want no_permission: it is gone", seen)
		}
		return nil
	})
}

// trashFirst moves the first of my photos to the trash, takes it out, or
// deletes it for good.
func (s *scenario) trashFirst(ctx context.Context, what string) error {
	first, err := s.photoNamed("first")
	if err != nil {
		return err
	}
	mine := credentials{apiKey: s.me.apiKey}
	switch {
	case strings.HasPrefix(what, "put"):
		return s.call(ctx, "trashing the photo", http.MethodDelete, "/asset", mine, map[string]any{"ids": []string{first}}, nil, http.StatusNoContent)
	case strings.HasPrefix(what, "take"):
		return s.call(ctx, "restoring the photo", http.MethodPost, "/trash/restore/assets", mine, map[string]any{"ids": []string{first}}, nil, http.StatusNoContent)
	}
	return s.call(ctx, "deleting the photo for good", http.MethodDelete, "/asset", mine, map[string]any{"ids": []string{first}, "force": true}, nil, http.StatusNoContent)
}

// memoriesOperationsRefused sends each operation on memories with the
// scenario's credentials, and judges each refused with status and message.
func (s *scenario) memoriesOperationsRefused(ctx context.Context, status int, message string) error {
	ids := []byte(`{"ids":["` + noOne + `"]}`)
	return s.eachRefused(ctx, status, message, []apiRequest{
		{method: http.MethodGet, path: "/memories"},
		{method: http.MethodPost, path: "/memories", body: []byte(`{"type":"on_this_day","data":{"year":2021},"memoryAt":"2021-01-01"}`)},
		{method: http.MethodGet, path: "/memories/" + noOne},
		{method: http.MethodPut, path: "/memories/" + noOne, body: []byte(`{"isSaved":true}`)},
		{method: http.MethodDelete, path: "/memories/" + noOne},
		{method: http.MethodPut, path: "/memories/" + noOne + "/assets", body: ids},
		{method: http.MethodDelete, path: "/memories/" + noOne + "/assets", body: ids},
	})
}

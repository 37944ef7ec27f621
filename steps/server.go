package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// serverSteps are the steps about the server's own routes, the album
// list, a link's assets edited in place, and users' profile images.
func (s *scenario) serverSteps() []step {
	return []step{
		{`^I ask the server for "([^"]*)" without credentials$`, s.askWithoutCredentials},
		{`^it answers pong$`, s.answersPong},
		{`^it names its version in three numbers$`, s.namesItsVersion},
		{`^the images it takes include "([^"]*)", the videos "([^"]*)" and the sidecars "([^"]*)"$`, s.takesTheseFiles},
		{`^I list my albums$`, s.listMyAlbums},
		{`^the list holds the album "([^"]*)", counting (\d+) assets?$`, s.listHoldsAlbum},
		{`^I have shared the first of those photos on its own$`, s.shareFirstPhotoAlone},
		{`^I (add|take) the (first|second) of those photos (?:to|out of) the link$`, s.editPhotoOfLink},
		{`^each photo is told it was (added|taken out), and the link holds (both|only the second)$`, s.linkHoldsPhotosAfterEdit},
		{`^I ask for that user's profile image$`, s.askForThatUsersProfileImage},
		{`^I ask for the profile image of the user "([^"]*)"$`, s.askForProfileImageOf},
	}
}

// askWithoutCredentials asks for a path of the server without credentials.
func (s *scenario) askWithoutCredentials(ctx context.Context, path string) error {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: path})
	return s.keep(resp, nil, err)
}

// answersPong judges a ping's answer.
func (s *scenario) answersPong() error {
	var out struct {
		Res string `json:"res"`
	}
	if err := s.decodeLast(http.StatusOK, &out); err != nil {
		return err
	}
	if out.Res != "pong" {
		return fmt.Errorf(`the answer's "res" is %q, want "pong"`, out.Res)
	}
	return nil
}

// namesItsVersion judges the version the server names.
func (s *scenario) namesItsVersion() error {
	var out struct {
		Major, Minor, Patch *int
	}
	if err := s.decodeLast(http.StatusOK, &out); err != nil {
		return err
	}
	if out.Major == nil || out.Minor == nil || out.Patch == nil || *out.Major < 0 || *out.Minor < 0 || *out.Patch < 0 {
		return fmt.Errorf("the version is not three numbers, major, minor and patch: %s", s.last)
	}
	return nil
}

// takesTheseFiles judges the file types the server takes.
func (s *scenario) takesTheseFiles(images, videos, sidecars string) error {
	var out struct {
		Image, Video, Sidecar []string
	}
	if err := s.decodeLast(http.StatusOK, &out); err != nil {
		return err
	}
	for _, kind := range []struct {
		name       string
		want, have []string
	}{
		{"images", list(images), out.Image}, {"videos", list(videos), out.Video}, {"sidecars", list(sidecars), out.Sidecar},
	} {
		for _, ext := range kind.want {
			if !slices.Contains(kind.have, ext) {
				return fmt.Errorf("the %s it takes do not include %q: %q", kind.name, ext, kind.have)
			}
		}
	}
	return nil
}

// listMyAlbums asks for my albums.
func (s *scenario) listMyAlbums(ctx context.Context) error {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/albums", creds: s.creds})
	return s.keep(resp, s.me, err)
}

// listHoldsAlbum judges the album list: it holds the album, with its count.
func (s *scenario) listHoldsAlbum(name string, n int) error {
	var albums []albumSeen
	if err := s.decodeLast(http.StatusOK, &albums); err != nil {
		return err
	}
	for _, a := range albums {
		if a.AlbumName == name && (s.wf.album == "" || a.ID == s.wf.album) {
			if a.AssetCount != n {
				return fmt.Errorf("the album %q counts %d assets, want %d", name, a.AssetCount, n)
			}
			return nil
		}
	}
	return fmt.Errorf("the list of %d albums does not hold %q (%s)", len(albums), name, s.wf.album)
}

// shareFirstPhotoAlone shares the first photo of the scenario in a link of its own.
func (s *scenario) shareFirstPhotoAlone(ctx context.Context) error {
	if len(s.wf.photos) < 1 {
		return fmt.Errorf("no photos were uploaded earlier in the scenario")
	}
	l, err := s.makeLink(ctx, s.me, map[string]any{"type": "INDIVIDUAL", "assetIds": s.wf.photos[:1]})
	s.photoLink = l
	return err
}

// editPhotoOfLink adds a photo to the link of one photo, or takes one out.
func (s *scenario) editPhotoOfLink(ctx context.Context, verb, which string) error {
	if s.photoLink == nil || len(s.wf.photos) < 2 {
		return fmt.Errorf("no link of two photos was made earlier in the scenario")
	}
	id := s.wf.photos[0]
	if which == "second" {
		id = s.wf.photos[1]
	}
	method := http.MethodPut
	if verb == "take" {
		method = http.MethodDelete
	}
	return s.sendJSON(ctx, method, "/shared-links/"+s.photoLink.ID+"/assets", s.creds, map[string]any{"assetIds": []string{id}})
}

// linkHoldsPhotosAfterEdit judges the answer to a link's edit, and what the link then holds.
func (s *scenario) linkHoldsPhotosAfterEdit(ctx context.Context, _, holds string) error {
	var results []struct {
		AssetID string  `json:"assetId"`
		Success bool    `json:"success"`
		Error   *string `json:"error"`
	}
	if err := s.decodeLast(http.StatusOK, &results); err != nil {
		return err
	}
	if len(results) != 1 || !results[0].Success {
		return fmt.Errorf("want one result, a success: %s", s.last)
	}
	var l link
	if err := s.call(ctx, "reading the link", http.MethodGet, "/shared-links/"+s.photoLink.ID, s.creds, nil, &l, http.StatusOK); err != nil {
		return err
	}
	var ids []string
	for _, a := range l.Assets {
		ids = append(ids, a.ID)
	}
	want := s.wf.photos[:2]
	if holds == "only the second" {
		want = s.wf.photos[1:2]
	}
	if !sameSet(ids, want) {
		return fmt.Errorf("the link holds %q, want %q", ids, want)
	}
	return nil
}

// askForThatUsersProfileImage asks for the profile image of the user made for the scenario.
func (s *scenario) askForThatUsersProfileImage(ctx context.Context) error {
	if s.fresh == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	var me struct {
		ID string `json:"id"`
	}
	if err := s.call(ctx, "reading the new user", http.MethodGet, "/users/me", credentials{apiKey: s.fresh.apiKey}, nil, &me, http.StatusOK); err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/users/" + me.ID + "/profile-image", creds: s.creds})
	return s.keep(resp, s.me, err)
}

// askForProfileImageOf asks for the profile image of a user by id.
func (s *scenario) askForProfileImageOf(ctx context.Context, id string) error {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/users/" + id + "/profile-image", creds: s.creds})
	return s.keep(resp, s.me, err)
}

// decodeLast judges the last answer's status, then decodes its JSON body
// into out.
func (s *scenario) decodeLast(status int, out any) error {
	if err := s.wantStatus(status); err != nil {
		return err
	}
	if err := json.Unmarshal(s.last.body, out); err != nil {
		return fmt.Errorf("the answer is not the JSON it should be (%w): %s", err, s.last)
	}
	return nil
}

// list reads ".jpg, .heic" as its items.
func list(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

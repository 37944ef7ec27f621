package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/fixtures"
)

// External libraries: an admin names folders on the server's machine, and
// a scan imports the photos and videos in them as assets of the library's
// owner. What needs no folder runs on any target. What needs files in a
// folder (@library-folder) needs a folder that the server reads at the
// same path as the harness writes it (Config.LibraryFolder: the server on
// the harness's machine, or a folder shared with it): the harness puts
// copies of its fixtures there, in a folder of its own that it removes
// again, and the scenario is skipped without one.

// TagLibraryFolder marks the scenarios that need Config.LibraryFolder.
const TagLibraryFolder = "@library-folder"

// librariesState is what the library steps keep within a scenario.
type librariesState struct {
	id        string  // the scenario's library
	folder    string  // the folder the scenario filled, below Config.LibraryFolder
	refreshed *string // the library's refreshedAt before the last scan asked for
}

// librarySeen is a library as the harness reads one.
type librarySeen struct {
	ID                string   `json:"id"`
	OwnerID           string   `json:"ownerId"`
	Name              string   `json:"name"`
	ImportPaths       []string `json:"importPaths"`
	ExclusionPatterns []string `json:"exclusionPatterns"`
	RefreshedAt       *string  `json:"refreshedAt"`
}

// libraryAsset is an asset of a library as search shows it.
type libraryAsset struct {
	ID               string  `json:"id"`
	OriginalPath     string  `json:"originalPath"`
	OriginalFileName string  `json:"originalFileName"`
	OwnerID          string  `json:"ownerId"`
	LibraryID        *string `json:"libraryId"`
	IsOffline        bool    `json:"isOffline"`
	Type             string  `json:"type"`
}

// externalLibrarySteps are the steps about external libraries.
func (s *scenario) externalLibrarySteps() []step {
	return []step{
		{`^an admin makes me an external library$`, s.makeLibrary},
		{`^an admin makes me an external library with the import paths ((?:"[^"]*"(?:, )?)+)$`, s.makeLibraryWithPaths},
		{`^the library is named "([^"]*)", mine, with no import paths and no exclusion patterns, never scanned$`, s.libraryIsNew},
		{`^the admin (?:renames|tries to rename) the library "([^"]*)"$`, s.renameLibrary},
		{`^the library, read again, is named "([^"]*)"$`, s.libraryNamed},
		{`^the admin deletes the library$`, s.deleteLibrary},
		{`^the libraries listed hold it no more$`, s.libraryNotListed},
		{`^the admin validates the import paths ((?:"[^"]*"(?:, )?)+) for the library$`, s.validateLibraryPaths},
		{`^"([^"]*)" (?:is valid|is not valid, because "([^"]*)")$`, s.importPathJudged},
		{`^the library counts (\d+) photos, (\d+) videos and (\d+) bytes$`, s.libraryCounts},
		{`^the admin scans the library$`, s.scanLibrary},
		{`^the admin scans the library, reading changed files again$`, s.scanLibraryModified},
		{`^the library is scanned soon, and holds (\d+) assets?$`, s.libraryScannedHolding},
		{`^the admin removes the library's offline assets$`, s.removeOfflineAssets},
		{`^I use the other user's API key$`, s.useOtherUsersKey},
		{`^each operation on libraries is refused with status (\d+) and the message "([^"]*)"$`, s.librariesOperationsRefused},
		{`^a folder on the server's machine holding a photo, a video, a text file, a hidden photo and a photo in "([^"]*)"$`, s.libraryFolderFilled},
		{`^an admin makes me an external library of that folder, without "([^"]*)"$`, s.makeLibraryOfFolder},
		{`^the library holds the photo and the video, mine, each with its path on the server's machine$`, s.libraryHoldsPhotoAndVideo},
		{`^the photo goes from the folder and another photo comes into it$`, s.folderChanges},
		{`^the photo's asset is offline, and the other photo is in the library$`, s.photoOfflineOtherIn},
		{`^the library holds the video and the other photo$`, s.libraryHoldsVideoAndOther},
	}
}

// myLibrary is the scenario's library.
func (s *scenario) myLibrary() (string, error) {
	if s.libraries.id == "" {
		return "", fmt.Errorf("no library was made earlier in the scenario")
	}
	return s.libraries.id, nil
}

// makeLibraryAs makes a library of mine with in's fields, keeping the answer.
func (s *scenario) makeLibraryAs(ctx context.Context, in map[string]any) error {
	id, err := s.idOf(ctx, s.me)
	if err != nil {
		return err
	}
	in["ownerId"] = id
	if err := s.asAdmin(ctx, http.MethodPost, "/libraries", in); err != nil {
		return err
	}
	var l librarySeen
	if s.last.status == http.StatusCreated && json.Unmarshal(s.last.body, &l) == nil {
		s.libraries.id = l.ID
	}
	return nil
}

// makeLibrary makes a library of mine with the reference's defaults.
func (s *scenario) makeLibrary(ctx context.Context) error {
	return s.makeLibraryAs(ctx, map[string]any{})
}

// makeLibraryWithPaths makes a library of mine with those import paths.
func (s *scenario) makeLibraryWithPaths(ctx context.Context, paths string) error {
	return s.makeLibraryAs(ctx, map[string]any{"importPaths": quotedList(paths)})
}

// callAsAdmin sends a request of the set-up or of a judgement with an
// admin's credentials; it must answer 200.
func (s *scenario) callAsAdmin(ctx context.Context, what, method, path string, in, out any) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	return s.call(ctx, what, method, path, admin, in, out, http.StatusOK)
}

// quotedList is the texts of a step's list: "a", "b".
func quotedList(v string) []string {
	return strings.Split(strings.TrimSuffix(strings.TrimPrefix(v, `"`), `"`), `", "`)
}

// readLibrary reads the scenario's library.
func (s *scenario) readLibrary(ctx context.Context) (librarySeen, error) {
	var l librarySeen
	id, err := s.myLibrary()
	if err != nil {
		return l, err
	}
	err = s.callAsAdmin(ctx, "reading the library", http.MethodGet, "/libraries/"+id, nil, &l)
	return l, err
}

// libraryIsNew judges a library just made with no fields but its owner.
func (s *scenario) libraryIsNew(ctx context.Context, name string) error {
	if err := s.wantStatus(http.StatusCreated); err != nil {
		return err
	}
	l, err := s.readLibrary(ctx)
	if err != nil {
		return err
	}
	me, err := s.idOf(ctx, s.me)
	if err != nil {
		return err
	}
	switch {
	case l.Name != name:
		return fmt.Errorf("the library is named %q, want %q", l.Name, name)
	case l.OwnerID != me:
		return fmt.Errorf("the library's owner is %s, not me (%s)", l.OwnerID, me)
	case l.ImportPaths == nil || len(l.ImportPaths) > 0 || l.ExclusionPatterns == nil || len(l.ExclusionPatterns) > 0:
		return fmt.Errorf("the library's import paths %q and exclusion patterns %q, want both empty lists", l.ImportPaths, l.ExclusionPatterns)
	case l.RefreshedAt != nil:
		return fmt.Errorf("a new library was refreshed at %s", *l.RefreshedAt)
	}
	return nil
}

// renameLibrary renames the scenario's library.
func (s *scenario) renameLibrary(ctx context.Context, name string) error {
	id, err := s.myLibrary()
	if err != nil {
		return err
	}
	return s.asAdmin(ctx, http.MethodPut, "/libraries/"+id, map[string]any{"name": name})
}

// libraryNamed judges the library's name as it is read again.
func (s *scenario) libraryNamed(ctx context.Context, name string) error {
	l, err := s.readLibrary(ctx)
	if err != nil {
		return err
	}
	if l.Name != name {
		return fmt.Errorf("the library is named %q, want %q", l.Name, name)
	}
	return nil
}

// deleteLibrary deletes the scenario's library.
func (s *scenario) deleteLibrary(ctx context.Context) error {
	id, err := s.myLibrary()
	if err != nil {
		return err
	}
	return s.asAdmin(ctx, http.MethodDelete, "/libraries/"+id, nil)
}

// libraryNotListed says the libraries listed no longer hold the scenario's.
func (s *scenario) libraryNotListed(ctx context.Context) error {
	id, err := s.myLibrary()
	if err != nil {
		return err
	}
	var all []librarySeen
	if err := s.callAsAdmin(ctx, "listing the libraries", http.MethodGet, "/libraries", nil, &all); err != nil {
		return err
	}
	if slices.ContainsFunc(all, func(l librarySeen) bool { return l.ID == id }) {
		return fmt.Errorf("the libraries still list %s", id)
	}
	return nil
}

// validateLibraryPaths asks whether those import paths will do.
func (s *scenario) validateLibraryPaths(ctx context.Context, paths string) error {
	id, err := s.myLibrary()
	if err != nil {
		return err
	}
	return s.asAdmin(ctx, http.MethodPost, "/libraries/"+id+"/validate", map[string]any{"importPaths": quotedList(paths)})
}

// importPathJudged judges one path of the last validation's answer.
func (s *scenario) importPathJudged(path, message string) error {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	var out struct {
		ImportPaths []struct {
			ImportPath string  `json:"importPath"`
			IsValid    bool    `json:"isValid"`
			Message    *string `json:"message"`
		} `json:"importPaths"`
	}
	if err := json.Unmarshal(s.last.body, &out); err != nil {
		return err
	}
	for _, p := range out.ImportPaths {
		if p.ImportPath != path {
			continue
		}
		switch {
		case message == "" && (!p.IsValid || p.Message != nil):
			return fmt.Errorf("%q is judged not valid (%v), want valid", path, p.Message)
		case message != "" && (p.IsValid || p.Message == nil || *p.Message != message):
			return fmt.Errorf("%q is judged valid %t, %v; want not valid, %q", path, p.IsValid, p.Message, message)
		}
		return nil
	}
	return fmt.Errorf("the answer does not judge %q: %s", path, s.last)
}

// libraryCounts judges the library's statistics.
func (s *scenario) libraryCounts(ctx context.Context, photos, videos, usage int) error {
	id, err := s.myLibrary()
	if err != nil {
		return err
	}
	var st struct{ Photos, Videos, Total, Usage int }
	if err := s.callAsAdmin(ctx, "counting the library", http.MethodGet, "/libraries/"+id+"/statistics", nil, &st); err != nil {
		return err
	}
	if st.Photos != photos || st.Videos != videos || st.Usage != usage || st.Total != photos+videos {
		return fmt.Errorf("the library counts %+v, want %d photos, %d videos, %d bytes", st, photos, videos, usage)
	}
	return nil
}

// scanLibrary asks for a scan of the library.
func (s *scenario) scanLibrary(ctx context.Context) error { return s.scanWith(ctx, map[string]any{}) }

// scanLibraryModified asks for a scan that reads changed files again.
func (s *scenario) scanLibraryModified(ctx context.Context) error {
	return s.scanWith(ctx, map[string]any{"refreshModifiedFiles": true})
}

// scanWith asks for a scan of the library, which the server answers 204 at once.
func (s *scenario) scanWith(ctx context.Context, in map[string]any) error {
	id, err := s.myLibrary()
	if err != nil {
		return err
	}
	before, err := s.readLibrary(ctx)
	if err != nil {
		return err
	}
	s.libraries.refreshed = before.RefreshedAt
	if err := s.asAdmin(ctx, http.MethodPost, "/libraries/"+id+"/scan", in); err != nil {
		return err
	}
	return s.wantStatus(http.StatusNoContent)
}

// libraryScannedHolding waits for a scan of the library to end, holding n
// assets.
func (s *scenario) libraryScannedHolding(ctx context.Context, n int) error {
	before := s.libraries.refreshed
	return s.settle(ctx, func() error {
		l, err := s.readLibrary(ctx)
		if err != nil {
			return err
		}
		if l.RefreshedAt == nil || (before != nil && *l.RefreshedAt == *before) {
			return fmt.Errorf("the library has not been scanned (refreshedAt %v)", l.RefreshedAt)
		}
		assets, err := s.libraryAssets(ctx)
		if err != nil {
			return err
		}
		if len(assets) != n {
			return fmt.Errorf("the library holds %d assets, want %d", len(assets), n)
		}
		return nil
	})
}

// libraryAssets are the library's assets, by file name, as search finds them.
func (s *scenario) libraryAssets(ctx context.Context) (map[string]libraryAsset, error) {
	id, err := s.myLibrary()
	if err != nil {
		return nil, err
	}
	var out struct {
		Assets struct {
			Items []libraryAsset `json:"items"`
		} `json:"assets"`
	}
	if err := s.call(ctx, "searching the library's assets", http.MethodPost, "/search/metadata", s.creds, map[string]any{"libraryId": id}, &out, http.StatusOK); err != nil {
		return nil, err
	}
	byName := map[string]libraryAsset{}
	for _, a := range out.Assets.Items {
		byName[a.OriginalFileName] = a
	}
	return byName, nil
}

// removeOfflineAssets removes the library's offline assets, answered 204.
func (s *scenario) removeOfflineAssets(ctx context.Context) error {
	id, err := s.myLibrary()
	if err != nil {
		return err
	}
	if err := s.asAdmin(ctx, http.MethodPost, "/libraries/"+id+"/removeOffline", nil); err != nil {
		return err
	}
	return s.wantStatus(http.StatusNoContent)
}

// librariesOperationsRefused asks for each operation on libraries with the
// scenario's credentials, about no library.
func (s *scenario) librariesOperationsRefused(ctx context.Context, status int, message string) error {
	one := "/libraries/" + noOne
	return s.eachRefused(ctx, status, message, []apiRequest{
		{method: http.MethodGet, path: "/libraries"},
		{method: http.MethodPost, path: "/libraries", body: []byte(`{"ownerId":"` + noOne + `"}`)},
		{method: http.MethodGet, path: one},
		{method: http.MethodPut, path: one, body: []byte(`{"name":"x"}`)},
		{method: http.MethodDelete, path: one},
		{method: http.MethodPost, path: one + "/validate", body: []byte(`{"importPaths":["/"]}`)},
		{method: http.MethodGet, path: one + "/statistics"},
		{method: http.MethodPost, path: one + "/scan", body: []byte(`{}`)},
		{method: http.MethodPost, path: one + "/removeOffline"},
	})
}

// useOtherUsersKey makes the other user's API key the scenario's credentials.
func (s *scenario) useOtherUsersKey(ctx context.Context) error {
	u, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	s.creds = credentials{apiKey: u.apiKey}
	return nil
}

// The files the harness puts in a library's folder, from its fixtures.
const (
	libraryPhoto = "photo.jpg" // fixtures' DSC01234.JPG
	libraryVideo = "clip.mp4"  // fixtures' VID_20240101_120000.mp4
	libraryOther = "other.png" // fixtures' Screenshot_20240301-091500.png
)

// libraryFolderFilled makes a folder of the scenario's below
// Config.LibraryFolder and puts in it a photo and a video, a text file, a
// hidden photo and a photo in a folder named excluded; it is removed when
// the scenario ends.
func (s *scenario) libraryFolderFilled(excluded string) error {
	if s.cfg.LibraryFolder == "" {
		return skip("needs a folder the server reads where the harness writes it: give --library-folder (%s)", TagLibraryFolder)
	}
	dir := filepath.Join(s.cfg.LibraryFolder, "mediaspec-"+randomHex(6))
	s.libraries.folder = dir
	s.later("the library folder "+dir, func(context.Context) error { return os.RemoveAll(dir) })
	for name, fixture := range map[string]string{
		libraryPhoto: "DSC01234.JPG", libraryVideo: "VID_20240101_120000.mp4", ".hidden.jpg": "IMG_4021.JPG",
		filepath.Join(excluded, "skipped.jpg"): "IMG_4021.JPG",
	} {
		if err := copyFixture(fixture, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a photo\n"), 0o644)
}

// copyFixture writes the fixture's bytes to path, readable by a server
// that runs as another user.
func copyFixture(fixture, path string) error {
	b, err := fixtures.ReadFile(fixture)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// makeLibraryOfFolder makes a library of mine of the scenario's folder, without the folder named excluded.
func (s *scenario) makeLibraryOfFolder(ctx context.Context, excluded string) error {
	if s.libraries.folder == "" {
		return fmt.Errorf("no folder was filled earlier in the scenario")
	}
	return s.makeLibraryAs(ctx, map[string]any{"importPaths": []string{s.libraries.folder}, "exclusionPatterns": []string{"**/" + excluded + "/**"}})
}

// libraryHolds waits for the library to hold exactly the files named, each
// offline or not as want says, mine and with its path.
func (s *scenario) libraryHolds(ctx context.Context, want map[string]bool) error {
	me, err := s.idOf(ctx, s.me)
	if err != nil {
		return err
	}
	return s.settle(ctx, func() error {
		assets, err := s.libraryAssets(ctx)
		if err != nil {
			return err
		}
		if len(assets) != len(want) {
			return fmt.Errorf("the library holds %q, want %d assets", slices.Sorted(mapKeys(assets)), len(want))
		}
		for name, offline := range want {
			a, ok := assets[name]
			switch {
			case !ok:
				return fmt.Errorf("the library holds no %s", name)
			case a.IsOffline != offline:
				return fmt.Errorf("%s is offline %t, want %t", name, a.IsOffline, offline)
			case a.OriginalPath != filepath.Join(s.libraries.folder, name):
				return fmt.Errorf("%s's originalPath is %q, want its path %q", name, a.OriginalPath, filepath.Join(s.libraries.folder, name))
			case a.OwnerID != me || a.LibraryID == nil || *a.LibraryID != s.libraries.id:
				return fmt.Errorf("%s is of owner %s and library %v, want mine (%s) and %s", name, a.OwnerID, a.LibraryID, me, s.libraries.id)
			}
		}
		return nil
	})
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// libraryHoldsPhotoAndVideo waits for the library to hold the photo and the video, online.
func (s *scenario) libraryHoldsPhotoAndVideo(ctx context.Context) error {
	return s.libraryHolds(ctx, map[string]bool{libraryPhoto: false, libraryVideo: false})
}

// folderChanges takes the photo out of the library's folder and puts
// another photo in.
func (s *scenario) folderChanges() error {
	if err := os.Remove(filepath.Join(s.libraries.folder, libraryPhoto)); err != nil {
		return err
	}
	return copyFixture("Screenshot_20240301-091500.png", filepath.Join(s.libraries.folder, libraryOther))
}

// photoOfflineOtherIn waits for the photo gone to be offline and the other photo to be in.
func (s *scenario) photoOfflineOtherIn(ctx context.Context) error {
	return s.libraryHolds(ctx, map[string]bool{libraryPhoto: true, libraryVideo: false, libraryOther: false})
}

// libraryHoldsVideoAndOther waits for the library to hold the video and the other photo alone.
func (s *scenario) libraryHoldsVideoAndOther(ctx context.Context) error {
	return s.libraryHolds(ctx, map[string]bool{libraryVideo: false, libraryOther: false})
}

// removingLibrary is the undo of a library made: deleted, or gone already
// (a deleted library answers 500 on the reference, and is listed no more).
func (s *scenario) removingLibrary(creds credentials, id string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodDelete, path: "/libraries/" + id, creds: creds})
		if err == nil && resp.status == http.StatusNoContent {
			return nil
		}
		var all []librarySeen
		if err := s.call(ctx, "listing the libraries", http.MethodGet, "/libraries", creds, nil, &all, http.StatusOK); err != nil {
			return err
		}
		if slices.ContainsFunc(all, func(l librarySeen) bool { return l.ID == id }) {
			return fmt.Errorf("the library %s could not be deleted: %v %s", id, err, resp)
		}
		return nil
	}
}

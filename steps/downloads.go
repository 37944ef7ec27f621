package steps

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
)

// Downloads: what a link's holder takes of what it shares, as the upstream
// web app's share page takes it: POST /download/info for the archives an
// album makes, then POST /download/archive for each, or POST
// /download/asset/{id} for one original.

// downloading is what these steps keep within a scenario.
type downloading struct {
	shared   []string  // the ids of the photos the link shares
	plan     *planSeen // the archives the holder was told of
	archives [][]byte  // the archives the holder received
	token    string    // the token the link's password gave
}

// planSeen is a DownloadResponseDto as the harness reads it.
type planSeen struct {
	TotalSize *int64 `json:"totalSize"`
	Archives  []struct {
		Size     *int64   `json:"size"`
		AssetIDs []string `json:"assetIds"`
	} `json:"archives"`
}

// holder is how the holder of the scenario's link authenticates, and the
// query that carries the token its password gave, when asked for.
func (s *scenario) holder(withToken bool) (credentials, string, error) {
	if s.link == nil {
		return credentials{}, "", fmt.Errorf("no link was made earlier in the scenario")
	}
	query := ""
	if withToken {
		if s.dl.token == "" {
			return credentials{}, "", fmt.Errorf("the holder got no token earlier in the scenario")
		}
		query = "?token=" + url.QueryEscape(s.dl.token)
	}
	return credentials{linkKey: s.link.Key}, query, nil
}

// sharedFiles are the files of the photos the link shares, by id.
func (s *scenario) sharedFiles() (map[string]*file, error) {
	if len(s.dl.shared) == 0 {
		return nil, fmt.Errorf("no photos were shared earlier in the scenario")
	}
	files := map[string]*file{}
	for i, id := range s.wf.photos {
		if slices.Contains(s.dl.shared, id) {
			files[id] = s.wf.files[i]
		}
	}
	return files, nil
}

// holderAsks sends the holder's JSON request and keeps the answer.
func (s *scenario) holderAsks(ctx context.Context, path string, withToken bool, in any) error {
	creds, query, err := s.holder(withToken)
	if err != nil {
		return err
	}
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: path + query, creds: creds, contentType: "application/json", body: body})
	return s.keep(resp, nil, err)
}

// readArchive reads a zip answer: each file's name and content, its CRC
// and size checked as it is read.
func readArchive(body []byte) (map[string][]byte, []string, error) {
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return nil, nil, fmt.Errorf("the answer is not a zip archive: %w", err)
	}
	files := map[string][]byte{}
	var names []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, nil, fmt.Errorf("the archive's %s cannot be opened: %w", f.Name, err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, maxBody))
		_ = rc.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("the archive's %s cannot be read (its CRC or size is wrong?): %w", f.Name, err)
		}
		names = append(names, f.Name)
		files[f.Name] = b
	}
	return files, names, nil
}

// holdsExactly checks that archives hold each of files once, byte for
// byte (by SHA-1), and nothing else, under names that are the files' own
// or, for a name met again, NAME+N.EXT.
func holdsExactly(archives [][]byte, files map[string]*file) error {
	want := map[[20]byte]*file{}
	for _, f := range files {
		want[f.sha1()] = f
	}
	seen := map[[20]byte]string{}
	names := map[string]bool{}
	for i, body := range archives {
		got, order, err := readArchive(body)
		if err != nil {
			return fmt.Errorf("archive %d: %w", i+1, err)
		}
		for _, name := range order {
			if names[name] {
				return fmt.Errorf("two files of the archives are named %s", name)
			}
			names[name] = true
			sum := sha1.Sum(got[name])
			f, ok := want[sum]
			switch {
			case !ok:
				return fmt.Errorf("archive %d holds %s (%d bytes, SHA-1 %s), which is none of the files uploaded", i+1, name, len(got[name]), hex.EncodeToString(sum[:]))
			case seen[sum] != "":
				return fmt.Errorf("the archives hold the same file twice, as %s and %s", seen[sum], name)
			case !namedAfter(name, f.name):
				return fmt.Errorf("the file uploaded as %s is named %s in the archive", f.name, name)
			}
			seen[sum] = name
		}
	}
	for sum, f := range want {
		if seen[sum] == "" {
			return fmt.Errorf("no archive holds the file uploaded as %s (SHA-1 %s)", f.name, hex.EncodeToString(sum[:]))
		}
	}
	return nil
}

// namedAfter says whether an archive's name is the uploaded name, or it
// with +N before its extension.
func namedAfter(name, uploaded string) bool {
	if name == uploaded {
		return true
	}
	ext := path.Ext(uploaded)
	stem, found := strings.CutSuffix(name, ext)
	if !found {
		return false
	}
	n, found := strings.CutPrefix(stem, strings.TrimSuffix(uploaded, ext)+"+")
	return found && n != "" && strings.Trim(n, "0123456789") == ""
}

// downloadSteps are the steps about what a link's holder downloads.
func (s *scenario) downloadSteps() []step {
	return []step{
		{`^I have shared an album of (those photos|the first of those photos) (that allows downloads|that does not allow downloads|with the password "([^"]*)")$`, s.shareAlbumForDownload},

		{`^its holder asks which archives the album makes$`, s.holderAsksAlbumArchives},
		{`^its holder asks which archives (?:those photos|all of my photos) make$`, s.holderAsksPhotoArchives},
		{`^its holder asks for an archive of (?:those photos|all of my photos)( with the token it got)?$`, s.holderAsksForArchive},
		{`^the archives hold exactly those photos, with the sizes of their files$`, s.archivesPlanHoldsPhotos},
		{`^its holder downloads each archive$`, s.holderDownloadsArchives},
		{`^the archives? holds? exactly the files I uploaded, byte for byte$`, s.archivesHoldFiles},
		{`^its holder downloads each of those photos on its own, byte for byte$`, s.holderDownloadsEachPhoto},
		{`^its holder, asking for each of those photos on its own, is refused with status (\d+) and the message "([^"]*)"$`, s.holderRefusedEachPhoto},
		{`^its holder, asking for the original of each of those photos, gets none of their bytes$`, s.holderGetsNoOriginals},
		{`^its holder opens the link with the password "([^"]*)" and keeps the token it gives$`, s.holderOpensWithPassword},
		{`^the archive is refused with status 401 and the message "Invalid password", or is exactly the files I uploaded where the server checks a link's password only when the link is opened$`, s.archiveRefusedOrExact},
	}
}

// shareAlbumForDownload makes an album of my photos of the scenario, or of
// the first of them, and a link to it that allows downloads or not, or has
// a password.
func (s *scenario) shareAlbumForDownload(ctx context.Context, which, how, password string) error {
	if len(s.wf.photos) == 0 {
		return fmt.Errorf("no photos were uploaded earlier in the scenario")
	}
	s.dl.shared = s.wf.photos
	if which == "the first of those photos" {
		s.dl.shared = s.wf.photos[:1]
	}
	if _, err := s.makeAlbum(ctx, "Conformance "+randomHex(4), s.dl.shared); err != nil {
		return err
	}
	in := map[string]any{"type": "ALBUM", "albumId": s.wf.album, "allowUpload": false, "allowDownload": how != "that does not allow downloads"}
	if password != "" {
		in["password"] = password
	}
	var l link
	if err := s.call(ctx, "making the link", http.MethodPost, "/shared-links", credentials{apiKey: s.me.apiKey}, in, &l, http.StatusCreated); err != nil {
		return err
	}
	if l.Key == "" {
		return fmt.Errorf("making the link: the answer has no key")
	}
	s.link = &l
	return nil
}

// holderAsksAlbumArchives asks, as the link's holder, which archives the
// album makes.
func (s *scenario) holderAsksAlbumArchives(ctx context.Context) error {
	return s.holderAsks(ctx, "/download/info", false, map[string]any{"albumId": s.wf.album})
}

// holderAsksPhotoArchives asks, as the link's holder, which archives my
// photos of the scenario make.
func (s *scenario) holderAsksPhotoArchives(ctx context.Context) error {
	return s.holderAsks(ctx, "/download/info", false, map[string]any{"assetIds": s.wf.photos})
}

// holderAsksForArchive asks, as the link's holder, for an archive of my
// photos of the scenario, with the token a password gave when the step
// says so; an archive received is kept.
func (s *scenario) holderAsksForArchive(ctx context.Context, withToken string) error {
	s.dl.archives = nil
	if err := s.holderAsks(ctx, "/download/archive", withToken != "", map[string]any{"assetIds": s.wf.photos}); err != nil {
		return err
	}
	if s.last.status == http.StatusOK {
		s.dl.archives = [][]byte{s.last.body}
	}
	return nil
}

// archivesPlanHoldsPhotos judges the archives the holder was told of:
// together they list each shared photo once, and their sizes are their
// files'. The plan is kept for the downloads.
func (s *scenario) archivesPlanHoldsPhotos() error {
	if err := s.wantStatus(http.StatusCreated, http.StatusOK); err != nil {
		return err
	}
	var plan planSeen
	if err := json.Unmarshal(s.last.body, &plan); err != nil || plan.TotalSize == nil {
		return fmt.Errorf("the answer is not a download's archives: %s", s.last)
	}
	files, err := s.sharedFiles()
	if err != nil {
		return err
	}
	var listed []string
	var want, sum int64
	for i, ar := range plan.Archives {
		if ar.Size == nil {
			return fmt.Errorf("archive %d has no size: %s", i+1, s.last)
		}
		var size int64
		for _, id := range ar.AssetIDs {
			f, ok := files[id]
			if !ok {
				return fmt.Errorf("archive %d lists %s, which is not one of the photos shared", i+1, id)
			}
			size += int64(len(f.content))
		}
		if *ar.Size != size {
			return fmt.Errorf("archive %d says %d bytes, its files are %d", i+1, *ar.Size, size)
		}
		sum += *ar.Size
		listed = append(listed, ar.AssetIDs...)
	}
	for _, f := range files {
		want += int64(len(f.content))
	}
	slices.Sort(listed)
	shared := slices.Sorted(slices.Values(s.dl.shared))
	if !slices.Equal(listed, shared) {
		return fmt.Errorf("the archives list %d photos %v, want the %d shared, each once", len(listed), listed, len(shared))
	}
	if *plan.TotalSize != want || sum != want {
		return fmt.Errorf("totalSize is %d and the archives' sizes add up to %d, want the files' %d bytes", *plan.TotalSize, sum, want)
	}
	s.dl.plan = &plan
	return nil
}

// holderDownloadsArchives downloads, as the link's holder, each archive
// it was told of.
func (s *scenario) holderDownloadsArchives(ctx context.Context) error {
	if s.dl.plan == nil {
		return fmt.Errorf("the holder was told of no archives earlier in the scenario")
	}
	s.dl.archives = nil
	for _, ar := range s.dl.plan.Archives {
		if err := s.holderAsks(ctx, "/download/archive", false, map[string]any{"assetIds": ar.AssetIDs}); err != nil {
			return err
		}
		if err := s.wantStatus(http.StatusOK); err != nil {
			return err
		}
		s.dl.archives = append(s.dl.archives, s.last.body)
	}
	return nil
}

// archivesHoldFiles judges the archives received: together they hold the
// shared files, byte for byte, and nothing else.
func (s *scenario) archivesHoldFiles() error {
	if s.dl.archives == nil {
		if s.last != nil && s.last.status != http.StatusOK {
			return s.wrongStatus("200")
		}
		return fmt.Errorf("no archive was received earlier in the scenario")
	}
	if err := s.judged(); err != nil {
		return err
	}
	files, err := s.sharedFiles()
	if err != nil {
		return err
	}
	return holdsExactly(s.dl.archives, files)
}

// holderDownloadsEachPhoto downloads, as the link's holder, each shared
// photo on its own, and judges its bytes.
func (s *scenario) holderDownloadsEachPhoto(ctx context.Context) error {
	files, err := s.sharedFiles()
	if err != nil {
		return err
	}
	creds, _, err := s.holder(false)
	if err != nil {
		return err
	}
	for _, id := range s.dl.shared {
		resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: "/download/asset/" + id, creds: creds})
		if err := s.keep(resp, nil, err); err != nil {
			return err
		}
		if err := s.wantStatus(http.StatusOK); err != nil {
			return err
		}
		if !bytes.Equal(resp.body, files[id].content) {
			return fmt.Errorf("photo %s: got %d bytes that are not the %d uploaded", id, len(resp.body), len(files[id].content))
		}
	}
	return nil
}

// holderRefusedEachPhoto asks, as the link's holder, for each of my photos
// of the scenario on its own, and judges each refusal.
func (s *scenario) holderRefusedEachPhoto(ctx context.Context, status int, message string) error {
	creds, _, err := s.holder(false)
	if err != nil {
		return err
	}
	for _, id := range s.wf.photos {
		resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: "/download/asset/" + id, creds: creds})
		if err := s.keep(resp, nil, err); err != nil {
			return err
		}
		if err := s.refused(status, []string{message}, false); err != nil {
			return fmt.Errorf("photo %s: %w", id, err)
		}
	}
	return nil
}

// holderGetsNoOriginals asks, as the link's holder, for the original of
// each of my photos of the scenario, and judges that none comes.
func (s *scenario) holderGetsNoOriginals(ctx context.Context) error {
	creds, _, err := s.holder(false)
	if err != nil {
		return err
	}
	for i, id := range s.wf.photos {
		resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/asset/file/" + id, creds: creds})
		if err := s.keep(resp, nil, err); err != nil {
			return err
		}
		if err := s.judged(); err != nil {
			return err
		}
		if bytes.Contains(resp.body, s.wf.files[i].content) {
			return fmt.Errorf("photo %s: GET /asset/file gives its original, %s", id, resp)
		}
	}
	return nil
}

// holderOpensWithPassword opens the link, as its holder, with its
// password, and keeps the token it gives.
func (s *scenario) holderOpensWithPassword(ctx context.Context, password string) error {
	creds, _, err := s.holder(false)
	if err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/shared-links/me?password=" + url.QueryEscape(password), creds: creds})
	if err := s.keep(resp, nil, err); err != nil {
		return err
	}
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	var l struct {
		Token *string `json:"token"`
	}
	if err := json.Unmarshal(resp.body, &l); err != nil || l.Token == nil || *l.Token == "" {
		return fmt.Errorf("the link opened without a token: %s", resp)
	}
	s.dl.token = *l.Token
	return nil
}

// archiveRefusedOrExact judges the archive asked for with a link's key
// alone. The reference checks a link's password only when the link is
// opened (GET /shared-links/me): its key alone downloads (WORKFLOWS.md,
// Ref-bug). A server that checks it answers 401 Invalid password; one
// with the reference's defect must at least give exactly the photos.
func (s *scenario) archiveRefusedOrExact() error {
	if s.last == nil {
		return fmt.Errorf("no request was sent")
	}
	if s.last.status == http.StatusOK {
		files, err := s.sharedFiles()
		if err != nil {
			return err
		}
		if err := s.judged(); err != nil {
			return err
		}
		s.dl.archives = nil
		return holdsExactly([][]byte{s.last.body}, files)
	}
	err := s.refused(http.StatusUnauthorized, []string{"Invalid password"}, false)
	s.dl.archives = nil
	return err
}

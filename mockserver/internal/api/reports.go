package api

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Reports: what the media folder holds against what the records name (the
// upstream's file report controller, the admin's repair page).
//
// The mock keeps uploads as blobs in pack files (media.Folder), not a file
// each; a report names each blob by a path of its own under the folder,
// which is all the other operations take:
//
//	DIR/upload/ID                   an asset's original
//	DIR/thumbs/ID-thumbnail.webp    its thumbnail
//	DIR/thumbs/ID-preview.jpeg      its preview
//	DIR/profile/KEY                 a user's profile image
//
// Extras are the blobs no record names: an asset's, once it is deleted for
// good or the mock reset (the folder keeps what it wrote); orphans the
// pictures an upload's record says are made that the folder does not hold.
// A seeded asset has no file to miss: its pictures are painted as they are
// asked for. Without a media folder, the report is empty.

// maxReportItems bounds the orphans, and the extras, a report lists.
const maxReportItems = 10_000

// FileChecksumDto: POST /api/reports/checksum.
var fileChecksumBody = dto.NewClass("FileChecksumDto",
	dto.Field("filenames", dto.As(dto.IsString().Each())),
).Within(1 << 20)

// reportPathTypes are PathType's values. The reference's rule takes them,
// but its message names none (its enum is a list, whose keys it skips).
var reportPathTypes = []string{model.PathOriginal, model.PathPreview, model.PathThumbnail, model.PathEncodedVideo,
	model.PathSidecar, model.PathFace, model.PathProfile}

// FileReportItemDto and FileReportFixDto: POST /api/reports/fix.
var (
	fileReportItem = dto.NewClass("FileReportItemDto",
		dto.Field("entityId", dto.ValidateUUID(dto.ValidateUUIDOptions{})),
		dto.Field("entityType", dto.As(dto.IsEnum(model.PathEntityAsset, model.PathEntityPerson, model.PathEntityUser))),
		dto.Field("pathType", dto.As(dto.Check(func(v any) bool {
			s, ok := v.(string)
			return ok && slices.Contains(reportPathTypes, s)
		}, "$property must be one of the following values: "))),
		dto.Field("pathValue", isString).Limit(4096),
	)
	fileReportFixBody = dto.NewClass("FileReportFixDto",
		dto.Field("items", isArray, dto.ValidateNested(fileReportItem, true)),
	).Within(1 << 20)
)

// blobPath is where a report names the blob of kind for key.
func (s *server) blobPath(kind media.Kind, key string) string {
	dir := s.folder.Dir()
	switch kind {
	case media.Original:
		return filepath.Join(dir, "upload", key)
	case media.Thumb:
		return filepath.Join(dir, "thumbs", key+"-thumbnail.webp")
	case media.Preview:
		return filepath.Join(dir, "thumbs", key+"-preview.jpeg")
	}
	return filepath.Join(dir, "profile", key)
}

// inFolder says whether name lies in the media folder, as the reference's
// StorageCore.isImmichPath judges a path under its media location.
func (s *server) inFolder(name string) bool {
	if s.folder == nil {
		return false
	}
	abs, err := filepath.Abs(name)
	return err == nil && strings.HasPrefix(abs, s.folder.Dir()+string(filepath.Separator))
}

// blobOf is the blob a path of the report names, if it names one.
func (s *server) blobOf(name string) (media.Kind, string, bool) {
	abs, err := filepath.Abs(name)
	if err != nil || s.folder == nil {
		return 0, "", false
	}
	rel, err := filepath.Rel(s.folder.Dir(), abs)
	if err != nil {
		return 0, "", false
	}
	dir, file, _ := strings.Cut(filepath.ToSlash(rel), "/")
	var kind media.Kind
	var key string
	switch {
	case dir == "upload":
		kind, key = media.Original, file
	case dir == "thumbs" && strings.HasSuffix(file, "-thumbnail.webp"):
		kind, key = media.Thumb, strings.TrimSuffix(file, "-thumbnail.webp")
	case dir == "thumbs" && strings.HasSuffix(file, "-preview.jpeg"):
		kind, key = media.Preview, strings.TrimSuffix(file, "-preview.jpeg")
	case dir == "profile":
		kind, key = media.Profile, file
	default:
		return 0, "", false
	}
	return kind, key, key != "" && s.folder.Has(kind, key)
}

// fileReport is GET /api/reports: the orphans and extras of the media
// folder.
func (s *server) fileReport(c *call) error {
	out := model.FileReport{Orphans: []model.FileReportItem{}, Extras: []string{}}
	if s.folder == nil {
		return c.json(http.StatusOK, out)
	}
	assets, profiles := map[string]bool{}, map[string]bool{}
	s.store.Read(func(v *store.View) {
		for _, u := range v.Users() {
			if u.ProfileImagePath != "" {
				profiles[u.ProfileImagePath] = true
			}
			for _, a := range v.AssetsOwnedBy(u.ID) {
				assets[a.ID] = true
				if len(out.Orphans) < maxReportItems {
					out.Orphans = append(out.Orphans, s.assetOrphans(a)...)
				}
			}
		}
	})
	for _, kind := range []media.Kind{media.Original, media.Thumb, media.Preview, media.Profile} {
		named := assets
		if kind == media.Profile {
			named = profiles
		}
		for _, key := range s.folder.Keys(kind) {
			if !named[key] && len(out.Extras) < maxReportItems {
				out.Extras = append(out.Extras, s.blobPath(kind, key))
			}
		}
	}
	return c.json(http.StatusOK, out)
}

// assetOrphans are the pictures of an upload (an asset whose original the
// folder keeps) that its record says are made and the folder lacks.
func (s *server) assetOrphans(a *model.AssetRecord) []model.FileReportItem {
	if !a.Resized || !s.folder.Has(media.Original, a.ID) {
		return nil
	}
	var out []model.FileReportItem
	for _, p := range []struct {
		kind media.Kind
		typ  string
	}{{media.Preview, model.PathPreview}, {media.Thumb, model.PathThumbnail}} {
		if !s.folder.Has(p.kind, a.ID) {
			out = append(out, model.FileReportItem{EntityID: a.ID, EntityType: model.PathEntityAsset,
				Checksum: new(a.Checksum), PathType: p.typ, PathValue: s.blobPath(p.kind, a.ID)})
		}
	}
	return out
}

// fileChecksums is POST /api/reports/checksum: each file's SHA-1, in
// base64, for the files of the media folder a report names. A name outside
// it is refused, as on the reference; one inside that names no file is
// too (the reference fails with a 500).
func (s *server) fileChecksums(c *call, b dto.Body) error {
	names := b.Strings("filenames")
	if one, ok := b.String("filenames"); ok { // the reference reads a string as its characters
		names = strings.Split(one, "")
	}
	out := make([]model.FileChecksum, 0, len(names))
	for _, name := range names {
		if !s.inFolder(name) {
			return store.Fail(store.Invalid, "Could not get the checksum of %s because the file isn't accessible by Immich", name)
		}
		kind, key, ok := s.blobOf(name)
		if !ok {
			return store.Fail(store.Invalid, "Could not get the checksum of %s because there is no such file", name)
		}
		sum, err := s.blobChecksum(kind, key)
		if err != nil {
			return err
		}
		out = append(out, model.FileChecksum{Filename: name, Checksum: sum})
	}
	return c.json(http.StatusCreated, out)
}

// blobChecksum is the SHA-1 of a blob, in base64.
func (s *server) blobChecksum(kind media.Kind, key string) (string, error) {
	f, _, ok := s.folder.Open(kind, key)
	if !ok {
		return "", store.Fail(store.Invalid, "Could not get the checksum of %s because there is no such file", s.blobPath(kind, key))
	}
	defer f.Close()
	h := sha1.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", s.blobPath(kind, key), err)
	}
	return base64.StdEncoding.EncodeToString(h.Sum(nil)), nil
}

// fixFiles is POST /api/reports/fix: each item's record is pointed at the
// file its path names, as the repair page fixes an orphan with an extra of
// the same checksum: the blob becomes the asset's original, preview or
// thumbnail (or, for a profile, nothing changes: a user's image is found
// by its path). A path outside the media folder refuses the request, as
// on the reference; an item whose path names no file of its kind changes
// nothing.
func (s *server) fixFiles(c *call, b dto.Body) error {
	items := b.Objects("items")
	for _, it := range items {
		value, _ := it.String("pathValue")
		if !s.inFolder(value) {
			id, _ := it.String("entityId")
			return store.Fail(store.Invalid, "Could not fix item %s with path %s because the file isn't accessible by Immich", id, value)
		}
	}
	for _, it := range items {
		s.fixItem(it)
	}
	c.w.WriteHeader(http.StatusCreated)
	return nil
}

// fixItem points one asset's record at a blob of the kind its path type
// names.
func (s *server) fixItem(it dto.Body) {
	id, _ := it.String("entityId")
	id = strings.ToLower(id)
	typ, _ := it.String("pathType")
	value, _ := it.String("pathValue")
	kind, key, ok := s.blobOf(value)
	want := map[string]media.Kind{model.PathOriginal: media.Original, model.PathPreview: media.Preview, model.PathThumbnail: media.Thumb}[typ]
	if !ok || want == 0 || kind != want || key == id {
		return
	}
	var isAsset bool
	s.store.Read(func(v *store.View) { isAsset = v.Asset(id) != nil })
	if isAsset {
		if err := s.folder.Alias(kind, id, key); err != nil {
			s.log.Error("fixing a file", "asset", id, "error", err)
		}
	}
}

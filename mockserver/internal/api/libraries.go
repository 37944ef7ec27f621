package api

import (
	"net/http"
	"strconv"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/libraryfs"
	"github.com/mediaspec/mediaspec/mockserver/internal/live"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// External libraries (the upstream's library controller): an admin names
// folders on the mock's machine; a scan (libraryscan.go) imports the media
// files in them as assets of the library's owner.

// arrayUnique is class-validator's ArrayUnique: no value twice (objects
// are never equal, as indexOf compares them).
var arrayUnique = dto.As(dto.Check(func(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	seen := map[any]bool{}
	for _, e := range list {
		switch e.(type) {
		case string, float64, bool, nil:
			if seen[e] {
				return false
			}
			seen[e] = true
		}
	}
	return true
}, "All $property's elements must be unique"))

// arrayMaxSize is class-validator's ArrayMaxSize(n).
func arrayMaxSize(n int) dto.Decorator {
	return dto.As(dto.Check(func(v any) bool { list, ok := v.([]any); return ok && len(list) <= n },
		"$property must contain no more than "+strconv.Itoa(n)+" elements"))
}

// pathLimit is the mock's bound of a path or pattern, judged after the
// upstream's rules.
var pathLimit = dto.As(dto.Check(func(v any) bool { s, ok := v.(string); return !ok || len(s) <= store.MaxPathBytes },
	"$property must be shorter than or equal to "+strconv.Itoa(store.MaxPathBytes)+" characters").Each())

var (
	eachString   = dto.As(dto.IsString().Each())
	eachNotEmpty = dto.As(dto.IsNotEmpty().Each())
	maxPaths     = arrayMaxSize(store.MaxImportPaths)
)

// CreateLibraryDto: POST /api/libraries.
var createLibraryBody = dto.NewClass("CreateLibraryDto",
	dto.Field("ownerId", dto.ValidateUUID(dto.ValidateUUIDOptions{})),
	dto.Field("name", isString, optional, isNotEmpty).Limit(store.MaxNameChars),
	dto.Field("importPaths", pathLimit, optional, eachString, eachNotEmpty, arrayUnique, maxPaths),
	dto.Field("exclusionPatterns", pathLimit, optional, eachString, eachNotEmpty, arrayUnique, maxPaths),
).Within(listBody)

// UpdateLibraryDto: PUT /api/libraries/{id}.
var updateLibraryBody = dto.NewClass("UpdateLibraryDto",
	dto.Field("name", optional, isString, isNotEmpty).Limit(store.MaxNameChars),
	dto.Field("importPaths", pathLimit, optional, eachString, eachNotEmpty, arrayUnique, maxPaths),
	dto.Field("exclusionPatterns", pathLimit, optional, eachNotEmpty, eachString, arrayUnique, maxPaths),
).Within(listBody)

// ValidateLibraryDto: POST /api/libraries/{id}/validate.
var validateLibraryBody = dto.NewClass("ValidateLibraryDto",
	dto.Field("importPaths", pathLimit, optional, eachString, eachNotEmpty, arrayUnique, maxPaths),
	dto.Field("exclusionPatterns", pathLimit, optional, eachNotEmpty, eachString, arrayUnique, maxPaths),
).Within(listBody)

// ScanLibraryDto: POST /api/libraries/{id}/scan.
var scanLibraryBody = dto.NewClass("ScanLibraryDto",
	dto.Field("refreshModifiedFiles", optionalBool),
	dto.Field("refreshAllFiles", optionalBool),
)

// libraryFailed is the reference's answer where its repository finds no
// library (findOneOrFail throws, and the error becomes a 500).
func libraryFailed(err error, what string) error {
	if store.CodeOf(err) == store.NotFound {
		return &httpx.Error{Status: http.StatusInternalServerError, Message: "Failed to " + what + " library"}
	}
	return err
}

// libraryAnswer is l as LibraryResponseDto shows it. The reference never
// loads a library's assets there, so its assetCount is always 0; the
// mock counts them, but with ReferenceShapes.
func libraryAnswer(c *call, v *store.View, l *model.LibraryRecord) model.Library {
	out := model.Library{
		ID: l.ID, OwnerID: l.OwnerID, Name: l.Name, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, RefreshedAt: l.RefreshedAt,
		ImportPaths: l.ImportPaths, ExclusionPatterns: l.ExclusionPatterns,
	}
	if !c.aud.reference {
		out.AssetCount = v.LibraryAssetCount(l.ID)
	}
	return out
}

// libraries is GET /api/libraries: every library, the oldest first.
func (s *server) libraries(c *call) error {
	var out []model.Library
	s.store.Read(func(v *store.View) {
		out = []model.Library{}
		for _, l := range v.Libraries() {
			out = append(out, libraryAnswer(c, v, l))
		}
	})
	return c.json(http.StatusOK, out)
}

// createLibrary is POST /api/libraries: 201 with the new library. Its
// paths are not judged, as the reference does not judge them here.
func (s *server) createLibrary(c *call, b dto.Body) error {
	n := store.NewLibrary{OwnerID: *optionalID(b, "ownerId"), ImportPaths: b.Strings("importPaths"), ExclusionPatterns: b.Strings("exclusionPatterns")}
	n.Name, _ = b.String("name")
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Library, error) {
		l, err := tx.CreateLibrary(n)
		if err != nil {
			return model.Library{}, err
		}
		return libraryAnswer(c, &tx.View, l), nil
	})
	return answer(c, http.StatusCreated, out, libraryFailed(err, "create"))
}

// library is GET /api/libraries/{id}.
func (s *server) library(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.Library, error) {
		l := v.Library(c.id)
		if l == nil {
			return model.Library{}, store.Fail(store.NotFound, "Library not found")
		}
		return libraryAnswer(c, v, l), nil
	})
	return answer(c, http.StatusOK, out, libraryFailed(err, "get"))
}

// updateLibrary is PUT /api/libraries/{id}. As the reference, the change
// is kept before the new import paths are judged: one that will not do is
// a 400 `Invalid import path: ...`, and yet stored.
func (s *server) updateLibrary(c *call, b dto.Body) error {
	p := store.LibraryPatch{ImportPaths: b.Strings("importPaths"), ExclusionPatterns: b.Strings("exclusionPatterns")}
	if name, ok := b.String("name"); ok {
		p.Name = &name
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Library, error) {
		l, err := tx.UpdateLibrary(c.id, p)
		if err != nil {
			return model.Library{}, err
		}
		return libraryAnswer(c, &tx.View, l), nil
	})
	if err != nil {
		return libraryFailed(err, "update")
	}
	for _, path := range p.ImportPaths {
		if msg := libraryfs.Check(path, s.mediaDir()); msg != "" {
			return store.Fail(store.Invalid, "Invalid import path: %s", msg)
		}
	}
	return c.json(http.StatusOK, out)
}

// mediaDir is the media folder's path, which no library may read; "" for none.
func (s *server) mediaDir() string {
	if s.folder == nil {
		return ""
	}
	return s.folder.Dir()
}

// deleteLibrary is DELETE /api/libraries/{id}: the library and its assets
// go at once (the reference's deletion job, done); the files stay. 204.
func (s *server) deleteLibrary(c *call) error {
	var owner string
	gone, err := store.Update(s.store, func(tx *store.Tx) ([]string, error) {
		if l := tx.Library(c.id); l != nil {
			owner = l.OwnerID
		}
		return tx.DeleteLibrary(c.id)
	})
	if err != nil {
		return libraryFailed(err, "delete")
	}
	s.scans.forget(c.id)
	s.assetsGone(owner, gone)
	return noContent(c)
}

// assetsGone lets the media folder forget the originals of assets removed
// for good, and tells their owner's clients.
func (s *server) assetsGone(owner string, ids []string) {
	if s.folder != nil {
		s.folder.Unlink(ids...)
	}
	for _, id := range ids {
		s.live.Publish(owner, live.AssetDelete, id)
	}
}

// validateLibrary is POST /api/libraries/{id}/validate: whether each
// import path will do, in the reference's words. The library is not
// looked up, as the reference does not look it up.
func (s *server) validateLibrary(c *call, b dto.Body) error {
	out := model.LibraryChecks{ImportPaths: []model.ImportPathCheck{}}
	for _, path := range b.Strings("importPaths") {
		msg := libraryfs.Check(path, s.mediaDir())
		out.ImportPaths = append(out.ImportPaths, model.ImportPathCheck{ImportPath: path, IsValid: msg == "", Message: msg})
	}
	return c.json(http.StatusOK, out)
}

// libraryStatistics is GET /api/libraries/{id}/statistics.
func (s *server) libraryStatistics(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.LibraryStats, error) { return v.LibraryStatistics(c.id) })
	return answer(c, http.StatusOK, out, err)
}

// scanLibrary is POST /api/libraries/{id}/scan: the scan is queued and
// the answer, 204, goes at once.
func (s *server) scanLibrary(c *call, b dto.Body) error {
	var found bool
	s.store.Read(func(v *store.View) { found = v.Library(c.id) != nil })
	if !found {
		return libraryFailed(store.Fail(store.NotFound, "Library not found"), "scan")
	}
	req := scanRequest{}
	req.modified, _ = b.Bool("refreshModifiedFiles")
	req.all, _ = b.Bool("refreshAllFiles")
	s.scans.queue(c.id, req)
	return noContent(c)
}

// removeOfflineFiles is POST /api/libraries/{id}/removeOffline: the
// library's offline assets go (for no library, nothing, as the
// reference's job does); 204.
func (s *server) removeOfflineFiles(c *call) error {
	var owner string
	gone, err := store.Update(s.store, func(tx *store.Tx) ([]string, error) {
		if l := tx.Library(c.id); l != nil {
			owner = l.OwnerID
		}
		return tx.RemoveOfflineAssets(c.id)
	})
	if err != nil {
		return err
	}
	s.assetsGone(owner, gone)
	return noContent(c)
}

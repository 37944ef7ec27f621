package api

import (
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/live"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// Replacing an asset's file (the upstream's asset media controller): the
// asset keeps its id, and a copy in the trash keeps the old file.

// The statuses of AssetMediaResponseDto.
const (
	mediaReplaced  = "replaced"
	mediaDuplicate = "duplicate"
)

// validateReplacement judges a replacement's body as the reference does:
// its fields first (it has no flags), then the path's id (badID, if it is
// no UUID), then its files. Only assetData is used; livePhotoData and
// sidecarData are read past.
func validateReplacement(badID error) func(*upload) error {
	return func(up *upload) error {
		if err := up.validateFields(false); err != nil {
			return err
		}
		if badID != nil {
			return badID
		}
		return up.validateFiles()
	}
}

// replaceAsset is PUT /api/asset/{id}/file: the multipart body of an
// upload, read as an upload's is; 200 {status: "replaced", id} with the
// id of the trashed copy that keeps the old file, or 200 {status:
// "duplicate", id} with the caller's asset of the same content. Only the
// asset's owner: a link's holder, or anyone else, gets the reference's 400.
func (s *server) replaceAsset(c *call) error {
	p := c.p()
	up, done, err := s.receiveUpload(c, validateReplacement(c.badID))
	defer done()
	if err != nil {
		return err
	}
	owner := p.User.ID
	if p.Link != nil {
		owner = "" // the reference lets a link in, and finds no asset it may update
	}
	up.live = nil
	file, _ := up.records(p.User.ID, s.places)
	res, err := store.Update(s.store, func(tx *store.Tx) (store.Replacement, error) {
		return tx.ReplaceFile(owner, c.id, file)
	})
	if err != nil {
		return err
	}
	type answer struct {
		Status string `json:"status"`
		ID     string `json:"id"`
	}
	if res.DuplicateOf != "" {
		return c.json(http.StatusOK, answer{Status: mediaDuplicate, ID: res.DuplicateOf})
	}
	queued := s.keepReplacement(up, c.id, res.CopyID)
	s.live.Publish(owner, live.AssetTrash, []string{res.CopyID})
	httpx.WriteJSON(c.w, http.StatusOK, answer{Status: mediaReplaced, ID: res.CopyID})
	if !queued {
		s.tellUploadedNow(c.w, owner, c.id)
	}
	return nil
}

// keepReplacement gives the copy the old file and its pictures, then keeps
// the new file as the asset's original and queues its pictures; it says
// whether they were queued. Without a media folder there is nothing to
// keep.
func (s *server) keepReplacement(up *upload, id, copyID string) bool {
	if s.folder == nil || up.assetFile == nil {
		return false
	}
	for _, kind := range []media.Kind{media.Original, media.Thumb, media.Preview} {
		if s.folder.Has(kind, id) {
			if err := s.folder.Alias(kind, copyID, id); err != nil {
				s.log.Error("replace", "error", err)
			}
		}
	}
	return s.keepFile(up.assetFile, id)
}

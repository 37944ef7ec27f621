package steps

import (
	"context"
	"fmt"
	"net/http"
)

// An asset's file replaced (PUT /asset/{id}/file): the asset keeps its id
// and takes the new file; a copy in the trash keeps the old one. Only
// photos of users the harness makes are replaced: their copies go with
// them.

// replacement is the answer to a replacement.
type replacement struct {
	Status string `json:"status"`
	ID     string `json:"id"`
}

// replaceFile sends f as the file of the asset id, with creds, and keeps the answer.
func (s *scenario) replaceFile(ctx context.Context, who *user, creds credentials, id string, f form) error {
	body, contentType, err := f.encode()
	if err != nil {
		return err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPut, path: "/asset/" + id + "/file", creds: creds, contentType: contentType, body: body})
	return s.keep(resp, who, err)
}

// replaceThatPhoto replaces the new user's photo's file, as them or as me.
func (s *scenario) replaceThatPhoto(ctx context.Context, who, with string) error {
	if s.faces.photo == "" {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	f := s.faces.file
	if with == "another photo" {
		f = newFile(uniqueName())
		s.faces.next = f
	}
	if who == "I" {
		return s.replaceFile(ctx, s.me, s.creds, s.faces.photo, uploadForm(f))
	}
	return s.replaceFile(ctx, s.people.owner, s.ownerCreds(), s.faces.photo, uploadForm(f))
}

// replaceWithoutFields replaces, as me, the file of no one's photo, with
// a file and no field.
func (s *scenario) replaceWithoutFields(ctx context.Context) error {
	f := uploadForm(newFile(uniqueName()))
	f.fields = nil
	return s.replaceFile(ctx, s.me, s.creds, noOne, f)
}

// fileReplaced judges the answer to a replacement: replaced, naming
// another asset than the photo.
func (s *scenario) fileReplaced() error {
	var r replacement
	if err := s.decodeLast(http.StatusOK, &r); err != nil {
		return err
	}
	if r.Status != "replaced" || !uuidPattern.MatchString(r.ID) || r.ID == s.faces.photo {
		return fmt.Errorf("want status replaced and the id of another asset than %s, got %+v", s.faces.photo, r)
	}
	s.faces.copyID = r.ID
	return nil
}

// assetFile is what the replacement steps read of an asset.
type assetFile struct {
	Checksum         string `json:"checksum"`
	OriginalFileName string `json:"originalFileName"`
	IsTrashed        bool   `json:"isTrashed"`
}

// readAssetFile reads an asset of the new user, as them.
func (s *scenario) readAssetFile(ctx context.Context, id string) (assetFile, error) {
	var a assetFile
	err := s.call(ctx, "reading the asset "+id, http.MethodGet, "/asset/"+id, s.ownerCreds(), nil, &a, http.StatusOK)
	return a, err
}

// photoHasNewFile reads the photo whose file was replaced.
func (s *scenario) photoHasNewFile(ctx context.Context) error {
	a, err := s.readAssetFile(ctx, s.faces.photo)
	if err != nil {
		return err
	}
	f := s.faces.next
	if a.Checksum != f.checksumBase64() || a.OriginalFileName != f.name || a.IsTrashed {
		return fmt.Errorf("the photo is %+v, want the checksum %s and name %s, out of the trash", a, f.checksumBase64(), f.name)
	}
	return nil
}

// copyHasOldFile reads the asset the replacement named.
func (s *scenario) copyHasOldFile(ctx context.Context) error {
	a, err := s.readAssetFile(ctx, s.faces.copyID)
	if err != nil {
		return err
	}
	f := s.faces.file
	if a.Checksum != f.checksumBase64() || a.OriginalFileName != f.name || !a.IsTrashed {
		return fmt.Errorf("the copy is %+v, want the checksum %s and name %s, in the trash", a, f.checksumBase64(), f.name)
	}
	return nil
}

// replacementDuplicatesItself judges a replacement with the photo's own file.
func (s *scenario) replacementDuplicatesItself() error {
	var r replacement
	if err := s.decodeLast(http.StatusOK, &r); err != nil {
		return err
	}
	if r.Status != "duplicate" || r.ID != s.faces.photo {
		return fmt.Errorf("want status duplicate with the photo's id %s, got %+v", s.faces.photo, r)
	}
	return nil
}

package store

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Faces as their owner moves them between people, people merged, and the
// assets the duplicate detection grouped. A face lives in its asset's
// record (AssetRecord.Faces); moving one replaces the asset.

// MaxFacesPerAsset is how many faces the control API may give one asset.
const MaxFacesPerAsset = 64

// Duplicates is the user's groups of duplicates as GET /api/duplicates
// finds them: the visible assets out of the trash that the detection gave
// a duplicateId, by that id; a group may hold one asset, when the others
// went to the trash.
func (v *View) Duplicates(userID string) [][]*model.AssetRecord {
	groups := map[string][]*model.AssetRecord{}
	for _, a := range v.st.byOwner[userID] {
		if a.DuplicateID != nil && a.IsVisible && Live(a) {
			groups[*a.DuplicateID] = append(groups[*a.DuplicateID], a)
		}
	}
	ids := make([]string, 0, len(groups))
	for id := range groups {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([][]*model.AssetRecord, 0, len(ids))
	for _, id := range ids {
		out = append(out, groups[id])
	}
	return out
}

// AssetFace is a face with the person it is of, where the caller may see
// that person (their own); nil otherwise.
type AssetFace struct {
	Face   model.FaceRecord
	Person *model.PersonRecord
}

// AssetFaces is the faces of an asset the principal may read, by their
// box's left edge, or the reference's 400.
func (v *View) AssetFaces(p Principal, assetID string) ([]AssetFace, error) {
	a := v.ReadableAsset(p, assetID)
	if a == nil {
		return nil, Fail(NoAccess, "Not found or no asset.read access")
	}
	out := make([]AssetFace, 0, len(a.Faces))
	for _, f := range a.Faces {
		af := AssetFace{Face: f}
		if person := v.st.personByID[f.PersonID]; person != nil && person.OwnerID == p.User.ID {
			af.Person = person
		}
		out = append(out, af)
	}
	slices.SortStableFunc(out, func(x, y AssetFace) int { return cmp.Compare(x.Face.BoundingBoxX1, y.Face.BoundingBoxX1) })
	return out, nil
}

// faceAt finds a face by its id: the asset that holds it and its place there.
func (v *View) faceAt(faceID string) (*model.AssetRecord, int) {
	for _, a := range v.st.assets {
		if i := slices.IndexFunc(a.Faces, func(f model.FaceRecord) bool { return f.ID == faceID }); i >= 0 {
			return a, i
		}
	}
	return nil, -1
}

// featureFace is the face that is the person's picture, if it is still
// one of theirs.
func (v *View) featureFace(p *model.PersonRecord) *string {
	if p.FaceAssetID == nil {
		return nil
	}
	if a, i := v.faceAt(*p.FaceAssetID); a == nil || a.Faces[i].PersonID != p.ID {
		return nil
	}
	return p.FaceAssetID
}

// moveFace gives the face at place i of asset a to another person.
func (tx *Tx) moveFace(a *model.AssetRecord, i int, personID string) error {
	next := *a
	next.Faces = slices.Clone(a.Faces)
	next.Faces[i].PersonID = personID
	return tx.replaceAsset(a, &next)
}

// putPerson stores a changed person in the place of the stored one.
func (tx *Tx) putPerson(old, p *model.PersonRecord) error {
	st := tx.st
	i := slices.Index(st.people, old)
	if i < 0 {
		return fmt.Errorf("person %s is not stored", old.ID)
	}
	st.people[i], st.personByID[p.ID] = p, p
	tx.did(Assets, func() { st.people[i], st.personByID[p.ID] = old, old })
	return nil
}

// removePerson deletes a person who has no face left.
func (tx *Tx) removePerson(p *model.PersonRecord) {
	forget(tx, Assets, &tx.st.people, tx.st.personByID, p.ID, p)
}

// newFeatureFace gives a person a face of theirs as their picture, and so
// a thumbnail, as the reference's job does; a person with no face keeps
// what they had.
func (tx *Tx) newFeatureFace(personID string) error {
	old := tx.st.personByID[personID]
	if old == nil {
		return nil
	}
	for _, a := range tx.st.byOwner[old.OwnerID] {
		for _, f := range a.Faces {
			if f.PersonID != personID {
				continue
			}
			p := *old
			p.FaceAssetID = new(f.ID)
			if p.ThumbnailPath == "" {
				p.ThumbnailPath = personThumbnailPath(&p)
			}
			p.UpdatedAt = tx.Tick()
			return tx.putPerson(old, &p)
		}
	}
	return nil
}

// personThumbnailPath is where the reference keeps a person's thumbnail.
func personThumbnailPath(p *model.PersonRecord) string {
	return "upload/thumbs/" + p.OwnerID + "/" + p.ID[0:2] + "/" + p.ID[2:4] + "/" + p.ID + ".jpeg"
}

// ReassignFace is PUT /api/faces/{id}: one of the user's faces (of an
// asset of theirs) given to one of their people, who gets it as their
// picture if they had none; the person it leaves gets another if it was
// theirs.
func (tx *Tx) ReassignFace(userID, personID, faceID string) (*model.PersonRecord, error) {
	person, err := tx.OwnPerson(userID, personID, "write")
	if err != nil {
		return nil, err
	}
	a, i := tx.faceAt(faceID)
	if a == nil || a.OwnerID != userID {
		return nil, Fail(NoAccess, "Not found or no person.create access")
	}
	if err := tx.reassign(person, a, i); err != nil {
		return nil, err
	}
	return tx.st.personByID[personID], nil
}

// reassign moves the face at place i of asset a to person, and gives the
// people concerned new pictures where the reference does.
func (tx *Tx) reassign(person *model.PersonRecord, a *model.AssetRecord, i int) error {
	from := tx.st.personByID[a.Faces[i].PersonID]
	faceID := a.Faces[i].ID
	wasFeature := from != nil && tx.featureFace(from) != nil && *from.FaceAssetID == faceID
	if err := tx.moveFace(a, i, person.ID); err != nil {
		return internal(err)
	}
	if tx.featureFace(tx.st.personByID[person.ID]) == nil {
		if err := tx.newFeatureFace(person.ID); err != nil {
			return internal(err)
		}
	}
	if wasFeature && from.ID != person.ID {
		if err := tx.newFeatureFace(from.ID); err != nil {
			return internal(err)
		}
	}
	return nil
}

// FaceRef names the faces of a person in an asset.
type FaceRef struct{ PersonID, AssetID string }

// ReassignFaces is PUT /api/people/{id}/reassign: the faces of each
// item's person in its asset, of assets the user owns, given to the
// user's person; the person once per item, as the reference answers.
func (tx *Tx) ReassignFaces(userID, personID string, items []FaceRef) ([]*model.PersonRecord, error) {
	person, err := tx.OwnPerson(userID, personID, "write")
	if err != nil {
		return nil, err
	}
	out := make([]*model.PersonRecord, 0, len(items))
	for _, item := range items {
		if a := tx.st.assetBy[item.AssetID]; a != nil {
			for i, f := range a.Faces {
				if f.PersonID != item.PersonID {
					continue
				}
				if a.OwnerID != userID {
					return nil, Fail(NoAccess, "Not found or no person.create access")
				}
				// The asset as it is now: each face moved replaced it.
				if err := tx.reassign(person, tx.st.assetBy[item.AssetID], i); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, person)
	}
	return out, nil
}

// The reasons a person is not merged, as the reference names them.
const (
	MergeNoPermission = "no_permission"
	MergeNotFound     = "not_found"
	MergeUnknown      = "unknown"
)

// MergePeople is POST /api/people/{id}/merge: each of ids, a person of
// the user, merged into theirs: their faces given to it, their name and
// birth date where it has none, and then deleted. As on the reference, the
// person merged into itself is deleted; later ones then fail ("unknown").
func (tx *Tx) MergePeople(userID, id string, ids []string) ([]model.BulkIDResult, error) {
	if _, err := tx.OwnPerson(userID, id, "write"); err != nil {
		return nil, err
	}
	allowed := map[string]bool{}
	for _, m := range ids {
		if p := tx.st.personByID[m]; p != nil && p.OwnerID == userID {
			allowed[m] = true
		}
	}
	out := make([]model.BulkIDResult, 0, len(ids))
	for _, m := range ids {
		reason, err := tx.mergeOne(id, m, allowed[m])
		if err != nil {
			return nil, err
		}
		out = append(out, model.BulkIDResult{ID: m, Success: reason == "", Error: reason})
	}
	return out, nil
}

// mergeOne merges person m into person id, or says why not.
func (tx *Tx) mergeOne(id, m string, allowed bool) (string, error) {
	st := tx.st
	if !allowed {
		return MergeNoPermission, nil
	}
	merged := st.personByID[m]
	if merged == nil {
		return MergeNotFound, nil
	}
	primary := st.personByID[id]
	if primary == nil {
		return MergeUnknown, nil
	}
	if (primary.Name == "" && merged.Name != "") || (primary.BirthDate == nil && merged.BirthDate != nil) {
		p := *primary
		if p.Name == "" {
			p.Name = merged.Name
		}
		if p.BirthDate == nil {
			p.BirthDate = merged.BirthDate
		}
		p.UpdatedAt = tx.Tick()
		if err := tx.putPerson(primary, &p); err != nil {
			return "", internal(err)
		}
	}
	for _, a := range slices.Clone(st.byOwner[merged.OwnerID]) {
		for i, f := range a.Faces {
			if f.PersonID == m {
				if err := tx.moveFace(st.assetBy[a.ID], i, id); err != nil {
					return "", internal(err)
				}
			}
		}
	}
	tx.removePerson(st.personByID[m])
	return "", nil
}

// NewFace is a face the control API adds: where it is in its asset.
type NewFace struct {
	AssetID, PersonID                       string
	X1, Y1, X2, Y2, ImageWidth, ImageHeight int
}

// AddFace is what face detection and recognition would have found: a face
// of a person in an asset of the same owner. A person without a picture
// gets this face as theirs, as recognition gives a new person one.
func (tx *Tx) AddFace(nf NewFace) (model.FaceRecord, error) {
	st := tx.st
	a := st.assetBy[nf.AssetID]
	p := st.personByID[nf.PersonID]
	switch {
	case a == nil:
		return model.FaceRecord{}, Fail(NotFound, "Asset not found")
	case p == nil || p.OwnerID != a.OwnerID:
		return model.FaceRecord{}, Fail(Invalid, "Person not found among the asset owner's people")
	case len(a.Faces) >= MaxFacesPerAsset:
		return model.FaceRecord{}, Fail(Invalid, "The asset has %d faces, as many as it may", MaxFacesPerAsset)
	}
	f := model.FaceRecord{
		ID: tx.db.newID(), PersonID: p.ID,
		BoundingBoxX1: nf.X1, BoundingBoxY1: nf.Y1, BoundingBoxX2: nf.X2, BoundingBoxY2: nf.Y2,
		ImageWidth: nf.ImageWidth, ImageHeight: nf.ImageHeight,
	}
	next := *a
	next.Faces = append(slices.Clone(a.Faces), f)
	if err := tx.replaceAsset(a, &next); err != nil {
		return model.FaceRecord{}, internal(err)
	}
	if tx.featureFace(p) == nil {
		if err := tx.newFeatureFace(p.ID); err != nil {
			return model.FaceRecord{}, internal(err)
		}
	}
	return f, nil
}

// DeviceAssetIDs is GET /api/asset/device/{deviceId}: the device's asset
// ids of the user's visible assets from that device, the trashed too.
func (v *View) DeviceAssetIDs(userID, deviceID string) []string {
	out := []string{}
	for _, a := range v.st.byOwner[userID] {
		if a.IsVisible && a.DeviceID == deviceID {
			out = append(out, a.DeviceAssetID)
		}
	}
	return out
}

// ExistingAssets is POST /api/asset/exist: the user's assets from that
// device with one of those device asset ids, hidden and trashed ones too.
func (v *View) ExistingAssets(userID, deviceID string, deviceAssetIDs []string) []*model.AssetRecord {
	var out []*model.AssetRecord
	for _, a := range v.st.byOwner[userID] {
		if a.DeviceID == deviceID && slices.Contains(deviceAssetIDs, a.DeviceAssetID) {
			out = append(out, a)
		}
	}
	return out
}

// Anchor is the time the dataset's generated dates lie before.
func (v *View) Anchor() model.Time { return v.st.anchor }

// SetPersonThumbnail gives a person the path of a thumbnail, as the
// upstream's test harness writes it into the database; "" takes their
// picture away.
func (tx *Tx) SetPersonThumbnail(personID, path string) (*model.PersonRecord, error) {
	old := tx.st.personByID[personID]
	if old == nil {
		return nil, Fail(NotFound, "Person not found")
	}
	if err := checkText("thumbnailPath", path, MaxNameChars); err != nil {
		return nil, Fail(Invalid, "%s", err.Error())
	}
	p := *old
	p.ThumbnailPath, p.UpdatedAt = path, tx.Tick()
	if err := tx.putPerson(old, &p); err != nil {
		return nil, internal(err)
	}
	return &p, nil
}

package store

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// People as their owner reads and changes them.

// maxPeopleListed is how many people a listing holds at most, as the
// reference's.
const maxPeopleListed = 500

// maxPersonAssets is how many assets of a person GET
// /api/people/{id}/assets answers at most, as the reference's.
const maxPersonAssets = 1000

// faceCounts counts, for each person of the user, the faces of them in
// assets out of the archive and the trash.
func (v *View) faceCounts(userID string) map[string]int {
	counts := map[string]int{}
	for _, a := range v.st.byOwner[userID] {
		if a.IsArchived || !Live(a) {
			continue
		}
		for _, f := range a.Faces {
			counts[f.PersonID]++
		}
	}
	return counts
}

// People is the user's people as GET /api/people lists them: those with a
// thumbnail and a face out of the archive, named or seen at least
// minFaces times, the hidden ones only withHidden; the shown first, the
// named first, the most seen first, then by name. Total and hidden count
// every person with a thumbnail and a face, whatever minFaces says.
func (v *View) People(userID string, withHidden bool, minFaces int) (people []*model.PersonRecord, total, hidden int) {
	counts := v.faceCounts(userID)
	for _, p := range v.st.people {
		n := counts[p.ID]
		if p.OwnerID != userID || p.ThumbnailPath == "" || n == 0 {
			continue
		}
		total++
		if p.IsHidden {
			hidden++
		}
		if (p.IsHidden && !withHidden) || (p.Name == "" && n < max(minFaces, 1)) {
			continue
		}
		people = append(people, p)
	}
	bool01 := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(people, func(a, b *model.PersonRecord) int {
		return cmp.Or(
			cmp.Compare(bool01(a.IsHidden), bool01(b.IsHidden)),
			cmp.Compare(bool01(a.Name == ""), bool01(b.Name == "")),
			cmp.Compare(counts[b.ID], counts[a.ID]),
			cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)),
			cmp.Compare(a.ID, b.ID),
		)
	})
	if len(people) > maxPeopleListed {
		people = people[:maxPeopleListed]
	}
	return people, total, hidden
}

// OwnPerson is the user's person of that id, or the reference's 400 for
// the permission named (read or write).
func (v *View) OwnPerson(userID, id, permission string) (*model.PersonRecord, error) {
	p := v.st.personByID[id]
	if p == nil || p.OwnerID != userID {
		return nil, Fail(NoAccess, "Not found or no person.%s access", permission)
	}
	return p, nil
}

// PersonAssetCount counts the assets a person is seen in: out of the
// archive and the trash, and not the video of a live photo.
func (v *View) PersonAssetCount(p *model.PersonRecord) int {
	n := 0
	for _, a := range v.st.byOwner[p.OwnerID] {
		if !a.IsArchived && Live(a) && a.LivePhotoVideoID == nil && hasFaceOf(a, p.ID) {
			n++
		}
	}
	return n
}

func hasFaceOf(a *model.AssetRecord, personID string) bool {
	return slices.ContainsFunc(a.Faces, func(f model.FaceRecord) bool { return f.PersonID == personID })
}

// PersonAssets is the assets a person is seen in, visible, out of the
// archive and the trash, the newest first, at most maxPersonAssets.
func (v *View) PersonAssets(p *model.PersonRecord) []*model.AssetRecord {
	var out []*model.AssetRecord
	for _, a := range v.st.byOwner[p.OwnerID] {
		if a.IsVisible && !a.IsArchived && Live(a) && hasFaceOf(a, p.ID) {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, model.NewestFirst)
	if len(out) > maxPersonAssets {
		out = out[:maxPersonAssets]
	}
	return out
}

// PersonPatch is what PUT /api/people/{id} changes: a nil field is kept.
type PersonPatch struct {
	Name *string
	// BirthDate: nil keeps it; a pointer to nil clears it.
	BirthDate **string
	IsHidden  *bool
	// FeatureFaceAssetID names the asset whose face of the person becomes
	// their picture (faceAssetId), and gives them a thumbnail if they had
	// none, as the reference's job does (the mock paints its people).
	FeatureFaceAssetID *string
}

// UpdatePerson changes one of the user's people.
func (tx *Tx) UpdatePerson(userID, id string, patch PersonPatch) (*model.PersonRecord, error) {
	st := tx.st
	old, err := tx.OwnPerson(userID, id, "write")
	if err != nil {
		return nil, err
	}
	var feature *string
	if assetID := patch.FeatureFaceAssetID; assetID != nil && *assetID != "" {
		a := tx.ReadableAsset(Principal{User: st.userByID[userID]}, *assetID)
		if a == nil {
			return nil, Fail(NoAccess, "Not found or no asset.read access")
		}
		i := slices.IndexFunc(a.Faces, func(f model.FaceRecord) bool { return f.PersonID == id })
		if i < 0 {
			return nil, Fail(Invalid, "Invalid assetId for feature face")
		}
		feature = &a.Faces[i].ID
	}
	p := *old
	if feature != nil {
		p.FaceAssetID = feature
		if p.ThumbnailPath == "" {
			p.ThumbnailPath = personThumbnailPath(&p)
		}
	}
	if patch.Name != nil {
		p.Name = *patch.Name
	}
	if patch.BirthDate != nil {
		p.BirthDate = *patch.BirthDate
	}
	if patch.IsHidden != nil {
		p.IsHidden = *patch.IsHidden
	}
	if err := checkText("name", p.Name, MaxNameChars); err != nil {
		return nil, Fail(Invalid, "%s", err.Error())
	}
	i := slices.Index(st.people, old)
	if i < 0 {
		return nil, internal(fmt.Errorf("person %s is not stored", id))
	}
	st.people[i] = &p
	st.personByID[id] = &p
	tx.did(Assets, func() {
		st.people[i] = old
		st.personByID[id] = old
	})
	return &p, nil
}

// maxPeopleNamed is how many people a search by name finds at most, as
// the reference's.
const maxPeopleNamed = 20

// PeopleNamed is the user's people whose name (lower case), or a word of
// it, begins with name, the hidden ones only withHidden, the most seen
// first.
func (v *View) PeopleNamed(userID, name string, withHidden bool) []*model.PersonRecord {
	counts := map[string]int{}
	for _, a := range v.st.byOwner[userID] {
		for _, f := range a.Faces {
			counts[f.PersonID]++
		}
	}
	var out []*model.PersonRecord
	for _, p := range v.st.people {
		n := strings.ToLower(p.Name)
		if p.OwnerID != userID || (p.IsHidden && !withHidden) || !(strings.HasPrefix(n, name) || strings.Contains(n, " "+name)) {
			continue
		}
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b *model.PersonRecord) int {
		return cmp.Or(cmp.Compare(counts[b.ID], counts[a.ID]), cmp.Compare(a.ID, b.ID))
	})
	return out[:min(len(out), maxPeopleNamed)]
}

package store

import (
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Partners: users who share their whole library with another.

// IsPartner says whether owner shares their library with viewer.
func (v *View) IsPartner(owner, viewer string) bool {
	return v.partner(owner, viewer) != nil
}

func (v *View) partner(sharedBy, sharedWith string) *model.PartnerRecord {
	for _, p := range v.st.partners {
		if p.SharedByID == sharedBy && p.SharedWithID == sharedWith {
			return p
		}
	}
	return nil
}

// PartnersOf is the partnerships of a user, those they share (sharedBy)
// or those shared with them, between users not deleted, in the order they
// were made.
func (v *View) PartnersOf(userID string, sharedBy bool) []*model.PartnerRecord {
	var out []*model.PartnerRecord
	for _, p := range v.st.partners {
		if v.ActiveUser(p.SharedByID) == nil || v.ActiveUser(p.SharedWithID) == nil {
			continue
		}
		if (sharedBy && p.SharedByID == userID) || (!sharedBy && p.SharedWithID == userID) {
			out = append(out, p)
		}
	}
	return out
}

// AddPartner shares a user's library with another.
func (tx *Tx) AddPartner(sharedBy, sharedWith string) (*model.PartnerRecord, error) {
	if tx.IsPartner(sharedBy, sharedWith) {
		return nil, Fail(Invalid, "Partner already exists")
	}
	if sharedBy == sharedWith || tx.ActiveUser(sharedWith) == nil {
		return nil, Fail(Invalid, "User not found")
	}
	p := model.PartnerRecord{SharedByID: sharedBy, SharedWithID: sharedWith, CreatedAt: tx.Tick()}
	if err := tx.addPartner(p); err != nil {
		return nil, internal(err)
	}
	return tx.partner(sharedBy, sharedWith), nil
}

func (tx *Tx) addPartner(p model.PartnerRecord) error {
	if err := tx.room(); err != nil {
		return err
	}
	st := tx.st
	if st.userByID[p.SharedByID] == nil || st.userByID[p.SharedWithID] == nil || p.SharedByID == p.SharedWithID {
		return errPartner(p)
	}
	if tx.IsPartner(p.SharedByID, p.SharedWithID) {
		return errPartner(p)
	}
	n := len(st.partners)
	st.partners = append(st.partners, &p)
	tx.did(Users, func() { st.partners = st.partners[:n] })
	return nil
}

type errPartner model.PartnerRecord

func (e errPartner) Error() string {
	return "partner " + e.SharedByID + " → " + e.SharedWithID + " names no user, itself, or is there twice"
}

// RemovePartner stops sharing a user's library with another.
func (tx *Tx) RemovePartner(sharedBy, sharedWith string) error {
	st := tx.st
	i := slices.IndexFunc(st.partners, func(p *model.PartnerRecord) bool {
		return p.SharedByID == sharedBy && p.SharedWithID == sharedWith
	})
	if i < 0 {
		return Fail(Invalid, "Partner not found")
	}
	partners := st.partners
	st.partners = slices.Delete(slices.Clone(partners), i, i+1)
	tx.did(Users, func() { st.partners = partners })
	return nil
}

// SetPartnerInTimeline says whether the library shared with a user shows
// in their timeline.
func (tx *Tx) SetPartnerInTimeline(sharedBy, sharedWith string, in bool) (*model.PartnerRecord, error) {
	st := tx.st
	i := slices.IndexFunc(st.partners, func(p *model.PartnerRecord) bool {
		return p.SharedByID == sharedBy && p.SharedWithID == sharedWith
	})
	if i < 0 {
		return nil, Fail(NoAccess, "Not found or no partner.update access")
	}
	old := st.partners[i]
	p := *old
	p.InTimeline = in
	st.partners[i] = &p
	tx.did(Users, func() { st.partners[i] = old })
	return &p, nil
}

package store

import (
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// NewPerson is what POST /api/people asks for.
type NewPerson struct {
	Name      string
	BirthDate *string // YYYY-MM-DD
	IsHidden  bool
}

// AddPerson makes a person of the user's library, with no face yet.
func (tx *Tx) AddPerson(userID string, np NewPerson) (*model.PersonRecord, error) {
	st := tx.st
	if st.userByID[userID] == nil {
		return nil, Fail(Unauthenticated, "Invalid user token")
	}
	if err := tx.room(); err != nil {
		return nil, err
	}
	now := model.At(tx.Now())
	p := model.PersonRecord{ID: tx.db.newID(), OwnerID: userID, Name: np.Name, BirthDate: np.BirthDate, IsHidden: np.IsHidden, CreatedAt: now, UpdatedAt: now}
	if st.personByID[p.ID] != nil {
		return nil, internal(errPersonTaken(p.ID))
	}
	n := len(st.people)
	st.people = append(st.people, &p)
	st.personByID[p.ID] = &p
	tx.did(Assets, func() {
		st.people = st.people[:n]
		delete(st.personByID, p.ID)
	})
	return &p, nil
}

type errPersonTaken string

func (e errPersonTaken) Error() string { return "person id " + string(e) + " is taken" }

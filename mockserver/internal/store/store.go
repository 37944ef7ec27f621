// Package store holds the mock server's state: its records, their
// indexes, the transaction every write goes through, who a request acts
// for, and the domain errors of its operations. It speaks the domain, not
// HTTP: operations take a principal and plain values, and answer records
// or domain errors. It never encodes an answer.
//
// Records are never changed once stored: a write adds new records, or puts
// a changed copy in the place of one, so that what a reader was handed
// stays true after the lock is let go.
package store

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Store owns all of the mock's state behind one lock.
type Store struct {
	now func() time.Time
	// newID, newSecret and newToken make the ids, keys and tokens of
	// objects created at run time; tests replace them to force a write to
	// fail halfway.
	newID     func() string
	newSecret func(n int) string
	newToken  func() string
	// maxListed bounds the assets a user's listing shows.
	maxListed int
	// maxMade bounds the records callers make (MaxMadeRecords).
	maxMade int

	mu    sync.RWMutex
	state *state
	// replacing is held while Replace builds a state.
	replacing sync.Mutex
	// versions counts the writes that changed each kind of record
	// (Change): an answer made at one stamp of the kinds it shows stays
	// true until one of them changes.
	versions [numKinds]atomic.Uint64
	// mediaDir is where the mock keeps uploads (absolute; "" for nowhere),
	// which the dataset names.
	mediaDir string
	// last is the newest time given to an object created at run time;
	// the next one gets a later one, so createdAt strictly increases.
	last time.Time
}

// New is a store holding d, or the first reason d does not hold together.
func New(d model.Dataset, now func() time.Time, opts ...Option) (*Store, error) {
	db := &Store{now: now, newID: NewUUID, newSecret: newSecret, newToken: newToken, maxListed: MaxListedAssets, maxMade: MaxMadeRecords}
	for _, o := range opts {
		o(db)
	}
	st, err := newState(d, db.maxListed)
	if err != nil {
		return nil, err
	}
	st.base, st.maxMade = st.records(), db.maxMade
	db.state = st
	return db, nil
}

// Option sets something of a store other than its data.
type Option func(*Store)

// MaxListed bounds the assets a user's listing shows at n, in place of
// MaxListedAssets (n ≤ 0 keeps it).
func MaxListed(n int) Option {
	return func(db *Store) {
		if n > 0 {
			db.maxListed = n
		}
	}
}

// MaxMade bounds the records callers make at n, in place of
// MaxMadeRecords (n ≤ 0 keeps it).
func MaxMade(n int) Option {
	return func(db *Store) {
		if n > 0 {
			db.maxMade = n
		}
	}
}

// Check says whether d holds together: every reference in it resolves and
// every record keeps the store's rules.
func Check(d model.Dataset) error {
	_, err := newState(d, MaxListedAssets)
	return err
}

// SetMediaDir names the folder that keeps the uploads, which the dataset
// then carries.
func (db *Store) SetMediaDir(dir string) {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.mediaDir = dir
}

// Change names the kinds of record a write changed, and those an answer
// shows: an answer stays true until a write changes a kind it shows.
type Change uint8

// The kinds of change.
const (
	// Users: a user came, changed or went.
	Users Change = 1 << iota
	// Keys: a session or an API key came or went.
	Keys
	// AssetsAdded: an asset came. No album or link holds it yet, so only
	// the answers that list every asset of a user show it.
	AssetsAdded
	// Assets: a stored asset changed or went.
	Assets
	// Albums: an album came, changed or went.
	Albums
	// Links: a shared link came, changed or went.
	Links

	numKinds = iota
	// Everything is every kind of change.
	Everything Change = 1<<numKinds - 1
)

// Read runs f with the state as it is, under the read lock. What f is
// handed stays true after Read returns: records never change.
func (db *Store) Read(f func(v *View)) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	f(&View{st: db.state, db: db})
}

// Write runs f under the write lock as one all-or-nothing step: if f fails,
// every change it made to the state, and the clock it ticked, is taken
// back; if it succeeds, the kinds it changed get a new stamp.
func (db *Store) Write(f func(tx *Tx) error) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	tx := &Tx{View: View{st: db.state, db: db}}
	last := db.last
	if err := f(tx); err != nil {
		tx.rollback()
		db.last = last
		return err
	}
	db.bump(tx.changed)
	return nil
}

// bump gives the kinds of c a new stamp. The caller holds the write lock.
func (db *Store) bump(c Change) {
	for k := range numKinds {
		if c&(1<<k) != 0 {
			db.versions[k].Add(1)
		}
	}
}

// Replace swaps the whole state for d's, or keeps it if d does not hold
// together. The new state is built outside the lock, so that readers go
// on meanwhile, and one at a time, so that a crowd of resets (the control
// API's, which anyone may ask for) holds at most one state beside the
// current one, whatever the size of the dataset.
func (db *Store) Replace(d model.Dataset) error {
	db.replacing.Lock()
	defer db.replacing.Unlock()
	st, err := newState(d, db.maxListed)
	if err != nil {
		return fmt.Errorf("the dataset: %w", err)
	}
	st.base, st.maxMade = st.records(), db.maxMade
	db.mu.Lock()
	defer db.mu.Unlock()
	db.state = st
	db.bump(Everything)
	return nil
}

// View is the state as one reader, or one write, sees it. Its methods read;
// only a Tx writes.
type View struct {
	st *state
	db *Store
}

// Stamp is where the kinds of c stand: it changes with every write that
// changes one of them. It takes no lock: a reader may ask it first, and
// take the lock only when what it keeps has changed.
func (db *Store) Stamp(c Change) uint64 {
	var sum uint64
	for k := range numKinds {
		if c&(1<<k) != 0 {
			sum += db.versions[k].Load()
		}
	}
	return sum
}

// Stamp is where the kinds of c stand as this view sees them.
func (v *View) Stamp(c Change) uint64 { return v.db.Stamp(c) }

// Now is the wall clock.
func (v *View) Now() time.Time { return v.db.now() }

// Tx is one write: the state as it writes it, and how to take back each of
// its steps. It is handed out by Store.Write only, and every change of
// the state goes through one of its methods.
type Tx struct {
	View
	undo    []func()
	changed Change
	// loading: the state is being built from a dataset, and a failure
	// drops it whole: nothing to take back.
	loading bool
	// loadListed counts, while loading, what each user's listing shows so
	// far, so that each link is checked against the bound without counting
	// the user's links again.
	loadListed map[string]int
}

// did records a step of the write: how to take it back, and what it changed.
func (tx *Tx) did(c Change, undo func()) {
	tx.changed |= c
	if !tx.loading {
		tx.undo = append(tx.undo, undo)
	}
}

// forget takes rec, of id, out of the list and the index that hold it,
// a step of kind c that rollback takes back.
func forget[T any](tx *Tx, c Change, list *[]*T, byID map[string]*T, id string, rec *T) {
	before := *list
	*list = slices.DeleteFunc(slices.Clone(before), func(o *T) bool { return o == rec })
	delete(byID, id)
	tx.did(c, func() {
		*list = before
		byID[id] = rec
	})
}

// rollback takes back every step, the newest first.
func (tx *Tx) rollback() {
	for i := len(tx.undo) - 1; i >= 0; i-- {
		tx.undo[i]()
	}
	tx.undo = nil
}

// Tick returns the wall clock's time, later than any it returned before.
func (tx *Tx) Tick() model.Time {
	db := tx.db
	t := model.At(db.now())
	if !t.After(db.last) {
		t = model.At(db.last.Add(time.Millisecond))
	}
	db.last = t.Time
	return t
}

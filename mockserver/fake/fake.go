// Package fake generates the mock server's seeded dataset: a family's photo
// library with users, people, tags, assets, albums and shared links that
// look real and hold every invariant a client may rely on.
//
// Generation is a pure function of its Options: one seeded faker drives every
// choice, dates are computed from the anchor, never from the wall clock, and
// no map order reaches the output. The same Options give the same Dataset in
// any process on any day.
package fake

import (
	"encoding/base64"
	"math/rand/v2"
	"time"
	_ "time/tzdata" // for zones outside the gazetteer (see location), on machines without zone files

	"github.com/brianvoe/gofakeit/v7"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Options say what to generate.
type Options struct {
	Seed   int64     // same seed, options and anchor → identical Dataset
	Anchor time.Time // generated dates lie before it; link expiry dates around it
	Links  int       // shared links of the default user (the server's default is 12)
	Users  int       // other users besides the default one, each with their own links (default 3 when 0)
	APIKey string    // the default user's API key (e.g. "mediaspec-dev-key")
	// Password is every user's password (DefaultPassword when empty). It is
	// stored hashed, with a salt derived from the seed.
	Password string
}

// DefaultPassword is the password of the generated users when Options.Password is empty.
const DefaultPassword = "mediaspec-dev-password"

// DefaultOtherUsers is how many users besides the default one Generate
// creates when Options.Users is 0. A negative Options.Users means none.
const DefaultOtherUsers = 3

// Generate returns the dataset that o describes. The default user is
// Users[0], with API key o.APIKey (a generated one when it is empty); the
// other users get API keys of their own. Negative Links count as 0. A zero
// Anchor stands for 2025-01-01T00:00:00Z, so that a forgotten anchor still
// gives a plausible library.
func Generate(o Options) model.Dataset {
	g := newGen(o)
	return g.run(o)
}

// gen holds the state of one Generate call. Nothing in it outlives the call.
type gen struct {
	f      *gofakeit.Faker
	anchor time.Time

	// Limits that keep every generated date before the anchor and every
	// "after" relation strict.
	libraryStart time.Time // earliest capture
	eventEnd     time.Time // latest capture
	uploadLimit  time.Time
	albumLimit   time.Time
	linkLimit    time.Time

	zones  map[string]*time.Location // loaded once per Generate
	thumbs map[thumbKey][]string
	emails map[string]bool

	family *culture
	humans []human
	owners []*owner
	ds     model.Dataset
}

func newGen(o Options) *gen {
	seed := uint64(o.Seed)
	// The same stream as gofakeit.New(seed), but unlocked (only this call
	// uses it) and deterministic for seed 0 too, where New would draw a
	// random seed.
	f := gofakeit.NewFaker(rand.NewPCG(seed, seed), false)
	if o.Anchor.IsZero() {
		o.Anchor = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)
	}
	anchor := o.Anchor.UTC().Truncate(time.Millisecond)
	g := &gen{
		f:      f,
		anchor: anchor,
		zones:  make(map[string]*time.Location),
		thumbs: make(map[thumbKey][]string),
		emails: make(map[string]bool),
	}
	g.libraryStart = anchor.AddDate(-6, 0, 0).Add(-g.span(0, 180*24*time.Hour))
	g.eventEnd = anchor.Add(-3 * 24 * time.Hour)
	g.uploadLimit = anchor.Add(-36 * time.Hour)
	g.albumLimit = anchor.Add(-12 * time.Hour)
	g.linkLimit = anchor.Add(-time.Minute)
	return g
}

func (g *gen) run(o Options) model.Dataset {
	g.ds.Seed = o.Seed
	g.ds.Anchor = model.At(g.anchor)
	// A library in use: its admin was shown around long ago, and the web
	// app opens on the photos, not on the first admin's onboarding.
	g.ds.AdminOnboarded = true
	others := o.Users
	switch {
	case others == 0:
		others = DefaultOtherUsers
	case others < 0:
		others = 0
	}
	g.makeWorld(others)
	g.makeUsers(others, o.APIKey, passwordHash(o.Seed, o.Password))
	for i, ow := range g.owners {
		links := o.Links
		if i > 0 {
			links = g.between(2, 6)
		}
		g.makeLibrary(ow, max(0, links))
	}
	g.makeMemories()
	return g.ds
}

// n returns a number in [0, n); 0 when n ≤ 0.
func (g *gen) n(n int) int { return g.f.IntN(n) }

// between returns a number in [lo, hi].
func (g *gen) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + g.f.IntN(hi-lo+1)
}

// chance is true with probability p.
func (g *gen) chance(p float64) bool { return g.f.Float64() < p }

// frac returns a number in [lo, hi).
func (g *gen) frac(lo, hi float64) float64 { return lo + (hi-lo)*g.f.Float64() }

// pick returns a random element of s.
func pick[T any](g *gen, s []T) T { return s[g.f.IntN(len(s))] }

// weighted returns an index of w with probability proportional to its weight.
func (g *gen) weighted(w []int) int {
	total := 0
	for _, x := range w {
		total += x
	}
	r := g.n(total)
	for i, x := range w {
		if r < x {
			return i
		}
		r -= x
	}
	return len(w) - 1
}

// span returns a duration in [lo, hi).
func (g *gen) span(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(g.f.IntN(int(hi-lo)))
}

// instant returns a millisecond instant in [lo, hi).
func (g *gen) instant(lo, hi time.Time) time.Time {
	return lo.Add(g.span(0, hi.Sub(lo))).Truncate(time.Millisecond)
}

// after returns an instant min to max after t, but before limit, and at
// least a second after t (callers keep limit more than two seconds after t),
// so "created after" relations stay strict at millisecond precision.
func (g *gen) after(t time.Time, min, max time.Duration, limit time.Time) time.Time {
	lo, hi := t.Add(min), t.Add(max)
	if hi.After(limit) {
		hi = limit
	}
	if earliest := t.Add(time.Second); lo.Before(earliest) {
		lo = earliest
	}
	if !lo.Before(hi) {
		lo = t.Add(time.Second)
		hi = limit
		if !lo.Before(hi) {
			return lo.Truncate(time.Millisecond)
		}
	}
	return g.instant(lo, hi)
}

// bytes returns n random bytes.
func (g *gen) bytes(n int) []byte {
	b := make([]byte, n)
	g.fill(b)
	return b
}

// fill fills b with random bytes.
func (g *gen) fill(b []byte) {
	for i := 0; i < len(b); i += 8 {
		v := g.f.Uint64()
		for j := i; j < len(b) && j < i+8; j++ {
			b[j] = byte(v)
			v >>= 8
		}
	}
}

// checksum returns a base64 SHA-1-sized (20 bytes) checksum.
func (g *gen) checksum() string {
	var b [20]byte
	g.fill(b[:])
	return base64.StdEncoding.EncodeToString(b[:])
}

// zone returns the location named name, loading it at most once per Generate.
func (g *gen) zone(name string) *time.Location {
	if loc, ok := g.zones[name]; ok {
		return loc
	}
	loc, err := gazetteer.Location(name)
	if err != nil {
		panic("fake: gazetteer zone " + name + ": " + err.Error()) // a typo in the table; tests catch it
	}
	g.zones[name] = loc
	return loc
}

// localClock is t's wall clock in loc, written as if it were UTC: the API's
// localDateTime.
func localClock(t time.Time, loc *time.Location) time.Time {
	_, offset := t.In(loc).Zone()
	return t.Add(time.Duration(offset) * time.Second)
}

func ptr[T any](v T) *T { return &v }

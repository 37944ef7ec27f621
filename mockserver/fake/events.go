package fake

import (
	"slices"
	"strconv"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
)

// eventKind is what happened when a set of photos was taken.
type eventKind int

const (
	evTrip eventKind = iota
	evWeekend
	evDayOut
	evEveryday
	evBirthday
	evHoliday
	evNewYear
	evEaster
	evHalloween
	evSchool
	evWedding
	evPet
	evGarden
)

// event is an occasion the owner took photos at: a trip, a birthday, a
// month at home. Its photos become an album, or are shared one by one.
type event struct {
	kind       eventKind
	place      int
	start, end time.Time // UTC
	scenes     []int     // scene indices, repeated for weight
	people     []int     // human indices who were there
	size       int       // photos to take
	subject    int       // the human whose birthday or first school day it is
	partner    string    // the other half of a wedding couple
	useCamera  bool
	useExtras  bool
	assets     []int // visible primary assets, chronological (Dataset.Assets indices)
}

func itoa(n int) string { return strconv.Itoa(n) }

// southern reports whether a latitude has its summer in December.
func southern(lat float64) bool { return lat < 0 }

// season names the season of month as people at latitude lat call it.
func season(month time.Month, lat float64) string {
	m := int(month)
	if southern(lat) {
		m = (m+5)%12 + 1
	}
	switch m {
	case 12, 1, 2:
		return "Winter"
	case 3, 4, 5:
		return "Spring"
	case 6, 7, 8:
		return "Summer"
	default:
		return "Autumn"
	}
}

// winter reports whether month is snow season at latitude lat.
func winter(month time.Month, lat float64) bool {
	m := int(month)
	if southern(lat) {
		return m >= 6 && m <= 9
	}
	return m == 12 || m <= 3
}

// household returns the humans who live with the owner.
func (g *gen) household(ow *owner) []int {
	var out []int
	me := g.humans[ow.self].household
	for i := range g.humans {
		if g.humans[i].household == me {
			out = append(out, i)
		}
	}
	return out
}

// relatives returns the humans the owner's family celebrates with.
func (g *gen) relatives(ow *owner) []int {
	out := g.household(ow)
	if g.humans[ow.self].household > 2 {
		return out
	}
	for i := range g.humans {
		if h := g.humans[i].household; h == 1 || h == 2 || h == 0 {
			if !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	return out
}

// friendsOf returns the members of one household of friends.
func (g *gen) friendsOf(ow *owner) []int {
	var households []int
	for i := range g.humans {
		h := g.humans[i].household
		if h > 2 && h != g.humans[ow.self].household && !slices.Contains(households, h) {
			households = append(households, h)
		}
	}
	if len(households) == 0 {
		return nil
	}
	hh := pick(g, households)
	var out []int
	for i := range g.humans {
		if g.humans[i].household == hh {
			out = append(out, i)
		}
	}
	return out
}

// day returns midnight of a local calendar date as a UTC instant.
func (g *gen) day(year int, month time.Month, d int, place int) time.Time {
	return time.Date(year, month, d, 0, 0, 0, 0, g.zone(cities[place].Zone)).UTC()
}

// inWindow reports whether an event fits the library's time span.
func (g *gen) inWindow(start, end time.Time) bool {
	return !start.Before(g.libraryStart) && end.Before(g.eventEnd)
}

// planEvents returns n events of the owner's life, oldest first: yearly
// occasions, trips, days out and months at home. scale shrinks how many
// photos each has.
func (g *gen) planEvents(ow *owner, n int, scale float64) []*event {
	if n <= 0 {
		return nil
	}
	calendar := g.calendarEvents(ow)
	g.f.ShuffleAnySlice(calendar)
	nCal := min(len(calendar), (n*2+4)/5)
	events := calendar[:nCal]
	rest := n - nCal
	trips := (rest*13 + 10) / 20
	for i := range rest {
		if i < trips {
			events = append(events, g.trip(ow))
		} else if g.chance(0.5) {
			events = append(events, g.dayOut(ow))
		} else {
			events = append(events, g.everyday(ow))
		}
	}
	events = g.onThisDay(ow, events)
	for _, e := range events {
		e.size = max(3, int(float64(e.size)*scale+0.5))
	}
	slices.SortStableFunc(events, func(a, b *event) int { return a.start.Compare(b.start) })
	return events
}

// calendarEvents lists the yearly occasions of the owner's library.
func (g *gen) calendarEvents(ow *owner) []*event {
	me := &g.humans[ow.self]
	cal := &calendar{g: g, ow: ow, me: me, home: ow.home}
	cal.relatives = g.relatives(ow)
	cal.household = g.household(ow)
	for _, h := range cal.household {
		if g.humans[h].rel == relChild || g.humans[h].rel == relFriendFamily && g.humans[h].birth.Year() > me.birth.Year()+15 {
			cal.kids = append(cal.kids, h)
		}
	}
	cal.parentsHome = cal.home
	for i := range g.humans {
		if g.humans[i].rel == relParent && me.household == 0 {
			cal.parentsHome = g.humans[i].home
		}
	}

	for year := g.libraryStart.Year(); year <= g.anchor.Year(); year++ {
		cal.occasions(year)
		cal.birthdays(year)
	}
	if g.chance(0.5) {
		cal.pet()
	}
	for range 2 {
		cal.wedding()
	}
	return cal.out
}

// calendar is what the yearly occasions of an owner's library are planned
// from, and the occasions planned so far.
type calendar struct {
	g           *gen
	ow          *owner
	me          *human
	home        int
	parentsHome int   // where the holidays may be spent instead of home
	relatives   []int // who the family celebrates with
	household   []int
	kids        []int // the children of the household
	out         []*event
}

// add keeps an occasion when it fits the library's time span.
func (cal *calendar) add(e *event) {
	if cal.g.inWindow(e.start, e.end) {
		cal.out = append(cal.out, e)
	}
}

// oneDay is an occasion that lasts the day from start.
func oneDay(kind eventKind, place int, start time.Time, sc []int, people []int, size int) *event {
	return &event{kind: kind, place: place, start: start, end: start.Add(24 * time.Hour), scenes: sc, people: people, size: size}
}

// occasions plans the holidays of a year: the family's holiday, New Year's
// Eve, Easter, Halloween and a spell of gardening, each when it happens.
func (cal *calendar) occasions(year int) {
	g, home, household := cal.g, cal.home, cal.household
	c := cal.ow.cult
	lat := cities[home].Lat
	hol := c.holiday
	place := home
	if cal.parentsHome != home && g.chance(0.5) {
		place = cal.parentsHome
	}
	start := g.day(year, time.Month(hol.month), g.between(hol.dayMin, hol.dayMax), place)
	e := &event{kind: evHoliday, place: place, start: start, end: start.Add(time.Duration(g.between(1, 3)) * 24 * time.Hour),
		scenes: []int{sceneFestive, sceneFestive, sceneFestive, sceneFood, sceneHome}, people: cal.relatives, size: g.between(4, 12)}
	cal.add(e)
	if g.chance(0.5) {
		cal.add(oneDay(evNewYear, home, g.day(year, 12, 31, home), []int{sceneParty, sceneParty, sceneFood}, household, g.between(3, 8)))
	}
	if c.easter && g.chance(0.4) {
		cal.add(oneDay(evEaster, home, g.day(year, 4, g.between(1, 20), home), []int{sceneGarden, sceneFood, sceneHome}, cal.relatives, g.between(3, 10)))
	}
	if c.halloween && len(cal.kids) > 0 && g.chance(0.6) {
		cal.add(oneDay(evHalloween, home, g.day(year, 10, 31, home), []int{sceneParty, sceneHome, sceneCity}, household, g.between(3, 10)))
	}
	if g.chance(0.3) {
		month := time.Month(g.between(5, 7))
		if southern(lat) {
			month = time.Month((int(month)+5)%12 + 1)
		}
		start := g.day(year, month, g.between(1, 28), home)
		cal.add(&event{kind: evGarden, place: home, start: start, end: start.Add(time.Duration(g.between(3, 20)) * 24 * time.Hour),
			scenes: []int{sceneGarden, sceneGarden, scenePet, sceneFood}, people: household, size: g.between(3, 10)})
	}
}

// birthdays plans the birthday parties of a year, always the children's,
// the household's often, others' now and then, and the children's first
// days of school.
func (cal *calendar) birthdays(year int) {
	g, ow, me, home := cal.g, cal.ow, cal.me, cal.home
	lat := cities[home].Lat
	for h := range g.humans {
		hu := &g.humans[h]
		if ow.persons[h] < 0 || hu.birth.Year() >= year {
			continue
		}
		isKid := slices.Contains(cal.kids, h)
		if !isKid && !(h == ow.self || g.humans[h].household == me.household) && !g.chance(0.15) {
			continue
		}
		if !isKid && !g.chance(0.4) {
			continue
		}
		age := year - hu.birth.Year()
		start := g.day(year, hu.birth.Month(), hu.birth.Day(), home)
		people := append(slices.Clone(cal.relatives), h)
		e := oneDay(evBirthday, home, start, []int{sceneParty, sceneParty, sceneParty, sceneFood, sceneHome}, people, g.between(4, 12))
		e.subject = h
		cal.add(e)
		if isKid && age >= 5 && age <= 11 && g.chance(0.3) {
			month, d := time.September, g.between(1, 8)
			if southern(lat) {
				month = time.February
			}
			e := oneDay(evSchool, home, g.day(year, month, d, home), []int{scenePlayground, sceneCity, sceneHome}, cal.household, g.between(3, 8))
			e.subject = h
			cal.add(e)
		}
	}
}

// pet names the pet the family got and plans its first weeks at home.
func (cal *calendar) pet() {
	g, ow := cal.g, cal.ow
	ow.pet = pick(g, petNames[:])
	ow.petIsCat = g.chance(0.35)
	start := g.instant(g.libraryStart, g.eventEnd.AddDate(0, -1, 0))
	cal.add(&event{kind: evPet, place: cal.home, start: start, end: start.Add(time.Duration(g.between(7, 28)) * 24 * time.Hour),
		scenes: []int{scenePet, scenePet, scenePet, sceneHome, sceneGarden}, people: cal.household, size: g.between(4, 12)})
}

// wedding plans, more often than not, the wedding of a friend, at the
// friend's home, and names the couple.
func (cal *calendar) wedding() {
	g, ow, me := cal.g, cal.ow, cal.me
	friends := g.friendsOf(ow)
	if len(friends) == 0 || g.chance(0.4) {
		return
	}
	place := g.humans[friends[0]].home
	start := g.instant(g.libraryStart, g.eventEnd.AddDate(0, 0, -2))
	start = g.day(start.Year(), start.Month(), start.Day(), place)
	e := &event{kind: evWedding, place: place, start: start, end: start.Add(24 * time.Hour),
		scenes: []int{sceneWedding, sceneWedding, sceneWedding, sceneParty, sceneFood}, people: append(g.household(ow), friends...), size: g.between(8, 20)}
	e.subject = friends[0]
	bride := &g.humans[friends[0]]
	for _, h := range friends[1:] { // the friend's partner, when they have one
		if p := &g.humans[h]; p.birth.Year() < bride.birth.Year()+12 {
			e.partner = p.first
		}
	}
	for e.partner == "" || e.partner == bride.first || e.partner == me.first {
		if bride.female {
			e.partner = pick(g, bride.cult.male)
		} else {
			e.partner = pick(g, bride.cult.female)
		}
	}
	cal.add(e)
}

// trip plans a journey: a weekend in a city nearby, or one to two weeks
// somewhere the family wanted to go.
func (g *gen) trip(ow *owner) *event {
	weekend := g.chance(0.35)
	days := g.between(4, 14)
	if weekend {
		days = g.between(2, 3)
	}
	start := g.instant(g.libraryStart, g.eventEnd.Add(-time.Duration(days+1)*24*time.Hour))
	if ow.near == nil {
		ow.near, ow.far = destinations(ow.home)
	}
	near := ow.near
	// The more places a country has, the more trips stay in it.
	domestic := min(0.55, 0.12*float64(len(near)))
	if weekend {
		domestic = min(0.85, 2*domestic)
	}
	dest := -1
	if len(near) > 0 && g.chance(domestic) {
		dest = pick(g, near)
	}
	if dest < 0 {
		dest = g.weighted(ow.far)
	}
	p := &cities[dest]
	loc := g.zone(p.Zone)
	local := start.In(loc)
	if weekend {
		// Leave on Friday evening or Saturday morning.
		shift := (int(time.Saturday) - int(local.Weekday()) + 7) % 7
		local = local.AddDate(0, 0, shift)
	}
	start = time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc).UTC()
	end := start.Add(time.Duration(days) * 24 * time.Hour)
	if !end.Before(g.eventEnd) {
		start, end = start.AddDate(0, 0, -7-days), end.AddDate(0, 0, -7-days)
	}
	sc := tripScenes(p, local.Month())
	people := g.household(ow)
	if g.chance(0.25) {
		people = append(people, g.friendsOf(ow)...)
	}
	kind := evTrip
	size := min(30, max(5, days*g.between(1, 3)))
	if weekend {
		kind, size = evWeekend, g.between(4, 12)
	}
	return &event{kind: kind, place: dest, start: start, end: end, scenes: sc, people: people, size: size,
		useCamera: g.chance(0.7), useExtras: g.chance(0.6)}
}

// destinations lists the places a trip from home may go to: the other
// places of its country, and the weight of every place but home as a
// destination further away.
func destinations(home int) (near, far []int) {
	near = []int{}
	for i := range cities {
		if cities[i].CC == cities[home].CC && i != home {
			near = append(near, i)
		}
	}
	far = make([]int, len(cities))
	for i := range cities {
		if i != home {
			far[i] = cities[i].Weight * cities[i].Weight
		}
	}
	return near, far
}

// tripScenes lists what a trip to p in month shows, weighted by
// repetition: what each feature of the place offers, and food.
func tripScenes(p *gazetteer.Place, month time.Month) []int {
	var sc []int
	for _, f := range p.Features {
		switch f {
		case 'c':
			sc = append(sc, sceneCity, sceneCity, sceneFood, sceneMuseum)
		case 'b':
			sc = append(sc, sceneBeach, sceneBeach, sceneSunset, sceneFood)
		case 'm':
			sc = append(sc, sceneMountain, sceneMountain, sceneHike)
		case 's':
			if winter(month, p.Lat) {
				sc = append(sc, sceneSnow, sceneSnow, sceneSnow)
			} else {
				sc = append(sc, sceneMountain, sceneHike)
			}
		case 'n':
			sc = append(sc, sceneHike, sceneLake)
		case 'w':
			sc = append(sc, sceneSafari, sceneSafari)
		case 'l':
			sc = append(sc, sceneLake, sceneLake)
		}
	}
	return append(sc, sceneFood)
}

// dayOut plans a day near home: a hike, the lake, the beach, the park.
func (g *gen) dayOut(ow *owner) *event {
	p := &cities[ow.home]
	choice := pick(g, dayOutScenes(p))
	start := g.instant(g.libraryStart, g.eventEnd.Add(-48*time.Hour))
	local := start.In(g.zone(p.Zone))
	start = g.day(local.Year(), local.Month(), local.Day(), ow.home)
	return g.dayOutOn(ow, choice, start)
}

// dayOutScenes are what a day out near home p is spent on.
func dayOutScenes(p *gazetteer.Place) []int {
	sc := []int{sceneHike, sceneGarden, scenePlayground, sceneLake}
	if slices.Contains([]byte(p.Features), 'b') {
		sc = append(sc, sceneBeach, sceneBeach, sceneSunset)
	}
	if slices.Contains([]byte(p.Features), 'm') {
		sc = append(sc, sceneMountain)
	}
	return sc
}

// dayOutOn plans a day out of the household spent on scene choice, on
// the day that starts at start.
func (g *gen) dayOutOn(ow *owner, choice int, start time.Time) *event {
	return &event{kind: evDayOut, place: ow.home, start: start, end: start.Add(24 * time.Hour),
		scenes: []int{choice, choice, choice, sceneFood}, people: g.household(ow), size: g.between(3, 10), useCamera: g.chance(0.3)}
}

// onThisDay adds a day out on the anchor's date in an earlier year where
// none of events is on it: a library in use has photos of this day some
// years ago, which the web app shows as its memory lane (and the
// memories of today). Where one is, it adds nothing and takes nothing of
// the faker's stream.
func (g *gen) onThisDay(ow *owner, events []*event) []*event {
	month, day := g.anchor.Month(), g.anchor.Day()
	for _, e := range events {
		// An event of one day is on it; one of many days may have no
		// photo of that day.
		if local := e.start.In(g.zone(cities[e.place].Zone)); e.end.Sub(e.start) <= 24*time.Hour &&
			local.Month() == month && local.Day() == day && local.Year() < g.anchor.Year() {
			return events
		}
	}
	year := g.between(g.libraryStart.Year()+1, g.anchor.Year()-1)
	start := g.day(year, month, day, ow.home)
	if start.In(g.zone(cities[ow.home].Zone)).Day() != day || !g.inWindow(start, start.Add(24*time.Hour)) {
		return events // February 29th of a year without one
	}
	choice := pick(g, dayOutScenes(&cities[ow.home]))
	return append(events, g.dayOutOn(ow, choice, start))
}

// everyday plans a month of photos at home.
func (g *gen) everyday(ow *owner) *event {
	p := &cities[ow.home]
	start := g.instant(g.libraryStart, g.eventEnd.AddDate(0, -1, -1))
	local := start.In(g.zone(p.Zone))
	start = g.day(local.Year(), local.Month(), 1, ow.home)
	if start.Before(g.libraryStart) {
		start = start.AddDate(0, 1, 0)
	}
	sc := []int{sceneHome, sceneHome, sceneFood, sceneGarden, sceneCity, scenePlayground}
	return &event{kind: evEveryday, place: ow.home, start: start, end: start.AddDate(0, 1, -1), scenes: sc, people: g.household(ow), size: g.between(3, 12)}
}

package fake

import (
	"strings"
	"time"
)

// This file writes what people type: album names and descriptions, link
// descriptions and passwords. Every template is something a person would
// write; none is filler.

// albumName names the album of an event as its owner would.
func (g *gen) albumName(ow *owner, e *event) string {
	p := &cities[e.place]
	local := e.start.In(g.zone(p.Zone))
	year := itoa(local.Year())
	month := monthNames[local.Month()-1]
	home := &cities[ow.home]
	switch e.kind {
	case evTrip, evWeekend:
		return g.tripAlbumName(ow, e, local)
	case evDayOut:
		return g.dayOutAlbumName(e, month, year)
	case evEveryday:
		return pick(g, []string{month + " " + year, month + " " + year, "Everyday moments " + year, "Home, " + month + " " + year})
	case evBirthday:
		h := &g.humans[e.subject]
		age := local.Year() - h.birth.Year()
		if age < 18 {
			return pick(g, []string{h.first + "'s " + ordinal(age) + " birthday", h.first + " turns " + itoa(age), h.first + "'s birthday party"})
		}
		if age%10 == 0 {
			return pick(g, []string{h.first + "'s " + ordinal(age), h.first + " turns " + itoa(age) + "!"})
		}
		return h.first + "'s birthday " + year
	case evHoliday:
		name := ow.cult.holiday.name
		if e.place != ow.home {
			return pick(g, []string{name + " " + year, name + " in " + p.City, name + " at Grandma's"})
		}
		return pick(g, []string{name + " " + year, name + " " + year, name + " " + year, name + " at home " + year})
	case evNewYear:
		return pick(g, []string{"New Year's Eve " + year, "NYE " + year, "Hello " + itoa(local.Year()+1)})
	case evEaster:
		return "Easter " + year
	case evHalloween:
		return pick(g, []string{"Halloween " + year, "Trick or treat " + year})
	case evSchool:
		h := &g.humans[e.subject]
		age := local.Year() - h.birth.Year()
		if age <= 6 {
			return h.first + "'s first day of school"
		}
		return pick(g, []string{"Back to school " + year, h.first + " back to school"})
	case evWedding:
		h := &g.humans[e.subject]
		return pick(g, []string{h.first + " & " + e.partner + "'s wedding", "Wedding of " + h.first + " and " + e.partner, h.first + " & " + e.partner + " " + year})
	case evPet:
		kind, emoji := "dog", "🐶"
		if ow.petIsCat {
			kind, emoji = "cat", "🐱"
		}
		return pick(g, []string{ow.pet, "Our " + kind + " " + ow.pet, ow.pet + " " + emoji, "Welcome home, " + ow.pet})
	case evGarden:
		return pick(g, []string{"Garden " + year, "The garden in " + strings.ToLower(season(local.Month(), home.Lat)), "Vegetable patch " + year})
	}
	return month + " " + year
}

// tripAlbumName names the album of a trip or a weekend away, e starting
// at local, as people do: mostly the place and the date.
func (g *gen) tripAlbumName(ow *owner, e *event, local time.Time) string {
	p := &cities[e.place]
	year := itoa(local.Year())
	month := monthNames[local.Month()-1]
	home := &cities[ow.home]
	// Weighted templates; only the chosen one is written out.
	abroad := p.CC != home.CC
	companion := g.companion(ow, e)
	w := []int{
		6,                                  // Lisbon, June 2023
		2,                                  // Lisbon 2023
		1,                                  // Trip to Lisbon
		boolWeight(e.kind == evWeekend, 3), // Weekend in Lisbon
		boolWeight(abroad, 1),              // Summer in Portugal
		boolWeight(abroad, 1),              // Portugal 2023
		boolWeight(abroad, 1),              // Portugal 🇵🇹
		boolWeight(!abroad && p.State != p.City, 1), // Road trip through Faro
		boolWeight(companion != "", 1),              // Lisbon with Ana
	}
	switch g.weighted(w) {
	case 1:
		return p.City + " " + year
	case 2:
		return "Trip to " + p.City
	case 3:
		return "Weekend in " + p.City
	case 4:
		return season(local.Month(), home.Lat) + " in " + p.Country
	case 5:
		return p.Country + " " + year
	case 6:
		return p.Country + " " + flag(p.CC)
	case 7:
		return "Road trip through " + p.State
	case 8:
		return p.City + " with " + companion
	}
	return p.City + ", " + month + " " + year
}

// dayOutAlbumName names the album of a day out after what it was spent
// doing.
func (g *gen) dayOutAlbumName(e *event, month, year string) string {
	s := scenes[e.scenes[0]].name
	switch s {
	case "hike":
		return pick(g, []string{"Sunday hike", "Hiking, " + month + " " + year, "Walk in the woods"})
	case "lake":
		return pick(g, []string{"Day at the lake", "Lake day " + year})
	case "beach", "sunset":
		return pick(g, []string{"Beach day", "Beach, " + month + " " + year, "Sunday at the beach"})
	case "mountain":
		return pick(g, []string{"Up the mountain", "Mountain day, " + month + " " + year})
	case "playground":
		return pick(g, []string{"Park with the kids", "Afternoon at the park"})
	}
	return pick(g, []string{"Picnic in the park", "Day out, " + month + " " + year})
}

// boolWeight is w when ok, else 0.
func boolWeight(ok bool, w int) int {
	if ok {
		return w
	}
	return 0
}

// companion returns the first name of someone who came along, other than
// the owner's household, or "".
func (g *gen) companion(ow *owner, e *event) string {
	me := g.humans[ow.self].household
	for _, h := range e.people {
		if g.humans[h].household != me {
			return g.humans[h].first
		}
	}
	return ""
}

// albumDescription writes an album's description, or "" as most people leave it.
func (g *gen) albumDescription(ow *owner, e *event) string {
	if !g.chance(0.35) {
		return ""
	}
	p := &cities[e.place]
	days := max(1, int(e.end.Sub(e.start).Hours()/24+0.5))
	switch e.kind {
	case evTrip, evWeekend:
		opts := []string{
			"Our " + itoa(days) + " days in " + p.City + ".",
			"Family trip to " + p.City + ".",
			"Best moments from " + p.City + ".",
			"Photos from everyone's phones, add yours.",
		}
		if p.CC != cities[ow.home].CC {
			opts = append(opts, "First time in "+p.Country+"!")
		}
		return pick(g, opts)
	case evBirthday:
		h := &g.humans[e.subject]
		return pick(g, []string{"Cake, balloons and far too much sugar.", "Happy birthday, " + h.first + "!", h.first + "'s party with family and friends."})
	case evHoliday:
		return pick(g, []string{"With the whole family.", "Everyone together again.", "Food, games and presents."})
	case evWedding:
		return pick(g, []string{"What a beautiful day.", "Congratulations to the happy couple!", "Ceremony and party."})
	case evPet:
		kind := "dog"
		if ow.petIsCat {
			kind = "cat"
		}
		return pick(g, []string{"The best " + kind + " in the world.", "Our family's newest member."})
	case evEveryday, evGarden:
		return pick(g, []string{"Little everyday things.", "Nothing special, just us."})
	}
	return pick(g, []string{"Photos for the family.", "A day to remember."})
}

// bestOfName names an album of the year's favourites.
func (g *gen) bestOfName(year int) string {
	y := itoa(year)
	return pick(g, []string{"Best of " + y, y + " highlights", "Favourites " + y, y + " in photos"})
}

// recipient returns who a link is for, as its creator would say it.
func (g *gen) recipient(ow *owner) string {
	if g.chance(0.3) {
		return pick(g, []string{"the family", "everyone", "the grandparents", "the neighbours", "the team"})
	}
	for range 4 {
		h := g.n(len(g.humans))
		if h != ow.self && ow.persons[h] >= 0 {
			return g.humans[h].first
		}
	}
	return "the family"
}

// linkText is what a link's description may mention.
type linkText struct {
	album    string // the album's name, "" for individual assets
	place    string // the city the photos were taken in
	upload   bool
	download bool
	videos   bool // every shared asset is a video
	count    int  // shared assets
}

// linkDescription writes a shared link's description, or nil.
func (g *gen) linkDescription(ow *owner, t linkText) *string {
	if !g.chance(0.65) {
		return nil
	}
	opts := []string{"For " + g.recipient(ow), "For " + g.recipient(ow) + " ❤️"}
	switch {
	case t.upload:
		opts = []string{"Please add your photos too!", "Add yours from " + t.album + " here", "Upload your pictures, thanks!"}
	case t.album != "":
		opts = append(opts, t.album, t.album+" – for "+g.recipient(ow))
		if !strings.HasPrefix(t.album, "Trip") && !strings.HasPrefix(t.album, "Weekend") && !strings.HasPrefix(t.album, "Road") &&
			!strings.HasPrefix(t.album, "Our") && !strings.HasPrefix(t.album, "Welcome") {
			opts = append(opts, "Photos from "+t.album, "Here are all the photos from "+t.album+"!")
		}
	case t.videos && t.count == 1:
		opts = append(opts, "The video from "+t.place, "Video for "+g.recipient(ow))
	case t.count == 1:
		opts = append(opts, "The photo you asked for", "From "+t.place)
	default:
		opts = append(opts, "The photos you asked for", "A few from "+t.place, "Here you go!", "A few favourites")
	}
	if t.download && !t.upload {
		opts = append(opts, "Download whatever you like", "Print these please")
	}
	s := pick(g, opts)
	return &s
}

// password writes a link password as people choose them, or nil.
func (g *gen) password(ow *owner, e *event) *string {
	if !g.chance(0.22) {
		return nil
	}
	year := e.start.Year()
	word := strings.ToLower(mailLocal(cities[e.place].City))
	var s string
	switch g.n(6) {
	case 0:
		s = word + itoa(year)
	case 1:
		s = mailLocal(g.humans[ow.self].first) + pad(g.n(100), 2)
	case 2:
		s = pick(g, []string{"summer", "holiday", "memories", "sunshine", "family", "photos"}) + pad(year%100, 2)
	case 3:
		s = pick(g, []string{"grandma", "grandpa", "nana", "auntie"}) + "!"
	case 4:
		if ow.pet != "" {
			s = strings.ToLower(ow.pet) + itoa(g.between(1, 999))
			break
		}
		fallthrough
	default:
		s = pick(g, []string{"blue", "green", "happy", "little", "sunny"}) + "-" + pick(g, []string{"door", "lemon", "garden", "river", "kite"})
	}
	return &s
}

package fake

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/password"
)

// relation is how a human relates to the default user.
type relation int

const (
	relSelf relation = iota
	relPartner
	relChild
	relParent
	relSibling
	relFriend
	relFriendFamily // a friend's partner or child
)

// human is a real person of the world the libraries photograph. Each owner
// who photographs them has a PersonRecord of their own for them.
type human struct {
	first, last string
	female      bool
	birth       time.Time // midnight UTC of the birth date
	rel         relation
	household   int
	home        int // gazetteer index
	cult        *culture
}

func (h *human) name() string { return h.first + " " + h.last }

// rig is one device of an owner and the route its files take to the server.
type rig struct {
	dev      *device
	from     time.Time // in use from
	deviceID string
	route    route
	raw      bool // shoots RAW+JPEG: every still gets a stacked raw file
	counter  int  // next file number
	counter2 int  // a second counter (Sony videos, Panasonic folders)
	mediaID  int  // next Android MediaStore id
	shots    []shot
	whatsApp bool // names files as WhatsApp does
}

// route is how files reach the library.
type route int

const (
	routeMobile  route = iota // the mobile app's backup
	routeWeb                  // dragged into the web app
	routeCLI                  // the command line uploader
	routeLibrary              // an external library the server scans
)

// owner is a user and everything their library is made from.
type owner struct {
	rec     *model.UserRecord
	self    int // human index
	home    int
	cult    *culture
	created time.Time

	persons    []int // human index → index in Dataset.People, -1 when not a person of this owner
	strangers  []int // Dataset.People indices of unnamed people
	phones     []*rig
	camera     *rig
	extras     []*rig // drone, action and 360 cameras
	whatsApp   *rig
	externalID string // external library id, when the camera's files come from one
	pet        string
	petIsCat   bool
	tags       map[string]int  // tag name → index in Dataset.Tags
	paths      map[uint64]bool // pathKey of the storage paths taken
	assetStart int             // first index of the owner's assets in Dataset.Assets
	near       []int           // gazetteer cities in the owner's country, home excepted
	far        []int           // weight of each gazetteer city as a destination
}

// makeWorld creates the default user's family and their friends, enough
// households for every user to be somebody.
func (g *gen) makeWorld(otherUsers int) {
	g.family = &cultures[g.n(len(cultures))]
	c := g.family
	home := g.homeOf(c)
	year := g.anchor.Year()
	surname := pick(g, c.surnames)

	selfFemale := g.chance(0.5)
	selfBirth := g.birthday(year-g.between(30, 45), year)
	self := g.person(c, selfFemale, surname, selfBirth, relSelf, 0, home)
	g.humans = append(g.humans, self)

	partnerCulture := c
	if g.chance(0.15) {
		partnerCulture = &cultures[g.n(len(cultures))]
	}
	partnerSurname := surname
	if g.chance(0.4) {
		partnerSurname = pick(g, partnerCulture.surnames)
	}
	partnerBirth := selfBirth.AddDate(g.between(-4, 4), g.between(-6, 6), g.between(0, 27))
	g.humans = append(g.humans, g.person(partnerCulture, !selfFemale, partnerSurname, partnerBirth, relPartner, 0, home))

	kids := g.between(1, 3)
	oldest := max(selfBirth.Year()+26, year-15)
	kidYear := g.between(oldest, min(oldest+4, year-1))
	for range kids {
		if kidYear >= year {
			break
		}
		g.humans = append(g.humans, g.person(c, g.chance(0.5), surname, g.birthday(kidYear, year), relChild, 0, home))
		kidYear += g.between(2, 4)
	}

	parentsHome := home
	if g.chance(0.6) {
		parentsHome = g.homeOf(c)
	}
	parentYear := selfBirth.Year() - g.between(24, 34)
	g.humans = append(g.humans,
		g.person(c, true, surname, g.birthday(parentYear, year), relParent, 1, parentsHome),
		g.person(c, false, surname, g.birthday(parentYear-g.between(0, 4), year), relParent, 1, parentsHome))
	g.humans = append(g.humans, g.person(c, g.chance(0.5), surname, g.birthday(selfBirth.Year()+g.between(-6, 6), year), relSibling, 2, g.homeOf(c)))

	households := max(4, otherUsers)
	for h := range households {
		g.friendHousehold(3+h, selfBirth.Year())
	}
}

// friendHousehold adds a friend of the family with their partner and kids.
func (g *gen) friendHousehold(household, aroundYear int) {
	c := g.family
	if g.chance(0.3) {
		c = &cultures[g.n(len(cultures))]
	}
	year := g.anchor.Year()
	home := g.homeOf(c)
	surname := pick(g, c.surnames)
	female := g.chance(0.5)
	birth := g.birthday(aroundYear+g.between(-6, 6), year)
	g.humans = append(g.humans, g.person(c, female, surname, birth, relFriend, household, home))
	if g.chance(0.6) {
		g.humans = append(g.humans, g.person(c, !female, surname, g.birthday(birth.Year()+g.between(-3, 3), year), relFriendFamily, household, home))
	}
	for range g.n(3) {
		kidYear := g.between(birth.Year()+27, year-1)
		if kidYear >= year || kidYear < birth.Year()+18 {
			break
		}
		g.humans = append(g.humans, g.person(c, g.chance(0.5), surname, g.birthday(kidYear, year), relFriendFamily, household, home))
	}
}

func (g *gen) person(c *culture, female bool, surname string, birth time.Time, rel relation, household, home int) human {
	first := pick(g, c.male)
	if female {
		first = pick(g, c.female)
	}
	return human{first: first, last: c.surnameFor(surname, female), female: female, birth: birth, rel: rel, household: household, home: home, cult: c}
}

// birthday returns a date in year, before the anchor's year ends.
func (g *gen) birthday(year, anchorYear int) time.Time {
	year = min(year, anchorYear-1)
	return time.Date(year, time.Month(g.between(1, 12)), g.between(1, 28), 0, 0, 0, 0, time.UTC)
}

// homeOf picks a city a family of culture c lives in.
func (g *gen) homeOf(c *culture) int {
	city, cc, _ := strings.Cut(pick(g, c.homes), "/")
	i := placeIndex(city, cc)
	if i < 0 {
		panic("fake: home city " + city + " is not in the gazetteer") // a typo in the tables; tests catch it
	}
	return i
}

// makeUsers creates the default user and the others: the partner, a parent,
// then friends and the sibling.
func (g *gen) makeUsers(others int, apiKey, hash string) {
	who := []int{0}
	var friends []int
	partner, parent, sibling := -1, -1, -1
	for i := range g.humans {
		switch g.humans[i].rel {
		case relPartner:
			partner = i
		case relParent:
			if parent < 0 {
				parent = i
			}
		case relSibling:
			sibling = i
		case relFriend:
			friends = append(friends, i)
		}
	}
	order := []int{partner, parent}
	if len(friends) > 0 {
		order = append(order, friends[0])
		friends = friends[1:]
	}
	order = append(order, sibling)
	order = append(order, friends...)
	for len(order) < others {
		g.friendHousehold(g.humans[len(g.humans)-1].household+1, g.humans[0].birth.Year())
		for i := len(g.humans) - 1; i >= 0; i-- {
			if g.humans[i].rel == relFriend {
				order = append(order, i)
				break
			}
		}
	}
	who = append(who, order[:others]...)

	g.ds.Users = make([]model.UserRecord, len(who))
	created := g.anchor.AddDate(-2, 0, 0).Add(-g.span(0, 540*24*time.Hour))
	for i, h := range who {
		hu := &g.humans[h]
		id := g.f.UUID()
		key := apiKey
		if i > 0 || key == "" {
			key = g.apiKey()
		}
		if i > 0 {
			created = g.after(created, time.Hour, 120*24*time.Hour, g.anchor.AddDate(0, -3, 0))
		}
		profile := ""
		if g.chance(0.6) {
			profile = "upload/profile/" + id + "/" + g.f.UUID() + ".jpeg"
		}
		var quota *int64
		if i > 0 && g.chance(0.4) {
			quota = ptr(int64(pick(g, []int{100, 250, 500, 1024})) << 30)
		}
		g.ds.Users[i] = model.UserRecord{
			User: model.User{
				ID:               id,
				Name:             hu.name(),
				Email:            g.email(hu),
				AvatarColor:      pick(g, model.AvatarColors()),
				ProfileImagePath: profile,
			},
			APIKey:           key,
			PasswordHash:     hash,
			IsAdmin:          i == 0,
			QuotaSizeInBytes: quota,
			CreatedAt:        model.At(created),
		}
		ow := &owner{
			rec: &g.ds.Users[i], self: h, home: hu.home, cult: hu.cult, created: created,
			tags: make(map[string]int),
		}
		g.owners = append(g.owners, ow)
	}
}

// passwordHash hashes every generated user's password once, with a salt
// derived from the seed (not drawn from the faker, so that the rest of the
// data stays as it was): the same seed gives the same dataset.
func passwordHash(seed int64, pw string) string {
	if pw == "" {
		pw = DefaultPassword
	}
	salt := sha256.Sum256(fmt.Appendf(nil, "mediaspec password salt %d", seed))
	return password.HashWithSalt(pw, salt[:16])
}

// apiKey returns a key like the server's: 32 random bytes in base64 with
// the non-alphanumeric characters dropped.
func (g *gen) apiKey() string {
	return strings.Map(func(r rune) rune {
		if r == '+' || r == '/' || r == '=' {
			return -1
		}
		return r
	}, base64.StdEncoding.EncodeToString(g.bytes(32)))
}

// email returns a unique address for h, in one of the forms people choose.
func (g *gen) email(h *human) string {
	first, last := mailLocal(h.first), mailLocal(h.last)
	domains := append(globalDomains[:len(globalDomains):len(globalDomains)], h.cult.domains...)
	for attempt := 0; ; attempt++ {
		var local string
		switch g.n(5) {
		case 0, 1:
			local = first + "." + last
		case 2:
			local = first + last + itoa(h.birth.Year()%100)
		case 3:
			local = first[:1] + last
		default:
			local = first + "_" + last
		}
		if attempt > 2 {
			local += itoa(g.between(2, 99))
		}
		addr := local + "@" + pick(g, domains)
		if !g.emails[addr] {
			g.emails[addr] = true
			return addr
		}
	}
}

// makePeople creates the owner's people: their family, some friends and a
// few strangers the face recogniser found, unnamed.
func (g *gen) makePeople(ow *owner) {
	ow.persons = make([]int, len(g.humans))
	for i := range ow.persons {
		ow.persons[i] = -1
	}
	me := &g.humans[ow.self]
	family := me.household <= 2 // the default user's family
	for i := range g.humans {
		h := &g.humans[i]
		var known bool
		switch {
		case i == ow.self:
			known = true
		case family:
			known = h.household <= 2 || g.chance(0.35)
		default:
			known = h.household == me.household || h.household == 0 && h.rel != relChild || g.chance(0.2)
		}
		if !known {
			continue
		}
		var birth *string
		if h.rel == relChild || i == ow.self || g.chance(0.6) {
			birth = ptr(h.birth.Format(model.DateLayout))
		}
		ow.persons[i] = g.addPerson(ow, h.name(), birth, false)
	}
	for range g.between(1, 3) {
		ow.strangers = append(ow.strangers, g.addPerson(ow, "", nil, g.chance(0.5)))
	}
}

func (g *gen) addPerson(ow *owner, name string, birth *string, hidden bool) int {
	id := g.f.UUID()
	g.ds.People = append(g.ds.People, model.PersonRecord{
		ID:            id,
		OwnerID:       ow.rec.ID,
		Name:          name,
		BirthDate:     birth,
		IsHidden:      hidden,
		ThumbnailPath: "upload/thumbs/" + ow.rec.ID + "/" + id[0:2] + "/" + id[2:4] + "/" + id + ".jpeg",
	})
	return len(g.ds.People) - 1
}

// makeDevices gives the owner the phones they had over the years, maybe a
// camera, and now and then a drone, an action camera or a 360° camera.
func (g *gen) makeDevices(ow *owner) {
	var brand string
	switch g.weighted([]int{50, 22, 14, 8, 6}) {
	case 0:
		brand = "Apple"
	case 1:
		brand = "samsung"
	case 2:
		brand = "Google"
	case 3:
		brand = "Xiaomi"
	default:
		brand = "OnePlus"
	}
	var models []*device
	for i := range phones {
		if phones[i].make == brand {
			models = append(models, &phones[i])
		}
	}
	// Walk through time, switching to a newer phone every two or three years.
	at := g.libraryStart.AddDate(0, 0, -1)
	for at.Before(g.anchor) {
		var dev *device
		for _, d := range models {
			if d.year <= at.Year()-g.n(2) || dev == nil {
				dev = d
			}
		}
		if len(ow.phones) > 0 && ow.phones[len(ow.phones)-1].dev == dev {
			at = at.AddDate(1, 0, 0)
			continue
		}
		ow.phones = append(ow.phones, &rig{
			dev: dev, from: at, deviceID: hexString(g.bytes(32)), route: routeMobile,
			counter: g.between(1, 9000), mediaID: g.between(1000, 90000) + 1000000000*g.n(2),
		})
		if brand == "samsung" && g.chance(0.2) {
			brand = "Apple" // people do switch
			models = models[:0]
			for i := range phones {
				if phones[i].make == brand {
					models = append(models, &phones[i])
				}
			}
		}
		at = at.AddDate(g.between(2, 3), g.between(0, 11), 0)
	}
	ow.whatsApp = &rig{whatsApp: true, route: routeMobile}

	if g.chance(0.45) {
		var fits []*device
		for i := range cameras {
			if cameras[i].kind == kindCamera && cameras[i].year < g.anchor.Year() {
				fits = append(fits, &cameras[i])
			}
		}
		if len(fits) == 0 {
			fits = append(fits, &cameras[0])
		}
		ow.camera = g.cameraRig(ow, pick(g, fits))
		ow.camera.raw = g.chance(0.35) && ow.camera.dev.rawExt != ""
	}
	for _, kind := range []deviceKind{kindDrone, kindAction, kind360} {
		if !g.chance(0.15) {
			continue
		}
		var fits []*device
		for i := range cameras {
			if cameras[i].kind == kind && cameras[i].year < g.anchor.Year() {
				fits = append(fits, &cameras[i])
			}
		}
		if len(fits) == 0 {
			continue
		}
		ow.extras = append(ow.extras, g.cameraRig(ow, pick(g, fits)))
	}
}

// cameraRig sets up a camera and how its files reach the server.
func (g *gen) cameraRig(ow *owner, d *device) *rig {
	r := &rig{dev: d, counter: g.between(1, 9000), counter2: g.between(100, 130), from: g.libraryStart}
	if bought := time.Date(d.year, time.Month(g.between(3, 12)), 1, 0, 0, 0, 0, time.UTC); bought.After(r.from) {
		r.from = bought // no photos from a camera before it was sold
	}
	switch g.weighted([]int{5, 2, 2}) {
	case 0:
		r.route, r.deviceID = routeWeb, "WEB"
	case 1:
		r.route, r.deviceID = routeCLI, "CLI"
	default:
		if d.kind == kindCamera && ow.externalID == "" {
			ow.externalID = g.f.UUID()
			r.route, r.deviceID = routeLibrary, "Library Import"
		} else {
			r.route, r.deviceID = routeWeb, "WEB"
		}
	}
	return r
}

// phoneAt returns the phone the owner used at t.
func (ow *owner) phoneAt(t time.Time) *rig {
	p := ow.phones[0]
	for _, r := range ow.phones[1:] {
		if r.from.After(t) {
			break
		}
		p = r
	}
	return p
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

package fake

import (
	"encoding/base64"
	"slices"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// makeLibrary fills one owner's library: people, devices, the events of
// their life with their photos, albums, and the links they shared.
func (g *gen) makeLibrary(ow *owner, links int) {
	g.makePeople(ow)
	g.makeDevices(ow)

	slots, albumsLinked := g.linkSlots(links)
	individual := 0
	for _, s := range slots {
		if s < 0 {
			individual++
		}
	}
	unlinked := 2 + links/20
	bestOf := min(unlinked/2, 4) // one a year, for the last few years
	loose := individual/3 + 1
	eventAlbums := albumsLinked + unlinked - bestOf

	// A library with thousands of shared links is a load test rather than
	// a family: smaller albums keep its listing quick to build and encode.
	scale := min(1, max(0.4, 1000/float64(max(links, 1))))
	events := g.planEvents(ow, eventAlbums+loose, scale)
	g.shootEvents(ow, events)

	albumStart := len(g.ds.Albums)
	albumEvent, isAlbum := g.eventAlbums(ow, events, eventAlbums)
	g.bestOfAlbums(ow, bestOf)
	var looseEvents []*event
	for i, e := range events {
		if !isAlbum[i] {
			looseEvents = append(looseEvents, e)
		}
	}
	g.shareLinks(ow, slots, albumStart, albumEvent, events, looseEvents)
}

// linkSlots decides which of the owner's links share an album, and which
// album: the album slot of each link, -1 for an INDIVIDUAL link, and how
// many albums get a link. A few albums get a second link (one with a
// password, say).
func (g *gen) linkSlots(links int) (slots []int, albumsLinked int) {
	slots = make([]int, links)
	for i := range slots {
		slots[i] = -1
		if g.chance(0.72) {
			if albumsLinked > 0 && g.chance(0.1) {
				slots[i] = g.n(albumsLinked)
			} else {
				slots[i] = albumsLinked
				albumsLinked++
			}
		}
	}
	if links >= 2 { // both kinds, always
		if albumsLinked == 0 {
			slots[0], albumsLinked = 0, 1
		}
		if !slices.Contains(slots, -1) {
			last := slots[links-1]
			slots[links-1] = -1
			if !slices.Contains(slots, last) { // it was that album's only link
				for i := range slots {
					if slots[i] > last {
						slots[i]--
					}
				}
				albumsLinked--
			}
		}
	}
	return slots, albumsLinked
}

// shootEvents takes the photos of every event, then names the files of
// each of the owner's devices.
func (g *gen) shootEvents(ow *owner, events []*event) {
	ow.assetStart = len(g.ds.Assets)
	shots := 0
	for _, e := range events {
		shots += e.size
	}
	// Live Photo videos, raw files, bursts and copies come on top.
	g.ds.Assets = slices.Grow(g.ds.Assets, shots*17/10)
	ow.paths = make(map[uint64]bool, shots*17/10)
	for _, e := range events {
		g.shoot(ow, e)
	}
	for _, r := range ow.phones {
		g.nameFiles(ow, r)
	}
	if ow.camera != nil {
		g.nameFiles(ow, ow.camera)
	}
	for _, r := range ow.extras {
		g.nameFiles(ow, r)
	}
	g.nameFiles(ow, ow.whatsApp)
}

// albumPriority ranks events by how album-worthy they are, the most first:
// trips and occasions, then days out, then months at home.
func albumPriority(e *event) int {
	switch e.kind {
	case evDayOut:
		return 1
	case evEveryday:
		return 2
	}
	return 0
}

// eventAlbums makes albums of the n most album-worthy events. It returns
// the event of each new album (by album index, looked up only) and which
// events became albums.
func (g *gen) eventAlbums(ow *owner, events []*event, n int) (albumEvent map[int]*event, isAlbum []bool) {
	order := make([]int, len(events))
	for i := range order {
		order[i] = i
	}
	g.f.ShuffleInts(order)
	slices.SortStableFunc(order, func(a, b int) int { return albumPriority(events[a]) - albumPriority(events[b]) })
	albumEvent = make(map[int]*event)
	isAlbum = make([]bool, len(events))
	names := make(map[string]bool) // album names taken, looked up only
	for _, ei := range order[:min(n, len(order))] {
		e := events[ei]
		isAlbum[ei] = true
		name := g.albumName(ow, e)
		for try := 0; names[name] && try < 4; try++ { // people rarely reuse a name
			name = g.albumName(ow, e)
		}
		names[name] = true
		ai := g.album(ow, name, g.albumDescription(ow, e), g.curate(e.assets))
		albumEvent[ai] = e
	}
	return albumEvent, isAlbum
}

// shareLinks creates the owner's shared links, one for each slot: the
// albums from albumStart on are in a random order already, and the first
// ones get the album links; the other links share loose photos.
func (g *gen) shareLinks(ow *owner, slots []int, albumStart int, albumEvent map[int]*event, events, looseEvents []*event) {
	links := len(slots)
	albums := len(g.ds.Albums) - albumStart
	linkStart := len(g.ds.SharedLinks)
	expiry := make([]int, links)
	for i := range expiry {
		expiry[i] = g.weighted([]int{35, 25, 40}) // never, expired, still valid
	}
	if links >= 3 { // every kind of expiry, always
		perm := []int{0, 1, 2}
		g.f.ShuffleInts(perm)
		spots := g.spots(links, 3)
		for k, at := range spots {
			expiry[at] = perm[k]
		}
	}
	for i, slot := range slots {
		if slot >= 0 && slot < albums {
			ai := albumStart + slot
			g.albumLink(ow, ai, albumEvent[ai], expiry[i])
		} else {
			g.assetLink(ow, events, looseEvents, expiry[i])
		}
	}
	links0 := g.ds.SharedLinks[linkStart:]
	if ow == g.owners[0] {
		g.allowUploadSomewhere(links0)
	}
	slices.SortStableFunc(links0, func(a, b model.SharedLinkRecord) int { return a.CreatedAt.Compare(b.CreatedAt.Time) })
}

// allowUploadSomewhere makes sure one of links, the default user's, allows
// uploads and is still valid, so that the upload-through-a-link screen can
// be tried at once. Where none does by chance, it turns uploads on for the
// best candidate: an album's link still valid a day after the anchor, else
// any link still valid, else the first. It draws nothing from the faker,
// so the rest of the dataset stays what the seed always gave.
func (g *gen) allowUploadSomewhere(links []model.SharedLinkRecord) {
	valid := func(l *model.SharedLinkRecord) bool {
		return l.ExpiresAt == nil || l.ExpiresAt.After(g.anchor.Add(24*time.Hour))
	}
	best, bestRank := -1, 0
	for i := range links {
		l := &links[i]
		if l.AllowUpload && valid(l) {
			return
		}
		rank := 1
		switch {
		case valid(l) && l.Type == model.LinkAlbum:
			rank = 3
		case valid(l):
			rank = 2
		}
		if rank > bestRank {
			best, bestRank = i, rank
		}
	}
	if best < 0 {
		return
	}
	l := &links[best]
	if !valid(l) {
		l.ExpiresAt = nil
	}
	l.AllowUpload = true
	if l.Description != nil {
		// Said as the generator says it of a link that takes uploads.
		text := "Please add your photos too!"
		if l.AlbumID != nil {
			for _, al := range g.ds.Albums {
				if al.ID == *l.AlbumID {
					text = "Add yours from " + al.AlbumName + " here"
				}
			}
		}
		l.Description = &text
	}
}

// spots returns k distinct indices below n.
func (g *gen) spots(n, k int) []int {
	out := make([]int, 0, k)
	for len(out) < k {
		i := g.n(n)
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// curate picks the photos of an event that make it into its album: most.
func (g *gen) curate(assets []int) []int {
	out := make([]int, 0, len(assets))
	for _, a := range assets {
		if g.chance(0.9) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		out = append(out, assets[0])
	}
	return out
}

// bestOfAlbums makes up to n "Best of <year>" albums, one per year, newest
// year first: the year's favourites and some other photos of it.
func (g *gen) bestOfAlbums(ow *owner, n int) {
	mine := g.ds.Assets[ow.assetStart:]
	if n <= 0 || len(mine) == 0 {
		return
	}
	first, last := mine[0].LocalDateTime.Year(), mine[0].LocalDateTime.Year()
	for i := range mine {
		first, last = min(first, mine[i].LocalDateTime.Year()), max(last, mine[i].LocalDateTime.Year())
	}
	years := last - first + 1
	favs := make([][]int, years)
	all := make([][]int, years)
	for i := range mine {
		a := &mine[i]
		if !a.IsVisible || a.StackParentID != nil || a.DuplicateID != nil || a.IsTrashed {
			continue
		}
		y := a.LocalDateTime.Year() - first
		all[y] = append(all[y], ow.assetStart+i)
		if a.IsFavorite {
			favs[y] = append(favs[y], ow.assetStart+i)
		}
	}
	for y := years - 1; y >= 0 && n > 0; y-- {
		if len(all[y]) < 10 {
			continue
		}
		n--
		out := slices.Clone(favs[y][:min(len(favs[y]), 20)])
		for range 30 {
			if i := pick(g, all[y]); len(out) < 30 && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
		slices.SortFunc(out, func(a, b int) int {
			return g.ds.Assets[a].FileCreatedAt.Compare(g.ds.Assets[b].FileCreatedAt.Time)
		})
		g.album(ow, g.bestOfName(first+y), "", out)
	}
}

// album creates an album of the owner holding assets and returns its index.
func (g *gen) album(ow *owner, name, description string, assets []int) int {
	ids := make([]string, len(assets))
	var uploaded time.Time
	thumb := -1
	for i, a := range assets {
		r := &g.ds.Assets[a]
		ids[i] = r.ID
		if r.CreatedAt.After(uploaded) {
			uploaded = r.CreatedAt.Time
		}
		if thumb < 0 && r.Type == model.AssetImage && r.Resized {
			thumb = a // the first photo, as the server picks it (one with pictures: a cover without shows nothing)
		}
	}
	if thumb < 0 || g.chance(0.3) {
		// Or one the owner chose, from the pictures they see.
		if chosen := pick(g, assets); thumb < 0 || g.ds.Assets[chosen].Resized {
			thumb = chosen
		}
	}
	if g.ds.Assets[thumb].IsTrashed {
		// The album shows none of its photos in the trash: its cover is
		// one it shows. Chosen without a draw, so that the rest of the
		// dataset stays what the seed always gave.
		thumb = g.liveCover(assets)
	}
	var cover *string
	if thumb >= 0 {
		cover = ptr(g.ds.Assets[thumb].ID)
	}
	created := g.after(uploaded, 10*time.Minute, 30*24*time.Hour, g.albumLimit)
	updated := created.Add(g.span(time.Second, 5*time.Minute)).Truncate(time.Millisecond)
	if g.chance(0.3) {
		updated = g.after(created, 24*time.Hour, 200*24*time.Hour, g.linkLimit)
	}
	var users []model.AlbumUserRecord
	if len(g.owners) > 1 && g.chance(0.5) {
		for range g.between(1, min(3, len(g.owners)-1)) {
			u := g.owners[g.n(len(g.owners))].rec.ID
			if u == ow.rec.ID || slices.ContainsFunc(users, func(x model.AlbumUserRecord) bool { return x.UserID == u }) {
				continue
			}
			role := model.RoleViewer
			if g.chance(0.4) {
				role = model.RoleEditor
			}
			users = append(users, model.AlbumUserRecord{UserID: u, Role: role})
		}
	}
	if users == nil {
		users = []model.AlbumUserRecord{}
	}
	var order *string
	switch g.weighted([]int{70, 20, 10}) {
	case 1:
		order = ptr("desc")
	case 2:
		order = ptr("asc")
	}
	g.ds.Albums = append(g.ds.Albums, model.AlbumRecord{
		ID:                    g.f.UUID(),
		OwnerID:               ow.rec.ID,
		AlbumName:             name,
		Description:           description,
		AlbumThumbnailAssetID: cover,
		AlbumUsers:            users,
		AssetIDs:              ids,
		CreatedAt:             model.At(created),
		UpdatedAt:             model.At(updated),
		IsActivityEnabled:     g.chance(0.85),
		Order:                 order,
	})
	return len(g.ds.Albums) - 1
}

// liveCover is the cover of an album of assets whose chosen cover is in
// the trash: the first photo with pictures out of the trash, else the
// first asset out of the trash; -1 when every one is in the trash, and the
// album, which shows none of them, has no cover.
func (g *gen) liveCover(assets []int) int {
	cover := -1
	for _, a := range assets {
		r := &g.ds.Assets[a]
		switch {
		case r.IsTrashed:
		case r.Type == model.AssetImage && r.Resized:
			return a
		case cover < 0:
			cover = a
		}
	}
	return cover
}

// Link expiry kinds.
const (
	expiresNever = iota
	expiresPast
	expiresFuture
)

// expiryPresets are the choices the web app offers.
var expiryPresets = [...]time.Duration{24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour, 90 * 24 * time.Hour, 365 * 24 * time.Hour}

// linkDates returns when a link made after base was created and when it
// expires, of the kind asked for when the dates allow it.
func (g *gen) linkDates(base time.Time, kind int) (time.Time, *model.Time) {
	switch kind {
	case expiresFuture:
		d := expiryPresets[g.between(1, len(expiryPresets)-1)]
		// Still valid a day after the anchor, so on the anchor's day the
		// link works whatever the hour.
		lo := g.anchor.Add(-d + 24*time.Hour)
		if base.Add(time.Second).After(lo) {
			lo = base.Add(time.Second)
		}
		if lo.Before(g.linkLimit) {
			created := g.instant(lo, g.linkLimit)
			return created, ptr(model.At(created.Add(d)))
		}
	case expiresPast:
		// A shorter expiry when the link is recent.
		for i := g.n(len(expiryPresets) - 1); i >= 0; i-- {
			d := expiryPresets[i]
			if hi := g.anchor.Add(-d - time.Hour); hi.Sub(base) > 2*time.Second {
				created := g.after(base, time.Minute, 120*24*time.Hour, hi)
				return created, ptr(model.At(created.Add(d)))
			}
		}
	}
	return g.after(base, time.Minute, 120*24*time.Hour, g.linkLimit), nil
}

// albumLink shares an album.
func (g *gen) albumLink(ow *owner, ai int, e *event, kind int) {
	al := &g.ds.Albums[ai]
	created, expires := g.linkDates(al.CreatedAt.Time, kind)
	if e == nil { // a best-of album
		e = &event{place: ow.home, start: al.CreatedAt.Time}
	}
	l := g.newLink(ow, model.LinkAlbum, created, expires)
	l.AlbumID = ptr(al.ID)
	l.AllowUpload = g.chance(0.15)
	l.Password = g.password(ow, e)
	l.Description = g.linkDescription(ow, linkText{
		album: al.AlbumName, place: cities[e.place].City, upload: l.AllowUpload, download: l.AllowDownload, count: len(al.AssetIDs),
	})
	g.ds.SharedLinks = append(g.ds.SharedLinks, l)
}

// assetLink shares a few photos of one event.
func (g *gen) assetLink(ow *owner, events, loose []*event, kind int) {
	var e *event
	if len(loose) > 0 && g.chance(0.6) || len(events) == 0 {
		e = pick(g, loose)
	} else {
		e = pick(g, events)
	}
	n := g.between(1, min(8, len(e.assets)))
	chosen := make([]int, 0, n)
	start := g.n(len(e.assets) - n + 1)
	for i := start; len(chosen) < n; i++ {
		chosen = append(chosen, e.assets[i])
	}
	ids := make([]string, len(chosen))
	var uploaded time.Time
	videos := true
	for i, a := range chosen {
		r := &g.ds.Assets[a]
		ids[i] = r.ID
		if r.CreatedAt.After(uploaded) {
			uploaded = r.CreatedAt.Time
		}
		videos = videos && r.Type == model.AssetVideo
	}
	created, expires := g.linkDates(uploaded, kind)
	l := g.newLink(ow, model.LinkIndividual, created, expires)
	l.AssetIDs = ids
	l.Password = g.password(ow, e)
	l.Description = g.linkDescription(ow, linkText{
		place: cities[e.place].City, download: l.AllowDownload, videos: videos, count: len(ids),
	})
	g.ds.SharedLinks = append(g.ds.SharedLinks, l)
}

// newLink starts a link with what every link has.
func (g *gen) newLink(ow *owner, kind string, created time.Time, expires *model.Time) model.SharedLinkRecord {
	l := model.SharedLinkRecord{
		ID:        g.f.UUID(),
		Key:       base64.RawURLEncoding.EncodeToString(g.bytes(50)),
		Type:      kind,
		UserID:    ow.rec.ID,
		CreatedAt: model.At(created),
		ExpiresAt: expires,
	}
	l.ShowMetadata = g.chance(0.85)
	// The web app turns downloads off with the metadata.
	l.AllowDownload = l.ShowMetadata && g.chance(0.85)
	return l
}

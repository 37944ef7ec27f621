package fake

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// shot is one press of the shutter: a file number on its device, and the
// primary asset with its companions (a Live Photo's hidden video, a raw
// file stacked under its JPEG).
type shot struct {
	asset int // Dataset.Assets index of the primary asset
	live  int // its hidden Live Photo video, or -1
	raw   int // its stacked raw file, or -1
	at    time.Time
	local time.Time // wall clock at the place, as UTC
	video bool
}

// where is the place and light a shot was taken in.
type where struct {
	p     *gazetteer.Place
	loc   *time.Location
	scene int
}

// shoot takes the event's photos and videos.
func (g *gen) shoot(ow *owner, e *event) {
	p := &cities[e.place]
	loc := g.zone(p.Zone)
	days := max(1, int(math.Round(e.end.Sub(e.start).Hours()/24)))
	first := e.start.In(loc)

	var present []int // people of the owner who were there and alive
	for _, h := range e.people {
		if ow.persons[h] >= 0 && g.humans[h].birth.Before(e.start) && !slices.Contains(present, h) {
			present = append(present, h)
		}
	}
	var camera *rig
	if e.useCamera && ow.camera != nil && ow.camera.from.Before(e.start) {
		camera = ow.camera
	}
	var extras []*rig
	if e.useExtras {
		for _, r := range ow.extras {
			if r.from.Before(e.start) {
				extras = append(extras, r)
			}
		}
	}

	for range e.size {
		sc := pick(g, e.scenes)
		s := &scenes[sc]
		date := first.AddDate(0, 0, g.n(days))
		t := time.Date(date.Year(), date.Month(), date.Day(), g.between(s.hourMin, s.hourMax), g.n(60), g.n(60), g.n(1000)*int(time.Millisecond), loc).UTC()
		if !t.Before(g.eventEnd) {
			t = g.eventEnd.Add(-g.span(time.Hour, 48*time.Hour)).Truncate(time.Millisecond)
		}
		r := ow.phoneAt(t)
		outdoor := s.light != lightDim
		switch {
		case camera != nil && g.chance(0.55):
			r = camera
		case len(extras) > 0 && outdoor && g.chance(0.2):
			r = pick(g, extras)
		case len(present) > 1 && g.chance(0.05):
			r = ow.whatsApp
		}
		w := where{p: p, loc: loc, scene: sc}
		primary := g.newShot(ow, r, w, t, present)
		e.assets = append(e.assets, primary)
	}
	slices.SortStableFunc(e.assets, func(a, b int) int {
		return g.ds.Assets[a].FileCreatedAt.Compare(g.ds.Assets[b].FileCreatedAt.Time)
	})
}

// newShot creates the assets of one shot on rig r and returns the index of
// the primary one.
func (g *gen) newShot(ow *owner, r *rig, w where, t time.Time, present []int) int {
	s := &scenes[w.scene]
	phone := ow.phoneAt(t)
	dev := r.dev
	if r.whatsApp {
		dev = nil
	}
	video := g.chance(videoShare(s, dev))

	a := g.baseAsset(ow, r, phone, t, w)
	a.Type = model.AssetImage
	a.Duration = model.DefaultDuration
	processed := g.chance(0.996)

	f := g.record(dev, video)
	if video {
		a.Type = model.AssetVideo
		a.Duration = videoDuration(f.seconds)
	}
	dispW, dispH := f.width, f.height
	if f.orient == "6" || f.orient == "8" {
		dispW, dispH = f.height, f.width
	}
	a.Thumbhash = ptr(g.thumbhash(w.scene, dispW, dispH))

	if dev != nil {
		a.ExifInfo = g.exif(dev, f.l, w, t, f.width, f.height, f.orient, f.size, a.Type == model.AssetVideo, a.FileModifiedAt)
	}
	if a.ExifInfo != nil && a.Type == model.AssetImage && len(present) > 0 && g.chance(s.people) {
		a.Faces = g.faces(ow, present, f.l != nil && f.l.front, dispW, dispH)
		if g.chance(0.06) && len(ow.strangers) > 0 {
			a.Faces = append(a.Faces, g.face(g.ds.People[pick(g, ow.strangers)].ID, dispW, dispH))
		}
	}
	if g.chance(0.88) {
		a.SmartInfo = g.smartInfo(s, len(a.Faces) > 0, a.Type == model.AssetVideo)
	}
	if g.chance(0.15) {
		g.tagAsset(ow, &a)
	}
	if !processed {
		a.HasMetadata, a.Resized = false, false
		a.Thumbhash, a.ExifInfo, a.SmartInfo, a.Faces, a.TagIDs = nil, nil, nil, nil, nil
	}

	idx := g.addAsset(a)
	sh := shot{asset: idx, live: -1, raw: -1, at: t, local: a.LocalDateTime.Time, video: a.Type == model.AssetVideo}

	if dev != nil && dev.live && !sh.video && g.chance(0.45) {
		sh.live = g.liveVideo(idx, dev, f.width, f.height, f.orient, w.scene)
	}
	if r.raw && !sh.video {
		sh.raw = g.rawFile(idx, dev)
	}
	r.shots = append(r.shots, sh)

	if dev != nil && dev.ios && !sh.video && sh.live < 0 && g.chance(0.012) {
		g.burst(r, idx, sh)
	}
	if dev != nil && dev.kind == kindPhone && !sh.video && processed && g.chance(0.01) {
		g.whatsAppCopy(ow, idx, w)
	}
	return idx
}

// videoShare is how likely a shot of scene s on dev is a video: action,
// drone and 360 cameras film more than they photograph. dev is nil for a
// file received through WhatsApp.
func videoShare(s *scene, dev *device) float64 {
	share := s.video
	if dev != nil {
		switch dev.kind {
		case kindAction:
			share = 0.7
		case kindDrone:
			share = 0.4
		case kind360:
			share = 0.5
		}
	}
	return share
}

// recording is the file a shot wrote: the lens of a still, the pixel size
// as stored, the exif orientation, a video's length and the file's size.
type recording struct {
	l       *lens
	width   int
	height  int
	orient  string
	seconds float64
	size    int64
}

// record picks the file a shot on dev wrote, a video or a still; dev is
// nil for a file received through WhatsApp, recompressed.
func (g *gen) record(dev *device, video bool) recording {
	f := recording{orient: "1"}
	switch {
	case dev == nil: // received through WhatsApp: recompressed, no exif
		dims := pick(g, [][2]int{{1600, 1200}, {1280, 960}, {1600, 900}, {2048, 1536}})
		f.width, f.height = dims[0], dims[1]
		if g.chance(0.5) {
			f.width, f.height = f.height, f.width
		}
		if video {
			f.seconds = g.videoSeconds(3, 60)
			f.width, f.height = 848, 480
			if g.chance(0.5) {
				f.width, f.height = f.height, f.width
			}
			f.size = int64(f.seconds * g.frac(1.2, 2.5) * 1e6 / 8)
		} else {
			f.size = int64(g.frac(0.09, 0.45) * 1e6)
		}
	case video:
		dims := pick(g, dev.videoDims)
		f.width, f.height = dims[0], dims[1]
		if dev.kind == kindPhone && g.chance(0.4) {
			f.orient = "6"
		}
		switch dev.kind {
		case kindAction, kindDrone:
			f.seconds = g.videoSeconds(10, 300)
		default:
			f.seconds = g.videoSeconds(2, 150)
		}
		f.size = int64(f.seconds * g.frac(dev.videoMbps[0], dev.videoMbps[1]) * 1e6 / 8)
	default:
		f.l = g.lensOf(dev)
		dims := dev.dims[0]
		if len(dev.dims) > 1 && g.chance(0.3) {
			dims = pick(g, dev.dims[1:])
		}
		f.width, f.height = dims[0], dims[1]
		if f.l.front {
			f.width, f.height = f.l.frontW, f.l.frontH
		}
		f.orient = g.orientation(dev, f.l)
		scale := float64(f.width*f.height) / float64(dev.dims[0][0]*dev.dims[0][1])
		f.size = int64(g.frac(dev.stillMB[0], dev.stillMB[1]) * scale * 1e6)
	}
	return f
}

// baseAsset fills what every asset of a shot has: ids, owner, device,
// dates and flags.
func (g *gen) baseAsset(ow *owner, r *rig, phone *rig, t time.Time, w where) model.AssetRecord {
	deviceID := r.deviceID
	if r.whatsApp {
		deviceID = phone.deviceID
	}
	var created time.Time
	switch {
	case t.Before(ow.created): // imported in bulk when the account was made
		created = g.after(ow.created, time.Minute, 14*24*time.Hour, g.uploadLimit)
	case r.route == routeMobile:
		created = g.after(t, 20*time.Second, 30*time.Hour, g.uploadLimit)
	default:
		created = g.after(t, 3*time.Hour, 20*24*time.Hour, g.uploadLimit)
	}
	modified := t
	if r.route == routeMobile && !r.whatsApp {
		modified = t.Add(g.span(0, 1500*time.Millisecond)).Truncate(time.Millisecond)
	}
	updated := g.after(created, 2*time.Second, 10*time.Minute, g.linkLimit)
	if g.chance(0.1) {
		updated = g.after(created, 24*time.Hour, 400*24*time.Hour, g.linkLimit)
	}
	a := model.AssetRecord{
		ID:             g.f.UUID(),
		OwnerID:        ow.rec.ID,
		DeviceID:       deviceID,
		Checksum:       g.checksum(),
		FileCreatedAt:  model.At(t),
		FileModifiedAt: model.At(modified),
		LocalDateTime:  model.At(localClock(t, w.loc)),
		CreatedAt:      model.At(created),
		UpdatedAt:      model.At(updated),
		IsFavorite:     g.chance(0.08),
		IsArchived:     g.chance(0.015),
		IsTrashed:      g.chance(0.008),
		IsVisible:      true,
		HasMetadata:    true,
		Resized:        true,
	}
	if r.route == routeLibrary {
		a.LibraryID = ptr(ow.externalID)
		a.IsOffline = g.chance(0.03)
	}
	return a
}

func (g *gen) addAsset(a model.AssetRecord) int {
	g.ds.Assets = append(g.ds.Assets, a)
	return len(g.ds.Assets) - 1
}

// lensOf picks the lens a photo was taken with.
func (g *gen) lensOf(d *device) *lens {
	w := make([]int, len(d.lenses))
	for i := range d.lenses {
		w[i] = d.lenses[i].weight
	}
	return &d.lenses[g.weighted(w)]
}

// orientation returns the exif orientation: phones are held upright about
// half the time, cameras mostly level.
func (g *gen) orientation(d *device, l *lens) string {
	if d.kind != kindPhone && d.kind != kindCamera {
		return "1"
	}
	if d.kind == kindPhone && (l.front || g.chance(0.45)) {
		return "6"
	}
	switch g.weighted([]int{85, 9, 4, 2}) {
	case 1:
		return "8"
	case 2:
		return "6"
	case 3:
		return "3"
	}
	return "1"
}

// videoSeconds returns a video length, short clips being the most common.
func (g *gen) videoSeconds(lo, hi float64) float64 {
	u := g.f.Float64()
	return math.Round((lo+(hi-lo)*u*u*u)*1e6) / 1e6
}

// videoDuration writes a length as the server does: H:MM:SS.ffffff.
func videoDuration(seconds float64) string {
	us := int64(math.Round(seconds * 1e6))
	b := make([]byte, 0, 16)
	b = strconv.AppendInt(b, us/3600e6, 10)
	b = append(b, ':')
	b = appendPad(b, int(us/60e6%60), 2)
	b = append(b, ':')
	b = appendPad(b, int(us/1e6%60), 2)
	b = append(b, '.')
	b = appendPad(b, int(us%1e6), 6)
	return string(b)
}

// appendPad appends n in decimal, zero-padded to width digits.
func appendPad(b []byte, n, width int) []byte {
	var digits [20]byte
	s := strconv.AppendInt(digits[:0], int64(n), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

func pad(n, width int) string { return string(appendPad(nil, n, width)) }

// standardISO are the ISO values cameras step through.
var standardISO = [...]float64{50, 64, 80, 100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500, 3200, 4000, 5000, 6400}

// standardShutter are the shutter speeds (1/x s) cameras step through.
var standardShutter = [...]int{4000, 3200, 2500, 2000, 1600, 1250, 1000, 800, 640, 500, 400, 320, 250, 200, 160, 125, 100, 80, 60, 50, 40, 30, 25, 20, 15}

// standardAperture are the f-numbers cameras step through.
var standardAperture = [...]float64{1.4, 1.6, 1.7, 1.8, 2, 2.2, 2.5, 2.8, 3.2, 3.5, 4, 4.5, 5, 5.6, 6.3, 7.1, 8, 9, 10, 11, 13, 16}

// exif returns the metadata the device wrote for a shot.
func (g *gen) exif(d *device, l *lens, w where, t time.Time, width, height int, orient string, size int64, video bool, modified model.Time) *model.Exif {
	s := &scenes[w.scene]
	b := new(exifBox)
	x := &b.x
	b.w, b.h, b.size, b.orientation, b.taken, b.description = float64(width), float64(height), size, orient, model.At(t), ""
	x.ExifImageWidth, x.ExifImageHeight, x.FileSizeInByte = &b.w, &b.h, &b.size
	x.Orientation, x.DateTimeOriginal, x.Description = &b.orientation, &b.taken, &b.description
	b.modified = modified
	x.ModifyDate = &b.modified
	if !video || d.make == "Apple" || d.kind != kindPhone {
		b.make, b.model = d.make, d.model
		x.Make, x.Model = &b.make, &b.model
	}
	if d.gps && g.chance(0.93) {
		spread := 0.03
		if s.light == lightBright && w.scene != sceneBeach {
			spread = 0.12 // out in nature, away from the centre
		}
		b.lat = round6(w.p.Lat + g.frac(-spread, spread))
		b.lon = round6(w.p.Lon + g.frac(-spread, spread))
		b.city, b.state, b.country, b.zone = w.p.City, w.p.State, w.p.Country, w.p.Zone
		x.Latitude, x.Longitude = &b.lat, &b.lon
		x.City, x.State, x.Country, x.TimeZone = &b.city, &b.state, &b.country, &b.zone
	} else if d.offsetTime {
		_, offset := t.In(w.loc).Zone()
		b.zone = utcOffsetName(offset)
		x.TimeZone = &b.zone
	}
	if d.projection != "" && !video {
		b.projection = d.projection
		x.ProjectionType = &b.projection
	}
	switch {
	case d.description != "":
		b.description = d.description
	case len(s.captions) > 0 && g.chance(0.03):
		b.description = pick(g, s.captions)
	}
	if video || l == nil {
		return x
	}
	g.stillSettings(b, d, l, s)
	return x
}

// stillSettings fills in how a still was taken: the lens, focal length,
// aperture, ISO and shutter speed, as the light of its scene asks.
func (g *gen) stillSettings(b *exifBox, d *device, l *lens, s *scene) {
	x := &b.x
	if l.model != "" {
		b.lens = l.model
		x.LensModel = &b.lens
	}
	focal := g.focalLength(l)
	b.focal = focal
	x.FocalLength = &b.focal
	b.fNumber = g.fNumber(l, s, focal)
	x.FNumber = &b.fNumber

	phone := d.kind == kindPhone
	var isoLo, isoHi, shutterLo, shutterHi int // indices into the tables
	switch s.light {
	case lightBright:
		isoLo, isoHi, shutterLo, shutterHi = 0, 4, 0, 10
	case lightNormal:
		isoLo, isoHi, shutterLo, shutterHi = 3, 9, 8, 16
	default:
		isoLo, isoHi, shutterLo, shutterHi = 8, 18, 14, 24
	}
	if !phone {
		isoLo = max(isoLo, 3) // base ISO 100
	}
	b.iso = standardISO[g.between(isoLo, isoHi)]
	x.ISO = &b.iso
	shutter := standardShutter[g.between(shutterLo, shutterHi)]
	if phone {
		// Phones meter continuously: any denominator.
		shutter = max(4, shutter+g.between(-shutter/5, shutter/5))
	}
	b.exposure = "1/" + strconv.Itoa(shutter)
	x.ExposureTime = &b.exposure
}

// focalLength picks the focal length of a still: a zoom is mostly at
// either end of its range.
func (g *gen) focalLength(l *lens) float64 {
	focal := l.focalMin
	if l.focalMax > l.focalMin {
		switch g.n(4) {
		case 0:
			focal = l.focalMin
		case 1:
			focal = l.focalMax
		default:
			focal = math.Round(g.frac(l.focalMin, l.focalMax))
		}
	}
	return focal
}

// fNumber picks the aperture of a still taken at focal: wide open in dim
// light, stopped down more the brighter the scene.
func (g *gen) fNumber(l *lens, s *scene, focal float64) float64 {
	widest := l.apertureWide
	if l.focalMax > l.focalMin {
		widest += (l.apertureTele - l.apertureWide) * (focal - l.focalMin) / (l.focalMax - l.focalMin)
	}
	fNumber := l.apertureWide
	if !l.fixedAperture {
		var stops []float64
		for _, a := range standardAperture {
			if a >= widest-0.05 && a <= 11 {
				stops = append(stops, a)
			}
		}
		switch {
		case s.light == lightDim || len(stops) < 3:
			fNumber = stops[0]
		case s.light == lightNormal:
			fNumber = stops[g.n(min(len(stops), 5))]
		default:
			fNumber = stops[2+g.n(len(stops)-2)]
		}
	}
	return fNumber
}

// exifBox holds an Exif and the values it points at, allocated together:
// an asset's exif shares nothing with another asset's.
type exifBox struct {
	x                                                                    model.Exif
	make, model, orientation, zone, lens, exposure, city, state, country string
	description, projection                                              string
	w, h, fNumber, focal, iso, lat, lon                                  float64
	size                                                                 int64
	taken, modified                                                      model.Time
}

// detach replaces what a copied asset shares with its original by copies of
// its own, so no two records point at the same value.
func detach(a *model.AssetRecord) {
	clone := func(p *string) *string {
		if p == nil {
			return nil
		}
		return ptr(*p)
	}
	a.Thumbhash, a.LibraryID = clone(a.Thumbhash), clone(a.LibraryID)
	a.LivePhotoVideoID, a.StackParentID, a.DuplicateID = clone(a.LivePhotoVideoID), clone(a.StackParentID), clone(a.DuplicateID)
	if a.ExifInfo != nil {
		a.ExifInfo = cloneExif(a.ExifInfo)
	}
	if a.SmartInfo != nil {
		a.SmartInfo = &model.SmartInfo{Objects: slices.Clone(a.SmartInfo.Objects), Tags: slices.Clone(a.SmartInfo.Tags)}
	}
	a.TagIDs = slices.Clone(a.TagIDs)
	a.Faces = slices.Clone(a.Faces)
}

// cloneExif returns a deep copy of x.
func cloneExif(x *model.Exif) *model.Exif {
	b := new(exifBox)
	b.x = *x
	c := &b.x
	str := func(dst *string, p **string) {
		if *p != nil {
			*dst = **p
			*p = dst
		}
	}
	num := func(dst *float64, p **float64) {
		if *p != nil {
			*dst = **p
			*p = dst
		}
	}
	tm := func(dst *model.Time, p **model.Time) {
		if *p != nil {
			*dst = **p
			*p = dst
		}
	}
	str(&b.make, &c.Make)
	str(&b.model, &c.Model)
	str(&b.orientation, &c.Orientation)
	str(&b.zone, &c.TimeZone)
	str(&b.lens, &c.LensModel)
	str(&b.exposure, &c.ExposureTime)
	str(&b.city, &c.City)
	str(&b.state, &c.State)
	str(&b.country, &c.Country)
	str(&b.description, &c.Description)
	str(&b.projection, &c.ProjectionType)
	num(&b.w, &c.ExifImageWidth)
	num(&b.h, &c.ExifImageHeight)
	num(&b.fNumber, &c.FNumber)
	num(&b.focal, &c.FocalLength)
	num(&b.iso, &c.ISO)
	num(&b.lat, &c.Latitude)
	num(&b.lon, &c.Longitude)
	tm(&b.taken, &c.DateTimeOriginal)
	tm(&b.modified, &c.ModifyDate)
	if c.FileSizeInByte != nil {
		b.size = *c.FileSizeInByte
		c.FileSizeInByte = &b.size
	}
	return c
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// utcOffsetName writes an offset as exif readers name zones without GPS:
// UTC+2, UTC-3, UTC+5:30.
func utcOffsetName(seconds int) string {
	sign := "+"
	if seconds < 0 {
		sign, seconds = "-", -seconds
	}
	s := "UTC" + sign + strconv.Itoa(seconds/3600)
	if m := seconds % 3600 / 60; m != 0 {
		s += ":" + pad(m, 2)
	}
	return s
}

// faces returns the faces of a photo: some of the people present, and the
// photographer in a selfie.
func (g *gen) faces(ow *owner, present []int, selfie bool, w, h int) []model.FaceRecord {
	n := g.between(1, min(4, len(present)))
	chosen := make([]int, 0, n+1)
	if selfie {
		chosen = append(chosen, ow.self)
	}
	for len(chosen) < n {
		p := pick(g, present)
		if !slices.Contains(chosen, p) {
			chosen = append(chosen, p)
		}
	}
	out := make([]model.FaceRecord, 0, len(chosen))
	for _, hu := range chosen {
		if pi := ow.persons[hu]; pi >= 0 {
			out = append(out, g.face(g.ds.People[pi].ID, w, h))
		}
	}
	return out
}

// face returns a face of person in a w×h image, box inside the image.
func (g *gen) face(person string, w, h int) model.FaceRecord {
	size := max(8, int(float64(min(w, h))*g.frac(0.06, 0.22)))
	fh := min(h-1, size*5/4)
	x1 := g.n(w - size)
	y1 := g.n(h - fh)
	return model.FaceRecord{
		ID: g.f.UUID(), PersonID: person,
		BoundingBoxX1: x1, BoundingBoxY1: y1, BoundingBoxX2: x1 + size, BoundingBoxY2: y1 + fh,
		ImageWidth: w, ImageHeight: h,
	}
}

// smartInfo returns what the classifier and object detector found.
func (g *gen) smartInfo(s *scene, faces, video bool) *model.SmartInfo {
	si := &model.SmartInfo{Tags: g.some(s.tags, g.between(1, 3))}
	if video {
		return si
	}
	objects := g.some(s.objects, g.between(1, 2))
	if faces && !slices.Contains(objects, "person") {
		objects = slices.Insert(objects, 0, "person")
	}
	si.Objects = objects
	return si
}

// some returns n distinct elements of s, in the order of s.
func (g *gen) some(s []string, n int) []string {
	n = min(n, len(s))
	out := make([]string, 0, n+1)
	start := g.n(len(s))
	step := 1 + g.n(len(s)-1)
	for i := 0; len(out) < n && i < len(s)*len(s); i++ {
		v := s[(start+i*step)%len(s)]
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(s, a) - slices.Index(s, b) })
	return out
}

// tagAsset gives a photo one of the tags people add: a thing it shows, a
// person in it, or a label of their own.
func (g *gen) tagAsset(ow *owner, a *model.AssetRecord) {
	var name, kind string
	switch g.n(3) {
	case 0:
		if a.SmartInfo != nil {
			words := append(slices.Clone(a.SmartInfo.Objects), a.SmartInfo.Tags...)
			name, kind = pick(g, words), model.TagObject
		}
	case 1:
		if len(a.Faces) > 0 {
			if p := g.personByID(ow, a.Faces[0].PersonID); p != nil && p.Name != "" {
				name, kind = p.Name, model.TagFace
			}
		}
	}
	if name == "" {
		name, kind = pick(g, customTags[:]), model.TagCustom
	}
	key := kind + "\x00" + name
	i, ok := ow.tags[key]
	if !ok {
		g.ds.Tags = append(g.ds.Tags, model.Tag{ID: g.f.UUID(), Name: name, Type: kind, UserID: ow.rec.ID})
		i = len(g.ds.Tags) - 1
		ow.tags[key] = i
	}
	a.TagIDs = append(a.TagIDs, g.ds.Tags[i].ID)
}

// personByID returns the owner's person with id, or nil.
func (g *gen) personByID(ow *owner, id string) *model.PersonRecord {
	for _, i := range ow.persons {
		if i >= 0 && g.ds.People[i].ID == id {
			return &g.ds.People[i]
		}
	}
	return nil
}

// liveVideo adds the hidden video of a Live Photo.
func (g *gen) liveVideo(still int, d *device, width, height int, orient string, scene int) int {
	s := &g.ds.Assets[still]
	v := *s
	v.Faces, v.TagIDs, v.SmartInfo = nil, nil, nil
	detach(&v)
	v.ID = g.f.UUID()
	v.Type = model.AssetVideo
	v.IsVisible = false
	v.IsFavorite, v.IsArchived, v.IsTrashed = false, false, false
	v.Checksum = g.checksum()
	v.Duration = videoDuration(g.frac(1.4, 3.1))
	vw, vh := 1920, 1440
	if width < height {
		vw, vh = vh, vw
	}
	if x := v.ExifInfo; x != nil {
		*x.ExifImageWidth, *x.ExifImageHeight = float64(vw), float64(vh)
		*x.FileSizeInByte = int64(g.frac(1.8, 4.2) * 1e6)
		x.LensModel, x.FNumber, x.FocalLength, x.ISO, x.ExposureTime = nil, nil, nil, nil, nil
	}
	idx := g.addAsset(v)
	g.ds.Assets[still].LivePhotoVideoID = ptr(v.ID)
	return idx
}

// rawFile adds the raw file a camera wrote beside the JPEG, stacked under it.
func (g *gen) rawFile(jpeg int, d *device) int {
	j := &g.ds.Assets[jpeg]
	r := *j
	r.Faces, r.TagIDs, r.SmartInfo = nil, nil, nil
	detach(&r)
	r.ID = g.f.UUID()
	r.Checksum = g.checksum()
	r.StackParentID = ptr(j.ID)
	r.IsFavorite = false
	if r.ExifInfo != nil {
		*r.ExifInfo.FileSizeInByte = int64(g.frac(d.rawMB[0], d.rawMB[1]) * 1e6)
	}
	return g.addAsset(r)
}

// burst adds the other frames of an iPhone burst, stacked under the first.
func (g *gen) burst(r *rig, parent int, first shot) {
	p := &g.ds.Assets[parent]
	parentID := p.ID
	for i := 1; i <= g.between(2, 5); i++ {
		b := g.ds.Assets[parent]
		b.LivePhotoVideoID = nil
		b.Faces, b.TagIDs = nil, nil
		detach(&b)
		b.ID = g.f.UUID()
		b.Checksum = g.checksum()
		b.StackParentID = ptr(parentID)
		b.IsFavorite = false
		step := time.Duration(i) * 100 * time.Millisecond
		b.FileCreatedAt = model.At(first.at.Add(step))
		b.FileModifiedAt = model.At(first.at.Add(step))
		b.LocalDateTime = model.At(first.local.Add(step))
		if x := b.ExifInfo; x != nil {
			*x.DateTimeOriginal, *x.ModifyDate = b.FileCreatedAt, b.FileModifiedAt
			*x.FileSizeInByte = int64(float64(*x.FileSizeInByte) * g.frac(0.9, 1.1))
		}
		idx := g.addAsset(b)
		r.shots = append(r.shots, shot{asset: idx, live: -1, raw: -1, at: first.at.Add(step), local: first.local.Add(step)})
	}
}

// whatsAppCopy adds the same photo as it came back through a chat: another
// file, no exif, marked as a duplicate of the original.
func (g *gen) whatsAppCopy(ow *owner, original int, w where) {
	o := &g.ds.Assets[original]
	group := g.f.UUID()
	o.DuplicateID = ptr(group)
	at := o.FileCreatedAt.Time.Add(g.span(time.Minute, 72*time.Hour))
	if !at.Before(g.eventEnd) {
		at = o.FileCreatedAt.Time.Add(time.Minute)
	}
	at = at.Truncate(time.Millisecond)
	phone := ow.phoneAt(at)
	c := g.baseAsset(ow, ow.whatsApp, phone, at, w)
	c.Type = model.AssetImage
	c.Duration = model.DefaultDuration
	c.Thumbhash = o.Thumbhash
	c.SmartInfo = o.SmartInfo
	detach(&c)
	c.DuplicateID = ptr(group)
	idx := g.addAsset(c)
	ow.whatsApp.shots = append(ow.whatsApp.shots, shot{asset: idx, live: -1, raw: -1, at: at, local: c.LocalDateTime.Time})
}

// nameFiles gives the shots of a rig the file names the device wrote, in
// the order they were taken, and the paths the server stored them at.
func (g *gen) nameFiles(ow *owner, r *rig) {
	slices.SortStableFunc(r.shots, func(a, b shot) int { return a.at.Compare(b.at) })
	var lastBuf, buf [64]byte
	last := lastBuf[:0]
	dup := 0
	waDay, wa := -1, 0
	for _, sh := range r.shots {
		b := buf[:0]
		var ext, rawExt, liveExt string
		local := sh.local
		if r.whatsApp {
			if day := local.YearDay() + 1000*local.Year(); day != waDay {
				waDay, wa = day, 0 // WhatsApp numbers files per day
			}
			wa++
			b, ext = whatsAppStem(b, local, wa, sh.video)
		} else {
			d := r.dev
			ext, rawExt, liveExt = d.stillExt, d.rawExt, "MOV"
			if sh.video {
				ext = d.videoExt
			}
			b = r.stem(b, sh)
		}
		if string(b) == string(last) {
			dup++
			b = append(append(append(b, '('), strconv.Itoa(dup)...), ')')
		} else {
			last, dup = append(last[:0], b...), 0
		}
		stem := len(b)
		g.place(ow, r, sh.asset, string(append(append(b, '.'), ext...)), local)
		if sh.live >= 0 {
			g.place(ow, r, sh.live, string(append(append(b[:stem], '.'), liveExt...)), local)
			g.ds.Assets[sh.live].DeviceAssetID = g.ds.Assets[sh.asset].DeviceAssetID
		}
		if sh.raw >= 0 {
			g.place(ow, r, sh.raw, string(append(append(b[:stem], '.'), rawExt...)), local)
		}
	}
}

// whatsAppStem appends the name WhatsApp gives the n-th file it saved on
// a day (IMG-20240512-WA0003) and returns it with the file's extension.
func whatsAppStem(b []byte, local time.Time, n int, video bool) ([]byte, string) {
	kind, ext := "IMG-", "jpg"
	if video {
		kind, ext = "VID-", "mp4"
	}
	b = local.AppendFormat(append(b, kind...), "20060102")
	b = appendPad(append(b, "-WA"...), n, 4)
	return b, ext
}

// nextNumber returns the rig's next file number: file numbers run from 1
// to 9999, then start again.
func (r *rig) nextNumber() int {
	n := r.counter
	r.counter = r.counter%9999 + 1
	return n
}

// stem appends the name, without its extension, that the rig's device
// gives a shot, as its maker's naming scheme writes it.
func (r *rig) stem(b []byte, sh shot) []byte {
	local := sh.local
	prefix := func(still, video string) []byte {
		if sh.video {
			return append(b, video...)
		}
		return append(b, still...)
	}
	switch r.dev.naming {
	case nameIOS:
		b = appendPad(append(b, "IMG_"...), r.nextNumber(), 4)
	case namePixel: // in UTC, with milliseconds
		b = sh.at.AppendFormat(append(b, "PXL_"...), "20060102_150405")
		b = appendPad(b, sh.at.Nanosecond()/1e6, 3)
	case nameSamsung:
		b = local.AppendFormat(b, "20060102_150405")
	case nameXiaomi:
		b = local.AppendFormat(prefix("IMG_", "VID_"), "20060102_150405")
	case nameOnePlus:
		b = local.AppendFormat(prefix("IMG", "VID"), "20060102150405")
	case nameSony:
		if sh.video { // Sony numbers clips apart from stills
			b = appendPad(append(b, 'C'), r.counter2, 4)
			r.counter2++
		} else {
			b = appendPad(append(b, "DSC"...), r.nextNumber(), 5)
		}
	case nameCanon:
		b = appendPad(prefix("IMG_", "MVI_"), r.nextNumber(), 4)
	case nameNikon:
		b = appendPad(append(b, "DSC_"...), r.nextNumber(), 4)
	case nameFuji:
		b = appendPad(append(b, "DSCF"...), r.nextNumber(), 4)
	case nameOlympus: // month in base 36, day, number
		b = append(b, 'P', "123456789ABC"[local.Month()-1])
		b = appendPad(appendPad(b, local.Day(), 2), r.nextNumber(), 4)
	case namePanasonic:
		n := r.nextNumber()
		if n%1000 == 0 { // a new folder every thousand files
			r.counter2++
		}
		b = appendPad(appendPad(append(b, 'P'), 100+r.counter2%900, 3), n%1000, 4)
	case nameGoPro:
		b = appendPad(prefix("GOPR", "GX01"), r.nextNumber(), 4)
	case nameDJI:
		b = appendPad(append(b, "DJI_"...), r.nextNumber(), 4)
	case nameInsta360:
		b = local.AppendFormat(prefix("IMG_", "VID_"), "20060102_150405")
		b = appendPad(append(b, "_00_"...), r.nextNumber()%1000, 3)
	}
	return b
}

// pathKey is a 64-bit FNV-1a hash of a storage path: the set of taken
// paths holds these instead of the paths. A collision of two different
// paths would only add a needless +1 to a name.
func pathKey(p string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(p); i++ {
		h ^= uint64(p[i])
		h *= 1099511628211
	}
	return h
}

// photoKitID returns an iOS PhotoKit local identifier, the deviceAssetId
// the iPhone app sends: an upper-case UUID and "/L0/001".
func (g *gen) photoKitID() string {
	const digits = "0123456789ABCDEF"
	var u [16]byte
	g.fill(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var buf [43]byte
	b := buf[:0]
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, digits[c>>4], digits[c&15])
	}
	return string(append(b, "/L0/001"...))
}

// place sets an asset's file name, device asset id and storage path.
func (g *gen) place(ow *owner, r *rig, i int, name string, local time.Time) {
	a := &g.ds.Assets[i]
	a.OriginalFileName = name
	switch r.route {
	case routeMobile:
		phone := ow.phoneAt(a.FileCreatedAt.Time)
		if phone.dev.ios {
			a.DeviceAssetID = g.photoKitID()
		} else {
			a.DeviceAssetID = strconv.Itoa(phone.mediaID)
			phone.mediaID += g.between(1, 4)
		}
	case routeWeb:
		var buf [80]byte
		a.DeviceAssetID = string(strconv.AppendInt(append(append(append(buf[:0], "web-"...), name...), '-'), a.FileModifiedAt.UnixMilli(), 10))
	case routeCLI:
		var size int64
		if a.ExifInfo != nil && a.ExifInfo.FileSizeInByte != nil {
			size = *a.ExifInfo.FileSizeInByte
		}
		var buf [80]byte
		a.DeviceAssetID = string(strconv.AppendInt(append(append(buf[:0], name...), '-'), size, 10))
	case routeLibrary:
		a.DeviceAssetID = name
	}
	var buf [160]byte
	b := buf[:0]
	if r.route == routeLibrary {
		b = append(b, "/mnt/photos/"...)
	} else {
		b = append(append(append(b, "upload/library/"...), ow.rec.ID...), '/')
	}
	b = appendPad(b, local.Year(), 4)
	b = append(b, '/')
	b = appendPad(b, local.Year(), 4)
	b = append(b, '-')
	b = appendPad(b, int(local.Month()), 2)
	b = append(b, '-')
	b = appendPad(b, local.Day(), 2)
	b = append(b, '/')
	dir := len(b)
	path := string(append(b, name...))
	for n := 1; ow.paths[pathKey(path)]; n++ { // taken: the server adds +1, +2...
		dot := strings.LastIndexByte(name, '.')
		path = string(b[:dir]) + name[:dot] + "+" + strconv.Itoa(n) + name[dot:]
	}
	ow.paths[pathKey(path)] = true
	a.OriginalPath = path
}

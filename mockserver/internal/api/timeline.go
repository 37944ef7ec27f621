package api

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The timeline: the assets of a library, an album or a link, grouped by
// the day or the month of their local date (localDateTime, read as UTC),
// as the upstream's web app shows them.

// timelineQuery is TimeBucketDto: what a timeline asks for.
type timelineQuery struct {
	size                      string // DAY or MONTH
	userID, albumID, personID *string
	isArchived, isFavorite    *bool
	isTrashed, withStacked    *bool
	withPartners              bool
	ascending                 bool
	bucket                    string // the bucket asked for, or ""
	bucketAt                  time.Time
	bucketValid               bool
	partners                  []string // the partners shown with withPartners
	owners                    map[string]bool
	raw                       string // the query, for the cache
}

// timeBucketBody is TimeBucketAssetDto's own member, then TimeBucketDto's.
var (
	timeBucketDTO = []dto.Property{
		dto.Field("size", isNotEmpty, dto.As(dto.IsEnum("DAY", "MONTH"))),
		dto.Field("userId", optionalUUID),
		dto.Field("albumId", optionalUUID),
		dto.Field("personId", optionalUUID),
		dto.Field("isArchived", optionalBool),
		dto.Field("isFavorite", optionalBool),
		dto.Field("isTrashed", optionalBool),
		dto.Field("withStacked", optionalBool),
		dto.Field("withPartners", optionalBool),
		dto.Field("order", dto.As(dto.IsEnum("asc", "desc")), optional),
	}
	timeBucketsQuery = dto.NewClass("TimeBucketDto", timeBucketDTO...)
	timeBucketQuery  = dto.NewClass("TimeBucketAssetDto", append([]dto.Property{dto.Field("timeBucket", isString)}, timeBucketDTO...)...)
)

// queryObject is a query as the upstream's DTOs meet it: a parameter
// given once is a string, given more than once a list of them.
func queryObject(q url.Values) map[string]any {
	obj := make(map[string]any, len(q))
	for k, vs := range q {
		if len(vs) == 1 {
			obj[k] = vs[0]
		} else {
			list := make([]any, len(vs))
			for i, v := range vs {
				list[i] = v
			}
			obj[k] = list
		}
	}
	return obj
}

// readTimelineQuery reads a timeline's query as its DTO declares it.
func readTimelineQuery(q url.Values, withBucket bool) (timelineQuery, error) {
	obj := queryObject(q)
	class := timeBucketsQuery
	if withBucket {
		class = timeBucketQuery
	}
	b, err := class.Validate(obj)
	if err != nil {
		return timelineQuery{}, bodyError(err)
	}
	t := timelineQuery{raw: q.Encode()}
	t.size, _ = b.String("size")
	for _, f := range []struct {
		name string
		dst  **string
	}{{"userId", &t.userID}, {"albumId", &t.albumID}, {"personId", &t.personID}} {
		if v, ok := b.String(f.name); ok {
			*f.dst = new(strings.ToLower(v))
		}
	}
	for _, f := range []struct {
		name string
		dst  **bool
	}{{"isArchived", &t.isArchived}, {"isFavorite", &t.isFavorite}, {"isTrashed", &t.isTrashed}, {"withStacked", &t.withStacked}} {
		if v, ok := b.Bool(f.name); ok {
			*f.dst = &v
		}
	}
	t.withPartners, _ = b.Bool("withPartners")
	order, _ := b.String("order")
	t.ascending = order == "asc"
	if withBucket {
		t.bucket, _ = b.String("timeBucket")
		// The reference drops a leading sign before it reads the date:
		// "-2024-12-01..." is December 2024.
		bucket := t.bucket
		if strings.HasPrefix(bucket, "+") || strings.HasPrefix(bucket, "-") {
			bucket = bucket[1:]
		}
		if at, ok := dto.ParseDate(bucket); ok {
			t.bucketAt, t.bucketValid = at.UTC(), true
		}
	}
	return t, nil
}

// check is the reference's access to a timeline: an album the caller may
// read, else the caller's own timeline or a partner's, with the archive
// only of their own; with partners, neither archive, trash nor
// favourites.
func (t *timelineQuery) check(v *store.View, p store.Principal) error {
	if t.albumID != nil {
		if v.ReadableAlbum(p, *t.albumID) == nil {
			return store.Fail(store.NoAccess, "Not found or no album.read access")
		}
	} else if t.userID == nil {
		t.userID = &p.User.ID
	}
	if t.userID != nil {
		switch {
		case p.Link != nil:
			return store.Fail(store.NoAccess, "Not found or no timeline.read access")
		case *t.userID != p.User.ID && !v.IsPartner(*t.userID, p.User.ID):
			return store.Fail(store.NoAccess, "Not found or no timeline.read access")
		case (t.isArchived == nil || *t.isArchived) && *t.userID != p.User.ID:
			return store.Fail(store.NoAccess, "Not found or no archive.read access")
		}
	}
	if t.withPartners && (t.isArchived == nil || *t.isArchived || t.isFavorite != nil || (t.isTrashed != nil && *t.isTrashed)) {
		return store.Fail(store.Invalid, "withPartners is only supported for non-archived, non-trashed, non-favorited assets")
	}
	if t.userID != nil {
		t.owners = map[string]bool{*t.userID: true}
		if t.withPartners {
			for _, pt := range v.PartnersOf(p.User.ID, false) {
				if pt.InTimeline {
					t.owners[pt.SharedByID] = true
				}
			}
		}
	}
	return nil
}

// assets is every asset the timeline shows, in no order.
func (t *timelineQuery) assets(v *store.View) []*model.AssetRecord {
	var pool []*model.AssetRecord
	if t.albumID != nil {
		for _, id := range v.Album(*t.albumID).AssetIDs {
			pool = append(pool, v.Asset(id))
		}
	} else {
		for owner := range t.owners {
			pool = append(pool, v.AssetsOwnedBy(owner)...)
		}
	}
	keep := func(want *bool, got bool) bool { return want == nil || *want == got }
	out := pool[:0:0]
	for _, a := range pool {
		switch {
		case !a.IsVisible, t.owners != nil && !t.owners[a.OwnerID]:
		case !keep(t.isArchived, a.IsArchived), !keep(t.isFavorite, a.IsFavorite):
		case t.isTrashed == nil && a.IsTrashed, t.isTrashed != nil && *t.isTrashed != a.IsTrashed:
		case t.personID != nil && !slices.ContainsFunc(a.Faces, func(f model.FaceRecord) bool { return f.PersonID == *t.personID }):
		case t.withStacked != nil && *t.withStacked && a.StackParentID != nil:
		default:
			out = append(out, a)
		}
	}
	return out
}

// bucketOf is the start of an asset's day or month, by its local date.
func (t *timelineQuery) bucketOf(a *model.AssetRecord) time.Time {
	d := a.LocalDateTime.UTC()
	if t.size == "DAY" {
		return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
	}
	return time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// timelineShows is what a timeline shows: every kind of record but the
// credentials.
const timelineShows = store.Everything &^ store.Keys

// timeBuckets is GET /api/timeline/buckets: how many assets each day or
// month holds, the newest first (or the oldest, with order=asc).
func (s *server) timeBuckets(c *call) error {
	t, err := readTimelineQuery(c.r.URL.Query(), false)
	if err != nil {
		return err
	}
	a, err := s.answers.encoded(c.r.Context(), "buckets\x00"+principalKey(c.p())+"\x00"+t.raw, timelineShows, func(v *store.View) (any, error) {
		if err := t.check(v, c.p()); err != nil {
			return nil, err
		}
		counts := map[time.Time]int{}
		for _, a := range t.assets(v) {
			counts[t.bucketOf(a)]++
		}
		type bucket struct {
			Count      int        `json:"count"`
			TimeBucket model.Time `json:"timeBucket"`
		}
		out := make([]bucket, 0, len(counts))
		for at, n := range counts {
			out = append(out, bucket{Count: n, TimeBucket: model.At(at)})
		}
		slices.SortFunc(out, func(a, b bucket) int {
			if t.ascending {
				return a.TimeBucket.Compare(b.TimeBucket.Time)
			}
			return b.TimeBucket.Compare(a.TimeBucket.Time)
		})
		return out, nil
	})
	if err != nil {
		return err
	}
	s.large.Write(c.w, http.StatusOK, a.parts, a.size, a.etag)
	return nil
}

// principalKey tells apart the timelines of different callers in the
// cache: a user, or a link.
func principalKey(p store.Principal) string {
	if p.Link != nil {
		return "link\x00" + p.Link.ID
	}
	return "user\x00" + p.User.ID
}

// timeBucket is GET /api/timeline/bucket: the assets of one day or month,
// the newest first (or the oldest, with order=asc), with their stacks; a
// link that hides metadata shows them sanitized.
func (s *server) timeBucket(c *call) error {
	t, err := readTimelineQuery(c.r.URL.Query(), true)
	if err != nil {
		return err
	}
	a, err := s.answers.encoded(c.r.Context(), "bucket\x00"+principalKey(c.p())+"\x00"+t.raw, timelineShows, func(v *store.View) (any, error) {
		if err := t.check(v, c.p()); err != nil {
			return nil, err
		}
		var in []*model.AssetRecord
		if t.bucketValid {
			for _, a := range t.assets(v) {
				if t.bucketOf(a).Equal(t.bucketAt) {
					in = append(in, a)
				}
			}
		}
		slices.SortFunc(in, model.ByFileCreated(t.ascending))
		return c.aud.assets(v, in, c.aud.timelineRead()), nil
	})
	if err != nil {
		return err
	}
	s.large.Write(c.w, http.StatusOK, a.parts, a.size, a.etag)
	return nil
}

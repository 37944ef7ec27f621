package api

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// GET /api/timeline/buckets and /api/timeline/bucket (timeline.go): what
// the upstream's timeline.service.ts checks, and what its getBuilder
// (asset.repository.ts) selects, on a seeded library whose every asset is
// placed to tell one rule from another. Buckets are by localDateTime read
// as UTC; a bucket's assets are ordered by fileCreatedAt.

// The seeded timeline: ids by what they are.
var (
	tlFaceA    = libID('a', 1)  // Oct 5, 10:00 local, 08:00Z; a face of tlPerson
	tlLateA    = libID('a', 2)  // Oct 5, 23:30 local, 21:30Z
	tlFavorite = libID('a', 3)  // Oct 20, favourite, a face of tlPerson
	tlArchived = libID('a', 4)  // Sep 1, archived
	tlTrashed  = libID('a', 5)  // Sep 15, trashed
	tlAug31    = libID('a', 6)  // Aug 31, 23:59 local, its file made Sep 1 03:59Z
	tlHidden   = libID('a', 7)  // Oct 5, not visible
	tlStack0   = libID('a', 8)  // Jul 10, 10:00: a stack's parent
	tlStack1   = libID('a', 9)  // Jul 10, 11:00: its child
	tlStack2   = libID('a', 10) // Jul 11: its child
	tlBob1     = libID('b', 1)  // Oct 6
	tlBob2     = libID('b', 2)  // Oct 7, archived
	tlBob3     = libID('b', 3)  // Oct 8, favourite
	tlCarol1   = libID('c', 1)  // Oct 8
	tlPerson   = "00000000-0000-4000-8000-0000000fe501"
)

// tlDataset is testDataset (Alice's asset, Oct 2, in her album that Bob
// views and both links show; Bob's asset, Oct 2) with the seeded
// timeline; Bob shares his library with Alice in her timeline, Carol hers
// not in it.
func tlDataset() model.Dataset {
	face := func(id string) func(a *model.AssetRecord) {
		return func(a *model.AssetRecord) {
			a.Faces = []model.FaceRecord{{ID: id, PersonID: tlPerson, BoundingBoxX2: 10, BoundingBoxY2: 10, ImageWidth: 100, ImageHeight: 100}}
		}
	}
	fileAt := func(at string) func(a *model.AssetRecord) {
		return func(a *model.AssetRecord) { a.FileCreatedAt, _ = parseLibTime(at) }
	}
	child := func(a *model.AssetRecord) { a.StackParentID = new(tlStack0) }
	d := libSeeded([]model.AssetRecord{
		libAsset(tlFaceA, aliceID, "2026-10-05T10:00:00.000Z", fileAt("2026-10-05T08:00:00.000Z"), face("00000000-0000-4000-8000-0000000fac01")),
		libAsset(tlLateA, aliceID, "2026-10-05T23:30:00.000Z", fileAt("2026-10-05T21:30:00.000Z")),
		libAsset(tlFavorite, aliceID, "2026-10-20T12:00:00.000Z", libFavorite, face("00000000-0000-4000-8000-0000000fac02")),
		libAsset(tlArchived, aliceID, "2026-09-01T12:00:00.000Z", libArchived),
		libAsset(tlTrashed, aliceID, "2026-09-15T12:00:00.000Z", libTrashed),
		libAsset(tlAug31, aliceID, "2026-08-31T23:59:00.000Z", fileAt("2026-09-01T03:59:00.000Z")),
		libAsset(tlHidden, aliceID, "2026-10-05T12:00:00.000Z", libHidden),
		libAsset(tlStack0, aliceID, "2026-07-10T10:00:00.000Z"),
		libAsset(tlStack1, aliceID, "2026-07-10T11:00:00.000Z", child),
		libAsset(tlStack2, aliceID, "2026-07-11T09:00:00.000Z", child),
		libAsset(tlBob1, bobID, "2026-10-06T10:00:00.000Z"),
		libAsset(tlBob2, bobID, "2026-10-07T10:00:00.000Z", libArchived),
		libAsset(tlBob3, bobID, "2026-10-08T10:00:00.000Z", libFavorite),
		libAsset(tlCarol1, carolID, "2026-10-08T10:00:00.000Z"),
	},
		model.PartnerRecord{SharedByID: bobID, SharedWithID: aliceID, InTimeline: true, CreatedAt: model.At(testNow())},
		model.PartnerRecord{SharedByID: carolID, SharedWithID: aliceID, CreatedAt: model.At(testNow())},
	)()
	d.People = append(d.People, model.PersonRecord{ID: tlPerson, OwnerID: aliceID, Name: "Test Person"})
	return d
}

func tlServer(t *testing.T) *httptest.Server {
	return newTestServer(t, func(c *Config) { c.Dataset = tlDataset })
}

// tlQuery is a timeline query from name, value pairs.
func tlQuery(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	return "?" + q.Encode()
}

// tlGet is GET /api/timeline/{which}?query with the given headers.
func tlGet(t *testing.T, srv *httptest.Server, which, query string, headers ...string) reply {
	t.Helper()
	return do(t, newRequest(t, http.MethodGet, srv.URL+"/api/timeline/"+which+query, nil, headers...))
}

// tlBuckets is the buckets as "timeBucket=count", in order; the answer
// must be 200.
func tlBuckets(t *testing.T, srv *httptest.Server, query string, headers ...string) []string {
	t.Helper()
	rep := tlGet(t, srv, "buckets", query, headers...)
	require.Equal(t, http.StatusOK, rep.status, "buckets%s: %s", query, rep.body)
	var list []map[string]any
	rep.json(t, &list)
	out := []string{}
	for _, b := range list {
		require.Len(t, b, 2, "a bucket is its timeBucket and count: %v", b)
		out = append(out, b["timeBucket"].(string)+"="+strconv.FormatFloat(b["count"].(float64), 'f', -1, 64))
	}
	return out
}

// tlBucket is one bucket's assets, decoded; the answer must be 200.
func tlBucket(t *testing.T, srv *httptest.Server, query string, headers ...string) []map[string]any {
	t.Helper()
	rep := tlGet(t, srv, "bucket", query, headers...)
	require.Equal(t, http.StatusOK, rep.status, "bucket%s: %s", query, rep.body)
	var list []map[string]any
	rep.json(t, &list)
	return list
}

func TestTimelineQueryValidation(t *testing.T) {
	srv := tlServer(t)
	sizeBoth := []any{"size must be one of the following values: DAY, MONTH", "size should not be empty"}
	sizeEnum := []any{"size must be one of the following values: DAY, MONTH"}
	// Every message as the reference server answers it (TimeBucketDto and
	// TimeBucketAssetDto's class-validator rules).
	for _, tt := range []struct {
		name, which, query string
		message            []any
		differs            string
	}{
		{"no size", "buckets", "", sizeBoth, ""},
		{"an empty size", "buckets", "?size=", sizeBoth, ""},
		{"a size of neither", "buckets", "?size=YEAR", sizeEnum, ""},
		{"a size in lower case", "buckets", "?size=month", sizeEnum, ""},
		{"two sizes", "buckets", "?size=DAY&size=MONTH", sizeEnum, ""},
		{"ids not UUIDs", "buckets", "?size=DAY&userId=x&albumId=y&personId=z", []any{"userId must be a UUID", "albumId must be a UUID", "personId must be a UUID"}, ""},
		{"an id not a v4 UUID", "buckets", "?size=MONTH&userId=00000000-0000-0000-0000-000000000000", []any{"userId must be a UUID"}, ""},
		{"flags not booleans", "buckets", "?size=DAY&isArchived=x&isFavorite=1&isTrashed=yes&withStacked=no&withPartners=0&order=up", []any{
			"isArchived must be a boolean value", "isFavorite must be a boolean value", "isTrashed must be a boolean value",
			"withStacked must be a boolean value", "withPartners must be a boolean value", "order must be one of the following values: asc, desc"}, ""},
		{"a boolean in capitals", "buckets", "?size=MONTH&isArchived=TRUE", []any{"isArchived must be a boolean value"}, ""},
		{"an order in capitals", "buckets", "?size=MONTH&order=ASC", []any{"order must be one of the following values: asc, desc"}, ""},
		{"a bucket, nothing", "bucket", "", append([]any{"timeBucket must be a string"}, sizeBoth...), ""},
		{"a bucket, no timeBucket", "bucket", "?size=MONTH", []any{"timeBucket must be a string"}, ""},
		{"a bucket, two timeBuckets", "bucket", "?size=MONTH&timeBucket=a&timeBucket=b", []any{"timeBucket must be a string"}, ""},
		{"a bucket, every rule", "bucket", "?userId=bad&size=x", []any{"timeBucket must be a string", "size must be one of the following values: DAY, MONTH", "userId must be a UUID"}, ""},
		{"a bucket, no size", "bucket", "?timeBucket=2026-10-01T00:00:00.000Z", sizeBoth, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.differs != "" {
				t.Skip("mock differs: " + tt.differs)
			}
			requireError(t, tlGet(t, srv, tt.which, tt.query, libKey(keyAlice)...), 400, tt.message)
		})
	}

	// withPartners only for the timeline without the archive, the
	// favourites and the trash; checked after the access checks.
	partners := "withPartners is only supported for non-archived, non-trashed, non-favorited assets"
	for _, tt := range []struct{ name, query string }{
		{"the archive unsaid", tlQuery("size", "MONTH", "withPartners", "true")},
		{"the archive", tlQuery("size", "MONTH", "withPartners", "true", "isArchived", "true")},
		{"favourites", tlQuery("size", "MONTH", "withPartners", "true", "isArchived", "false", "isFavorite", "true")},
		{"not favourites", tlQuery("size", "MONTH", "withPartners", "true", "isArchived", "false", "isFavorite", "false")},
		{"the trash", tlQuery("size", "MONTH", "withPartners", "true", "isArchived", "false", "isTrashed", "true")},
	} {
		t.Run("withPartners and "+tt.name, func(t *testing.T) {
			requireError(t, tlGet(t, srv, "buckets", tt.query, libKey(keyAlice)...), 400, partners)
			requireError(t, tlGet(t, srv, "bucket", tt.query+"&timeBucket=2026-10-01T00:00:00.000Z", libKey(keyAlice)...), 400, partners)
		})
	}
	requireError(t, tlGet(t, srv, "buckets", tlQuery("size", "MONTH", "userId", aliceID, "withPartners", "true"), libKey(keyCarol)...), 400, "Not found or no timeline.read access")
	assert.Equal(t, []string{"2026-10-01T00:00:00.000Z=7", "2026-08-01T00:00:00.000Z=1", "2026-07-01T00:00:00.000Z=3"},
		tlBuckets(t, srv, tlQuery("size", "MONTH", "withPartners", "true", "isArchived", "false", "isTrashed", "false"), libKey(keyAlice)...), "isTrashed=false is allowed")

	requireError(t, tlGet(t, srv, "buckets", "?size=MONTH"), 401, "Authentication required")
	requireError(t, tlGet(t, srv, "bucket", "?size=MONTH&timeBucket=1900-01-01T00:00:00.000Z"), 401, "Authentication required")
}

func TestTimelineBuckets(t *testing.T) {
	srv := tlServer(t)
	oct, sep, aug, jul := "2026-10-01T00:00:00.000Z", "2026-09-01T00:00:00.000Z", "2026-08-01T00:00:00.000Z", "2026-07-01T00:00:00.000Z"
	for _, tt := range []struct {
		name, key string
		query     []string
		want      []string
	}{
		{"by month, the newest first", keyAlice, []string{"size", "MONTH"}, []string{oct + "=4", sep + "=1", aug + "=1", jul + "=3"}},
		{"the oldest first", keyAlice, []string{"size", "MONTH", "order", "asc"}, []string{jul + "=3", aug + "=1", sep + "=1", oct + "=4"}},
		{"newest first, said", keyAlice, []string{"size", "MONTH", "order", "desc"}, []string{oct + "=4", sep + "=1", aug + "=1", jul + "=3"}},
		{"by day, by localDateTime", keyAlice, []string{"size", "DAY"}, []string{
			"2026-10-20T00:00:00.000Z=1", "2026-10-05T00:00:00.000Z=2", "2026-10-02T00:00:00.000Z=1", "2026-09-01T00:00:00.000Z=1",
			"2026-08-31T00:00:00.000Z=1", "2026-07-11T00:00:00.000Z=1", "2026-07-10T00:00:00.000Z=2"}},
		{"without the archive", keyAlice, []string{"size", "MONTH", "isArchived", "false"}, []string{oct + "=4", aug + "=1", jul + "=3"}},
		{"the archive", keyAlice, []string{"size", "MONTH", "isArchived", "true"}, []string{sep + "=1"}},
		{"favourites", keyAlice, []string{"size", "MONTH", "isFavorite", "true"}, []string{oct + "=1"}},
		{"not favourites", keyAlice, []string{"size", "MONTH", "isFavorite", "false"}, []string{oct + "=3", sep + "=1", aug + "=1", jul + "=3"}},
		{"the trash", keyAlice, []string{"size", "MONTH", "isTrashed", "true"}, []string{sep + "=1"}},
		{"out of the trash, said", keyAlice, []string{"size", "MONTH", "isTrashed", "false"}, []string{oct + "=4", sep + "=1", aug + "=1", jul + "=3"}},
		{"a stack as its parent", keyAlice, []string{"size", "MONTH", "withStacked", "true"}, []string{oct + "=4", sep + "=1", aug + "=1", jul + "=1"}},
		{"a stack as all of it", keyAlice, []string{"size", "MONTH", "withStacked", "false"}, []string{oct + "=4", sep + "=1", aug + "=1", jul + "=3"}},
		{"with the partners in her timeline", keyAlice, []string{"size", "MONTH", "withPartners", "true", "isArchived", "false"}, []string{oct + "=7", aug + "=1", jul + "=3"}},
		{"a partner's", keyAlice, []string{"size", "MONTH", "userId", bobID, "isArchived", "false"}, []string{oct + "=3"}},
		{"a partner's not in her timeline", keyAlice, []string{"size", "MONTH", "userId", carolID, "isArchived", "false"}, []string{oct + "=1"}},
		{"her own, said", keyAlice, []string{"size", "MONTH", "userId", aliceID}, []string{oct + "=4", sep + "=1", aug + "=1", jul + "=3"}},
		{"a person's", keyAlice, []string{"size", "MONTH", "personId", tlPerson}, []string{oct + "=2"}},
		{"an unknown person's", keyAlice, []string{"size", "MONTH", "personId", libUnknownID}, []string{}},
		{"an album's", keyAlice, []string{"size", "MONTH", "albumId", testAlbumID}, []string{oct + "=1"}},
		{"an album's, its viewer", keyBob, []string{"size", "MONTH", "albumId", testAlbumID}, []string{oct + "=1"}},
		{"an album's, of one owner", keyAlice, []string{"size", "MONTH", "albumId", testAlbumID, "userId", bobID, "isArchived", "false"}, []string{}},
		{"Bob, with no partner", keyBob, []string{"size", "MONTH", "withPartners", "true", "isArchived", "false"}, []string{oct + "=3"}},
		{"Bob's archive", keyBob, []string{"size", "MONTH", "isArchived", "true"}, []string{oct + "=1"}},
		{"Carol's", keyCarol, []string{"size", "DAY"}, []string{"2026-10-08T00:00:00.000Z=1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tlBuckets(t, srv, tlQuery(tt.query...), libKey(tt.key)...))
		})
	}
}

func TestTimelineBucket(t *testing.T) {
	srv := tlServer(t)
	ids := func(query string, headers ...string) []string { return libIDs(tlBucket(t, srv, query, headers...)) }
	alice := libKey(keyAlice)
	for _, tt := range []struct {
		name  string
		query []string
		want  []string
	}{
		{"a month, by fileCreatedAt, the newest first", []string{"size", "MONTH", "timeBucket", "2026-10-01T00:00:00.000Z"}, []string{tlFavorite, tlLateA, tlFaceA, aliceAssetID}},
		{"the oldest first", []string{"size", "MONTH", "timeBucket", "2026-10-01T00:00:00.000Z", "order", "asc"}, []string{aliceAssetID, tlFaceA, tlLateA, tlFavorite}},
		{"a day", []string{"size", "DAY", "timeBucket", "2026-10-05T00:00:00.000Z"}, []string{tlLateA, tlFaceA}},
		{"a bucket as a date", []string{"size", "MONTH", "timeBucket", "2026-10-01"}, []string{tlFavorite, tlLateA, tlFaceA, aliceAssetID}},
		{"by localDateTime, not the file's date", []string{"size", "MONTH", "timeBucket", "2026-08-01T00:00:00.000Z"}, []string{tlAug31}},
		{"not a bucket's start", []string{"size", "MONTH", "timeBucket", "2026-10-15T00:00:00.000Z"}, []string{}},
		{"a day as a month", []string{"size", "DAY", "timeBucket", "2026-10-01T00:00:00.000Z"}, []string{}},
		{"a five-digit year (the upstream's spec)", []string{"size", "MONTH", "timeBucket", "+012345-01-01T00:00:00.000Z"}, []string{}},
		{"a year with no assets", []string{"size", "MONTH", "timeBucket", "1970-02-01T00:00:00.000Z"}, []string{}},
		{"the archive", []string{"size", "MONTH", "timeBucket", "2026-09-01T00:00:00.000Z", "isArchived", "true"}, []string{tlArchived}},
		{"the trash", []string{"size", "MONTH", "timeBucket", "2026-09-01T00:00:00.000Z", "isTrashed", "true"}, []string{tlTrashed}},
		{"favourites", []string{"size", "MONTH", "timeBucket", "2026-10-01T00:00:00.000Z", "isFavorite", "true"}, []string{tlFavorite}},
		{"a person's", []string{"size", "MONTH", "timeBucket", "2026-10-01T00:00:00.000Z", "personId", tlPerson}, []string{tlFavorite, tlFaceA}},
		{"an album's", []string{"size", "MONTH", "timeBucket", "2026-10-01T00:00:00.000Z", "albumId", testAlbumID}, []string{aliceAssetID}},
		{"with partners", []string{"size", "DAY", "timeBucket", "2026-10-08T00:00:00.000Z", "withPartners", "true", "isArchived", "false"}, []string{tlBob3}},
		{"a partner's", []string{"size", "MONTH", "timeBucket", "2026-10-01T00:00:00.000Z", "userId", bobID, "isArchived", "false"}, []string{tlBob3, tlBob1, libBobAsset}},
		{"a stack, all of it", []string{"size", "MONTH", "timeBucket", "2026-07-01T00:00:00.000Z"}, []string{tlStack2, tlStack1, tlStack0}},
		{"a stack, its parent", []string{"size", "MONTH", "timeBucket", "2026-07-01T00:00:00.000Z", "withStacked", "true"}, []string{tlStack0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ids(tlQuery(tt.query...), alice...))
		})
	}

	// Each asset with its exifInfo and its stack, no owner, no people
	// (the upstream's getBuilder loads neither), and the caller's
	// favourite only.
	october := tlBucket(t, srv, tlQuery("size", "MONTH", "timeBucket", "2026-10-01T00:00:00.000Z", "withPartners", "true", "isArchived", "false"), alice...)
	require.Len(t, october, 7)
	byID := map[string]map[string]any{}
	for _, a := range october {
		byID[a["id"].(string)] = a
		assert.Contains(t, a, "exifInfo")
		assert.NotContains(t, a, "owner")
		assert.Equal(t, []any{}, a["people"])
		assert.NotContains(t, a, "stack")
		assert.Nil(t, a["stackCount"])
	}
	assert.Equal(t, true, byID[tlFavorite]["isFavorite"])
	assert.Equal(t, false, byID[tlBob3]["isFavorite"], "a partner's favourite is not hers")
	assert.Equal(t, bobID, byID[tlBob3]["ownerId"])
	july := tlBucket(t, srv, tlQuery("size", "MONTH", "timeBucket", "2026-07-01T00:00:00.000Z"), alice...)
	for _, a := range july {
		assert.Equal(t, tlStack0, a["stackParentId"], "%s", a["id"])
		assert.EqualValues(t, 3, a["stackCount"], "%s", a["id"])
		assert.Len(t, a["stack"], 2, "%s", a["id"])
	}
	parent := tlBucket(t, srv, tlQuery("size", "MONTH", "timeBucket", "2026-07-01T00:00:00.000Z", "withStacked", "true"), alice...)[0]
	assert.ElementsMatch(t, []string{tlStack1, tlStack2}, libIDsIn(parent["stack"]))

	t.Run("a negative year's sign is dropped", func(t *testing.T) {
		assert.Equal(t, []string{tlFavorite, tlLateA, tlFaceA, aliceAssetID}, ids(tlQuery("size", "MONTH", "timeBucket", "-2026-10-01T00:00:00.000Z"), alice...))
	})
}

func TestTimelineAccess(t *testing.T) {
	srv := tlServer(t)
	bucket := "&timeBucket=2026-10-01T00:00:00.000Z"
	album := libQueryAlbum(testAlbumID)
	for _, tt := range []struct {
		name, query string
		headers     []string
		message     string
	}{
		{"an album she cannot read", album, libKey(keyCarol), "Not found or no album.read access"},
		{"an unknown album", libQueryAlbum(libUnknownID), libKey(keyAlice), "Not found or no album.read access"},
		{"a stranger's timeline", tlQuery("size", "MONTH", "userId", aliceID, "isArchived", "false"), libKey(keyCarol), "Not found or no timeline.read access"},
		{"the timeline of one who shares with another", tlQuery("size", "MONTH", "userId", bobID, "isArchived", "false"), libKey(keyCarol), "Not found or no timeline.read access"},
		{"an unknown user's timeline", tlQuery("size", "MONTH", "userId", libUnknownID), libKey(keyAlice), "Not found or no timeline.read access"},
		{"a partner's, the archive unsaid", tlQuery("size", "MONTH", "userId", bobID), libKey(keyAlice), "Not found or no archive.read access"},
		{"a partner's archive", tlQuery("size", "MONTH", "userId", bobID, "isArchived", "true"), libKey(keyAlice), "Not found or no archive.read access"},
		{"the sharer's view of the one shared with", tlQuery("size", "MONTH", "userId", aliceID, "isArchived", "false"), libKey(keyBob), "Not found or no timeline.read access"},
		{"a link's key, no album", tlQuery("size", "MONTH"), []string{"x-immich-share-key", linkUpload}, "Not found or no timeline.read access"},
		{"an INDIVIDUAL link's key (the upstream's spec)", tlQuery("size", "MONTH"), []string{"x-immich-share-key", linkView}, "Not found or no timeline.read access"},
		{"an INDIVIDUAL link's key, an album", album, []string{"x-immich-share-key", linkView}, "Not found or no album.read access"},
		{"a link's key, its album and a user", album + "&userId=" + aliceID + "&isArchived=false", []string{"x-immich-share-key", linkUpload}, "Not found or no timeline.read access"},
		{"another user's link's key, an album", album, []string{"x-immich-share-key", "link-bob"}, "Not found or no album.read access"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, tlGet(t, srv, "buckets", tt.query, tt.headers...), 400, tt.message)
			requireError(t, tlGet(t, srv, "bucket", tt.query+bucket, tt.headers...), 400, tt.message)
		})
	}
	requireError(t, tlGet(t, srv, "buckets", album, "x-immich-share-key", linkExpired), 401, "Invalid share key")
	requireError(t, tlGet(t, srv, "buckets", "?size=MONTH", "x-api-key", "wrong"), 401, "Invalid API key")

	// The key of the album's link sees exactly the album's assets.
	link := []string{"x-immich-share-key", linkUpload}
	assert.Equal(t, []string{"2026-10-01T00:00:00.000Z=1"}, tlBuckets(t, srv, album, link...))
	shown := tlBucket(t, srv, album+bucket, link...)
	require.Equal(t, []string{aliceAssetID}, libIDs(shown))
	assert.Contains(t, shown[0], "exifInfo", "the link shows metadata")
	assert.Equal(t, []string{aliceAssetID}, libIDs(tlBucket(t, srv, album+bucket, libKey(keyBob)...)), "so does the album's viewer")

	// A link that hides metadata shows its album's assets sanitized.
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{"type": "ALBUM", "assetIds": []string{tlFaceA, tlLateA}, "showMetadata": false})
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var hidden struct {
		Key   string
		Album struct{ ID string }
	}
	rep.json(t, &hidden)
	sanitized := tlBucket(t, srv, libQueryAlbum(hidden.Album.ID)+bucket, "x-immich-share-key", hidden.Key)
	require.Equal(t, []string{tlLateA, tlFaceA}, libIDs(sanitized))
	for _, a := range sanitized {
		assert.ElementsMatch(t, []string{"id", "type", "thumbhash", "localDateTime", "resized", "duration", "livePhotoVideoId", "hasMetadata"}, slices.Collect(maps.Keys(a)))
		assert.Equal(t, false, a["hasMetadata"])
	}
	assert.Equal(t, []string{"2026-10-01T00:00:00.000Z=2"}, tlBuckets(t, srv, libQueryAlbum(hidden.Album.ID), "x-immich-share-key", hidden.Key))
}

// libQueryAlbum is a MONTH timeline query of an album.
func libQueryAlbum(id string) string { return tlQuery("size", "MONTH", "albumId", id) }

// TestTimelineFollowsWrites checks that the timeline, which the mock
// answers from memory until a write changes what it shows, changes with
// every write that changes it.
func TestTimelineFollowsWrites(t *testing.T) {
	srv := tlServer(t)
	alice := libKey(keyAlice)
	oct := "2026-10-01T00:00:00.000Z"
	withPartners := tlQuery("size", "MONTH", "withPartners", "true", "isArchived", "false")
	favorites := tlQuery("size", "MONTH", "isFavorite", "true")
	require.Equal(t, []string{oct + "=1"}, tlBuckets(t, srv, favorites, alice...))
	require.Equal(t, []string{oct + "=7", "2026-08-01T00:00:00.000Z=1", "2026-07-01T00:00:00.000Z=3"}, tlBuckets(t, srv, withPartners, alice...))
	octPartners := func() []string {
		return libIDs(tlBucket(t, srv, withPartners+"&timeBucket="+oct, alice...))
	}
	require.Contains(t, octPartners(), tlBob1)

	for _, tt := range []struct {
		name, method, path, body, key string
		status                        int
		query                         string
		want                          []string
	}{
		{"her favourite", http.MethodPut, "/api/asset/" + tlFaceA, `{"isFavorite":true}`, keyAlice, 200, favorites, []string{oct + "=2"}},
		{"a favourite in bulk", http.MethodPut, "/api/asset", `{"ids":["` + tlStack0 + `"],"isFavorite":true}`, keyAlice, 204, favorites, []string{oct + "=2", "2026-07-01T00:00:00.000Z=1"}},
		{"a new date", http.MethodPut, "/api/asset/" + tlStack0, `{"dateTimeOriginal":"2026-06-30T22:00:00.000-02:00"}`, keyAlice, 200, favorites, []string{oct + "=2", "2026-06-01T00:00:00.000Z=1"}},
		{"the partner's trash", http.MethodDelete, "/api/asset", `{"ids":["` + tlBob1 + `"]}`, keyBob, 204, withPartners, []string{oct + "=6", "2026-08-01T00:00:00.000Z=1", "2026-07-01T00:00:00.000Z=2", "2026-06-01T00:00:00.000Z=1"}},
		{"the partner out of her timeline", http.MethodPut, "/api/partners/" + bobID, `{"inTimeline":false}`, keyAlice, 200, withPartners, []string{oct + "=4", "2026-08-01T00:00:00.000Z=1", "2026-07-01T00:00:00.000Z=2", "2026-06-01T00:00:00.000Z=1"}},
		{"her album's asset taken out", http.MethodDelete, "/api/albums/" + testAlbumID + "/assets", `{"ids":["` + aliceAssetID + `"]}`, keyAlice, 200, libQueryAlbum(testAlbumID), []string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := libSend(t, srv, tt.method, tt.path, tt.body, tt.key)
			require.Equal(t, tt.status, rep.status, "%s", rep.body)
			assert.Equal(t, tt.want, tlBuckets(t, srv, tt.query, alice...))
		})
	}
	assert.NotContains(t, octPartners(), tlBob1)
}

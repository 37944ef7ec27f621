package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx/httpxtest"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestDatesOutsideTheAPIsYearsAreRefused: every date the mock takes must
// round-trip, so the years 0001 to 9999 in UTC, or a 400 at the door.
func TestDatesOutsideTheAPIsYearsAreRefused(t *testing.T) {
	srv := newTestServer(t)
	for _, v := range []string{"9999-12-31T23:00:00-05:00", "0000-01-01T00:00:00+01:00", "0000-06-01"} {
		t.Run(v, func(t *testing.T) {
			requireError(t, do(t, uploadRequest(t, srv, validForm("date "+v).with("fileCreatedAt", v), keyAlice)), 400, "fileCreatedAt must be a date string")
			requireError(t, postJSON(t, srv, "/api/shared-links", `{"type":"INDIVIDUAL","assetIds":["`+aliceAssetID+`"],"expiresAt":"`+v+`"}`, "x-api-key", keyAlice), 400, "expiresAt must be a date string")
			requireError(t, sendJSON(t, srv, http.MethodPatch, "/api/shared-links/"+viewLinkID, `{"expiresAt":"`+v+`"}`, "x-api-key", keyAlice), 400, "expiresAt must be a date string")
			rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{"type": "INDIVIDUAL", "assetIds": []string{aliceAssetID}, "expiresAt": v})
			assert.Equal(t, http.StatusBadRequest, rep.status, "%s", rep.body)
		})
	}
	// The edges are taken, and written back as they came.
	rep := do(t, uploadRequest(t, srv, validForm("edge").with("fileCreatedAt", "9999-12-31T23:59:59.999Z"), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/__mock/dataset", nil))
	require.Equal(t, http.StatusOK, rep.status)
	assert.Contains(t, string(rep.body), `"fileCreatedAt":"9999-12-31T23:59:59.999Z"`)
	_, err := ReadDataset(rep.body)
	assert.NoError(t, err, "the dataset loads back")
}

// TestStoredTextsHaveLimits: names, emails, descriptions, passwords, file
// names and device ids each have a bound; over it, a 400 that names the
// field, and the same bound when a dataset is loaded, naming the record.
func TestStoredTextsHaveLimits(t *testing.T) {
	srv := newTestServer(t)
	long := strings.Repeat("n", 1025)
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]any{"name": strings.Repeat("n", 1_000_000), "email": "big@example.com"})
	requireError(t, rep, 400, []any{"name must be shorter than or equal to 1024 characters"})
	rep = controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]any{"name": "N", "email": strings.Repeat("e", 250) + "@example.com"})
	requireError(t, rep, 400, []any{"email must be an email"})
	rep = controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{"type": "ALBUM", "albumName": long})
	requireError(t, rep, 400, "albumName must be shorter than or equal to 1024 characters")
	rep = controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{"type": "ALBUM", "description": strings.Repeat("d", 4097)})
	requireError(t, rep, 400, "description must be shorter than or equal to 4096 characters")

	name := strings.Repeat("é", 126) + ".jpg" // 256 bytes
	requireError(t, do(t, uploadRequest(t, srv, validForm("long name").onlyFields().withFile("assetData", name, "x"), keyAlice)), 400,
		"The file name of assetData is 256 bytes long: a file name is at most 255 bytes")
	rep = do(t, uploadRequest(t, srv, validForm("name at the limit").onlyFields().withFile("assetData", name[2:], "y"), keyAlice))
	assert.Equal(t, http.StatusCreated, rep.status, "255 bytes are taken: %s", rep.body)
	requireError(t, do(t, uploadRequest(t, srv, validForm("long device").with("deviceId", long), keyAlice)), 400,
		[]any{"deviceId must be shorter than or equal to 1024 characters"})

	for name, edit := range map[string]func(*model.Dataset){
		"a long user name":  func(d *model.Dataset) { d.Users[1].Name = long },
		"a negative quota":  func(d *model.Dataset) { d.Users[1].QuotaSizeInBytes = new(int64(-1)) },
		"a long file name":  func(d *model.Dataset) { d.Assets[0].OriginalFileName = strings.Repeat("f", 300) + ".jpg" },
		"a long album name": func(d *model.Dataset) { d.Albums[0].AlbumName = long },
		"a date in the year 0": func(d *model.Dataset) {
			d.Assets[0].FileCreatedAt = model.Time{Time: d.Assets[0].FileCreatedAt.AddDate(-2026, 0, 0)}
		},
	} {
		t.Run(name, func(t *testing.T) {
			d := testDataset()
			edit(&d)
			err := store.Check(d)
			require.Error(t, err)
			assert.Regexp(t, `^(users|assets|albums)\[\d+\]: `, err.Error(), "the record is named")
		})
	}
}

// TestAmbiguousRequestsAreRefused: a control request with a member twice
// or something after its object, and an upload with a text field twice, are
// refused with a 400 rather than read one way or another.
func TestAmbiguousRequestsAreRefused(t *testing.T) {
	srv := newTestServer(t)
	for name, body := range map[string]string{
		"a member twice":        `{"name":"A","name":"B","email":"ab@example.com"}`,
		"a nested member twice": `{"name":"A","email":"a@example.com","x":{"k":1,"k":2}}`,
		"junk after the object": `{"name":"A","email":"a@example.com"} {}`,
		"text after the object": `{"name":"A","email":"a@example.com"}x`,
	} {
		t.Run(name, func(t *testing.T) {
			rep := do(t, newRequest(t, http.MethodPost, srv.URL+"/__mock/users", strings.NewReader(body), "Content-Type", "application/json"))
			assert.Equal(t, http.StatusBadRequest, rep.status, "%s", rep.body)
		})
	}
	rep := do(t, newRequest(t, http.MethodPost, srv.URL+"/__mock/users", strings.NewReader(`{"name":"A","email":"a@example.com"}`), "Content-Type", "application/json"))
	assert.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)

	requireError(t, do(t, uploadRequest(t, srv, validForm("twice").with("deviceId", "a").withField("deviceId", "b"), keyAlice)), 400, []any{"deviceId must be a string"})
	requireError(t, do(t, uploadRequest(t, srv, validForm("twice").with("isFavorite", "false").withField("isFavorite", "true"), keyAlice)), 400, []any{"isFavorite must be a boolean value"})
}

// TestDatasetIsStreamed: /__mock/dataset is written record by record, each
// piece under its deadline, with the very bytes of json.Marshal; a reader
// holds a view of the records, which a later write does not change.
func TestDatasetIsStreamed(t *testing.T) {
	withKey := testDataset()
	withKey.People, withKey.Tags = []model.PersonRecord{}, []model.Tag{} // as the state holds them: empty, not absent
	withKey.APIKeys = []model.APIKeyRecord{{ID: "00000000-0000-4000-8000-00000000ce11", UserID: aliceID, Name: "laptop", Secret: "a-key-of-her-own", CreatedAt: model.At(testNow()), UpdatedAt: model.At(testNow())}}
	for name, d := range map[string]model.Dataset{
		"the tests' dataset, with a key": withKey,
		"a generated one":                fake.Generate(fake.Options{Seed: 3, Anchor: testNow(), Links: 40, APIKey: keyAlice}),
	} {
		t.Run(name, func(t *testing.T) {
			// The oracle: encoding/json's bytes for the dataset the state was
			// loaded from.
			want, err := json.Marshal(d)
			require.NoError(t, err)
			db, err := store.New(d, testNow)
			require.NoError(t, err)
			view := db.Records()

			require.NoError(t, db.Write(func(tx *store.Tx) error { _, err := tx.AddUser("Dora", "dora@example.com", nil); return err }))
			w := httpxtest.NewDeadlineRecorder()
			require.NoError(t, streamDataset(w, view))
			assert.Equal(t, string(want), w.Body.String())
			assert.NotContains(t, w.Body.String(), "dora@example.com", "the view is of its moment")
			for i, n := range w.Written {
				assert.LessOrEqual(t, n, httpx.WriteChunk, "piece %d", i)
				assert.InDelta(t, httpx.WriteDeadline(n).Seconds(), w.Deadlines[i].Seconds(), 1, "piece %d", i)
			}
		})
	}
}

// TestListingsStayBounded: over the API, a write past the bound of the
// assets a listing shows is answered 400 (the store's tests check the
// bound itself).
func TestListingsStayBounded(t *testing.T) {
	d := testDataset()
	// Alice's links list 2 (the ALBUM link's one asset, twice) + 1 + 1.
	base := d.Assets[0]
	fill := (store.MaxListedAssets-2)/2 - 1 - 1 // the album's assets that bring her listing to the bound − 2
	for i := range fill + 2 {
		a := base
		a.ID = fmt.Sprintf("00000000-0000-4000-8000-%012d", 100_000+i)
		a.Checksum = sha1Base64(fmt.Appendf(nil, "fill %d", i))
		d.Assets = append(d.Assets, a)
		if i <= fill {
			d.Albums[0].AssetIDs = append(d.Albums[0].AssetIDs, a.ID)
		}
	}
	spare := d.Assets[len(d.Assets)-1].ID
	srv := newTestServer(t, func(c *Config) { c.Dataset = func() model.Dataset { return d } })
	rep := sendJSON(t, srv, http.MethodPut, "/api/albums/"+d.Albums[0].ID+"/assets", `{"ids":["`+spare+`"]}`, "x-api-key", keyAlice)
	requireError(t, rep, 400, fmt.Sprintf("Too many shared assets: the owner's shared links would list %d assets, and a listing holds at most %d", store.MaxListedAssets+2, store.MaxListedAssets))
}

// TestEncodedAnswersStayBounded: the answers kept encoded stay within
// their budget (maxEncodedBytes) in all, and one larger than that is not
// kept.
func TestEncodedAnswersStayBounded(t *testing.T) {
	db, err := store.New(testDataset(), testNow)
	require.NoError(t, err)
	c := newAnswerCache(db)
	c.budget = 1 << 20 // the test's bytes, not 256 MiB
	answer := func(n int) func(*store.View) (any, error) {
		return func(*store.View) (any, error) { return strings.Repeat("a", n), nil }
	}
	kept := func() (n int) {
		for _, a := range c.answers {
			n += a.size
		}
		return n
	}
	_, err = c.encoded(t.Context(), "huge", store.Everything, answer(c.budget+1))
	require.NoError(t, err)
	assert.NotContains(t, c.answers, "huge", "an answer over the bound is not kept")
	for i := range 9 {
		_, err := c.encoded(t.Context(), fmt.Sprint("big", i), store.Everything, answer(c.budget/8))
		require.NoError(t, err)
		assert.Equal(t, kept(), c.bytes)
		assert.LessOrEqual(t, c.bytes, c.budget, "after %d answers", i+1)
	}
	assert.Contains(t, c.answers, "big8", "the newest answer is kept")
}

// TestLargeAnswersAreFewAtOnce: while httpx.MaxLargeAnswers large answers are
// being written (to clients that may never read them), one more is
// answered 503 at once instead of being held too.
func TestLargeAnswersAreFewAtOnce(t *testing.T) {
	d := testDataset()
	for i := range 1000 { // an album large enough for a listing over httpx.LargeAnswer
		a := d.Assets[0]
		a.ID = fmt.Sprintf("00000000-0000-4000-8000-%012d", 200_000+i)
		a.Checksum = sha1Base64(fmt.Appendf(nil, "large %d", i))
		d.Assets = append(d.Assets, a)
		d.Albums[0].AssetIDs = append(d.Albums[0].AssetIDs, a.ID)
	}
	s, err := newServer(Config{Dataset: func() model.Dataset { return d }, Now: testNow})
	require.NoError(t, err)
	h := s.middleware(s.dispatch())
	list := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/api/shared-links", nil)
		req.Header.Set("x-api-key", keyAlice)
		h.ServeHTTP(rec, req)
		return rec
	}
	require.Greater(t, list().Body.Len(), httpx.LargeAnswer, "the listing is a large answer")

	for range httpx.MaxLargeAnswers {
		require.True(t, s.large.Take(httptest.NewRecorder()))
	}
	rec := list()
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
	assert.Equal(t, "1", rec.Header().Get("Retry-After"))
	assert.JSONEq(t, `{"message":"Busy: 16 large answers are being sent; try again in a moment","error":"Service Unavailable","statusCode":503}`, rec.Body.String())

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/__mock/dataset", nil))
	assert.Equal(t, http.StatusOK, rec.Code, "the dataset has places of its own")
	for range httpx.MaxDatasetAnswers {
		require.True(t, s.datasets.Take(httptest.NewRecorder()))
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/__mock/dataset", nil))
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code, "while they are taken, the dataset waits")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/server-info/ping", nil))
	assert.Equal(t, http.StatusOK, rec.Code, "a small answer needs no place")

	s.large.Release()
	assert.Equal(t, http.StatusOK, list().Code, "a freed place serves again")
	assert.Len(t, s.large, httpx.MaxLargeAnswers-1, "and is freed after the answer")
}

// TestListingInPiecesIsTheWholeListing: the listing, encoded a link at a
// time into pieces, is byte for byte the listing encoded whole, with the
// ETag of those bytes, however many pieces it takes.
func TestListingInPiecesIsTheWholeListing(t *testing.T) {
	d := fake.Generate(fake.Options{Seed: 5, Anchor: testNow(), Links: 300, APIKey: keyAlice})
	srv := newTestServer(t, func(c *Config) { c.Dataset = func() model.Dataset { return d } })
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status)
	require.Greater(t, len(rep.body), 2*listPiece, "a listing of several pieces")

	db, err := store.New(d, testNow)
	require.NoError(t, err)
	var whole []byte
	db.Read(func(v *store.View) {
		whole, err = json.Marshal(listing(v, audience{p: store.Principal{User: v.User(d.Users[0].ID)}}))
	})
	require.NoError(t, err)
	assert.Equal(t, string(whole), string(rep.body))
	assert.Equal(t, httpx.ETagOf(whole), rep.header.Get("ETag"))
	assert.Equal(t, strconv.Itoa(len(whole)), rep.header.Get("Content-Length"))
}

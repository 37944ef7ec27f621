package api

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/sqldoor"
)

// newSQLServer is a mock of richDataset with its HTTP face and its SQL
// door's executor, which runs a query as the door does (parsed, each
// statement bound to args, NULL for those not given).
func newSQLServer(t testing.TB) (*httptest.Server, func(query string, args ...string) ([]string, error)) {
	t.Helper()
	h, err := New(Config{Dataset: richDataset, Now: testNow})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	exec := func(query string, args ...string) ([]string, error) {
		stmts, err := sqldoor.Parse(query)
		if err != nil {
			return nil, err
		}
		values := make([]*string, len(args))
		for i := range args {
			values[i] = &args[i]
		}
		for i, st := range stmts {
			bound := make([]*string, st.Params) // NULL where no value is given
			copy(bound, values)
			if stmts[i], err = st.Bind(bound); err != nil {
				return nil, err
			}
		}
		return h.SQL().Exec(stmts)
	}
	return srv, exec
}

// harnessReset is the query of the upstream e2e harness's
// utils.resetDatabase() with no tables named: every table it empties.
const harnessReset = `UPDATE "assets" SET "stackId" = NULL;
DELETE FROM asset_stack CASCADE;
DELETE FROM libraries CASCADE;
DELETE FROM shared_links CASCADE;
DELETE FROM person CASCADE;
DELETE FROM albums CASCADE;
DELETE FROM assets CASCADE;
DELETE FROM asset_faces CASCADE;
DELETE FROM activity CASCADE;
DELETE FROM api_keys CASCADE;
DELETE FROM sessions CASCADE;
DELETE FROM users CASCADE;
DELETE FROM "system_metadata" where "key" != 'reverse-geocoding-state';`

// TestSQLDoorEmptiesTheServer: the upstream harness's full reset leaves a
// server as freshly installed, whose first admin signs up, and each
// statement answers how many rows it took.
func TestSQLDoorEmptiesTheServer(t *testing.T) {
	srv, exec := newSQLServer(t)
	tags, err := exec(harnessReset)
	require.NoError(t, err)
	// richDataset: 11 assets, 4 shared links, 7 people (whose faces go
	// with them), an album, 3 users; no login yet; its admin not onboarded.
	assert.Equal(t, []string{"UPDATE 11", "DELETE 0", "DELETE 0", "DELETE 4", "DELETE 7", "DELETE 1", "DELETE 11",
		"DELETE 0", "DELETE 0", "DELETE 0", "DELETE 0", "DELETE 3", "DELETE 0"}, tags)
	requireError(t, getJSON(t, srv, "/api/users/me", nil, "x-api-key", keyAlice), 401, "Invalid API key")

	rep := postJSON(t, srv, "/api/auth/admin-sign-up", `{"email":"admin@immich.cloud","password":"`+testPassword+`","name":"Immich Admin"}`)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	token := login(t, srv, "admin@immich.cloud")
	require.Equal(t, http.StatusNoContent, postJSON(t, srv, "/api/system-metadata/admin-onboarding", `{"isOnboarded":true}`, "Authorization", "Bearer "+token).status)
	tags, err = exec(harnessReset)
	require.NoError(t, err)
	assert.Equal(t, []string{"DELETE 1", "DELETE 1", "DELETE 1"}, tags[10:], "the admin's session, the admin, the onboarding")
}

// TestSQLDoorEmptiesOneTable: DELETE FROM activity, as the upstream's
// activity spec does before each test, keeps the users and their logins.
func TestSQLDoorEmptiesOneTable(t *testing.T) {
	srv, exec := newSQLServer(t)
	token := login(t, srv, "bob@example.com")
	tags, err := exec(`DELETE FROM activity CASCADE`)
	require.NoError(t, err)
	assert.Equal(t, []string{"DELETE 0"}, tags)
	assert.Equal(t, http.StatusOK, getJSON(t, srv, "/api/users/me", nil, "Authorization", "Bearer "+token).status)

	tags, err = exec(`DELETE FROM sessions`)
	require.NoError(t, err)
	assert.Equal(t, []string{"DELETE 1"}, tags)
	assert.Equal(t, http.StatusUnauthorized, getJSON(t, srv, "/api/users/me", nil, "Authorization", "Bearer "+token).status)
	assert.Equal(t, http.StatusOK, getJSON(t, srv, "/api/users/me", nil, "x-api-key", keyAlice).status, "a user's own key is not a row of api_keys")
}

// TestSQLDoorWritesFacesAndThumbnails: the harness's createFace and
// setPersonThumbnail, with their parameters, as the API then shows them.
func TestSQLDoorWritesFacesAndThumbnails(t *testing.T) {
	srv, exec := newSQLServer(t)
	embedding := "[" + strings.TrimSuffix(strings.Repeat("0.5,", 512), ",") + "]"
	tags, err := exec(`INSERT INTO asset_faces ("assetId", "personId", "embedding") VALUES ($1, $2, $3)`, richAsset(4), noThumbID, embedding)
	require.NoError(t, err)
	assert.Equal(t, []string{"INSERT 0 1"}, tags)
	assert.Equal(t, 2, personAssets(t, srv, noThumbID))

	tags, err = exec(`UPDATE "person" set "thumbnailPath" = '/my/awesome/thumbnail.jpg' where "id" = $1`, strings.ToUpper(mariaID))
	require.NoError(t, err)
	assert.Equal(t, []string{"UPDATE 1"}, tags)
	var maria struct{ ThumbnailPath string }
	getJSON(t, srv, "/api/people/"+mariaID, &maria, "x-api-key", keyAlice)
	assert.Equal(t, "/my/awesome/thumbnail.jpg", maria.ThumbnailPath)
	tags, err = exec(`UPDATE "person" set "thumbnailPath" = 'x' where "id" = $1`, "00000000-0000-4000-8000-00000000dead")
	require.NoError(t, err)
	assert.Equal(t, []string{"UPDATE 0"}, tags, "no such person: no row, no error")
	tags, err = exec(`UPDATE "person" set "thumbnailPath" = NULL where "id" = $1`, "00000000-0000-4000-8000-00000000dead")
	require.NoError(t, err)
	assert.Equal(t, []string{"UPDATE 0"}, tags, "no row to refuse NULL for")
}

// TestSQLDoorRefusesAsPostgres: what the mock cannot carry out is refused
// with the SQLSTATE and words of Postgres, and changes nothing.
func TestSQLDoorRefusesAsPostgres(t *testing.T) {
	srv, exec := newSQLServer(t)
	embedding := "[" + strings.TrimSuffix(strings.Repeat("1,", 512), ",") + "]"
	face := `INSERT INTO asset_faces ("assetId", "personId", "embedding") VALUES ($1, $2, $3)`
	for _, tc := range []struct {
		query   string
		args    []string
		code    string
		message string
	}{
		{"DELETE FROM exif", nil, sqldoor.CodeUndefinedTable, `relation "exif" does not exist (this server's tables: activity, albums, api_keys, asset_faces`},
		{"DELETE FROM users WHERE id = '1'", nil, sqldoor.CodeNotSupported, "DELETE FROM users empties the whole table here: it takes no WHERE"},
		{`DELETE FROM system_metadata WHERE value = '1'`, nil, sqldoor.CodeNotSupported, `of "system_metadata", this server reads conditions on "key" alone`},
		{`DELETE FROM system_metadata WHERE "Key" = '1'`, nil, sqldoor.CodeUndefinedColumn, `column "Key" of relation "system_metadata" does not exist`},
		{`UPDATE assets SET "isFavorite" = true`, nil, sqldoor.CodeNotSupported, `of "assets", this server takes UPDATE "assets" SET "stackId" = NULL alone`},
		{`UPDATE person SET name = 'x' WHERE id = '1'`, nil, sqldoor.CodeNotSupported, `of "person", this server takes UPDATE "person" SET "thumbnailPath"`},
		{`UPDATE person SET "thumbnailPath" = 'x' WHERE id = 'nope'`, nil, sqldoor.CodeBadText, `invalid input syntax for type uuid: "nope"`},
		{`UPDATE person SET "thumbnailPath" = NULL WHERE id = $1`, []string{strings.ToUpper(mariaID)}, sqldoor.CodeNotNull, `null value in column "thumbnailPath"`},
		{`UPDATE albums SET "albumName" = 'x'`, nil, sqldoor.CodeNotSupported, "this server takes no UPDATE of albums"},
		{`INSERT INTO tags (name) VALUES ('x')`, nil, sqldoor.CodeNotSupported, "this server takes no INSERT of tags"},
		{`INSERT INTO nowhere (a) VALUES ('x')`, nil, sqldoor.CodeUndefinedTable, `relation "nowhere" does not exist`},
		{face, []string{"00000000-0000-4000-8000-00000000dead", mariaID, "[1]"}, sqldoor.CodeDataException, "expected 512 dimensions, not 1"},
		{face, []string{richAsset(4), mariaID, "[1,x]"}, sqldoor.CodeBadText, `invalid input syntax for type vector: "[1,x]"`},
		{face, []string{"not-a-uuid", mariaID, "[1]"}, sqldoor.CodeBadText, `invalid input syntax for type uuid: "not-a-uuid"`},
		{face, []string{"00000000-0000-4000-8000-00000000dead", mariaID, embedding}, sqldoor.CodeForeignKey, `violates foreign key constraint: Asset not found`},
		{face, []string{richAsset(4), bobsID, embedding}, sqldoor.CodeForeignKey, `violates foreign key constraint`},
		{`INSERT INTO asset_faces ("assetId", "personId") VALUES ($1, $2)`, []string{richAsset(4), mariaID}, sqldoor.CodeNotNull, `null value in column "embedding"`},
		{`INSERT INTO asset_faces ("assetId", "personId", "embedding") VALUES ($1, $2, NULL)`, []string{richAsset(4), mariaID}, sqldoor.CodeNotNull, `null value in column "embedding"`},
		{`INSERT INTO asset_faces ("assetId", "personId", "imageWidth") VALUES ($1, $2, 'wide')`, []string{richAsset(4), mariaID}, sqldoor.CodeBadText, `invalid input syntax for type integer: "wide"`},
		{`INSERT INTO asset_faces ("assetId", "score") VALUES ($1, 1)`, []string{richAsset(4)}, sqldoor.CodeUndefinedColumn, `column "score" of relation "asset_faces" does not exist`},
		{`INSERT INTO asset_faces ("assetId", "embedding") VALUES ($1, $2)`, []string{richAsset(4), embedding}, sqldoor.CodeNotSupported, "a face without a person is not kept here"},
		{`INSERT INTO asset_faces ("personId") VALUES ($1)`, []string{mariaID}, sqldoor.CodeNotNull, `null value in column "assetId"`},
	} {
		_, err := exec(tc.query, tc.args...)
		var pe *sqldoor.Error
		if assert.True(t, errors.As(err, &pe), "%s: %v", tc.query, err) {
			assert.Equal(t, tc.code, pe.Code, "%s: %s", tc.query, pe.Message)
			assert.Contains(t, pe.Message, tc.message, tc.query)
		}
	}
	assert.Equal(t, 1, personAssets(t, srv, noThumbID), "nothing written")
	assert.Equal(t, http.StatusOK, getJSON(t, srv, "/api/users/me", nil, "x-api-key", keyAlice).status, "nothing emptied")

	// A query's deletes are one transaction: one refused, none is done.
	token := login(t, srv, "bob@example.com")
	tags, err := exec("DELETE FROM sessions; DELETE FROM exif; DELETE FROM users")
	assert.Empty(t, tags)
	require.Error(t, err)
	assert.Equal(t, http.StatusOK, getJSON(t, srv, "/api/users/me", nil, "Authorization", "Bearer "+token).status)
}

// FuzzSQLDoor: no query the door reads makes the mock panic or answer
// with anything but a tag or a Postgres error; what it writes holds
// together (the store checks every state it takes).
func FuzzSQLDoor(f *testing.F) {
	for _, q := range []string{
		harnessReset,
		`INSERT INTO asset_faces ("assetId", "personId", "embedding", "imageWidth") VALUES ('` + richAsset(4) + `', '` + noThumbID + `', '[1]', 5)`,
		`UPDATE "person" set "thumbnailPath" = 'x' where "id" = '` + mariaID + `'`,
		`DELETE FROM system_metadata WHERE key = 'admin-onboarding' AND key <> 'x'`,
		`DELETE FROM tags; DELETE FROM memories; DELETE FROM libraries; DELETE FROM partners`,
	} {
		f.Add(q)
	}
	_, exec := newSQLServer(f)
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := exec(q); err != nil {
			if _, ok := errors.AsType[*sqldoor.Error](err); !ok {
				t.Fatalf("%q: %T %v", q, err, err)
			}
		}
	})
}

package conformance_test

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/features"
	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// brokenVariant is a broken variant of the mock: it wraps the real mock
// and breaks one rule, as a real server might.
type brokenVariant struct {
	name   string
	break_ func(http.Handler, model.Dataset) http.Handler
	// caughtBy is a scenario that must fail (a prefix of its name).
	caughtBy string
	// tags name the features caughtBy belongs to: the target keeps the
	// uploads' files for @pictures and @downloads (target).
	tags string
	// referenceShapes runs the variant on the mock answering in the
	// reference's shapes: a listing that shows no album's assets.
	referenceShapes bool
}

// brokenVariants are the variants of every area, each area's in a table
// of its own.
func brokenVariants() [][]brokenVariant {
	return [][]brokenVariant{brokenBasics, brokenAccounts2, brokenPeople, brokenSearch, brokenActivities, brokenSettings, brokenAlbumUsers, brokenAssets, brokenTrash, brokenPartners}
}

// brokenBasics are the variants of the uploads, the links and the areas
// that came with them.
var brokenBasics = []brokenVariant{
	{
		name: "drops a required field",
		break_: editJSON(isUpload, func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				delete(m, "duplicate")
			}
			return status, body
		}),
		caughtBy: "A new photo is stored and gets a new id",
		tags:     "@upload",
	},
	{
		name: "changes a type",
		break_: editJSON(isListing, func(status int, body any) (int, any) {
			eachLink(body, func(l map[string]any) {
				if al, ok := l["album"].(map[string]any); ok {
					al["assetCount"] = fmt.Sprint(al["assetCount"])
				}
			})
			return status, body
		}),
		caughtBy: "Links come newest first",
		tags:     "@shared-links",
	},
	{
		name: "breaks an enum",
		break_: editJSON(isListing, func(status int, body any) (int, any) {
			eachLink(body, func(l map[string]any) {
				l["type"] = strings.ToLower(fmt.Sprint(l["type"]))
			})
			return status, body
		}),
		caughtBy: "Album links carry their album, individual links their assets",
		tags:     "@shared-links",
	},
	{
		name: "answers the wrong status",
		break_: editJSON(isUpload, func(status int, body any) (int, any) {
			if status == http.StatusCreated {
				status = http.StatusOK
			}
			return status, body
		}),
		caughtBy: "A new photo is stored and gets a new id",
		tags:     "@upload",
	},
	{
		name: "stops detecting duplicates",
		break_: editJSON(isUpload, func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok && status == http.StatusOK && m["duplicate"] == true {
				return http.StatusCreated, map[string]any{"id": newUUID(), "duplicate": false}
			}
			return status, body
		}),
		caughtBy: "The same file uploaded twice is stored once",
		tags:     "@upload",
	},
	{
		name:     "returns another user's links",
		break_:   withOthersLinks,
		caughtBy: "Another user's links are not in my list",
		tags:     "@shared-links",
	},
	{
		name: "orders the list oldest first",
		break_: editJSON(isListing, func(status int, body any) (int, any) {
			if list, ok := body.([]any); ok {
				slices.Reverse(list)
			}
			return status, body
		}),
		caughtBy: "Links come newest first",
		tags:     "@shared-links",
	},
	{
		name: "answers 500 to a bad date",
		break_: editJSON(isUpload, func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok && strings.HasSuffix(fmt.Sprint(m["message"]), "must be a date string") {
				return http.StatusInternalServerError, errorBody(http.StatusInternalServerError, "Internal server error")
			}
			return status, body
		}),
		caughtBy: "A date the server cannot read is the one problem reported",
		tags:     "@upload",
	},
	{
		name: "accepts a missing deviceId",
		break_: editJSON(isUpload, func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok && status == http.StatusBadRequest &&
				fmt.Sprint(m["message"]) == "[deviceId must be a string deviceId should not be empty]" {
				return http.StatusCreated, map[string]any{"id": newUUID(), "duplicate": false}
			}
			return status, body
		}),
		caughtBy: "Every required text part must be there",
		tags:     "@upload",
	},
	{
		name: "returns a hex checksum",
		break_: editJSON(isListing, func(status int, body any) (int, any) {
			eachLink(body, func(l map[string]any) {
				assets, _ := l["assets"].([]any)
				if al, ok := l["album"].(map[string]any); ok {
					more, _ := al["assets"].([]any)
					assets = append(assets, more...)
				}
				for _, a := range assets {
					if a, ok := a.(map[string]any); ok {
						if b, err := base64.StdEncoding.DecodeString(fmt.Sprint(a["checksum"])); err == nil {
							a["checksum"] = hex.EncodeToString(b)
						}
					}
				}
			})
			return status, body
		}),
		caughtBy: "Checksums are base64-encoded SHA-1 digests",
		tags:     "@shared-links",
	},
	{
		name:     "returns a non-JSON error",
		break_:   plainTextErrors,
		caughtBy: "Uploads without valid credentials are refused",
		tags:     "",
	},
	{
		name:     "stores the body of a checksum-header duplicate",
		break_:   storesAfterChecksumDuplicate,
		caughtBy: "A duplicate found by the checksum header stores nothing",
		tags:     "@upload",
	},
	{
		name: "sends a single problem of the text parts as a string",
		break_: editJSON(isUpload, func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok && status == http.StatusBadRequest {
				if list, ok := m["message"].([]any); ok && len(list) == 1 {
					m["message"] = list[0]
				}
			}
			return status, body
		}),
		caughtBy: "Values the server cannot read are refused",
		tags:     "@upload",
	},
	{
		name: "answers a broken body with some other client error",
		break_: editJSON(isUpload, func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok && status == http.StatusBadRequest && strings.HasPrefix(fmt.Sprint(m["message"]), "Malformed multipart body") {
				return http.StatusUnprocessableEntity, errorBody(http.StatusUnprocessableEntity, fmt.Sprint(m["message"]))
			}
			return status, body
		}),
		caughtBy: "A broken body is refused and the server keeps answering",
		tags:     "@robustness",
	},
	{
		name:     "reads the upload before the credentials",
		break_:   validatesBeforeCredentials,
		caughtBy: "Without credentials, an upload that lacks a part is refused for want of credentials",
		tags:     "@upload",
	},
	{
		name:     "answers the checksum header through a link without upload rights",
		break_:   checksumBeforeUploadRights,
		caughtBy: "A link that does not let its holder upload does not tell which files its owner has",
		tags:     "@upload",
	},
	{
		name:     "lets identical uploads racing each other each create an asset",
		break_:   racesIdenticalUploads,
		caughtBy: "Identical uploads racing each other create one asset",
		tags:     "@upload",
	},
	{
		name:     "dies on a cut-off multipart body",
		break_:   diesOnCutOffBody,
		caughtBy: "A body cut off before its end is refused and the server keeps answering",
		tags:     "@robustness",
	},
	{
		name: "says a link is deleted and keeps its key alive",
		break_: func(h http.Handler, _ model.Dataset) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/api/shared-links/") && !strings.HasSuffix(r.URL.Path, "/assets") {
					w.WriteHeader(http.StatusOK)
					return
				}
				h.ServeHTTP(w, r)
			})
		},
		caughtBy: "A link is edited, then deleted",
		tags:     "@shared-links",
	},
	{
		name:     "counts an album's assets wrong",
		break_:   editJSON(isRequest(http.MethodGet, "/api/albums/"), plusOneAsset),
		caughtBy: "An album made of photos holds them and counts them",
		tags:     "@albums",
	},
	{
		name: "puts another user's photo into my album",
		break_: editJSON(isRequest(http.MethodPut, "/api/albums/"), func(status int, body any) (int, any) {
			list, _ := body.([]any)
			for _, r := range list {
				if m, ok := r.(map[string]any); ok && m["error"] == "no_permission" {
					m["success"] = true
					delete(m, "error")
				}
			}
			return status, body
		}),
		caughtBy: "Another user's photo cannot go into my album",
		tags:     "@albums",
	},
	{
		name: "opens a link without its password",
		break_: editJSON(isRequest(http.MethodGet, "/api/shared-links/me"), func(status int, body any) (int, any) {
			if status == http.StatusUnauthorized {
				return http.StatusOK, map[string]any{}
			}
			return status, body
		}),
		caughtBy: "A link with a password opens only with it",
		tags:     "@shared-links",
	},
	{
		name: "shows a hiding link's file names to its holder",
		break_: editJSON(isRequest(http.MethodGet, "/api/shared-links/me"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				list, _ := m["assets"].([]any)
				for _, a := range list {
					if a, ok := a.(map[string]any); ok {
						a["originalFileName"] = "IMG_4021.JPG"
					}
				}
			}
			return status, body
		}),
		caughtBy: "A link that hides metadata shows only what a page needs",
		tags:     "@shared-links",
	},
	{
		name: "accepts a file it already has in the batch check",
		break_: editJSON(isRequest(http.MethodPost, "/api/asset/bulk-upload-check"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				list, _ := m["results"].([]any)
				for _, r := range list {
					if r, ok := r.(map[string]any); ok {
						r["action"] = "accept"
						delete(r, "reason")
						delete(r, "assetId")
					}
				}
			}
			return status, body
		}),
		caughtBy: "The server says which files of a batch it already has",
		tags:     "@upload",
	},
	{
		name: "serves the preview as the thumbnail",
		break_: func(h http.Handler, _ model.Dataset) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/api/asset/thumbnail/") {
					r.URL.RawQuery = "format=JPEG"
				}
				h.ServeHTTP(w, r)
			})
		},
		caughtBy: "The thumbnail is a WEBP picture whose smaller side is 250 pixels",
		tags:     "@pictures",
	},
	{
		name: "serves a made picture as the original",
		break_: func(h http.Handler, _ model.Dataset) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/api/asset/file/") {
					r.URL.RawQuery = "isWeb=true"
				}
				h.ServeHTTP(w, r)
			})
		},
		caughtBy: "The original comes back byte for byte",
		tags:     "@pictures",
	},
	{
		name: "lets a link's key list its owner's links",
		break_: func(h http.Handler, _ model.Dataset) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				q := r.URL.Query()
				if isListing(r) && (q.Has("key") || r.Header.Get("x-immich-share-key") != "") {
					// As a server that acts as the link's owner here
					// too: the scenarios' links are the default user's.
					q.Del("key")
					r.URL.RawQuery = q.Encode()
					r.Header.Del("x-immich-share-key")
					r.Header.Set("x-api-key", apiKey)
				}
				h.ServeHTTP(w, r)
			})
		},
		caughtBy: "A shared link's key cannot list links",
		tags:     "@shared-links",
	},
	{
		name: "sends the original through a link that keeps it back",
		break_: func(h http.Handler, _ model.Dataset) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				q := r.URL.Query()
				if strings.HasPrefix(r.URL.Path, "/api/asset/file/") && (q.Has("key") || r.Header.Get("x-immich-share-key") != "") {
					// As a server that forgets the link's rule: the
					// original, as its owner gets it.
					q.Del("key")
					r.URL.RawQuery = q.Encode()
					r.Header.Del("x-immich-share-key")
					r.Header.Set("x-api-key", apiKey)
				}
				h.ServeHTTP(w, r)
			})
		},
		caughtBy: "A link that keeps the originals back sends the thumbnail instead",
		tags:     "@pictures",
	},
	{
		name: "refuses an upload at its declared limit",
		break_: answer(func(r *http.Request) bool { return isUpload(r) && r.ContentLength >= uploadLimit },
			func(*http.Request) (int, any) {
				return http.StatusRequestEntityTooLarge, errorBody(http.StatusRequestEntityTooLarge, "Upload is too large")
			}),
		caughtBy: "An upload exactly at the limit is stored",
		tags:     "@upload-limit",
	},
	{
		name: "answers a ping with something else",
		break_: editJSON(isRequest(http.MethodGet, "/api/server-info/ping"), func(status int, _ any) (int, any) {
			return status, map[string]any{"res": "ok"}
		}),
		caughtBy: "The server answers a ping",
		tags:     "@server-info",
	},
	{
		name: "lists albums without the one just made",
		break_: editJSON(func(r *http.Request) bool { return r.Method == http.MethodGet && r.URL.Path == "/api/albums" }, // not /api/albums/{id}
			func(status int, _ any) (int, any) { return status, []any{} }),
		caughtBy: "My albums list the album I made",
		tags:     "@albums",
	},
	{
		name: "says a photo was added to a link but does not add it",
		break_: answer(func(r *http.Request) bool {
			return r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, "/api/shared-links/") && strings.HasSuffix(r.URL.Path, "/assets")
		}, func(r *http.Request) (int, any) {
			var in struct{ AssetIDs []string }
			_ = json.NewDecoder(r.Body).Decode(&in)
			out := []map[string]any{}
			for _, id := range in.AssetIDs {
				out = append(out, map[string]any{"assetId": id, "success": true})
			}
			return http.StatusOK, out
		}),
		caughtBy: "Photos are added to a link and taken out again",
		tags:     "@shared-links",
	},
	{
		name: "answers a user without a portrait with a server error",
		break_: answer(func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/profile-image") },
			func(*http.Request) (int, any) {
				return http.StatusInternalServerError, errorBody(http.StatusInternalServerError, "Internal server error")
			}),
		caughtBy: "A user without a portrait has no profile image",
		tags:     "@users",
	},
	{
		name:            "counts an album's assets wrong, where the listing shows none of them",
		break_:          editJSON(isRequest(http.MethodGet, "/api/albums/"), plusOneAsset),
		caughtBy:        "An album's asset count matches the assets it holds",
		tags:            "@shared-links",
		referenceShapes: true,
	},
	{
		name: "shows no thumbnail for an album with assets, where the listing shows none of them",
		break_: editJSON(isRequest(http.MethodGet, "/api/albums/"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				m["albumThumbnailAssetId"] = nil
			}
			return status, body
		}),
		caughtBy:        "An album's thumbnail is one of its assets",
		tags:            "@shared-links",
		referenceShapes: true,
	},
	{
		name: "dates an album a day before its first asset, where the listing shows none of them",
		break_: editJSON(isRequest(http.MethodGet, "/api/albums/"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				if start, err := time.Parse(time.RFC3339Nano, fmt.Sprint(m["startDate"])); err == nil {
					m["startDate"] = start.Add(-24 * time.Hour).Format(time.RFC3339Nano)
				}
			}
			return status, body
		}),
		caughtBy:        "An album's start and end dates bound its assets",
		tags:            "@shared-links",
		referenceShapes: true,
	},
	{
		name:            "adds what a link's holder uploads to the link's album, where the listing shows none of them",
		break_:          addsLinkUploadsToAlbum,
		caughtBy:        "What is uploaded through a link is not added to the link",
		tags:            "@upload",
		referenceShapes: true,
	},
	{
		name: "opens a link with another photo, one that names the shared photo as its live video",
		break_: editJSON(isRequest(http.MethodGet, "/api/shared-links/me"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				list, _ := m["assets"].([]any)
				for _, a := range list {
					if a, ok := a.(map[string]any); ok {
						a["livePhotoVideoId"], a["id"] = a["id"], newUUID()
					}
				}
			}
			return status, body
		}),
		caughtBy: "A link opens with its key",
		tags:     "@shared-links",
	},
	{
		name:     "makes an API key of another user",
		break_:   makesKeysOfAnotherUser,
		caughtBy: "An API key made in a session works at once",
		tags:     "@sessions",
	},
	{
		name:     "lets a link's holder download what the link does not allow",
		break_:   downloadsAsOwner,
		caughtBy: "A link that does not allow downloads gives nothing, through any route",
		tags:     "@downloads",
	},
	{
		name:     "leaves a photo out of an archive",
		break_:   archiveLeavesOneOut,
		caughtBy: "A link that allows downloads gives an archive of exactly its photos",
		tags:     "@downloads",
	},
	{
		name:     "sends other bytes in a well-formed archive",
		break_:   archiveOtherBytes,
		caughtBy: "A link that allows downloads gives an archive of exactly its photos",
		tags:     "@downloads",
	},
	{
		name:     "shows a link's holder the photos its owner trashed",
		break_:   showsTrashInLinks,
		caughtBy: "A trashed photo leaves a link",
		tags:     "@library",
	},
	{
		name:     "says a photo was taken out of an album and keeps it there",
		break_:   keepsPhotosTakenOutOfAlbums,
		caughtBy: "A photo taken out of an album leaves the album's link",
		tags:     "@library",
	},
	{
		name:     "shows a link's holder only the photos of the link's owner",
		break_:   showsLinksOnlyTheirOwnersPhotos,
		caughtBy: "A photo an editor adds to a shared album joins the album's link",
		tags:     "@library",
	},
	{
		name:     "counts one photo too many in each month of a link's timeline",
		break_:   countsTimelineMonthsOneTooMany,
		caughtBy: "A link's timeline counts and shows exactly",
		tags:     "@library",
	},
	{
		name:     "keeps a deleted user's links open",
		break_:   opensDeletedUsersLinks,
		caughtBy: "A deleted user's links open nothing",
		tags:     "@accounts",
	},
	{
		name:     "lets an upload past its owner's storage quota",
		break_:   letsUploadsPastQuota,
		caughtBy: "A storage quota refuses an upload that would pass it",
		tags:     "@accounts",
	},
	{
		name:     "tells every connection of an upload, whoever's it is",
		break_:   tellsEveryConnectionOfUploads,
		caughtBy: "An upload is told to its owner's connection and to no other user's",
		tags:     "@live",
	},
}

// TestBrokenVariantsAreCaught: the harness must fail on every broken
// variant of the mock, and the scenario named in its table must be among
// those that catch it.
func TestBrokenVariantsAreCaught(t *testing.T) {
	t.Parallel()
	for _, tc := range slices.Concat(brokenVariants()...) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := conformance.Run(t.Context(), conformance.Config{
				Target:      target(t, tc.tags, tc.break_, tc.referenceShapes),
				APIKey:      apiKey,
				Password:    fake.DefaultPassword,
				AdminAPIKey: apiKey,
				// Only the scenario that must catch the variant runs: under the
				// race detector, every variant running its features whole
				// took more than ten minutes.
				Features:       onlyScenario(t, tc.caughtBy),
				Tags:           onlyTag,
				MaxUploadBytes: uploadLimit,
				Concurrency:    4,
				// The mock derives what it derives in milliseconds: a broken
				// variant need not be waited for as long as a real server.
				Settle: 3 * time.Second,
			})
			require.NoError(t, err)
			var failed []string
			for _, s := range res.Scenarios {
				if s.Status == conformance.Failed {
					failed = append(failed, s.Name)
				}
			}
			require.NotEmpty(t, failed, "the harness passed a mock that %s", tc.name)
			caught := slices.IndexFunc(failed, func(n string) bool { return strings.HasPrefix(n, tc.caughtBy) }) >= 0
			assert.True(t, caught, "%q is not among the failed scenarios %q", tc.caughtBy, failed)
			t.Logf("a mock that %s is caught by %q", tc.name, tc.caughtBy)
		})
	}
}

// onlyTag marks the scenarios onlyScenario selects.
const onlyTag = "@only"

// onlyScenario is the embedded features with onlyTag on each scenario
// whose name starts with name; the test fails if there is none.
func onlyScenario(t *testing.T, name string) fs.FS {
	t.Helper()
	out := fstest.MapFS{}
	marked := 0
	files, err := fs.Glob(features.FS(), "*.feature")
	require.NoError(t, err)
	for _, file := range files {
		text, err := fs.ReadFile(features.FS(), file)
		require.NoError(t, err)
		var b strings.Builder
		for line := range strings.Lines(string(text)) {
			trimmed := strings.TrimLeft(line, " \t")
			for _, keyword := range []string{"Scenario:", "Scenario Outline:"} {
				if title, ok := strings.CutPrefix(trimmed, keyword); ok && strings.HasPrefix(strings.TrimSpace(title), name) {
					b.WriteString(line[:len(line)-len(trimmed)] + onlyTag + "\n")
					marked++
				}
			}
			b.WriteString(line)
		}
		out[file] = &fstest.MapFile{Data: []byte(b.String())}
	}
	require.NotZero(t, marked, "no scenario is named %q", name)
	return out
}

// Only the picture and download variants keep the uploads' files. The
// others run on a mock that keeps no upload: there, every photo uploaded
// would be decoded, resized and encoded twice, which under the race
// detector doubles a variant's time.
func target(t *testing.T, tags string, wrap func(http.Handler, model.Dataset) http.Handler, referenceShapes bool) string {
	if strings.Contains(tags, "@pictures") || strings.Contains(tags, "@downloads") {
		return startMock(t, smallData, wrap)
	}
	return startMockWith(t, mockserver.Config{MaxUploadBytes: uploadLimit, ReferenceShapes: referenceShapes}, smallData, wrap)
}

func isUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/api/asset/upload"
}
func isListing(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Path == "/api/shared-links"
}

// isRequest selects the requests of a method whose path starts with prefix.
func isRequest(method, prefix string) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.Method == method && strings.HasPrefix(r.URL.Path, prefix) }
}

// editJSON rewrites the JSON answers to the requests match selects.
func editJSON(match func(*http.Request) bool, edit func(status int, body any) (int, any)) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			status, body := rec.Code, decode(rec.Body.Bytes())
			status, body = edit(status, body)
			writeJSON(w, status, body)
		})
	}
}

func decode(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
}

// answer answers the requests match selects itself, with the status and
// JSON body reply makes of them, without asking the mock: a server that
// says it did what it did not, or fails where it should answer.
func answer(match func(*http.Request) bool, reply func(*http.Request) (int, any)) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				h.ServeHTTP(w, r)
				return
			}
			status, body := reply(r)
			writeJSON(w, status, body)
		})
	}
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func errorBody(status int, message string) map[string]any {
	return map[string]any{"message": message, "error": http.StatusText(status), "statusCode": status}
}

func eachLink(body any, f func(map[string]any)) {
	list, _ := body.([]any)
	for _, l := range list {
		if l, ok := l.(map[string]any); ok {
			f(l)
		}
	}
}

func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// withOthersLinks adds another user's links to every user's list, as a
// query that forgot to filter by owner.
func withOthersLinks(h http.Handler, d model.Dataset) http.Handler {
	otherKey := d.Users[1].APIKey
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isListing(r) {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		mine, ok := decode(rec.Body.Bytes()).([]any)
		if rec.Code != http.StatusOK || !ok {
			writeJSON(w, rec.Code, decode(rec.Body.Bytes()))
			return
		}
		other := r.Clone(r.Context())
		other.Header = http.Header{"X-Api-Key": {otherKey}}
		rec2 := httptest.NewRecorder()
		h.ServeHTTP(rec2, other)
		theirs, _ := decode(rec2.Body.Bytes()).([]any)
		writeJSON(w, http.StatusOK, append(mine, theirs...))
	})
}

// plainTextErrors answers every error as text/plain.
func plainTextErrors(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code < 400 {
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		http.Error(w, http.StatusText(rec.Code), rec.Code)
	})
}

// storesAfterChecksumDuplicate has the reference server's bug: it answers
// a checksum-header duplicate at once, then stores the body all the same.
func storesAfterChecksumDuplicate(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isUpload(r) || r.Header.Get("x-service-checksum") == "" {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		first := r.Clone(r.Context())
		first.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, first)
		if rec.Code == http.StatusOK {
			again := r.Clone(r.Context())
			again.Header.Del("x-service-checksum")
			again.Body = io.NopCloser(bytes.NewReader(body))
			h.ServeHTTP(httptest.NewRecorder(), again)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// validatesBeforeCredentials reads and validates an upload before it looks
// at its credentials: an upload without any is answered with the problems
// of its body, if it has some, and only then with 401.
func validatesBeforeCredentials(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isUpload(r) || r.URL.Query().Has("key") || r.Header.Get("Authorization") != "" || r.Header.Get("x-api-key") != "" {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		check := r.Clone(r.Context())
		check.Header.Set("x-api-key", apiKey)
		check.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, check)
		if rec.Code == http.StatusBadRequest {
			writeJSON(w, rec.Code, decode(rec.Body.Bytes()))
			return
		}
		writeJSON(w, http.StatusUnauthorized, errorBody(http.StatusUnauthorized, "Authentication required"))
	})
}

// checksumBeforeUploadRights looks at the checksum header before it checks
// that a link lets its holder upload, as the reference server does: a
// link's holder learns which files the owner keeps. Links here are the
// default user's, as the scenarios make them.
func checksumBeforeUploadRights(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isUpload(r) || !r.URL.Query().Has("key") || r.Header.Get("x-service-checksum") == "" {
			h.ServeHTTP(w, r)
			return
		}
		asOwner := r.Clone(r.Context())
		asOwner.URL.RawQuery = ""
		asOwner.Header.Set("x-api-key", apiKey)
		asOwner.Body = http.NoBody
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, asOwner)
		if rec.Code == http.StatusOK {
			writeJSON(w, rec.Code, decode(rec.Body.Bytes()))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// racesIdenticalUploads looks for a duplicate and inserts the new asset in
// two steps, no lock between them, as a server that checks its database
// before an insert without a unique constraint: every upload makes its check,
// then takes checkGap to reach the store. An upload the store answers as a
// duplicate is answered as new, with an id of its own, when it made its
// check before the asset it duplicates was inserted.
func racesIdenticalUploads(h http.Handler, d model.Dataset) http.Handler {
	const checkGap = 100 * time.Millisecond
	var mu sync.Mutex
	inserted := map[string]time.Time{} // asset id → when it was inserted
	for _, a := range d.Assets {
		inserted[a.ID] = time.Time{}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isUpload(r) {
			h.ServeHTTP(w, r)
			return
		}
		checked := time.Now()
		time.Sleep(checkGap)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		status, body := rec.Code, decode(rec.Body.Bytes())
		m, _ := body.(map[string]any)
		id, _ := m["id"].(string)
		mu.Lock()
		switch at, known := inserted[id]; {
		case status == http.StatusCreated:
			inserted[id] = time.Now()
		case status == http.StatusOK && (!known || checked.Before(at)):
			// Still being inserted, or inserted after this upload's check:
			// the check found nothing.
			status, m["id"], m["duplicate"] = http.StatusCreated, newUUID(), false
		}
		mu.Unlock()
		writeJSON(w, status, body)
	})
}

// diesOnCutOffBody stops answering anything once it has seen a multipart
// body that ends before its closing boundary, as one real server does.
func diesOnCutOffBody(h http.Handler, _ model.Dataset) http.Handler {
	var dead atomic.Bool
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if dead.Load() {
			panic(http.ErrAbortHandler) // the connection is closed without an answer
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if isUpload(r) && rec.Code == http.StatusBadRequest && strings.Contains(rec.Body.String(), "closing boundary") {
			dead.Store(true)
			panic(http.ErrAbortHandler)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// plusOneAsset counts one asset more in an album's answer.
func plusOneAsset(status int, body any) (int, any) {
	if m, ok := body.(map[string]any); ok {
		if n, ok := m["assetCount"].(json.Number); ok {
			v, _ := n.Int64()
			m["assetCount"] = v + 1
		}
	}
	return status, body
}

// addsLinkUploadsToAlbum adds what is uploaded through an album link to
// the link's album, as a server that files a guest's upload where the guest
// found it. The link's owner is the default user, as the scenarios make it.
func addsLinkUploadsToAlbum(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Query().Get("key")
		if !isUpload(r) || key == "" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		up, _ := decode(rec.Body.Bytes()).(map[string]any)
		if rec.Code == http.StatusCreated && up != nil {
			me := httptest.NewRequestWithContext(r.Context(), http.MethodGet, "/api/shared-links/me?key="+key, nil)
			link := httptest.NewRecorder()
			h.ServeHTTP(link, me)
			l, _ := decode(link.Body.Bytes()).(map[string]any)
			if al, ok := l["album"].(map[string]any); ok {
				in, _ := json.Marshal(map[string]any{"ids": []any{up["id"]}})
				add := httptest.NewRequestWithContext(r.Context(), http.MethodPut, fmt.Sprintf("/api/albums/%s/assets", al["id"]), bytes.NewReader(in))
				add.Header.Set("Content-Type", "application/json")
				add.Header.Set("x-api-key", apiKey)
				h.ServeHTTP(httptest.NewRecorder(), add)
			}
		}
		writeJSON(w, rec.Code, up)
	})
}

// makesKeysOfAnotherUser answers a new API key with the key of another
// user than the one who asked for it.
func makesKeysOfAnotherUser(h http.Handler, d model.Dataset) http.Handler {
	other := d.Users[1].APIKey
	return editJSON(isRequest(http.MethodPost, "/api/api-keys"), func(status int, body any) (int, any) {
		if m, ok := body.(map[string]any); ok && status == http.StatusCreated {
			m["secret"] = other
		}
		return status, body
	})(h, d)
}

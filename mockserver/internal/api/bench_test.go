package api

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// BenchmarkUpload measures the upload path in process (no network): every
// iteration is a new file, so each one is hashed and stored.
func BenchmarkUpload(b *testing.B) {
	for _, size := range []int{100 << 10, 10 << 20} {
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			benchmarkUpload(b, size, "")
		})
	}
}

// BenchmarkUploadKept measures uploads whose files are kept in a media
// folder (MEDIASPEC_BENCH_MEDIA, else a temporary folder), their pictures
// made: the benchmark ends once the last is made.
func BenchmarkUploadKept(b *testing.B) {
	dir := b.TempDir()
	if d := os.Getenv("MEDIASPEC_BENCH_MEDIA"); d != "" {
		dir = d
	}
	b.Run("100KiB", func(b *testing.B) { benchmarkUpload(b, 100<<10, dir) })
}

func benchmarkUpload(b *testing.B, size int, mediaDir string) {
	h, err := New(Config{Dataset: testDataset, Now: testNow, MediaDir: mediaDir})
	require.NoError(b, err)
	defer h.Close()
	// Random bytes, as a photo's compressed data looks to the multipart
	// reader: zeros would make its search for a boundary's first byte
	// scan every chunk whole, a cost no real file has.
	content := make([]byte, size)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(content)
	body, ct := validForm(string(content)).encode(b)
	// The file's first bytes sit right after its part header; a
	// counter there makes every upload new content.
	at := bytes.Index(body, content[:64])
	require.Positive(b, at)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		binary.LittleEndian.PutUint64(body[at:], uint64(i)+1)
		r := httptest.NewRequestWithContext(b.Context(), http.MethodPost, "/api/asset/upload", bytes.NewReader(body))
		r.Header.Set("Content-Type", ct)
		r.Header.Set("x-api-key", keyAlice)
		w := connRecorder{httptest.NewRecorder()}
		h.ServeHTTP(w, r)
		if w.Code != http.StatusCreated {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
	h.Close()
}

// BenchmarkSharedLinks measures the listing of the default user's links,
// from the generated library, in process.
func BenchmarkSharedLinks(b *testing.B) {
	for _, links := range []int{12, 100} {
		b.Run(fmt.Sprintf("%dlinks", links), func(b *testing.B) {
			d := fake.Generate(fake.Options{Seed: 1, Anchor: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Links: links, APIKey: keyAlice})
			h, err := New(Config{Dataset: func() model.Dataset { return d }})
			require.NoError(b, err)
			b.ReportAllocs()
			var size int
			for b.Loop() {
				r := httptest.NewRequestWithContext(b.Context(), http.MethodGet, "/api/shared-links", nil)
				r.Header.Set("x-api-key", keyAlice)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
				size = w.Body.Len()
			}
			b.SetBytes(int64(size))
		})
	}
}

// BenchmarkListingRequest measures what the mock does around a cached
// listing's bytes (the middleware, the credential, the cache's lookup, the
// headers), the bytes themselves discarded: what a listing costs beyond a
// bare server that only writes them. Quiet, and with a log line a request.
func BenchmarkListingRequest(b *testing.B) {
	d := fake.Generate(fake.Options{Seed: 42, Anchor: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), APIKey: keyAlice})
	for _, logged := range []bool{false, true} {
		b.Run(map[bool]string{false: "quiet", true: "logged"}[logged], func(b *testing.B) {
			logger := slog.New(slog.DiscardHandler)
			if logged {
				logger = slog.New(slog.NewTextHandler(io.Discard, nil))
			}
			h, err := New(Config{Dataset: func() model.Dataset { return d }, Logger: logger})
			require.NoError(b, err)
			defer h.Close()
			r := httptest.NewRequestWithContext(b.Context(), http.MethodGet, "/api/shared-links", nil)
			r.Header.Set("x-api-key", keyAlice)
			r.Header.Set("User-Agent", "Go-http-client/1.1")
			r.Header.Set("Accept-Encoding", "gzip")
			b.ReportAllocs()
			for b.Loop() {
				w := &discardWriter{header: http.Header{}}
				h.ServeHTTP(w, r)
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
		})
	}
}

// connRecorder is a recorder that takes deadlines, as a connection's
// writer does: the upload sets them as the body arrives.
type connRecorder struct{ *httptest.ResponseRecorder }

func (connRecorder) SetReadDeadline(time.Time) error  { return nil }
func (connRecorder) SetWriteDeadline(time.Time) error { return nil }

// discardWriter is a ResponseWriter that keeps the status and headers and
// drops the body.
type discardWriter struct {
	header http.Header
	status int
	bytes  int
}

func (w *discardWriter) Header() http.Header { return w.header }

func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

// SetWriteDeadline lets http.ResponseController set deadlines, as on a
// connection.
func (w *discardWriter) SetWriteDeadline(time.Time) error { return nil }

func (w *discardWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.bytes += len(p)
	return len(p), nil
}

// BenchmarkEncodeListing measures building and encoding a listing from the
// records, what the first request after a write costs.
func BenchmarkEncodeListing(b *testing.B) {
	for _, links := range []int{12, 100, 10000} {
		b.Run(fmt.Sprintf("%dlinks", links), func(b *testing.B) {
			d := fake.Generate(fake.Options{Seed: 1, Anchor: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Links: links, APIKey: keyAlice})
			db, err := store.New(d, time.Now)
			require.NoError(b, err)
			var owner store.Principal
			db.Read(func(v *store.View) { owner.User = v.User(d.Users[0].ID) })
			b.ReportAllocs()
			var size int
			for b.Loop() {
				var links []model.SharedLink
				db.Read(func(v *store.View) { links = listing(v, audience{p: owner}) })
				body, err := json.Marshal(links)
				require.NoError(b, err)
				size = len(body)
			}
			b.SetBytes(int64(size))
		})
	}
}

// BenchmarkStartup measures what `serve --links 10000` does before it
// listens: generating the library and indexing it.
func BenchmarkStartup(b *testing.B) {
	for b.Loop() {
		d := fake.Generate(fake.Options{Seed: 1, Anchor: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Links: 10000, APIKey: keyAlice})
		if _, err := New(Config{Dataset: func() model.Dataset { return d }}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAlbum measures GET /api/albums/{id} of a 500-asset album: from
// the encoded answer (warm), and encoded anew after a write (cold).
func BenchmarkAlbum(b *testing.B) {
	s, err := newServer(Config{Dataset: testDataset})
	require.NoError(b, err)
	h := s.dispatch()
	var al *model.AlbumRecord
	err = s.store.Write(func(tx *store.Tx) error {
		ids := make([]string, 0, 500)
		for i := range 500 {
			a := model.AssetRecord{Type: model.AssetImage, OriginalFileName: fmt.Sprintf("IMG_%04d.JPG", i), Checksum: sha1Base64(fmt.Appendf(nil, "bench %d", i)), IsVisible: true}
			res, err := tx.AddUpload(aliceID, a, nil)
			if err != nil {
				return err
			}
			ids = append(ids, res.ID)
		}
		al, err = tx.CreateAlbum(aliceID, store.NewAlbum{Name: "Bench", AssetIDs: ids})
		return err
	})
	require.NoError(b, err)
	for _, cold := range []bool{false, true} {
		b.Run(map[bool]string{false: "warm", true: "cold"}[cold], func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				if cold {
					s.answers = newAnswerCache(s.store)
				}
				r := httptest.NewRequest(http.MethodGet, "/api/albums/"+al.ID, nil)
				r.Header.Set("x-api-key", keyAlice)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
				size = w.Body.Len()
			}
			b.SetBytes(int64(size))
		})
	}
}

// BenchmarkBulkUploadCheck measures the uploader's batch check of 1,000
// checksums, half of them the owner's files, through the handler.
func BenchmarkBulkUploadCheck(b *testing.B) {
	d := fake.Generate(fake.Options{Seed: 1, Anchor: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Links: 100, APIKey: keyAlice})
	h, err := New(Config{Dataset: func() model.Dataset { return d }})
	require.NoError(b, err)
	var items []map[string]string
	for i := range 1000 {
		sum := fmt.Sprintf("%040x", i)
		if i%2 == 0 && i/2 < len(d.Assets) && d.Assets[i/2].OwnerID == d.Users[0].ID {
			sum = d.Assets[i/2].Checksum
		}
		items = append(items, map[string]string{"id": fmt.Sprint(i), "checksum": sum})
	}
	body, err := json.Marshal(map[string]any{"assets": items})
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/api/asset/bulk-upload-check", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("x-api-key", keyAlice)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// BenchmarkTimelineUncached builds a month's buckets of a 20,000-asset
// library from the records, as the first request after a write does,
// beside other users holding none and 100,000 assets: the time must not
// grow with theirs.
func BenchmarkTimelineUncached(b *testing.B) {
	base := time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)
	assets := func(owner string, n int, tag byte) []model.AssetRecord {
		out := make([]model.AssetRecord, n)
		for i := range out {
			at := base.Add(time.Duration(i) * 4 * time.Hour).Format("2006-01-02T15:04:05.000Z")
			out[i] = libAsset(fmt.Sprintf("00000000-0000-4000-8%03x-%012d", tag, i), owner, at)
		}
		return out
	}
	mine := assets(aliceID, 20000, 'a')
	for _, others := range []int{0, 100000} {
		b.Run(fmt.Sprintf("others=%d", others), func(b *testing.B) {
			d := testDataset()
			d.Assets = append(append(d.Assets, mine...), assets(bobID, others, 'b')...)
			db, err := store.New(d, testNow)
			require.NoError(b, err)
			var p store.Principal
			db.Read(func(v *store.View) { p.User = v.User(aliceID) })
			q, err := readTimelineQuery(url.Values{"size": {"MONTH"}}, false)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				db.Read(func(v *store.View) {
					t := q
					require.NoError(b, t.check(v, p))
					counts := map[time.Time]int{}
					for _, a := range t.assets(v) {
						counts[t.bucketOf(a)]++
					}
					if len(counts) < 100 {
						b.Fatalf("%d months", len(counts))
					}
				})
			}
		})
	}
}

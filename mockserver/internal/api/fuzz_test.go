package api

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// checkAnswer fails unless w holds an answer the contract allows: a 200/201
// upload result, or a 4xx JSON error with exactly its three keys.
func checkAnswer(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	if w.Code >= 500 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("status %d: not JSON: %q", w.Code, w.Body)
	}
	if w.Code >= 400 && (len(body) != 3 || body["statusCode"] != float64(w.Code)) {
		t.Fatalf("status %d: not the error body: %s", w.Code, w.Body)
	}
}

func fuzzHandler(f *testing.F) http.Handler {
	h, err := New(Config{Dataset: testDataset, Now: testNow, BodyTimeout: time.Second})
	require.NoError(f, err)
	return h
}

func serveUpload(h http.Handler, contentType string, body []byte, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/api/asset/upload", bytes.NewReader(body))
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("x-api-key", keyAlice)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// FuzzUpload sends arbitrary bodies and Content-Types to the upload handler.
func FuzzUpload(f *testing.F) {
	good, ct := validForm("fuzz").withFile("livePhotoData", "a.mov", "m").withFile("sidecarData", "a.xmp", "<x/>").encode(f)
	f.Add(ct, good)
	f.Add(ct, good[:len(good)/2])
	f.Add("multipart/form-data", good)
	f.Add("multipart/form-data; boundary=\"a b\"", []byte("--a b\r\n\r\n--a b--"))
	f.Add("application/json", []byte(`{}`))
	f.Add(ct, bytes.Repeat([]byte("--"+ct[strings.Index(ct, "=")+1:]+"\r\n\r\n\r\n"), 200))
	h := fuzzHandler(f)
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		checkAnswer(t, serveUpload(h, contentType, body))
	})
}

// FuzzChecksumHeader checks the checksum header's parser and its use.
func FuzzChecksumHeader(f *testing.F) {
	sum := sha1.Sum([]byte(aliceAssetBody))
	for _, s := range []string{base64.StdEncoding.EncodeToString(sum[:]), hex.EncodeToString(sum[:]), strings.Repeat("=", 28), strings.Repeat("g", 40), ""} {
		f.Add(s)
	}
	h := fuzzHandler(f)
	body, ct := validForm("checksum fuzz").encode(f)
	f.Fuzz(func(t *testing.T, v string) {
		got, ok := store.DecodeChecksum(v)
		if ok {
			canonical := base64.StdEncoding.EncodeToString(got[:])
			if again, ok2 := store.DecodeChecksum(canonical); !ok2 || again != got {
				t.Fatalf("%q decodes to %x, which does not round-trip", v, got)
			}
			if len(v) == 40 && !strings.EqualFold(v, hex.EncodeToString(got[:])) {
				t.Fatalf("hex %q decodes to %x", v, got)
			}
		}
		if !strings.ContainsAny(v, "\r\n\x00") {
			checkAnswer(t, serveUpload(h, ct, body, DefaultChecksumHeader, v))
		}
	})
}

// FuzzDateAndBooleanFields puts arbitrary values into the date and boolean
// fields: the answer is a 201/200 or a 400 in the contract's words.
func FuzzDateAndBooleanFields(f *testing.F) {
	f.Add("2024-05-30T10:00:00.000Z", "true")
	f.Add("2024-05-30", "false")
	f.Add("2024-05-30T10:00:00+05:30", "TRUE")
	f.Add("2024-02-30", "")
	f.Add("yesterday", "1")
	h := fuzzHandler(f)
	f.Fuzz(func(t *testing.T, date, boolean string) {
		form := validForm("date fuzz "+date+"|"+boolean).with("fileCreatedAt", date).with("isFavorite", boolean)
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for _, kv := range form.fields {
			_ = mw.WriteField(kv[0], kv[1])
		}
		fw, _ := mw.CreateFormFile("assetData", "a.jpg")
		_, _ = fw.Write([]byte(form.files[0].content))
		_ = mw.Close()
		w := serveUpload(h, mw.FormDataContentType(), buf.Bytes())
		checkAnswer(t, w)
		_, dateOK := dto.ParseDate(date)
		boolOK := boolean == "true" || boolean == "false"
		switch {
		case date == "":
			require.Equal(t, http.StatusBadRequest, w.Code, "%s", w.Body)
		case !dateOK:
			require.JSONEq(t, `{"message":"fileCreatedAt must be a date string","error":"Bad Request","statusCode":400}`, w.Body.String())
		case !boolOK:
			require.Equal(t, http.StatusBadRequest, w.Code, "%s", w.Body)
			require.Contains(t, w.Body.String(), "isFavorite must be a boolean value")
		default:
			require.Contains(t, []int{http.StatusCreated, http.StatusOK}, w.Code, "%s", w.Body)
		}
	})
}

// FuzzReadDataset loads arbitrary dataset documents: an error or a dataset
// that holds together and survives a round trip.
func FuzzReadDataset(f *testing.F) {
	good, err := json.Marshal(testDataset())
	require.NoError(f, err)
	f.Add(good)
	f.Add([]byte(`{"users":[{"id":"u","apiKey":"k","avatarColor":"red"}]}`))
	f.Add([]byte(`{"seed":1,"anchor":"2026-01-01T00:00:00Z"}`))
	f.Add(good[:len(good)/3])
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadDataset(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(d)
		require.NoError(t, err)
		d2, err := ReadDataset(again)
		require.NoError(t, err, "a dataset that loaded must load again after encoding: %s", again)
		again2, err := json.Marshal(d2)
		require.NoError(t, err)
		require.Equal(t, string(again), string(again2))
		_, err = New(Config{Dataset: func() model.Dataset { return d }})
		require.NoError(t, err)
	})
}

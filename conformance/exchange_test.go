package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMaskURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://h/api/shared-links", "http://h/api/shared-links"},
		{"http://h/api/shared-links/me?key=" + strings.Repeat("k", 67), "http://h/api/shared-links/me?key=kkkk•••"},
		{"http://h/api/shared-links/me?key=short&password=hunter2&x=1", "http://h/api/shared-links/me?key=•••&password=•••&x=1"},
		{"http://h/api/x?token=abcdefghijklmnopqrstuvwxyz&apiKey=abc", "http://h/api/x?token=abcd•••&apiKey=•••"},
		{"http://user:pw@h/api/x", "http://•••@h/api/x"},
	} {
		u, err := url.Parse(tc.in)
		require.NoError(t, err)
		assert.Equal(t, tc.want, maskURL(u), tc.in)
	}
}

func TestShownHeaders(t *testing.T) {
	h := http.Header{
		"X-Api-Key":      {"mediaspec-dev-key"},
		"Authorization":  {"Bearer a-session-token-of-some-length"},
		"Content-Type":   {"application/json"},
		"Date":           {"today"},
		"Set-Cookie":     {"immich_access_token=abc"},
		"X-Immich-Share": {"x"},
	}
	assert.Equal(t, []Header{
		{"Authorization", "Bearer a-se•••"},
		{"Content-Type", "application/json"},
		{"Date", "today"},
		{"Set-Cookie", "immi•••"},
		{"X-Api-Key", "medi•••"},
		{"X-Immich-Share", "x"},
	}, shownHeaders(h, nil), "a request's headers: all of them, secrets masked")
	assert.Equal(t, []Header{{"Content-Type", "application/json"}, {"Set-Cookie", "immi•••"}},
		shownHeaders(h, responseHeaders), "an answer's: those that matter")
}

func TestShowBody(t *testing.T) {
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	require.NoError(t, mw.WriteField("deviceId", "phone"))
	require.NoError(t, mw.WriteField("password", "hunter2"))
	fw, err := mw.CreateFormFile("assetData", "IMG_1.JPG")
	require.NoError(t, err)
	_, err = fw.Write([]byte{0xff, 0xd8, 0xff, 0x00, 0x01})
	require.NoError(t, err)
	require.NoError(t, mw.Close())

	for _, tc := range []struct {
		name, contentType, body string
		want                    string
	}{
		{"json is pretty-printed, its secrets masked", "application/json",
			`{"email":"a@b.c","password":"hunter2","accessToken":"` + strings.Repeat("t", 40) + `","key":"short"}`,
			"{\n  \"email\": \"a@b.c\",\n  \"password\": \"•••\",\n  \"accessToken\": \"tttt•••\",\n  \"key\": \"•••\"\n}"},
		{"a form shows its parts", mw.FormDataContentType(), form.String(),
			"deviceId: phone\npassword: •••\nassetData: file \"IMG_1.JPG\", 5 bytes, application/octet-stream"},
		{"a broken form says so", "multipart/form-data; boundary=nope", "--nope\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue",
			"a: value\n(cannot be read further: unexpected EOF)"},
		{"text as it is", "text/plain", "Not Found", "Not Found"},
		{"binary as its size", "image/jpeg", "\xff\xd8\xff\x00\x01\x02", "(6 bytes of image/jpeg)"},
		{"nothing", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, showBody(tc.contentType, []byte(tc.body), int64(len(tc.body))))
		})
	}
	long := showBody("application/json", []byte(`["`+strings.Repeat("é", maxShownBody)+`"]`), 0)
	assert.LessOrEqual(t, len(long), maxShownBody+64)
	assert.Contains(t, long, "more bytes not shown")
	assert.Equal(t, "(1048576 bytes, streamed)", showBody("application/octet-stream", nil, 1<<20))

	// A body far longer than is shown is masked only as far as it is
	// shown; no secret shows more than its first characters, wherever the
	// text is cut.
	var links []string
	for i := 0; len(links)*60 < 8*maxShownBody; i++ {
		links = append(links, fmt.Sprintf(`{"id":%d,"key":"%s"}`, i, strings.Repeat("k", 37+i%23)))
	}
	listing := "[" + strings.Join(links, ",") + "]"
	shown := showBody("application/json", []byte(listing), int64(len(listing)))
	assert.NotContains(t, shown, "kkkkk")
	assert.LessOrEqual(t, len(shown), maxShownBody+64)
	var pretty bytes.Buffer
	require.NoError(t, json.Indent(&pretty, []byte(listing), "", "  "))
	var more int
	_, err = fmt.Sscanf(shown[strings.LastIndex(shown, "(")+1:], "%d more bytes not shown", &more)
	require.NoError(t, err)
	assert.Greater(t, more, pretty.Len()-2*maxShownBody, "what is left out is counted")
}

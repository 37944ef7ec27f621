package dto

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wholeDecode reads a body as a generic decoder would, whole, then judges
// it: what Decode must answer, without ever holding more than the class's
// members.
func wholeDecode(c *Class, data []byte) (Body, error) {
	var v any
	if len(data) > 0 {
		first := bytes.TrimLeft(data, " \t\r\n")
		if len(first) == 0 || (first[0] != '{' && first[0] != '[') {
			return nil, syntaxError(data)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, syntaxError(data)
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, syntaxError(data)
		}
	}
	obj, _ := v.(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	return c.Validate(obj)
}

var decodeSeeds = []string{
	`{"albumName":"x","albumUsers":[{"userId":"3fa85f64-5717-4562-b3fc-2c963f66afa6","role":"viewer","x":[1,{}]}],"junk":{"a":[1,2,{"b":null}]}}`,
	`{"albumName":1,"albumUsers":["x",{"userId":1},[[]]],"assetIds":[1,"a",{"x":1},[2]]}`,
	`{"albumName":"a","albumName":"b"}`,
	`{"\u0061lbumName":"esc\u00e9\n","description":"\ud83d\ude00"}`,
	`{"type":"ALBUM","expiresAt":"2026-01-01","allowUpload":"true","password":"p"}`,
	`{"email":"A@B.C","password":"x"}`,
	`{"email":[{},{},[]],"password":{"a":1}}`,
	`[{"albumName":"x"}]`,
	` { "albumName" : "x" , "extra" : [ 1 , -2.5e3 , true , false , null ] } `,
	`{"albumName":"\xff\xfe"}`,
	`{`, `[]`, `null`, `"x"`, ``, `   `, `{"a":1}}`, `{x}`,
}

// TestDecodeIsTheWholeDecodeJudged: Decode answers exactly what decoding
// the whole body and judging it answers.
func TestDecodeIsTheWholeDecodeJudged(t *testing.T) {
	for _, body := range decodeSeeds {
		for _, c := range []*Class{createAlbum, createLink, login} {
			got, gotErr := c.Decode([]byte(body))
			want, wantErr := wholeDecode(c, []byte(body))
			assert.Equal(t, wantErr, gotErr, "%s: %q", c.name, body)
			assert.Equal(t, want, got, "%s: %q", c.name, body)
		}
	}
}

// FuzzDecodeIsTheWholeDecodeJudged holds Decode to the whole decode on any
// body, and Count to the values Decode makes.
func FuzzDecodeIsTheWholeDecodeJudged(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, c := range []*Class{createAlbum, createLink, login} {
			got, gotErr := c.Decode([]byte(body))
			want, wantErr := wholeDecode(c, []byte(body))
			require.Equal(t, wantErr, gotErr, "%s: %q", c.name, body)
			require.Equal(t, want, got, "%s: %q", c.name, body)
			n, err := c.Count([]byte(body))
			if gotErr == nil || errors.As(gotErr, new(Problems)) || errors.As(gotErr, new(Thrown)) {
				require.NoError(t, err)
				require.GreaterOrEqual(t, n, 0)
			} else {
				require.Equal(t, gotErr, err)
			}
		}
		if n, err := CountValues([]byte(body)); err == nil {
			require.Positive(t, n)
		}
	})
}

// TestCount: a body's declared members' values are counted, everything
// within them; undeclared members cost nothing.
func TestCount(t *testing.T) {
	for _, tt := range []struct {
		body string
		want int
	}{
		{``, 0},
		{`[1,2,3]`, 0},
		{`{}`, 1},
		{`{"junk":[{},{},[1,2,{"a":"b"}]]}`, 1},
		{`{"albumName":"x"}`, 2},
		{`{"albumName":[1,[2,3],{"a":4}]}`, 1 + 7},
		{`{"albumUsers":[{"userId":"u","role":"r","junk":[1,2,3]}]}`, 1 + 1 + 3},
	} {
		n, err := createAlbum.Count([]byte(tt.body))
		require.NoError(t, err, tt.body)
		assert.Equal(t, tt.want, n, tt.body)
	}
	n, err := CountValues([]byte(`{"a":[1,{},[]],"b":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, 6, n)
}

// TestBoundedWhateverTheBody: eight megabytes of empty objects are
// refused unmade where a member holds them, and step over unmade where no
// member does: in neither case does decoding hold them.
func TestBoundedWhateverTheBody(t *testing.T) {
	objects := strings.Repeat(`{},`, (8<<20)/3-10) + `{}`
	declared := []byte(`{"email":[` + objects + `]}`)
	_, err := login.Count(declared)
	assert.Equal(t, TooManyValues(MaxValues), err)
	_, err = login.Decode(declared)
	assert.Equal(t, TooManyValues(MaxValues), err)
	_, err = CountValues(declared)
	assert.Equal(t, TooManyValues(MaxValues), err)

	undeclared := []byte(`{"junk":[` + objects + `],"email":"a@b.c","password":"pw"}`)
	n, err := login.Count(undeclared)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	before := heapAllocated()
	b, err := login.Decode(undeclared)
	after := heapAllocated()
	require.NoError(t, err)
	assert.Equal(t, Body{"email": "a@b.c", "password": "pw"}, b)
	assert.Less(t, after-before, uint64(1<<20), "an undeclared member is stepped over, not made")
}

// heapAllocated is the bytes allocated on the heap so far.
func heapAllocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

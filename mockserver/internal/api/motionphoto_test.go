package api

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// Motion photos made from the fixtures the way each maker writes them. The
// reference (its exiftool) extracted, from files made so, exactly the MP4
// put in, as the hidden video "<still's name>.mp4".

// samsungMotionPhoto is a JPEG with Samsung's trailer: a MotionPhoto_Data
// record holding the video, then the SEFH directory, its length, "SEFT".
func samsungMotionPhoto(jpeg, video []byte) []byte {
	name := "MotionPhoto_Data"
	rec := binary.LittleEndian.AppendUint32([]byte{0, 0, 0x30, 0x0a}, uint32(len(name)))
	rec = append(append(rec, name...), video...)
	out := append(append([]byte{}, jpeg...), rec...)
	dir := []byte("SEFH")
	dir = binary.LittleEndian.AppendUint32(dir, 106)
	dir = binary.LittleEndian.AppendUint32(dir, 1)
	dir = append(dir, 0, 0, 0x30, 0x0a)
	dir = binary.LittleEndian.AppendUint32(dir, uint32(len(rec))) // back from SEFH to the record
	dir = binary.LittleEndian.AppendUint32(dir, uint32(len(rec)))
	out = append(out, dir...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(dir)))
	return append(out, "SEFT"...)
}

// withXMP puts an XMP packet in a JPEG, after its start.
func withXMP(jpeg []byte, xmp string) []byte {
	payload := "http://ns.adobe.com/xap/1.0/\x00" + xmp
	seg := binary.BigEndian.AppendUint16([]byte{0xff, 0xe1}, uint16(len(payload)+2))
	return append(append(append([]byte{}, jpeg[:2]...), append(seg, payload...)...), jpeg[2:]...)
}

// googleMotionPhoto is a JPEG naming its video's length in a
// Container:Directory, the video appended.
func googleMotionPhoto(jpeg, video []byte) []byte {
	xmp := fmt.Sprintf(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:Camera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" Camera:MotionPhoto="1" Camera:MotionPhotoVersion="1"><Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="%d" Item:Padding="0"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>`, len(video))
	return append(withXMP(jpeg, xmp), video...)
}

// microVideo is the older form: GCamera:MicroVideoOffset.
func microVideo(jpeg, video []byte) []byte {
	xmp := fmt.Sprintf(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="%d"/></rdf:RDF></x:xmpmeta>`, len(video))
	return append(withXMP(jpeg, xmp), video...)
}

// heicMotionPhoto is a HEIC with the video in a top-level mpvd box, as
// Samsung's One UI 6 writes it.
func heicMotionPhoto(heic, video []byte) []byte {
	box := binary.BigEndian.AppendUint32(nil, uint32(8+len(video)))
	return append(append(append([]byte{}, heic...), append(box, "mpvd"...)...), video...)
}

// TestMotionPhotos: a motion photo's video becomes the still's hidden live
// photo video: its checksum the SHA-1 of the video's bytes, named after
// the still, its original those bytes, read as a video.
func TestMotionPhotos(t *testing.T) {
	read := func(name string) []byte {
		b, err := fixtures.ReadFile(name)
		require.NoError(t, err)
		return b
	}
	jpeg, heic, video := read(fixtures.LisbonJPEG), read(fixtures.LisbonHEIC), read(fixtures.ClipMP4)
	tests := []struct {
		name string
		file []byte
	}{
		{"samsung.jpg", samsungMotionPhoto(jpeg, video)},
		{"google.jpg", googleMotionPhoto(jpeg, video)},
		{"micro.jpg", microVideo(jpeg, video)},
		{"samsung.heic", heicMotionPhoto(heic, video)},
	}
	sum := sha1.Sum(video)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newMediaServer(t)
			rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", tt.name, string(tt.file)), keyAlice))
			require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
			var res struct{ ID string }
			rep.json(t, &res)
			still := getAsset(t, srv, res.ID)
			id, _ := still["livePhotoVideoId"].(string)
			require.NotEmpty(t, id, "the still names its video")
			v := getAsset(t, srv, id)
			assert.Equal(t, base64.StdEncoding.EncodeToString(sum[:]), v["checksum"])
			assert.Equal(t, "VIDEO", v["type"])
			assert.Equal(t, strings.TrimSuffix(tt.name, tt.name[strings.LastIndex(tt.name, "."):])+".mp4", v["originalFileName"])
			assert.Equal(t, "NONE", v["deviceAssetId"])
			assert.Equal(t, "NONE", v["deviceId"])
			assert.Equal(t, float64(len(video)), v["exifInfo"].(map[string]any)["fileSizeInByte"])
			assert.Equal(t, float64(len(tt.file)), still["exifInfo"].(map[string]any)["fileSizeInByte"])
			orig := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+id, nil, "x-api-key", keyAlice))
			require.Equal(t, http.StatusOK, orig.status)
			assert.Equal(t, video, orig.body, "the video's original is its bytes in the still's file")
			whole := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+res.ID, nil, "x-api-key", keyAlice))
			assert.Equal(t, tt.file, whole.body, "the still's original is whole")
			waitForPicture(t, srv, "/api/asset/thumbnail/"+id)
		})
	}
}

// TestNotMotionPhotos: a still whose trailer, XMP or box names no video,
// or names bytes that are not an MP4, has none; a live photo's own video
// wins over the one its still carries.
func TestNotMotionPhotos(t *testing.T) {
	jpeg, err := fixtures.ReadFile(fixtures.LisbonJPEG)
	require.NoError(t, err)
	video, err := fixtures.ReadFile(fixtures.ClipMP4)
	require.NoError(t, err)
	notVideo := []byte(strings.Repeat("not a video at all ", 100))
	srv, _ := newMediaServer(t)
	for name, file := range map[string][]byte{
		"plain.jpg":     jpeg,
		"notvideo.jpg":  googleMotionPhoto(jpeg, notVideo),
		"toolong.jpg":   microVideo(jpeg, video)[:len(jpeg)+100],
		"shortsef.jpg":  samsungMotionPhoto(jpeg, video)[len(jpeg)+len(video)/2:],
		"truncated.jpg": samsungMotionPhoto(jpeg, notVideo),
	} {
		rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", name, string(file)), keyAlice))
		require.Equal(t, http.StatusCreated, rep.status, "%s: %s", name, rep.body)
		var res struct{ ID string }
		rep.json(t, &res)
		assert.Nil(t, getAsset(t, srv, res.ID)["livePhotoVideoId"], name)
	}

	// livePhotoData wins.
	f := validForm("").onlyFields().withFile("assetData", "both.jpg", string(samsungMotionPhoto(jpeg, video))).
		withFile("livePhotoData", "own.mov", string(video)+"own")
	rep := do(t, uploadRequest(t, srv, f, keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)
	v := getAsset(t, srv, getAsset(t, srv, res.ID)["livePhotoVideoId"].(string))
	assert.Equal(t, "both.mov", v["originalFileName"])
}

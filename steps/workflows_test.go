package steps

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOnlyPageFields: a link that hides metadata may show its holder what
// a page needs to show a photo and nothing else, whatever else it shows: a
// field no list of forbidden ones would name is refused too. (The OpenAPI
// document refuses such an asset as well, so no broken mock can show this
// step failing on its own.)
func TestOnlyPageFields(t *testing.T) {
	for _, tt := range []struct {
		name, asset string
		shown       string // what the failure names; "" for none
	}{
		{"the sanitized asset", `{"id":"a","type":"IMAGE","thumbhash":null,"localDateTime":"2024-05-30T10:00:00.000Z","resized":true,"duration":"0:00:00.00000","livePhotoVideoId":null,"hasMetadata":false}`, ""},
		{"less than that", `{"id":"a","type":"IMAGE"}`, ""},
		{"the device", `{"id":"a","type":"IMAGE","deviceId":"iPhone"}`, "the photo shows deviceId "},
		{"the owner's id and the file name", `{"id":"a","ownerId":"u","originalFileName":"IMG_4021.JPG"}`, "the photo shows originalFileName, ownerId "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var a map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(tt.asset), &a))
			err := onlyPageFields(a)
			if tt.shown == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.shown)
		})
	}
}

package api

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// shareTags are what a shared link's page tells a link preview (a chat
// app's card, a social network's crawler): the reference's OpenGraphTags.
type shareTags struct {
	title, description, imageURL string
}

// sharePage is GET /share/{key}: the page a shared link's URL opens. The
// reference serves its web app's index.html there with the link's Open
// Graph and Twitter tags put in (SharedLinkService.getMetadataTags), so
// that a preview names what is shared; the mock has no web app and serves
// a small page of its own with the same tags, written as the reference
// writes them. A key that opens no link (unknown, expired, deleted, or a
// link with a password) gets the page without them, as there. The page
// is always 200, text/html, not to be cached.
func (s *server) sharePage(c *call) error {
	var tags *shareTags
	key := c.r.PathValue("key")
	s.store.Read(func(v *store.View) {
		p, err := v.Authenticate(store.Credentials{ShareKey: &key})
		if err == nil && p.Link != nil && !store.Protected(p.Link) {
			tags = linkTags(v, p.Link)
		}
	})
	var b strings.Builder
	b.WriteString(sharePageHead)
	title := "Immich"
	if tags != nil {
		title = tags.title
		fmt.Fprintf(&b, `
    <meta name="description" content="%[2]s" />

    <!-- Facebook Meta Tags -->
    <meta property="og:type" content="website" />
    <meta property="og:title" content="%[1]s" />
    <meta property="og:description" content="%[2]s" />
    <meta property="og:image" content="%[3]s" />

    <!-- Twitter Meta Tags -->
    <meta name="twitter:card" content="summary_large_image" />
    <meta name="twitter:title" content="%[1]s" />
    <meta name="twitter:description" content="%[2]s" />

    <meta name="twitter:image" content="%[3]s" />
`, attr(tags.title), attr(tags.description), attr(tags.imageURL))
	}
	fmt.Fprintf(&b, sharePageBody, attr(title))
	h := c.w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	c.w.WriteHeader(http.StatusOK)
	_, err := c.w.Write([]byte(b.String()))
	return err
}

const sharePageHead = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />`

const sharePageBody = `    <title>%[1]s</title>
  </head>
  <body>
    <p>%[1]s: shared through mediaspec's mock of the Immich API, which serves no web app.</p>
  </body>
</html>
`

// linkTags are the tags of a link, as the reference makes them: the
// album's name, else "Public Share"; the link's description, else how
// many photos and videos it shares (its own assets, else its album's); and
// the thumbnail of the album's cover, else of the link's first asset,
// through the link's key, else the web app's placeholder picture.
func linkTags(v *store.View, l *model.SharedLinkRecord) *shareTags {
	var album *model.AlbumRecord
	if l.AlbumID != nil {
		album = v.Album(*l.AlbumID)
	}
	t := &shareTags{title: "Public Share", imageURL: "/feature-panel.png"}
	count := len(l.AssetIDs)
	cover := ""
	if len(l.AssetIDs) > 0 {
		cover = l.AssetIDs[0]
	}
	if album != nil {
		t.title = album.AlbumName
		if count == 0 {
			count = len(album.AssetIDs)
		}
		if album.AlbumThumbnailAssetID != nil {
			cover = *album.AlbumThumbnailAssetID
		}
	}
	t.description = fmt.Sprintf("%d shared photos & videos", count)
	if l.Description != nil && *l.Description != "" {
		t.description = *l.Description
	}
	if cover != "" {
		t.imageURL = "/api/asset/thumbnail/" + cover + "?key=" + l.Key
	}
	return t
}

// attr escapes a text for a double-quoted HTML attribute or the page's
// text. The reference puts the link's texts in unescaped (a description
// with a quote breaks its page, one with markup writes into it); the mock
// escapes every character that could end the attribute or start markup,
// and an ampersand only where it could start a character reference: "&"
// before a space, as in "photos & videos", is text as it stands, and the
// page reads as the reference's does.
func attr(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			if i+1 < len(s) && (isAlnum(s[i+1]) || s[i+1] == '#') {
				b.WriteString("&amp;")
			} else {
				b.WriteByte('&')
			}
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

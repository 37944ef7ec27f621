package api

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
	"github.com/mediaspec/mediaspec/mockserver/thumbhash"
)

// pictureSource is what the mock needs to make or find an asset's pictures.
type pictureSource struct {
	id        string
	checksum  string
	thumbhash []byte // nil: the asset has no pictures (yet)
	w, h      int    // as displayed: EXIF orientation applied
	updatedAt time.Time
	// download: the original may be sent (not through a link with
	// allowDownload: false).
	download bool
	name     string // the original file name
}

// fallbackLongSide is the long side given to an asset whose size the
// dataset does not say (a video without EXIF), at its ThumbHash's ratio.
const fallbackLongSide = 1920

// pictureSource finds what p may see of an asset's pictures, or the
// picture routes' error.
func (s *server) pictureSource(p store.Principal, id string) (pictureSource, error) {
	var a *model.AssetRecord
	s.store.Read(func(v *store.View) { a = v.ReadableAsset(p, id) })
	if a == nil {
		return pictureSource{}, store.Fail(store.NoAccess, "Not found or no asset.view access")
	}
	return sourceOf(a, p.Link == nil || p.Link.AllowDownload), nil
}

// sourceOf is what the mock needs to make or find a's pictures; download
// says whether its original may be sent.
func sourceOf(a *model.AssetRecord, download bool) pictureSource {
	src := pictureSource{
		id: a.ID, checksum: a.Checksum,
		updatedAt: a.UpdatedAt.Time, download: download,
		name: a.OriginalFileName,
	}
	if a.Thumbhash == nil {
		return src
	}
	hash, err := base64.StdEncoding.DecodeString(*a.Thumbhash)
	if err != nil || thumbhash.Check(hash) != nil {
		return src // a hash no client can render either: no pictures
	}
	src.thumbhash = hash
	if x := a.ExifInfo; x != nil && x.ExifImageWidth != nil && x.ExifImageHeight != nil && *x.ExifImageWidth >= 1 && *x.ExifImageHeight >= 1 {
		src.w, src.h = int(*x.ExifImageWidth), int(*x.ExifImageHeight)
		if x.Orientation != nil && *x.Orientation >= "5" && *x.Orientation <= "8" {
			src.w, src.h = src.h, src.w // turned a quarter: stored on its side
		}
	} else if ratio, err := thumbhash.AspectRatio(hash); err == nil {
		src.w, src.h = fallbackLongSide, int(fallbackLongSide/ratio)
		if ratio < 1 {
			src.w, src.h = int(fallbackLongSide*ratio), fallbackLongSide
		}
	}
	return src
}

// pictureKind is one of the pictures of an asset.
type pictureKind int

const (
	kindThumbnail pictureKind = iota // WEBP, smaller side 250
	kindPreview                      // JPEG, smaller side 1440
	kindOriginal                     // the asset's own size and format
)

// paintable are the Content-Types of originals Go can write; every other
// original (HEIC, RAW, video) is painted as a JPEG, image/jpeg
// (docs/differences.md).
var paintable = map[string]bool{"image/jpeg": true, "image/png": true, "image/webp": true, "image/gif": true}

// painted is an asset's picture of that kind, painted from its
// thumbhash, encoded, with its Content-Type, from the cache or made now in
// one of the painters' slots, waiting up to wait for one
// (errPaintersBusy).
func (s *server) painted(ctx context.Context, src pictureSource, kind pictureKind, wait time.Duration) ([]byte, string, error) {
	contentType := "image/webp"
	switch kind {
	case kindPreview:
		contentType = "image/jpeg"
	case kindOriginal:
		contentType = "image/jpeg"
		if ct := originalType(src.name); paintable[ct] {
			contentType = ct
		}
	}
	key := fmt.Sprintf("%s/%s/%d", src.id, src.checksum, kind)
	if body, ok := s.pictures.Get(key); ok {
		return body, contentType, nil
	}
	slots := s.painters.slots(kind)
	if !slots.Wait(ctx, wait) {
		return nil, "", errPaintersBusy
	}
	defer slots.Release()
	if body, ok := s.pictures.Get(key); ok {
		return body, contentType, nil // painted for another while this one waited
	}
	w, h := src.w, src.h
	switch kind {
	case kindThumbnail:
		w, h = pictures.Fit(w, h, pictures.ThumbnailSide)
	case kindPreview:
		w, h = pictures.Fit(w, h, pictures.PreviewSide)
	}
	// A dataset may claim any size: a painted picture is never larger than
	// an uploaded one may be, and pictures.Paint has bounds of its own
	// (WebP and GIF within a megapixel).
	w, h = pictures.Within(w, h, s.cfg.MaxDecodePixels)
	body, err := pictures.Paint(src.thumbhash, w, h, contentType)
	if err != nil {
		return nil, "", err
	}
	s.pictures.Put(key, body)
	return body, contentType, nil
}

// servePicture answers a picture with the reference's caching headers;
// http.ServeContent answers Range and conditional requests.
func servePicture(w http.ResponseWriter, r *http.Request, src pictureSource, kind pictureKind, contentType string, modified time.Time, content io.ReadSeeker, size int64) {
	h := w.Header()
	h.Set("Cache-Control", "private, max-age=86400, no-transform")
	h.Set("Content-Type", contentType)
	h.Set("ETag", strconv.Quote(fmt.Sprintf("%s-%d-%d", src.checksum, kind, size)))
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(httpx.WriteDeadline(int(min(size, 1<<40)))))
	httpx.ServeContent(w, r, modified, content)
}

// serveKept answers a picture the media folder keeps for an upload (its
// original, or a made thumbnail or preview), and says whether it did.
func (s *server) serveKept(w http.ResponseWriter, r *http.Request, src pictureSource, kind pictureKind) bool {
	if kind != kindOriginal && src.thumbhash == nil {
		// Made, perhaps, but not yet on the asset: a client that saw the
		// picture would find the asset without its thumbhash.
		return false
	}
	blob, contentType := media.Thumb, "image/webp"
	switch kind {
	case kindPreview:
		blob, contentType = media.Preview, "image/jpeg"
	case kindOriginal:
		blob, contentType = media.Original, originalType(src.name)
	}
	f, kept, ok := s.folder.Open(blob, src.id)
	if !ok {
		return false
	}
	defer f.Close()
	servePicture(w, r, src, kind, contentType, kept, f, f.Size())
	return true
}

package api

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/mediaspec/mediaspec/mockserver/exif"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/mp4"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
)

// The pictures of uploads are made by the workers of media.PictureJobs,
// after the upload has been answered; what each does, through
// makePicturesThenTell (live.go), is makeUploadPictures.

// makeUploadPictures makes an upload's thumbnail and preview from its
// original (or the JPEG preview a RAW or HEIC file embeds), upright as its
// EXIF orientation says, and its ThumbHash. A still that cannot be decoded
// (a format Go does not read, truncated, empty, or declaring more pixels
// than the bound) gets none, as on the reference; a video without a cover
// gets a poster.
func (s *server) makeUploadPictures(id string) error {
	var a model.AssetRecord
	var ok bool
	s.store.Read(func(v *store.View) {
		if found := v.Asset(id); found != nil {
			a, ok = *found, true
		}
	})
	if !ok {
		return nil // gone (a reset) before its turn
	}
	img, w, h := s.decodeOriginal(id, a)
	switch {
	case img == nil && a.Type == model.AssetVideo:
		return s.posterPictures(id, w, h)
	case img == nil:
		// As the reference: a file it cannot decode gets no pictures; the
		// asset stays resized: false, thumbhash: null, and its pictures
		// answer 404.
		return nil
	}
	// The thumbnail is made from the preview: the original is read once.
	b := img.Bounds()
	pw, ph := pictures.Fit(b.Dx(), b.Dy(), pictures.PreviewSide)
	previewImg := pictures.Resize(img, pw, ph)
	tw, th := pictures.Fit(b.Dx(), b.Dy(), pictures.ThumbnailSide)
	thumbImg := pictures.Resize(previewImg, tw, th)
	thumb, err := pictures.WebP(thumbImg)
	if err != nil {
		return err
	}
	preview, err := pictures.JPEG(previewImg)
	if err != nil {
		return err
	}
	if err := s.folder.Put(media.Thumb, id, thumb); err != nil {
		return fmt.Errorf("the thumbnail: %w", err)
	}
	if err := s.folder.Put(media.Preview, id, preview); err != nil {
		return fmt.Errorf("the preview: %w", err)
	}
	return s.setPictures(id, base64.StdEncoding.EncodeToString(pictures.Hash(thumbImg)))
}

// setPictures marks an asset's pictures made.
func (s *server) setPictures(id, hash string) error {
	return s.store.Write(func(tx *store.Tx) error { return tx.SetPictures(id, hash) })
}

// poster is a poster's pictures of one size in the media folder, kept
// once and named for every upload of that size.
type poster struct {
	once sync.Once
	key  string // the blobs' key in the media folder
	hash string
	err  error
}

// posterPictures gives a video without a cover the poster's pictures of
// its shape: kept once per size, then named in the index, so that a crowd
// of video uploads costs their pictures almost nothing.
func (s *server) posterPictures(id string, w, h int) error {
	pw, ph := pictures.Fit(w, h, pictures.PreviewSide)
	v, _ := s.posters.LoadOrStore([2]int{pw, ph}, &poster{})
	p := v.(*poster)
	p.once.Do(func() {
		thumb, preview, hash, err := pictures.PosterPictures(w, h)
		if err != nil {
			p.err = err
			return
		}
		p.key = media.PosterKey(pw, ph)
		p.hash = base64.StdEncoding.EncodeToString(hash)
		if p.err = s.folder.Put(media.Thumb, p.key, thumb); p.err == nil {
			p.err = s.folder.Put(media.Preview, p.key, preview)
		}
	})
	if p.err != nil {
		return fmt.Errorf("the poster: %w", p.err)
	}
	if err := s.folder.Alias(media.Thumb, id, p.key); err != nil {
		return fmt.Errorf("the thumbnail: %w", err)
	}
	if err := s.folder.Alias(media.Preview, id, p.key); err != nil {
		return fmt.Errorf("the preview: %w", err)
	}
	return s.setPictures(id, p.hash)
}

// decodeOriginal is an upload's picture, upright; or nil, with the size a
// poster takes (the size its upload read, from a video's boxes, upright;
// else 16:9), where the file cannot be decoded. A video's picture is the
// cover stored in it, if any.
func (s *server) decodeOriginal(id string, a model.AssetRecord) (img image.Image, w, h int) {
	w, h = 1920, 1440
	if a.Type == model.AssetVideo {
		h = 1080
	}
	orientation := 0
	if x := a.ExifInfo; x != nil {
		if x.ExifImageWidth != nil && x.ExifImageHeight != nil && *x.ExifImageWidth >= 1 && *x.ExifImageHeight >= 1 {
			w, h = int(*x.ExifImageWidth), int(*x.ExifImageHeight)
		}
		if x.Orientation != nil {
			orientation, _ = strconv.Atoi(*x.Orientation)
		}
	}
	f, _, ok := s.folder.Open(media.Original, id)
	if !ok {
		return nil, w, h
	}
	defer f.Close()
	switch a.Type {
	case model.AssetImage:
		if img, err := pictures.Decode(f, s.cfg.MaxDecodePixels); err == nil {
			// libheif turns a HEIC as its irot box says; its EXIF
			// orientation must not turn it once more.
			if exif.HEIFTurns(f) {
				return img, 0, 0
			}
			return pictures.Orient(img, orientation), 0, 0
		}
		// A RAW file: the preview its camera embedded, if any. A file named
		// as a format Go decodes that failed to decode is broken, and is not
		// read whole once more in search of one.
		if !pictures.Decodes(strings.ToLower(path.Ext(a.OriginalFileName))) {
			if img, err := pictures.EmbeddedJPEG(f, s.cfg.MaxDecodePixels); err == nil {
				return pictures.Orient(img, orientation), 0, 0
			}
		}
	case model.AssetVideo:
		// Its size was read at the upload; its cover, which the upload
		// leaves unread, is read here.
		if info, err := mp4.Read(f, f.Size()); err == nil && info.Cover != nil {
			if img, err := pictures.Decode(bytes.NewReader(info.Cover), s.cfg.MaxDecodePixels); err == nil {
				return img, 0, 0
			}
		}
	}
	if orientation >= 5 {
		w, h = h, w
	}
	return nil, w, h
}

// originalTypes are the Content-Types the reference sends for an original,
// by its extension, whatever its bytes.
var originalTypes = map[string]string{
	".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".jpe": "image/jpeg", ".png": "image/png", ".gif": "image/gif",
	".webp": "image/webp", ".heic": "image/heic", ".heif": "image/heif", ".hif": "image/hif", ".avif": "image/avif",
	".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff", ".jxl": "image/jxl", ".svg": "image/svg+xml",
	".dng": "image/x-adobe-dng", ".psd": "image/vnd.adobe.photoshop",
	".mp4": "video/mp4", ".insv": "video/mp4", ".m4v": "video/x-m4v", ".mov": "video/quicktime", ".webm": "video/webm",
	".mkv": "video/x-matroska", ".avi": "video/x-msvideo", ".3gp": "video/3gpp", ".3gpp": "video/3gpp",
	".mts": "video/mp2t", ".m2ts": "video/mp2t", ".mpg": "video/mpeg", ".mpeg": "video/mpeg", ".mpe": "video/mpeg",
	".wmv": "video/x-ms-wmv", ".flv": "video/x-flv",
}

// originalType is the Content-Type of an original named name.
func originalType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := originalTypes[ext]; ok {
		return t
	}
	if model.AssetTypeOf(ext) == model.AssetImage {
		return "image/x-" + strings.TrimPrefix(ext, ".") // the RAW formats
	}
	return "application/octet-stream"
}

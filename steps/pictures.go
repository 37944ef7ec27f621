package steps

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"math"

	"golang.org/x/image/webp"
)

// pictureSteps are the steps about the pictures a server gives of a photo:
// its original, its thumbnail and its preview.
func (s *scenario) pictureSteps() []step {
	return []step{
		{`^the original of that photo is the very bytes I sent$`, s.originalIsBytesSent},
		{`^its holder, asking for the original of that photo, gets a WEBP picture and not the bytes I sent$`, s.holderGetsThumbnailForOriginal},
		{`^the (thumbnail|preview) of that photo is a (WEBP|JPEG) picture of the photo's shape whose smaller side is (\d+) pixels(, or the photo's own if smaller)?$`, s.pictureOfPhotoIs},
	}
}

// originalIsBytesSent judges the original of the photo: the bytes sent.
func (s *scenario) originalIsBytesSent(ctx context.Context) error {
	if s.firstID == "" || s.photo == nil {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: "GET", path: "/asset/file/" + s.firstID, creds: s.creds})
	if err != nil {
		return err
	}
	if resp.status != 200 {
		return fmt.Errorf("want 200, got: %s", resp)
	}
	if !bytes.Equal(resp.body, s.photo.content) {
		return fmt.Errorf("the original is %d bytes that are not the %d bytes sent", len(resp.body), len(s.photo.content))
	}
	return nil
}

// holderGetsThumbnailForOriginal asks for the photo's original as the
// holder of a link that keeps it back, and judges what comes: a WEBP
// thumbnail, not the bytes sent.
func (s *scenario) holderGetsThumbnailForOriginal(ctx context.Context) error {
	if s.firstID == "" || s.photo == nil || s.link == nil {
		return fmt.Errorf("no photo was uploaded and shared earlier in the scenario")
	}
	// The thumbnail is made after the upload: wait for it.
	return s.settle(ctx, func() error {
		resp, err := s.cfg.send(ctx, apiRequest{method: "GET", path: "/asset/file/" + s.firstID, creds: credentials{linkKey: s.link.Key}})
		if err != nil {
			return err
		}
		if resp.status != 200 {
			return fmt.Errorf("want 200, got: %s", resp)
		}
		if bytes.Equal(resp.body, s.photo.content) {
			return fmt.Errorf("the link sent the original, which it keeps back")
		}
		if ct := resp.header.Get("Content-Type"); ct != "image/webp" {
			return fmt.Errorf("Content-Type is %q, want image/webp, the thumbnail", ct)
		}
		if _, err := webp.DecodeConfig(bytes.NewReader(resp.body)); err != nil {
			return fmt.Errorf("the %d bytes are not a WEBP picture: %w", len(resp.body), err)
		}
		return nil
	})
}

// pictureOfPhotoIs asks for the photo's thumbnail or preview, waiting for
// it, and judges its format, size and shape.
func (s *scenario) pictureOfPhotoIs(ctx context.Context, which, format string, side int, orOwn string) error {
	if s.firstID == "" || s.photo == nil {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(s.photo.content))
	if err != nil {
		return fmt.Errorf("the photo sent cannot be read: %w", err)
	}
	want := side
	if orOwn != "" {
		want = min(side, cfg.Width, cfg.Height)
	}
	path := "/asset/thumbnail/" + s.firstID
	if which == "preview" {
		path += "?format=JPEG"
	}
	// A server makes its pictures after the upload: wait for them.
	return s.settle(ctx, func() error {
		resp, err := s.cfg.send(ctx, apiRequest{method: "GET", path: path, creds: s.creds})
		if err != nil {
			return err
		}
		if resp.status != 200 {
			return fmt.Errorf("want 200, got: %s", resp)
		}
		return judgePicture(resp, format, want, cfg.Width, cfg.Height)
	})
}

// judgePicture checks that a picture is of format, with its smaller side
// side pixels, at the photo's aspect ratio (w×h, either way round: EXIF
// may turn it), and not one flat colour.
func judgePicture(resp *response, format string, side, w, h int) error {
	wantType := map[string]string{"WEBP": "image/webp", "JPEG": "image/jpeg"}[format]
	if ct := resp.header.Get("Content-Type"); ct != wantType {
		return fmt.Errorf("Content-Type is %q, want %q", ct, wantType)
	}
	var img image.Image
	var err error
	if format == "WEBP" {
		img, err = webp.Decode(bytes.NewReader(resp.body))
	} else {
		img, err = jpeg.Decode(bytes.NewReader(resp.body))
	}
	if err != nil {
		return fmt.Errorf("the %d bytes are not a %s picture: %w", len(resp.body), format, err)
	}
	b := img.Bounds()
	if got := min(b.Dx(), b.Dy()); got != side {
		return fmt.Errorf("the picture is %d×%d: its smaller side is %d pixels, want %d", b.Dx(), b.Dy(), got, side)
	}
	ratio := float64(max(b.Dx(), b.Dy())) / float64(min(b.Dx(), b.Dy()))
	photo := float64(max(w, h)) / float64(min(w, h))
	if math.Abs(ratio-photo) > 2/float64(side) {
		return fmt.Errorf("the picture is %d×%d, not of the shape of the %d×%d photo", b.Dx(), b.Dy(), w, h)
	}
	first := img.At(b.Min.X, b.Min.Y)
	for y := b.Min.Y; y < b.Max.Y; y += 5 {
		for x := b.Min.X; x < b.Max.X; x += 5 {
			if img.At(x, y) != first {
				return nil
			}
		}
	}
	return fmt.Errorf("the %d×%d picture is one flat colour", b.Dx(), b.Dy())
}

package steps

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
)

// uploadLimitSteps are the steps about the upload body size a server
// declares it refuses beyond.
func (s *scenario) uploadLimitSteps() []step {
	return []step{
		{`^I upload a new video whose request body is (one byte over|exactly) the declared upload limit$`, s.uploadAtLimit},
		{`^the upload is refused with a 413$`, s.refusedAsTooLarge},
	}
}

// uploadAtLimit uploads a new video whose body is exactly the declared
// limit, or one byte over it.
func (s *scenario) uploadAtLimit(ctx context.Context, size string) error {
	n := s.cfg.MaxUploadBytes
	if size == "one byte over" {
		n++
	}
	return s.uploadOfBodySize(ctx, n)
}

// refusedAsTooLarge judges the last upload refused as too large.
func (s *scenario) refusedAsTooLarge() error {
	return s.wantStatus(http.StatusRequestEntityTooLarge)
}

// uploadOfBodySize uploads a new video whose multipart body is exactly n
// bytes, streamed: a declared limit may be far larger than what the
// harness can hold.
func (s *scenario) uploadOfBodySize(ctx context.Context, n int64) error {
	f := newFile("VID_limit.mp4")
	fm := uploadForm(f)
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	for _, kv := range fm.fields {
		if err := mw.WriteField(kv[0], kv[1]); err != nil {
			return err
		}
	}
	if _, err := mw.CreateFormFile("assetData", f.name); err != nil {
		return err
	}
	tail := "\r\n--" + mw.Boundary() + "--\r\n"
	// The file: the fixture's own bytes (unique to this run), then zeros.
	fill := n - int64(head.Len()) - int64(len(tail)) - int64(len(f.content))
	if fill < 0 {
		return fmt.Errorf("a declared upload limit of %d bytes is smaller than an upload of the fixture video", s.cfg.MaxUploadBytes)
	}
	body := io.MultiReader(&head, bytes.NewReader(f.content), io.LimitReader(zeros{}, fill), bytes.NewReader([]byte(tail)))
	resp, err := s.cfg.send(ctx, apiRequest{
		method: http.MethodPost, path: "/asset/upload", creds: s.creds,
		contentType: mw.FormDataContentType(), stream: body, streamLength: n,
	})
	return s.keep(resp, s.me, err)
}

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

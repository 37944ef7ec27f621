package steps

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// robustnessSteps are the steps about broken uploads, which a server
// must refuse and survive.
func (s *scenario) robustnessSteps() []step {
	return []step{
		{`^I send an upload whose body is (.+)$`, s.sendBroken},
		{`^the server still answers my next request$`, s.stillAnswers},
		{`^I start an upload and drop the connection in the middle of the file$`, s.dropMidUpload},
	}
}

// stillAnswers sends a request after a broken upload, which the server
// must answer.
func (s *scenario) stillAnswers(ctx context.Context) error {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/shared-links", creds: credentials{apiKey: s.me.apiKey}})
	if err := judgeNow(resp, err, http.StatusOK); err != nil {
		return fmt.Errorf("after the broken upload: %w", err)
	}
	return nil
}

// sendBroken sends an upload whose body is wrong in the way the problem says.
func (s *scenario) sendBroken(ctx context.Context, problem string) error {
	f := uploadForm(newFile(defaultName))
	body, contentType, err := f.encode()
	if err != nil {
		return err
	}
	content := f.files[0].file.content
	inFile := bytes.Index(body, content) + len(content)/2 // the middle of the file's bytes
	switch problem {
	case "multipart without a boundary in its Content-Type":
		contentType = "multipart/form-data"
	case "multipart cut off in the middle of the file":
		body = body[:inFile]
	case "multipart whose closing boundary is missing":
		end := bytes.LastIndex(body, []byte("\r\n--"))
		body = body[:end]
	case "JSON instead of multipart":
		contentType = "application/json"
		body = []byte(`{"deviceAssetId":"IMG_4021.JPG-1","deviceId":"` + deviceID + `","fileCreatedAt":"` + createdAt + `","fileModifiedAt":"` + modifiedAt + `"}`)
	case "empty":
		body = []byte{}
	default:
		return fmt.Errorf("unknown kind of broken body %q", problem)
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: "/asset/upload", creds: s.creds, contentType: contentType, body: body})
	return s.keep(resp, s.me, err)
}

// dropMidUpload starts an upload on a connection of its own, sends half of
// the file and closes the connection, as a phone that loses its network.
func (s *scenario) dropMidUpload(ctx context.Context) error {
	f := uploadForm(newFile(defaultName))
	body, contentType, err := f.encode()
	if err != nil {
		return err
	}
	u, err := url.Parse(s.cfg.BaseURL + "/asset/upload")
	if err != nil {
		return err
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
	}
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	var conn net.Conn
	if u.Scheme == "https" {
		conn, err = (&tls.Dialer{NetDialer: dialer, Config: &tls.Config{ServerName: u.Hostname()}}).DialContext(ctx, "tcp", host)
	} else {
		conn, err = dialer.DialContext(ctx, "tcp", host)
	}
	if err != nil {
		return fmt.Errorf("connecting to %s: %w: %w", host, ErrNoAnswer, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	var head bytes.Buffer
	fmt.Fprintf(&head, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nx-api-key: %s\r\n\r\n",
		u.RequestURI(), u.Host, contentType, len(body), s.me.apiKey)
	content := f.files[0].file.content
	cut := bytes.Index(body, content) + len(content)/2
	if _, err := conn.Write(append(head.Bytes(), body[:cut]...)); err != nil {
		return fmt.Errorf("sending the first half of the upload: %w", err)
	}
	// The server must be waiting for the rest of the file when the
	// connection drops: an answer already (say, a 401 before reading the
	// body) would leave nothing to drop in the middle of.
	_ = conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	answer := make([]byte, 512)
	n, err := conn.Read(answer)
	if n > 0 {
		return fmt.Errorf("the server answered before the file was all sent, so nothing was dropped in the middle: %s", short(answer[:n]))
	}
	if ne, ok := errors.AsType[net.Error](err); !ok || !ne.Timeout() {
		return fmt.Errorf("the server closed the connection before the file was all sent: %w", err)
	}
	return nil
}

package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cucumber/godog"
)

// The metadata of every upload, unless a scenario says otherwise.
const (
	deviceID    = "mediaspec-conformance"
	createdAt   = "2024-05-30T10:00:00.000Z"
	modifiedAt  = "2024-05-30T10:05:00.000Z"
	defaultName = "IMG_4021.JPG"
)

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// uploadForm is the form a device sends for f: every required part, as a
// phone would fill it.
func uploadForm(f *file) form {
	return form{
		fields: [][2]string{
			{"deviceAssetId", f.name + "-" + randomHex(4)},
			{"deviceId", deviceID},
			{"fileCreatedAt", createdAt},
			{"fileModifiedAt", modifiedAt},
		},
		files: []formFile{{part: "assetData", file: f}},
	}
}

// uploadResult is the body of a successful upload.
type uploadResult struct {
	ID        *string `json:"id"`
	Duplicate *bool   `json:"duplicate"`
}

// upload sends f as the user of creds, with the checksum header if not "".
func (s *scenario) upload(ctx context.Context, creds credentials, f form, checksum string) (*response, error) {
	body, contentType, err := f.encode()
	if err != nil {
		return nil, err
	}
	ar := apiRequest{method: http.MethodPost, path: "/asset/upload", creds: creds, contentType: contentType, body: body}
	if checksum != "" {
		ar.header = http.Header{}
		ar.header.Set(s.cfg.ChecksumHeader, checksum)
	}
	return s.cfg.send(ctx, ar)
}

// uploadAs sends the form as the scenario's current credentials and keeps the answer.
func (s *scenario) uploadAs(ctx context.Context, who *user, creds credentials, f form, checksum string) error {
	resp, err := s.upload(ctx, creds, f, checksum)
	return s.keep(resp, who, err)
}

// uploadNew uploads a new file of that name with the current credentials.
func (s *scenario) uploadNew(ctx context.Context, name string, change func(*form)) error {
	s.photo = newFile(name)
	s.photoForm = uploadForm(s.photo)
	if change != nil {
		change(&s.photoForm)
	}
	return s.uploadAs(ctx, s.me, s.creds, s.photoForm, "")
}

// decodeUpload reads the answer to an upload, which must have status want.
func (s *scenario) decodeUpload(want int) (id string, duplicate bool, err error) {
	if err := s.wantStatus(want); err != nil {
		return "", false, err
	}
	var res uploadResult
	if err := json.Unmarshal(s.last.body, &res); err != nil {
		return "", false, fmt.Errorf("the answer is not an upload result: %w: %s", err, s.last)
	}
	if res.ID == nil || *res.ID == "" || res.Duplicate == nil {
		return "", false, fmt.Errorf("the answer lacks its id or duplicate flag: %s", s.last)
	}
	return *res.ID, *res.Duplicate, nil
}

// uploadSteps are the steps about uploads: new files, duplicates, and
// the forms a server refuses.
func (s *scenario) uploadSteps() []step {
	return []step{
		{`^I upload a new (?:photo|file|video) "([^"]*)"$`, s.uploadNewFile},
		{`^I have uploaded a new photo "([^"]*)"$`, s.haveUploadedNewPhoto},
		{`^I upload a new live photo "([^"]*)" with its video "([^"]*)"$`, s.uploadLivePhoto},
		{`^I upload a new photo "([^"]*)" with the sidecar "([^"]*)"$`, s.uploadWithSidecar},
		{`^I upload a new photo "([^"]*)" with "([^"]*)" set to "([^"]*)"$`, s.uploadWithPartSet},
		{`^I upload a new photo without the "([^"]*)" part$`, s.uploadWithoutPart},
		{`^I upload a new photo without the "([^"]*)" part and with "([^"]*)" set to "([^"]*)"$`, s.uploadWithoutPartAndSet},
		{`^I upload a new photo without the "([^"]*)" and "([^"]*)" parts and with "([^"]*)" set to "([^"]*)"$`, s.uploadWithoutPartsAndSet},
		{`^I upload only the sidecar "([^"]*)"$`, s.uploadOnlySidecar},
		{`^I upload a new photo whose "([^"]*)" is the file "([^"]*)"$`, s.uploadWithPartAsFile},
		{`^I upload a new photo "([^"]*)" with one more file "([^"]*)" as "([^"]*)"$`, s.uploadWithOneMoreFile},
		{`^I upload the same photo again$`, s.uploadSamePhotoAgain},
		{`^I upload the same bytes again as "([^"]*)" from another device$`, s.uploadSameBytesFromAnotherDevice},
		{`^I announce that photo's checksum in (base64|hex) and send no file$`, s.announceChecksumWithoutFile},
		{`^I have another new photo "([^"]*)" that the server has never seen$`, s.haveAnotherNewPhoto},
		{`^I upload the other photo, announcing the first photo's checksum$`, s.uploadOtherAnnouncingFirst},
		{`^I upload the other photo again, without announcing a checksum$`, s.uploadOtherAgain},
		{`^I upload a new photo "([^"]*)" announcing (?:the checksum of other bytes|the checksum "([^"]*)")$`, s.uploadAnnouncingChecksum},
		{`^the other user uploads the same photo(?: again)?$`, s.otherUploadsSamePhoto},
		{`^I upload the same new photo "([^"]*)" (\d+) times at once$`, s.race},
		{`^a new upload is accepted as new$`, s.newUploadIsAccepted},

		{`^the upload is accepted as new$`, s.acceptedAsNew},
		{`^the still's live photo video is a VIDEO with the checksum of the video I sent$`, s.liveVideoKept},
		{`^the new asset's "([^"]*)" is "([^"]*)"$`, s.assetFieldIs},
		{`^the new asset's "([^"]*)" becomes "([^"]*)"$`, s.assetFieldBecomes},
		{`^the answer's id is a UUID$`, s.answerIDIsUUID},
		{`^the upload is recognised as a duplicate of the first$`, s.duplicateOfFirst},
		{`^the upload is recognised as a duplicate of the other user's$`, s.duplicateOfOthers},
		{`^the (?:upload|request) is refused with status (\d+) and the messages "([^"]*)"$`, s.refusedWithMessages},
		{`^the (?:upload|request) is refused with status (\d+) and the messages:$`, s.refusedWithMessageTable},
		{`^the (?:upload|request) is refused with status (\d+) and the message "([^"]*)"$`, s.refusedWithMessage},
		{`^the (?:upload|request) is refused with status (\d+)$`, s.refusedWithStatus},
		{`^the request succeeds$`, s.requestSucceeds},
		{`^exactly one of them is accepted as new and the others are duplicates of it$`, s.oneOfRaceIsNew},
	}
}

// uploadNewFile uploads a new file of that name as me.
func (s *scenario) uploadNewFile(ctx context.Context, name string) error {
	return s.uploadNew(ctx, name, nil)
}

// haveUploadedNewPhoto uploads a new photo of that name, which must be
// accepted as new.
func (s *scenario) haveUploadedNewPhoto(ctx context.Context, name string) error {
	if err := s.uploadNew(ctx, name, nil); err != nil {
		return err
	}
	return s.acceptedAsNew()
}

// uploadLivePhoto uploads a new still with the video of its live photo.
func (s *scenario) uploadLivePhoto(ctx context.Context, name, video string) error {
	s.liveVideo = newFile(video)
	return s.uploadNew(ctx, name, func(f *form) {
		f.files = append(f.files, formFile{part: "livePhotoData", file: s.liveVideo})
	})
}

// uploadWithSidecar uploads a new photo with a sidecar file.
func (s *scenario) uploadWithSidecar(ctx context.Context, name, sidecar string) error {
	return s.uploadNew(ctx, name, func(f *form) {
		f.files = append(f.files, formFile{part: "sidecarData", file: newFile(sidecar)})
	})
}

// uploadWithPartSet uploads a new photo with one text part set to value.
func (s *scenario) uploadWithPartSet(ctx context.Context, name, part, value string) error {
	return s.uploadNew(ctx, name, func(f *form) { f.set(part, value) })
}

// uploadWithoutPart uploads a new photo whose form lacks a part.
func (s *scenario) uploadWithoutPart(ctx context.Context, part string) error {
	return s.uploadNew(ctx, defaultName, func(f *form) { f.remove(part) })
}

// uploadWithoutPartAndSet uploads a new photo whose form lacks a part and
// sets another to value.
func (s *scenario) uploadWithoutPartAndSet(ctx context.Context, missing, part, value string) error {
	return s.uploadNew(ctx, defaultName, func(f *form) {
		f.remove(missing)
		f.set(part, value)
	})
}

// uploadWithoutPartsAndSet uploads a new photo whose form lacks two parts
// and sets another to value.
func (s *scenario) uploadWithoutPartsAndSet(ctx context.Context, a, b, part, value string) error {
	return s.uploadNew(ctx, defaultName, func(f *form) {
		f.remove(a)
		f.remove(b)
		f.set(part, value)
	})
}

// uploadOnlySidecar uploads a form whose only file is a sidecar.
func (s *scenario) uploadOnlySidecar(ctx context.Context, sidecar string) error {
	return s.uploadNew(ctx, defaultName, func(f *form) {
		f.files = []formFile{{part: "sidecarData", file: newFile(sidecar)}}
	})
}

// uploadWithPartAsFile uploads a new photo whose text part is sent as a
// file instead.
func (s *scenario) uploadWithPartAsFile(ctx context.Context, part, name string) error {
	return s.uploadNew(ctx, defaultName, func(f *form) {
		f.remove(part)
		f.files = append(f.files, formFile{part: part, file: newFile(name)})
	})
}

// uploadWithOneMoreFile uploads a new photo with one more file, in a part
// of that name.
func (s *scenario) uploadWithOneMoreFile(ctx context.Context, name, other, part string) error {
	return s.uploadNew(ctx, name, func(f *form) {
		f.files = append(f.files, formFile{part: part, file: newFile(other)})
	})
}

// uploadSamePhotoAgain uploads the scenario's photo again, as a new form.
func (s *scenario) uploadSamePhotoAgain(ctx context.Context) error {
	if s.photo == nil {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	return s.uploadAs(ctx, s.me, s.creds, uploadForm(s.photo), "")
}

// uploadSameBytesFromAnotherDevice uploads the photo's bytes under another
// name, from another device, with other dates.
func (s *scenario) uploadSameBytesFromAnotherDevice(ctx context.Context, name string) error {
	if s.photo == nil {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	f := uploadForm(&file{name: name, content: s.photo.content})
	f.set("deviceId", deviceID+"-other-device")
	f.set("fileCreatedAt", "2023-01-02T03:04:05.000Z")
	f.set("fileModifiedAt", "2023-01-02T03:04:05.000Z")
	return s.uploadAs(ctx, s.me, s.creds, f, "")
}

// announceChecksumWithoutFile sends an upload with no file, announcing the
// photo's checksum in the checksum header.
func (s *scenario) announceChecksumWithoutFile(ctx context.Context, encoding string) error {
	if s.photo == nil {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	sum := s.photo.checksumBase64()
	if encoding == "hex" {
		sum = s.photo.checksumHex()
	}
	f := uploadForm(s.photo)
	f.files = nil
	return s.uploadAs(ctx, s.me, s.creds, f, sum)
}

// haveAnotherNewPhoto makes another new photo, not sent yet.
func (s *scenario) haveAnotherNewPhoto(name string) {
	s.otherPhoto = newFile(name)
}

// uploadOtherAnnouncingFirst uploads the other photo with the first
// photo's checksum in the checksum header.
func (s *scenario) uploadOtherAnnouncingFirst(ctx context.Context) error {
	if s.photo == nil || s.otherPhoto == nil {
		return fmt.Errorf("the scenario has not got two photos")
	}
	return s.uploadAs(ctx, s.me, s.creds, uploadForm(s.otherPhoto), s.photo.checksumBase64())
}

// uploadOtherAgain uploads the other photo again, without the checksum
// header.
func (s *scenario) uploadOtherAgain(ctx context.Context) error {
	if s.otherPhoto == nil {
		return fmt.Errorf("the scenario has no other photo")
	}
	return s.uploadAs(ctx, s.me, s.creds, uploadForm(s.otherPhoto), "")
}

// uploadAnnouncingChecksum uploads a new photo announcing a checksum that
// is not its own: the one named, or a random one.
func (s *scenario) uploadAnnouncingChecksum(ctx context.Context, name, checksum string) error {
	if checksum == "" {
		checksum = randomChecksum()
	}
	s.photo = newFile(name)
	s.photoForm = uploadForm(s.photo)
	return s.uploadAs(ctx, s.me, s.creds, s.photoForm, checksum)
}

// otherUploadsSamePhoto uploads the scenario's photo as the other user.
func (s *scenario) otherUploadsSamePhoto(ctx context.Context) error {
	if s.photo == nil {
		return fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	return s.uploadAs(ctx, other, credentials{apiKey: other.apiKey}, uploadForm(s.photo), "")
}

// newUploadIsAccepted uploads a new photo, which must be accepted as new.
func (s *scenario) newUploadIsAccepted(ctx context.Context) error {
	if err := s.uploadNew(ctx, defaultName, nil); err != nil {
		return err
	}
	return s.acceptedAsNew()
}

// assetFieldBecomes waits for a field of the new asset to become want:
// what a server reads from the file may come a while after the upload.
func (s *scenario) assetFieldBecomes(ctx context.Context, field, want string) error {
	return s.settle(ctx, func() error { return s.assetFieldIs(ctx, field, want) })
}

// answerIDIsUUID judges the id of the last upload's answer.
func (s *scenario) answerIDIsUUID() error {
	if s.last == nil {
		return fmt.Errorf("no request was sent")
	}
	id, _, err := s.decodeUpload(s.last.status)
	if err != nil {
		return err
	}
	if !uuidPattern.MatchString(id) {
		return fmt.Errorf("id %q is not a UUID", id)
	}
	return nil
}

// duplicateOfFirst judges the last upload a duplicate of my first.
func (s *scenario) duplicateOfFirst() error {
	return s.duplicateOf(s.firstID, "my first upload")
}

// duplicateOfOthers judges the last upload a duplicate of the other
// user's first.
func (s *scenario) duplicateOfOthers() error {
	return s.duplicateOf(s.otherID, "the other user's first upload")
}

// An error's message is either one string or a list of strings, and
// which of the two is part of the contract: "the message" is a string,
// "the messages" a list.

// refusedWithMessages judges a refusal whose message is a list, written
// "first; second".
func (s *scenario) refusedWithMessages(status int, messages string) error {
	return s.refused(status, strings.Split(messages, "; "), true)
}

// refusedWithMessageTable judges a refusal whose message is a list, one
// row of the table each.
func (s *scenario) refusedWithMessageTable(status int, table *godog.Table) error {
	var messages []string
	for _, row := range table.Rows {
		messages = append(messages, row.Cells[0].Value)
	}
	return s.refused(status, messages, true)
}

// refusedWithMessage judges a refusal whose message is one string.
func (s *scenario) refusedWithMessage(status int, message string) error {
	return s.refused(status, []string{message}, false)
}

// refusedWithStatus judges a refusal, whatever its message.
func (s *scenario) refusedWithStatus(status int) error {
	return s.refused(status, nil, false)
}

// requestSucceeds judges the last answer a success, of any 2xx status.
func (s *scenario) requestSucceeds() error {
	if s.last == nil {
		return fmt.Errorf("no request was sent")
	}
	if s.last.status < 200 || s.last.status > 299 {
		return s.wrongStatus("a 2xx status")
	}
	return s.judged()
}

// acceptedAsNew checks that the last upload created an asset, and
// remembers its id as the first of its uploader.
func (s *scenario) acceptedAsNew() error {
	id, dup, err := s.decodeUpload(http.StatusCreated)
	if err != nil {
		return err
	}
	if dup {
		return fmt.Errorf("a new asset must not be a duplicate: %s", s.last)
	}
	switch {
	case s.lastBy == s.other && s.other != nil:
		if id == s.firstID {
			return fmt.Errorf("the other user's asset got my asset's id %s", id)
		}
		if s.otherID == "" {
			s.otherID = id
		}
	case s.firstID == "":
		s.firstID = id
	case id == s.firstID:
		return fmt.Errorf("a new asset got the id of an earlier one, %s", id)
	}
	return nil
}

// duplicateOf judges the last upload a duplicate of the asset id, what
// names it for messages.
func (s *scenario) duplicateOf(id, what string) error {
	if id == "" {
		return fmt.Errorf("no upload was accepted earlier in the scenario")
	}
	got, dup, err := s.decodeUpload(http.StatusOK)
	if err != nil {
		return err
	}
	if !dup {
		return fmt.Errorf("want duplicate: true: %s", s.last)
	}
	if got != id {
		return fmt.Errorf("the duplicate's id is %s, want %s (%s)", got, id, what)
	}
	return nil
}

// errorBody is the JSON of an error; a server may leave out its "error".
type errorBody struct {
	Message    json.RawMessage `json:"message"`
	Error      *string         `json:"error"`
	StatusCode int             `json:"statusCode"`
}

// refused checks an error answer: its status, its statusCode, its error
// (the status's reason phrase, when there is one) and its message, which is
// one string or, when list is set, a list of strings. With no want, any
// message will do.
func (s *scenario) refused(status int, want []string, list bool) error {
	if err := s.wantStatus(status); err != nil {
		return err
	}
	var e errorBody
	if err := json.Unmarshal(s.last.body, &e); err != nil {
		return fmt.Errorf("the error is not JSON: %w: %s", err, s.last)
	}
	if e.StatusCode != status {
		return fmt.Errorf("the error's statusCode is %d, not the status %d", e.StatusCode, status)
	}
	if e.Error != nil && *e.Error != http.StatusText(status) {
		return fmt.Errorf("the error's error is %q, want %q (the reason phrase of %d)", *e.Error, http.StatusText(status), status)
	}
	var got []string
	var one string
	switch {
	case json.Unmarshal(e.Message, &one) == nil:
		if len(want) > 0 && list {
			return fmt.Errorf("want the message as a list of strings %q, got the string %q", want, one)
		}
		got = []string{one}
	case json.Unmarshal(e.Message, &got) == nil && got != nil:
		if len(want) > 0 && !list {
			return fmt.Errorf("want the message as one string %q, got the list %q", want[0], got)
		}
	default:
		return fmt.Errorf("the error's message is neither a string nor a list of strings: %s", s.last)
	}
	if len(want) > 0 && !slices.Equal(got, want) {
		return fmt.Errorf("want the message %q, got %q", strings.Join(want, "; "), strings.Join(got, "; "))
	}
	return nil
}

// race uploads the same new bytes n times at once.
func (s *scenario) race(ctx context.Context, name string, n int) error {
	s.photo = newFile(name)
	s.races = make([]*response, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		f := uploadForm(s.photo)
		wg.Go(func() {
			<-start
			s.races[i], errs[i] = s.upload(ctx, s.creds, f, "")
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// oneOfRaceIsNew judges the answers to the uploads sent at once: one made
// the asset, and the others are duplicates of it.
func (s *scenario) oneOfRaceIsNew() error {
	var created []string
	ids := map[string]int{}
	for _, r := range s.races {
		var res uploadResult
		if err := json.Unmarshal(r.body, &res); err != nil || res.ID == nil || res.Duplicate == nil {
			return fmt.Errorf("not an upload result: %s", r)
		}
		switch {
		case r.status == http.StatusCreated && !*res.Duplicate:
			created = append(created, *res.ID)
		case r.status == http.StatusOK && *res.Duplicate:
		default:
			return fmt.Errorf("neither new nor a duplicate: %s", r)
		}
		ids[*res.ID]++
	}
	if len(created) != 1 {
		return fmt.Errorf("%d of %d identical uploads created an asset (%v), want exactly 1", len(created), len(s.races), created)
	}
	if ids[created[0]] != len(s.races) {
		return fmt.Errorf("the duplicates do not all name the one new asset %s: ids %v", created[0], ids)
	}
	return nil
}

// liveVideoKept reads the last upload, a live photo, and its video, as
// GET /asset/{id} shows them.
func (s *scenario) liveVideoKept(ctx context.Context) error {
	if s.firstID == "" || s.liveVideo == nil {
		return fmt.Errorf("no live photo was uploaded earlier in the scenario")
	}
	var still, video asset
	if err := s.assetOf(ctx, s.firstID, &still); err != nil {
		return err
	}
	if still.LivePhotoVideoID == nil {
		return fmt.Errorf("the still %s has no livePhotoVideoId", still.ID)
	}
	if err := s.assetOf(ctx, *still.LivePhotoVideoID, &video); err != nil {
		return fmt.Errorf("the still's livePhotoVideoId: %w", err)
	}
	if video.Type != "VIDEO" || video.Checksum != s.liveVideo.checksumBase64() {
		return fmt.Errorf("the live photo video is a %s of checksum %s, want a VIDEO of checksum %s", video.Type, video.Checksum, s.liveVideo.checksumBase64())
	}
	return nil
}

// assetFieldIs reads the asset the last upload created (GET /asset/{id})
// and compares one of its fields, written as JSON writes it (a string
// without its quotes), with want.
func (s *scenario) assetFieldIs(ctx context.Context, field, want string) error {
	id, _, err := s.decodeUpload(http.StatusCreated)
	if err != nil {
		return err
	}
	var a map[string]json.RawMessage
	if err := s.assetOf(ctx, id, &a); err != nil {
		return err
	}
	raw, ok := a[field]
	if !ok {
		return fmt.Errorf("the asset %s has no %q", id, field)
	}
	got := string(raw)
	var str string
	if json.Unmarshal(raw, &str) == nil {
		got = str
	}
	if got != want {
		return fmt.Errorf("the asset's %q is %s, want %q", field, raw, want)
	}
	return nil
}

package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestNothingLostUnderLoad uploads 2,000 distinct files from 32 goroutines,
// each file twice in a shuffled order, and then finds every file stored
// exactly once, under the id both of its uploads were given.
func TestNothingLostUnderLoad(t *testing.T) {
	const files, workers = 2000, 32
	srv := newTestServer(t)
	// The bodies are made here: t's require may not run in the workers.
	type job struct {
		file        int
		body        []byte
		contentType string
	}
	bodies := make([]job, files)
	for i := range bodies {
		body, ct := validForm(fmt.Sprintf("file number %d", i)).encode(t)
		bodies[i] = job{file: i, body: body, contentType: ct}
	}
	jobs := make(chan job)
	type answer struct {
		file   int
		status int
		res    model.UploadResult
	}
	answers := make(chan answer, 2*files)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			defer client.CloseIdleConnections()
			for j := range jobs {
				r, err := http.NewRequest(http.MethodPost, srv.URL+"/api/asset/upload", bytes.NewReader(j.body))
				if !assert.NoError(t, err) {
					continue
				}
				r.Header.Set("Content-Type", j.contentType)
				r.Header.Set("x-api-key", keyAlice)
				resp, err := client.Do(r)
				if !assert.NoError(t, err) {
					continue
				}
				var res model.UploadResult
				rep := reply{status: resp.StatusCode}
				rep.body, _ = io.ReadAll(resp.Body)
				resp.Body.Close()
				if assert.NoError(t, json.Unmarshal(rep.body, &res), "body: %s", rep.body) {
					answers <- answer{file: j.file, status: rep.status, res: res}
				}
			}
		})
	}
	// Every file goes out twice, the second copy a few jobs after the first:
	// with 32 workers the two are often in flight at once, racing.
	const gap = 5
	for i := range files + gap {
		if i < files {
			jobs <- bodies[i]
		}
		if d := i - gap; d >= 0 {
			jobs <- bodies[d]
		}
	}
	close(jobs)
	wg.Wait()
	close(answers)

	byFile := map[int][]answer{}
	for a := range answers {
		byFile[a.file] = append(byFile[a.file], a)
	}
	require.Len(t, byFile, files)
	for f, as := range byFile {
		require.Len(t, as, 2, "file %d", f)
		assert.ElementsMatch(t, []int{http.StatusCreated, http.StatusOK}, []int{as[0].status, as[1].status}, "file %d", f)
		assert.Equal(t, as[0].res.ID, as[1].res.ID, "file %d: both uploads name one asset", f)
	}

	stored := map[string]int{}
	for _, a := range listAssets(t, srv, keyAlice) {
		stored[a.Checksum]++
	}
	assert.Len(t, stored, files+1, "every file, plus the one asset of the dataset")
	for i := range files {
		assert.Equal(t, 1, stored[sha1Base64(fmt.Appendf(nil, "file number %d", i))], "file %d is stored once", i)
	}
}

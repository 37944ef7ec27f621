package api

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// TestACrowdHasItsAnswerMadeOnce: 32 callers that ask at once for an
// answer not yet made wait for the one that makes it, and all answer
// the same bytes: a crowd asking for a listing just changed holds one copy
// of it. A caller who comes after a write does not take an answer made
// from the state before it: it is made anew.
func TestACrowdHasItsAnswerMadeOnce(t *testing.T) {
	db, err := store.New(testDataset(), testNow)
	require.NoError(t, err)
	c := newAnswerCache(db)
	var made atomic.Int32
	release := make(chan struct{})
	build := func(*store.View) (any, error) {
		made.Add(1)
		<-release
		return "the answer", nil
	}
	var wg sync.WaitGroup
	answers := make([]encodedAnswer, 32)
	for i := range answers {
		wg.Go(func() {
			a, err := c.encoded(t.Context(), "key", store.Everything, build)
			assert.NoError(t, err)
			answers[i] = a
		})
	}
	require.Eventually(t, func() bool { return made.Load() == 1 }, 5*time.Second, time.Millisecond)
	waiting := func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.making["key"] != nil
	}
	require.True(t, waiting())
	close(release)
	wg.Wait()
	assert.Equal(t, int32(1), made.Load(), "made once for the crowd")
	for _, a := range answers {
		assert.Equal(t, answers[0].etag, a.etag)
	}

	// A write while the answer is being made: who came after it gets an
	// answer made anew. (The build runs outside the store's read lock
	// here, as the write could not happen during encoded's.)
	made.Store(0)
	release = make(chan struct{})
	buildAt := func() (encodedAnswer, error) {
		stamp := db.Stamp(store.Everything)
		made.Add(1)
		<-release
		return one(stamp, []byte(`"the answer"`)), nil
	}
	first := make(chan encodedAnswer)
	go func() {
		a, err := c.answer(t.Context(), "another", store.Everything, buildAt)
		assert.NoError(t, err)
		first <- a
	}()
	require.Eventually(t, func() bool { return made.Load() == 1 }, 5*time.Second, time.Millisecond)
	require.NoError(t, db.Write(func(tx *store.Tx) error { _, err := tx.AddAPIKey(aliceID, "a write"); return err }))
	second := make(chan encodedAnswer)
	go func() {
		a, err := c.answer(t.Context(), "another", store.Everything, buildAt)
		assert.NoError(t, err)
		second <- a
	}()
	require.Eventually(t, func() bool { // the second waits for the first's answer
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.making["another"] != nil
	}, 5*time.Second, time.Millisecond)
	close(release)
	a, b := <-first, <-second
	assert.Equal(t, int32(2), made.Load(), "the answer is made again for the caller who came after the write")
	assert.Less(t, a.stamp, b.stamp)
}

// TestAnswersAreMadeAFewAtATime: however many distinct answers are asked
// for at once, at most cap(makers) are being made.
func TestAnswersAreMadeAFewAtATime(t *testing.T) {
	db, err := store.New(testDataset(), testNow)
	require.NoError(t, err)
	c := newAnswerCache(db)
	var now, most atomic.Int32
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			_, err := c.encoded(t.Context(), string(rune('a'+i)), store.Everything, func(*store.View) (any, error) {
				n := now.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(5 * time.Millisecond)
				now.Add(-1)
				return i, nil
			})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, int(most.Load()), cap(c.makers))
	assert.Positive(t, most.Load())
}

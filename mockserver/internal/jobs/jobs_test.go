package jobs

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBoardHasTheReferencesQueues: every queue the reference's job page
// lists, none paused, nothing counted; no other.
func TestBoardHasTheReferencesQueues(t *testing.T) {
	b := NewBoard(nil)
	defer b.Close()
	all := b.Status()
	require.Len(t, all, 14)
	for _, name := range Names {
		require.Contains(t, all, name)
		assert.Equal(t, Status{}, all[name], name)
		assert.Equal(t, name, b.Queue(name).Name())
	}
	assert.Nil(t, b.Queue("nightly"))
}

// TestQueueCountsItsWork: an id waits, runs, then completes or fails; a
// panic fails its job and the worker goes on.
func TestQueueCountsItsWork(t *testing.T) {
	b := NewBoard(nil)
	defer b.Close()
	q := b.Queue(ThumbnailGeneration)
	release := make(chan struct{})
	q.Start(1, func(id string) error {
		<-release
		switch id {
		case "bad":
			return errors.New("broken file")
		case "panic":
			panic("decoder bug")
		}
		return nil
	})
	for _, id := range []string{"good", "bad", "panic", "good2"} {
		require.True(t, q.Push(id))
	}
	require.Eventually(t, func() bool { return q.Status().Counts.Active == 1 }, 5*time.Second, time.Millisecond)
	st := q.Status()
	assert.Equal(t, Counts{Active: 1, Waiting: 3}, st.Counts)
	assert.True(t, st.IsActive)
	close(release)
	require.Eventually(t, func() bool { return q.Status().Counts == Counts{Completed: 2, Failed: 2} }, 5*time.Second, time.Millisecond)
	assert.False(t, q.Status().IsActive)
	assert.Equal(t, 2, q.ClearFailed())
	assert.Equal(t, Counts{Completed: 2}, q.Status().Counts)
}

// TestPausedQueueHoldsItsJobs: a paused queue's workers take nothing (its
// ids count as paused); empty drops them; resume lets the rest run.
func TestPausedQueueHoldsItsJobs(t *testing.T) {
	b := NewBoard(nil)
	defer b.Close()
	q := b.Queue(ThumbnailGeneration)
	var done atomic.Int32
	q.Start(2, func(string) error { done.Add(1); return nil })
	q.Pause()
	q.Push("a")
	q.Push("b")
	time.Sleep(20 * time.Millisecond) // the workers would have taken them by now
	st := q.Status()
	assert.Equal(t, Counts{Paused: 2}, st.Counts)
	assert.True(t, st.IsPaused)
	assert.Zero(t, done.Load())

	assert.Equal(t, 2, q.Empty())
	q.Push("c")
	q.Resume()
	require.Eventually(t, func() bool { return q.Status().Counts == Counts{Completed: 1} }, 5*time.Second, time.Millisecond)
	assert.EqualValues(t, 1, done.Load(), "the emptied ids never ran")
	assert.False(t, q.Status().IsPaused)
}

// TestWorkRunElsewhere: Begin counts a job active until it ends, once;
// WhilePaused holds its caller while the queue is paused.
func TestWorkRunElsewhere(t *testing.T) {
	b := NewBoard(nil)
	defer b.Close()
	q := b.Queue(Library)
	end := q.Begin()
	assert.Equal(t, Status{Counts: Counts{Active: 1}, IsActive: true}, q.Status())
	end(errors.New("a folder went away"))
	end(nil) // once only
	assert.Equal(t, Counts{Failed: 1}, q.Status().Counts)

	q.Pause()
	passed := make(chan struct{})
	go func() { q.WhilePaused(); close(passed) }()
	select {
	case <-passed:
		t.Fatal("WhilePaused let its caller through a paused queue")
	case <-time.After(20 * time.Millisecond):
	}
	q.Resume()
	<-passed
}

// TestResetAndClose: a reset resumes every queue and forgets what was
// done; closing a paused queue still runs what waits, then refuses more.
func TestResetAndClose(t *testing.T) {
	b := NewBoard(nil)
	q := b.Queue(ThumbnailGeneration)
	var done atomic.Int32
	q.Start(1, func(string) error { done.Add(1); return nil })
	q.Begin()(nil)
	q.Pause()
	b.Queue(Sidecar).Pause()
	b.Reset()
	for _, st := range b.Status() {
		assert.Equal(t, Status{}, st)
	}
	q.Pause()
	q.Push("x")
	b.Close()
	assert.EqualValues(t, 1, done.Load())
	assert.False(t, q.Push("y"), "closed")
}

// TestPushIsBounded: a queue holds MaxWaiting ids, no more.
func TestPushIsBounded(t *testing.T) {
	q := NewBoard(nil).Queue(MetadataExtraction)
	for i := range MaxWaiting {
		require.True(t, q.Push("id"), i)
	}
	assert.False(t, q.Push("one too many"))
	assert.Equal(t, MaxWaiting, q.Status().Counts.Waiting)
}

// TestStarter: the work that owns a queue says what its start does.
func TestStarter(t *testing.T) {
	q := NewBoard(nil).Queue(Library)
	assert.Nil(t, q.Starter())
	var forced bool
	q.SetStarter(func(force bool) error { forced = force; return errors.New("no library") })
	require.EqualError(t, q.Starter()(true), "no library")
	assert.True(t, forced)
}

package load

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBucketsCoverEveryValue(t *testing.T) {
	for _, v := range []int64{0, 1, 127, 128, 129, 255, 256, 257, 1000, 4095, 4096, 1e6, 1e6 + 1, 123456789, 1 << 40, 1<<42 - 1} {
		i := bucketOf(v)
		lo, hi := bucketRange(i)
		require.LessOrEqual(t, lo, v, "value %d, bucket %d", v, i)
		require.GreaterOrEqual(t, hi, v, "value %d, bucket %d", v, i)
		assert.LessOrEqual(t, float64(hi-lo), float64(v)/subCount, "bucket of %d is too wide: [%d, %d]", v, lo, hi)
	}
	// Buckets are contiguous: each starts right after the previous one ends.
	for i := 1; i < numBuckets; i++ {
		_, prevHi := bucketRange(i - 1)
		lo, _ := bucketRange(i)
		require.Equal(t, prevHi+1, lo, "bucket %d", i)
	}
	assert.Equal(t, numBuckets-1, bucketOf(math.MaxInt64), "huge values land in the last bucket")
	assert.Equal(t, 0, bucketOf(-5), "negative values count as zero")
}

func TestHistogramQuantiles(t *testing.T) {
	tests := []struct {
		name   string
		values func() []time.Duration
	}{
		{"constant 5ms", func() []time.Duration { return slices.Repeat([]time.Duration{5 * time.Millisecond}, 1000) }},
		{"uniform 1µs to 10ms", func() []time.Duration {
			var v []time.Duration
			for i := 1; i <= 10000; i++ {
				v = append(v, time.Duration(i)*time.Microsecond)
			}
			return v
		}},
		{"bimodal: 98 fast, 2 slow", func() []time.Duration {
			v := slices.Repeat([]time.Duration{200 * time.Microsecond}, 98)
			return append(v, 2*time.Second, 3*time.Second)
		}},
		{"one value", func() []time.Duration { return []time.Duration{42 * time.Millisecond} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			values := tt.values()
			h := newHistogram()
			for _, v := range values {
				h.record(v)
			}
			sorted := slices.Sorted(slices.Values(values))
			for _, q := range []float64{0.5, 0.9, 0.99, 1} {
				exact := sorted[max(int(math.Ceil(q*float64(len(sorted))))-1, 0)]
				got := h.quantile(q)
				assert.InDelta(t, float64(exact), float64(got), float64(exact)/100+1, "q%.2f", q)
			}
			assert.Equal(t, sorted[len(sorted)-1], h.max)
			var sum time.Duration
			for _, v := range values {
				sum += v
			}
			assert.Equal(t, sum/time.Duration(len(values)), h.mean())
		})
	}
}

func TestHistogramMergeAndCoarse(t *testing.T) {
	a, b := newHistogram(), newHistogram()
	a.record(100 * time.Microsecond)
	a.record(900 * time.Microsecond)
	b.record(3 * time.Millisecond)
	b.record(3 * time.Millisecond)
	a.merge(b)
	assert.EqualValues(t, 4, a.n)
	assert.Equal(t, 3*time.Millisecond, a.max)
	assert.Equal(t, []Bucket{{LeMs: 0.125, Count: 1}, {LeMs: 1, Count: 1}, {LeMs: 4, Count: 2}}, a.coarse())
	assert.Zero(t, newHistogram().quantile(0.5), "an empty histogram has no quantiles")
	assert.Nil(t, newHistogram().coarse())
}

package load

import (
	"math"
	"math/bits"
	"time"
)

// The histogram is log-linear, like HdrHistogram: values below 2^subBits
// nanoseconds have a bucket each, and every power of two above is split into
// 2^subBits buckets, so a bucket is never wider than 1/128 of its value
// (0.8%). Recording is an index computation and an increment, cheap enough
// for every request, and histograms of workers add up without locks.
const (
	subBits    = 7
	subCount   = 1 << subBits
	maxShift   = 42 - subBits // values up to 2^42 ns (73 min); longer ones land in the last bucket
	numBuckets = (maxShift + 2) * subCount
)

// histogram counts latencies. The zero value is not usable: use newHistogram.
type histogram struct {
	counts []int64
	n      int64
	sum    time.Duration
	max    time.Duration
}

func newHistogram() *histogram { return &histogram{counts: make([]int64, numBuckets)} }

// bucketOf returns the bucket of a duration in nanoseconds.
func bucketOf(ns int64) int {
	if ns < 0 {
		ns = 0
	}
	v := uint64(ns)
	if v < subCount {
		return int(v)
	}
	shift := bits.Len64(v) - subBits - 1 // v>>shift is in [subCount, 2*subCount)
	if shift > maxShift {
		return numBuckets - 1
	}
	return (shift+1)<<subBits + int(v>>shift) - subCount
}

// bucketRange returns the smallest and largest value of bucket i, in
// nanoseconds.
func bucketRange(i int) (lo, hi int64) {
	if i < 2*subCount {
		return int64(i), int64(i)
	}
	shift := i>>subBits - 1
	mantissa := int64(i&(subCount-1) + subCount)
	lo = mantissa << shift
	return lo, lo + 1<<shift - 1
}

// record adds one latency.
func (h *histogram) record(d time.Duration) {
	h.counts[bucketOf(int64(d))]++
	h.n++
	h.sum += d
	h.max = max(h.max, d)
}

// merge adds o's counts to h.
func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
	h.max = max(h.max, o.max)
}

// quantile returns the latency below which a fraction q of the recorded ones
// lie: the middle of the bucket holding the ceil(q·n)-th value, never more
// than the largest recorded value. Zero when nothing was recorded.
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := max(int64(math.Ceil(q*float64(h.n))), 1)
	var seen int64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			lo, hi := bucketRange(i)
			return min(time.Duration(lo+(hi-lo)/2), h.max)
		}
	}
	return h.max
}

// mean returns the average latency.
func (h *histogram) mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// coarse returns the counts in power-of-two millisecond buckets (≤0.125 ms,
// ≤0.25 ms, ... up to the largest value), leaving out empty ones: a shape of
// the distribution small enough for a report.
func (h *histogram) coarse() []Bucket {
	if h.n == 0 {
		return nil
	}
	var out []Bucket
	le := 125 * time.Microsecond
	var pending int64
	for i, c := range h.counts {
		if c == 0 {
			continue
		}
		_, hi := bucketRange(i)
		for time.Duration(hi) > le {
			if pending > 0 {
				out = append(out, Bucket{LeMs: ms(le), Count: pending})
				pending = 0
			}
			le *= 2
		}
		pending += c
	}
	if pending > 0 {
		out = append(out, Bucket{LeMs: ms(le), Count: pending})
	}
	return out
}

// ms converts a duration to milliseconds, rounded to the microsecond.
func ms(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

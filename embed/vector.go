package embed

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Normalize scales v in place to unit L2 norm and returns it. The zero
// vector stays zero.
func Normalize(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return v
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return v
}

// dot is the dot product of a row (of float32, or of an int8 index) and
// a vector of the same length; for normalised vectors it is their cosine
// similarity. It is unrolled by four; the compiler removes the bounds
// checks.
func dot[T float32 | int8](a []T, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += float32(a[i]) * b[i]
		s1 += float32(a[i+1]) * b[i+1]
		s2 += float32(a[i+2]) * b[i+2]
		s3 += float32(a[i+3]) * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += float32(a[i]) * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// checkFinite reports whether every value is a finite number.
func checkFinite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// embedLocal runs an in-process embedding function over texts, on up to
// GOMAXPROCS goroutines when there are enough texts to share, stopping
// early when ctx is cancelled.
func embedLocal(ctx context.Context, texts []string, fn func(string) []float32) ([][]float32, error) {
	out := make([][]float32, len(texts))
	Each(ctx, len(texts), 8, func(i int) { out[i] = fn(texts[i]) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Each calls fn(i) for every i in [0, n), on up to GOMAXPROCS goroutines
// with at least perWorker items each, and returns when all calls are done.
// Once ctx is cancelled no further call starts.
func Each(ctx context.Context, n, perWorker int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), n/max(1, perWorker))) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}

package embed

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// remote is an embedder behind an HTTP API: Ollama or OpenAI-compatible.
// The two differ only in the endpoint and the JSON; batching, timeouts,
// retries and checks are shared.
//
// Texts are sent BatchSize at a time, batches one after another. Each
// request has its own Timeout. Network errors, HTTP 408, 429 and 5xx are
// retried up to Retries times, waiting an exponential backoff with jitter
// (0.5s, 1s, 2s, ... up to 30s) or what the server's Retry-After asks (up
// to a minute); when they run out the error wraps ErrUnavailable. Other
// 4xx answers are not retried and wrap ErrRejected; answers that are not
// the expected embeddings wrap ErrBadResponse.
//
// Dimension returns 0 until the first successful answer; from then on every
// answer must have that dimension.
type remote struct {
	provider string // "ollama" or "openai"
	model    string
	endpoint string
	cfg      Options // with the defaults applied (Options.remote)
	dim      atomic.Int64
	api      remoteAPI

	// sleep waits between retries; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

var _ Embedder = (*remote)(nil)

const (
	backoffBase   = 500 * time.Millisecond
	maxRetryAfter = time.Minute
	maxResponse   = 256 << 20
)

func (e *remote) Model() string  { return e.provider + ":" + e.model }
func (e *remote) Dimension() int { return int(e.dim.Load()) }

// Embed sends the texts in batches and returns their normalised vectors.
func (e *remote) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.cfg.BatchSize {
		end := min(start+e.cfg.BatchSize, len(texts))
		vecs, err := e.embedBatch(ctx, texts[start:end])
		if err != nil {
			return nil, fmt.Errorf("%s %s at %s: %w", e.provider, e.model, e.cfg.BaseURL, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// attemptError is the failure of one request.
type attemptError struct {
	err   error
	retry bool
	after time.Duration // the server's Retry-After, if any
}

func (e *remote) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(embedRequest{Model: e.model, Input: texts, EncodingFormat: e.api.format})
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		vecs, aerr := e.try(ctx, body, len(texts))
		if aerr == nil {
			return e.check(vecs)
		}
		if !aerr.retry || attempt >= e.cfg.Retries || ctx.Err() != nil {
			if aerr.retry && ctx.Err() == nil {
				return nil, fmt.Errorf("%w (after %d attempts)%s", aerr.err, attempt+1, e.api.hint)
			}
			return nil, aerr.err
		}
		wait := aerr.after
		if wait <= 0 {
			wait = backoff(attempt)
		}
		sleep := e.sleep
		if sleep == nil {
			sleep = sleepCtx
		}
		if err := sleep(ctx, min(wait, maxRetryAfter)); err != nil {
			return nil, err
		}
	}
}

// try makes one request.
func (e *remote) try(ctx context.Context, body []byte, n int) ([][]float32, *attemptError) {
	actx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, e.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &attemptError{err: fmt.Errorf("%w: %v", ErrRejected, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "vaultgraph")
	if e.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.cfg.APIKey)
	}
	// unreachable is a failure to talk to the server: retried, unless
	// the caller gave up.
	unreachable := func(err error) *attemptError {
		if ctx.Err() != nil {
			return &attemptError{err: ctx.Err()}
		}
		return &attemptError{err: fmt.Errorf("%w: %v", ErrUnavailable, err), retry: true}
	}
	resp, err := e.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, unreachable(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return nil, unreachable(fmt.Errorf("reading the answer: %v", err))
	}
	code := resp.StatusCode
	switch {
	case code >= 200 && code < 300:
		vecs, err := e.api.decode(data, n)
		if err != nil {
			return nil, &attemptError{err: fmt.Errorf("%w: %v", ErrBadResponse, err)}
		}
		return vecs, nil
	case code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500:
		return nil, &attemptError{
			err:   fmt.Errorf("%w: HTTP %d: %s", ErrUnavailable, code, serverMessage(data)),
			retry: true,
			after: retryAfter(resp.Header.Get("Retry-After"), time.Now()),
		}
	default:
		return nil, &attemptError{err: fmt.Errorf("%w: HTTP %d: %s", ErrRejected, code, serverMessage(data))}
	}
}

// check enforces one dimension across answers, finite values and unit
// norm.
func (e *remote) check(vecs [][]float32) ([][]float32, error) {
	for i, v := range vecs {
		if len(v) == 0 {
			return nil, fmt.Errorf("%w: vector %d is empty", ErrBadResponse, i)
		}
		if len(v) != len(vecs[0]) {
			return nil, fmt.Errorf("%w: vectors of %d and %d dimensions in one answer", ErrBadResponse, len(vecs[0]), len(v))
		}
		if !checkFinite(v) {
			return nil, fmt.Errorf("%w: vector %d holds NaN or infinity", ErrBadResponse, i)
		}
		Normalize(v)
	}
	if len(vecs) == 0 {
		return vecs, nil
	}
	d := int64(len(vecs[0]))
	if !e.dim.CompareAndSwap(0, d) {
		if known := e.dim.Load(); known != d {
			return nil, fmt.Errorf("%w: dimension changed from %d to %d", ErrBadResponse, known, d)
		}
	}
	return vecs, nil
}

// backoff is the wait before retry number attempt+1: exponential with
// "equal jitter" (half fixed, half random).
func backoff(attempt int) time.Duration {
	d := backoffBase << min(attempt, 10)
	d = min(d, defaultMaxBackoff)
	return d/2 + rand.N(d/2+1)
}

// retryAfter parses a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.Atoi(h); err == nil {
		return max(time.Duration(s)*time.Second, 0)
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// serverMessage extracts an error message from an error body: Ollama's
// {"error":"..."}, OpenAI's {"error":{"message":"..."}}, or the text.
func serverMessage(body []byte) string {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) == nil && len(v.Error) > 0 {
		var s string
		if json.Unmarshal(v.Error, &s) == nil {
			return s
		}
		var o struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(v.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return strings.ToValidUTF8(cmp.Or(s, "(empty body)"), "?")
}

// errCount is returned by the decoders for a wrong number of vectors.
var errCount = errors.New("wrong number of vectors")

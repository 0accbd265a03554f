package vault

import (
	"slices"
	"time"
)

// Default debounce timings: an editor's save burst (write, chmod, rename)
// settles well within Quiet, and MaxDelay bounds how long a path that
// keeps changing waits, so an edit is visible in well under a second.
const (
	DefaultQuiet    = 100 * time.Millisecond
	DefaultMaxDelay = 400 * time.Millisecond
)

// Debouncer coalesces change events per path. It is pure policy with no
// clock or goroutine of its own: callers pass the time, which keeps it
// easy to test. A path is due once no event for it arrived for Quiet, or
// MaxDelay after its first pending event, whichever comes first.
type Debouncer struct {
	Quiet, MaxDelay time.Duration
	pending         map[string]pendingPath
}

type pendingPath struct{ first, last time.Time }

// NewDebouncer returns a Debouncer with the given timings (zero values
// take the defaults).
func NewDebouncer(quiet, maxDelay time.Duration) *Debouncer {
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	if maxDelay < quiet {
		maxDelay = max(DefaultMaxDelay, quiet)
	}
	return &Debouncer{Quiet: quiet, MaxDelay: maxDelay, pending: map[string]pendingPath{}}
}

// Add records an event for path at now.
func (d *Debouncer) Add(path string, now time.Time) {
	p, ok := d.pending[path]
	if !ok {
		p.first = now
	}
	p.last = now
	d.pending[path] = p
}

func (d *Debouncer) due(p pendingPath) time.Time {
	quiet := p.last.Add(d.Quiet)
	if limit := p.first.Add(d.MaxDelay); limit.Before(quiet) {
		return limit
	}
	return quiet
}

// Due removes and returns, sorted, the paths due at now.
func (d *Debouncer) Due(now time.Time) []string {
	var out []string
	for path, p := range d.pending {
		if !d.due(p).After(now) {
			out = append(out, path)
			delete(d.pending, path)
		}
	}
	slices.Sort(out)
	return out
}

// Next returns how long until the next path is due, and false when none
// is pending.
func (d *Debouncer) Next(now time.Time) (time.Duration, bool) {
	var next time.Time
	for _, p := range d.pending {
		if t := d.due(p); next.IsZero() || t.Before(next) {
			next = t
		}
	}
	if next.IsZero() {
		return 0, false
	}
	return max(next.Sub(now), 0), true
}

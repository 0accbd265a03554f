package vault

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// t0 is the start of every Debouncer test's explicit time line.
var t0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func TestNewDebouncerDefaults(t *testing.T) {
	tests := []struct {
		desc                    string
		giveQuiet, giveMaxDelay time.Duration
		wantQuiet, wantMaxDelay time.Duration
	}{
		{"zero values", 0, 0, DefaultQuiet, DefaultMaxDelay},
		{"negative values", -1, -1, DefaultQuiet, DefaultMaxDelay},
		{"both given", ms(20), ms(50), ms(20), ms(50)},
		{"max delay equal to quiet", ms(50), ms(50), ms(50), ms(50)},
		{"max delay below quiet", ms(50), ms(20), ms(50), DefaultMaxDelay},
		{"quiet above the default max delay", time.Second, 0, time.Second, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			d := NewDebouncer(tt.giveQuiet, tt.giveMaxDelay)
			if d.Quiet != tt.wantQuiet || d.MaxDelay != tt.wantMaxDelay {
				t.Errorf("NewDebouncer(%v, %v) = quiet %v, max delay %v, want %v, %v",
					tt.giveQuiet, tt.giveMaxDelay, d.Quiet, d.MaxDelay, tt.wantQuiet, tt.wantMaxDelay)
			}
			if len(d.pending) != 0 {
				t.Errorf("len(NewDebouncer().pending) = %d, want 0", len(d.pending))
			}
		})
	}
}

// debStep is one instant of a Debouncer test: the events added at, then
// what Due and Next say at that same instant.
type debStep struct {
	at       int      // milliseconds after t0
	add      []string // paths with an event at this instant
	wantDue  []string // Due(at), after the adds
	wantNext int      // Next(at) in milliseconds after Due; -1 for nothing pending
}

func TestDebouncer(t *testing.T) {
	// Quiet 100 ms, MaxDelay 400 ms throughout.
	tests := []struct {
		desc  string
		steps []debStep
	}{
		{
			desc: "one event is due after the quiet period",
			steps: []debStep{
				{at: 0, add: []string{"a.md"}, wantNext: 100},
				{at: 60, wantNext: 40},
				{at: 99, wantNext: 1},
				{at: 100, wantDue: []string{"a.md"}, wantNext: -1},
				{at: 500, wantNext: -1},
			},
		},
		{
			desc: "a late Due returns the path once",
			steps: []debStep{
				{at: 0, add: []string{"a.md"}, wantNext: 100},
				{at: 250, wantDue: []string{"a.md"}, wantNext: -1},
				{at: 260, wantNext: -1},
			},
		},
		{
			desc: "an event in the quiet period restarts it",
			steps: []debStep{
				{at: 0, add: []string{"a.md"}, wantNext: 100},
				{at: 50, add: []string{"a.md"}, wantNext: 100},
				{at: 120, add: []string{"a.md"}, wantNext: 100},
				{at: 219, wantNext: 1},
				{at: 220, wantDue: []string{"a.md"}, wantNext: -1},
			},
		},
		{
			desc: "a path that keeps changing is due after the max delay",
			steps: []debStep{
				{at: 0, add: []string{"busy.md"}, wantNext: 100},
				{at: 80, add: []string{"busy.md"}, wantNext: 100},
				{at: 160, add: []string{"busy.md"}, wantNext: 100},
				{at: 240, add: []string{"busy.md"}, wantNext: 100},
				{at: 320, add: []string{"busy.md"}, wantNext: 80}, // capped by first+400
				{at: 399, add: []string{"busy.md"}, wantNext: 1},
				{at: 400, add: []string{"busy.md"}, wantDue: []string{"busy.md"}, wantNext: -1},
				// The next event starts a new period.
				{at: 480, add: []string{"busy.md"}, wantNext: 100},
				{at: 580, wantDue: []string{"busy.md"}, wantNext: -1},
			},
		},
		{
			desc: "paths are debounced independently",
			steps: []debStep{
				{at: 0, add: []string{"a.md"}, wantNext: 100},
				{at: 60, add: []string{"b.md"}, wantNext: 40},
				{at: 100, wantDue: []string{"a.md"}, wantNext: 60},
				{at: 130, add: []string{"b.md"}, wantNext: 100},
				{at: 230, wantDue: []string{"b.md"}, wantNext: -1},
			},
		},
		{
			desc: "a busy path does not hold back a quiet one",
			steps: []debStep{
				{at: 0, add: []string{"busy.md", "quiet.md"}, wantNext: 100},
				{at: 90, add: []string{"busy.md"}, wantNext: 10},
				{at: 100, wantDue: []string{"quiet.md"}, wantNext: 90},
				{at: 180, add: []string{"busy.md"}, wantNext: 100},
				{at: 270, add: []string{"busy.md"}, wantNext: 100},
				{at: 360, add: []string{"busy.md"}, wantNext: 40},
				{at: 400, wantDue: []string{"busy.md"}, wantNext: -1},
			},
		},
		{
			desc: "many paths due at once come sorted",
			steps: []debStep{
				{at: 0, add: []string{"c.md", "Notes/b.md", "a.md", "Notes", "z/y.png"}, wantNext: 100},
				{at: 10, add: []string{"a.md"}, wantNext: 90},
				{at: 100, wantDue: []string{"Notes", "Notes/b.md", "c.md", "z/y.png"}, wantNext: 10},
				{at: 110, wantDue: []string{"a.md"}, wantNext: -1},
			},
		},
		{
			desc: "Next is the time to the earliest due path",
			steps: []debStep{
				{at: 0, add: []string{"a.md"}, wantNext: 100},
				{at: 50, add: []string{"b.md"}, wantNext: 50},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			d := NewDebouncer(ms(100), ms(400))
			for _, s := range tt.steps {
				now := t0.Add(ms(s.at))
				for _, p := range s.add {
					d.Add(p, now)
				}
				if got := d.Due(now); !slices.Equal(got, s.wantDue) {
					t.Errorf("at %d ms: Due() = %q, want %q", s.at, got, s.wantDue)
				}
				next, ok := d.Next(now)
				switch {
				case s.wantNext < 0 && ok:
					t.Errorf("at %d ms: Next() = %v, true, want nothing pending", s.at, next)
				case s.wantNext >= 0 && (!ok || next != ms(s.wantNext)):
					t.Errorf("at %d ms: Next() = %v, %v, want %v, true", s.at, next, ok, ms(s.wantNext))
				}
				if ok != (len(d.pending) > 0) {
					t.Errorf("at %d ms: Next() ok = %v with %d pending", s.at, ok, len(d.pending))
				}
			}
		})
	}
}

func TestDebouncerOverdueNext(t *testing.T) {
	d := NewDebouncer(ms(100), ms(400))
	d.Add("a.md", t0)
	if next, ok := d.Next(t0.Add(time.Second)); !ok || next != 0 {
		t.Errorf("Next(1s after an event) = %v, %v, want 0, true", next, ok)
	}
	if got := d.Due(t0.Add(time.Second)); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("Due(1s after an event) = %q, want [a.md]", got)
	}
}

// batch is what debounceLoop sends: the paths and when (fake time).
type batch struct {
	at    time.Duration // since the loop started
	paths []string
}

func (b batch) String() string { return fmt.Sprintf("%v %q", b.at, b.paths) }

// debounceLoop is the timing core of Watcher.Run: one goroutine owning a
// Debouncer, a timer armed for the next due path, and a channel of
// batches.
func debounceLoop(ctx context.Context, deb *Debouncer, in <-chan []string, out chan<- batch) {
	start := time.Now()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	arm := func() {
		if d, ok := deb.Next(time.Now()); ok {
			timer.Reset(d)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case paths := <-in:
			for _, p := range paths {
				deb.Add(p, time.Now())
			}
			arm()
		case <-timer.C:
			if due := deb.Due(time.Now()); len(due) > 0 {
				out <- batch{time.Since(start), due}
			}
			arm()
		}
	}
}

func TestDebounceLoop(t *testing.T) {
	type event struct {
		at    int // ms since the loop started
		paths []string
	}
	tests := []struct {
		desc   string
		events []event
		want   []string // batches as "at [paths]"
	}{
		{
			desc:   "a save burst is one batch",
			events: []event{{0, []string{"a.md"}}, {5, []string{"a.md"}}, {7, []string{"a.md"}}},
			want:   []string{`107ms ["a.md"]`},
		},
		{
			desc: "an atomic save reports the temporary file and the note together",
			events: []event{
				{0, []string{"a.md.tmp"}}, {2, []string{"a.md.tmp"}}, {3, []string{"a.md.tmp", "a.md"}},
			},
			want: []string{`103ms ["a.md" "a.md.tmp"]`},
		},
		{
			desc: "edits apart are separate batches",
			events: []event{
				{0, []string{"a.md"}}, {300, []string{"a.md"}}, {310, []string{"b.md"}},
			},
			want: []string{`100ms ["a.md"]`, `400ms ["a.md"]`, `410ms ["b.md"]`},
		},
		{
			desc: "a file written every 60 ms is reported every 400 ms",
			events: func() []event {
				var evs []event
				for at := 0; at < 1000; at += 60 {
					evs = append(evs, event{at, []string{"log.md"}})
				}
				return evs
			}(),
			// Periods start at 0, 420 and 840 (the first event after each
			// batch); the last event, at 960, is followed by quiet.
			want: []string{`400ms ["log.md"]`, `820ms ["log.md"]`, `1.06s ["log.md"]`},
		},
		{
			desc: "a busy file does not delay a quiet one",
			events: []event{
				{0, []string{"busy.md", "quiet.md"}}, {60, []string{"busy.md"}}, {120, []string{"busy.md"}},
				{180, []string{"busy.md"}},
			},
			want: []string{`100ms ["quiet.md"]`, `280ms ["busy.md"]`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				in := make(chan []string)
				out := make(chan batch, 100)
				done := make(chan struct{})
				go func() {
					debounceLoop(ctx, NewDebouncer(ms(100), ms(400)), in, out)
					close(done)
				}()
				start := time.Now()
				for _, ev := range tt.events {
					time.Sleep(time.Until(start.Add(ms(ev.at))))
					in <- ev.paths
				}
				time.Sleep(2 * time.Second) // everything is due long before
				synctest.Wait()
				cancel()
				<-done
				close(out)
				var got []string
				for b := range out {
					got = append(got, b.String())
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("batches = %q, want %q", got, tt.want)
				}
			})
		})
	}
}

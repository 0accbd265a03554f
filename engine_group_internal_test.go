package vaultgraph

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestBatchQueueGathers checks batchQueue.coming: a leader waits for the
// items announced as coming and takes them in its batch, and waits at
// most gatherFor when they never come.
func TestBatchQueueGathers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		writing := true // guarded by mu
		var q batchQueue[*groupSync]
		q.coming = func() bool { return writing }
		var batches [][]string
		var began []time.Duration
		start := time.Now()
		work := func(b []*groupSync) {
			var names []string
			for _, s := range b {
				names = append(names, s.paths...)
			}
			batches = append(batches, names)
			began = append(began, time.Since(start))
		}
		send := func(name string) {
			go q.run(&mu, &groupSync{paths: []string{name}, turn: newTurn()}, work, nil)
		}
		send("a") // leads, and waits: a group is being written
		time.Sleep(2 * time.Millisecond)
		send("b") // the group written
		time.Sleep(time.Millisecond)
		mu.Lock()
		writing = false
		mu.Unlock()
		time.Sleep(gatherPoll) // the leader's next look
		synctest.Wait()
		if want := [][]string{{"a", "b"}}; !slices.EqualFunc(batches, want, slices.Equal) {
			t.Errorf("batches = %q, want %q", batches, want)
		}

		// Announced items that never come hold the leader gatherFor.
		batches, began = nil, nil
		mu.Lock()
		writing = true
		mu.Unlock()
		start = time.Now()
		send("c")
		time.Sleep(2 * gatherFor)
		synctest.Wait()
		if want := [][]string{{"c"}}; !slices.EqualFunc(batches, want, slices.Equal) {
			t.Errorf("batches = %q, want %q", batches, want)
		}
		if len(began) != 1 || began[0] < gatherFor || began[0] > gatherFor+gatherPoll {
			t.Errorf("batch began after %v, want after gatherFor (%v)", began, gatherFor)
		}
	})
}

// TestHeavyReadsBounded admits heavyPerCore searches per core at once
// and makes the next one wait until one of them ends (or its context
// does).
func TestHeavyReadsBounded(t *testing.T) {
	e := New(Options{})
	slots := heavyPerCore * runtime.GOMAXPROCS(0)
	var dones []func()
	for range slots {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		done, err := e.heavyRead(ctx)
		cancel()
		if err != nil {
			t.Fatalf("read %d of %d not admitted: %v", len(dones)+1, slots, err)
		}
		dones = append(dones, done)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	if _, err := e.heavyRead(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("read %d admitted (err %v), want it to wait", slots+1, err)
	}
	cancel()
	dones[0]()
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	done, err := e.heavyRead(ctx)
	if err != nil {
		t.Fatalf("read after one ended not admitted: %v", err)
	}
	done()
}

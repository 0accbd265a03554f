package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// linkNotes makes n notes of a few words and perLink links each, to notes
// drawn at random (one in ten to a note that does not exist), with their
// resolution, as a cold index writes them.
func linkNotes(n, perNote int) []*Record {
	rng := rand.New(rand.NewPCG(3, 4))
	recs := make([]*Record, n)
	for i := range n {
		id := fmt.Sprintf("N%05d.md", i)
		body := fmt.Sprintf("note %d links to others: ", i)
		r := &Record{Note: &vault.Note{ID: id, Title: fmt.Sprintf("N%05d", i), Size: 100}, Path: id}
		for j := range perNote {
			k := rng.IntN(n + n/10)
			target := fmt.Sprintf("N%05d", k)
			start := len(body)
			body += "[[" + target + "]] then words, "
			l := vault.Link{Kind: vault.KindWiki, Target: target, Start: start, End: start + len(target) + 4,
				TargetStart: start + 2, TargetEnd: start + 2 + len(target), Line: 1 + j}
			if j%4 == 0 {
				l.Alias = "alias"
			}
			r.Note.Links = append(r.Note.Links, l)
			if k < n {
				r.Resolved, r.Status = append(r.Resolved, target+".md"), append(r.Status, vault.Resolved)
			} else {
				r.Resolved, r.Status = append(r.Resolved, ""), append(r.Status, vault.Broken)
			}
		}
		r.Body = body
		recs[i] = r
	}
	return recs
}

// BenchmarkApplyLinks times a cold index's writes of 2,000 notes with
// eight links each, in batches of 500 that defer the anchor text as an
// index pass does.
func BenchmarkApplyLinks(b *testing.B) {
	recs := linkNotes(2000, 8)
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.Note.ID
	}
	ctx := context.Background()
	cpu := processCPU()
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		s, err := Open(ctx, filepath.Join(dir, "index.db"), WithVault(dir))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := s.Apply(ctx, &Batch{Reserve: ids, DeferAnchors: true, Meta: map[string]string{"consistent": "0"}}); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < len(recs); i += 500 {
			last := i+500 >= len(recs)
			if err := s.Apply(ctx, &Batch{Upserts: recs[i : i+500], DeferAnchors: !last}); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	// The CPU time of the process (the writer and the collector): on a
	// loaded machine a steadier figure than the wall time.
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkApplyLive times live writes (a group commit, a watcher pass)
// of one note with eight links each, over an index of 2,000 such notes:
// a transaction, its statements, its full-text segment and merges.
func BenchmarkApplyLive(b *testing.B) {
	recs := linkNotes(2000, 8)
	ctx := context.Background()
	dir := b.TempDir()
	s, err := Open(ctx, filepath.Join(dir, "index.db"), WithVault(dir))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.Apply(ctx, &Batch{Upserts: recs}); err != nil {
		b.Fatal(err)
	}
	cpu := processCPU()
	i := 0
	for b.Loop() {
		r := *recs[i%len(recs)]
		r.Body += fmt.Sprintf(" edit %d", i)
		if err := s.Apply(ctx, &Batch{Upserts: []*Record{&r}}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

package vaultgraph

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// DefaultRenameWindow is how long a note that went waits for a note that
// appeared (or the other way round) to be paired with it as a rename made
// outside vaultgraph (Options.RenameWindow).
const DefaultRenameWindow = 5 * time.Second

// maxSimilarPairs bounds the comparisons of a pairing by similar content;
// maxRenameSeen bounds each side of the notes kept for pairing; below
// maxFewPairs comparisons, notes that nothing linked are paired too.
const (
	maxSimilarPairs = 250_000
	maxRenameSeen   = 100_000
	maxFewPairs     = 10_000
)

// metaRenames is the meta key of the pending rename repairs (JSON), so
// they survive a restart.
const metaRenames = "renameRepairs"

// RenameRepair is a rename or move made outside vaultgraph (in a file
// manager, with git mv, by a sync client) that left links in other notes
// pointing at the old path: rewriting them is pending.
type RenameRepair struct {
	// From is the note's old ID, To its new one.
	From string `json:"from"`
	To   string `json:"to"`
	// Links counts the links in other notes that still mean From.
	Links int `json:"links"`
	// Similar says the contents were nearly, not exactly, the same.
	Similar bool `json:"similar,omitempty"`
	// Ambiguous says another candidate fits as well: the repair is
	// offered, never applied by itself.
	Ambiguous bool `json:"ambiguous,omitempty"`
	// Found is when the rename was found.
	Found time.Time `json:"found"`
}

// renameState is what the engine tracks of renames made outside it
// (guarded by e.mu): the notes that went and appeared recently, and the
// pending repairs.
type renameState struct {
	gone, added []seenNote
	pending     []RenameRepair
	dirty       bool // pending changed since the index last stored it
	// moves are the sure pairs found lately, repaired or not: where the
	// notes moved with a note being repaired went.
	moves []movedNote
}

// movedNote is a note found to have moved from one path to another.
type movedNote struct {
	from, to string
	at       time.Time
}

// keepMoves is how long, and how many, sure pairs are kept as moves.
const (
	keepMoves    = 10 * time.Minute
	maxKeptMoves = 10_000
)

// moved records the sure pair from -> to found at now, forgetting the
// moves older than keepMoves.
func (rs *renameState) moved(from, to string, now time.Time) {
	rs.moves = slices.DeleteFunc(rs.moves, func(m movedNote) bool { return now.Sub(m.at) > keepMoves || m.from == from })
	rs.moves = append(rs.moves, movedNote{from: from, to: to, at: now})
	rs.moves = rs.moves[max(0, len(rs.moves)-maxKeptMoves):]
}

// seenNote is a note that went or appeared at a time.
type seenNote struct {
	note     *vault.Note
	at       time.Time
	incoming bool // it had links from other notes when it went
}

// renameSeen is what one index pass saw of notes going and appearing.
type renameSeen struct {
	gone, added []seenNote
}

// seeGone records, before a note is dropped, that it went (caller holds
// e.mu).
func (e *Engine) seeGone(p *pass, ns *noteState) {
	id := ns.note.ID
	// At a start the links are not known yet: pairRenames counts them.
	incoming := p.start || slices.ContainsFunc(e.refIndex()[refKey(id)], func(src string) bool {
		s, ok := e.notes[src]
		return ok && src != id && slices.Contains(s.resolved, id)
	})
	p.seen.gone = append(p.seen.gone, seenNote{note: ns.full(), incoming: incoming})
}

// seeAdded records that a note appeared (caller holds e.mu), unless
// the pass is a start at which no note went: it has nothing to pair it
// with (pairRenames).
func (p *pass) seeAdded(ns *noteState) {
	if p.start && len(p.d.gone) == 0 {
		return
	}
	p.seen.added = append(p.seen.added, seenNote{note: ns.full()})
}

// trackRenames pairs the notes that went with those that appeared, in
// this pass and (live) within the rename window before it, turns each
// pair whose old path other notes still link to into a pending repair,
// drops the repairs no longer valid, and batches the pending list when it
// changed (caller holds e.mu, at the end of a pass).
func (e *Engine) trackRenames(p *pass) {
	rs := &e.renames
	before := slices.Clone(rs.pending)
	now := time.Now()
	if p.start {
		e.pairRenames(p.seen.gone, p.seen.added, now)
	} else {
		e.trackLive(p, now)
	}
	// A pair whose links need no repair stays while others found with it
	// do: it says where the notes that moved with them are now.
	withLinks := map[time.Time]bool{}
	for i := range rs.pending {
		if e.countRepairLinks(&rs.pending[i]) > 0 {
			withLinks[rs.pending[i].Found] = true
		}
	}
	rs.pending = slices.DeleteFunc(rs.pending, func(r RenameRepair) bool {
		_, back := e.index.Note(r.From)
		_, here := e.notes[r.To]
		return back || !here || !withLinks[r.Found]
	})
	if rs.dirty || !slices.Equal(before, rs.pending) {
		rs.dirty = false
		if p.batch.Meta == nil {
			p.batch.Meta = map[string]string{}
		}
		p.batch.Meta[metaRenames] = encodeRepairs(rs.pending)
	}
}

// trackLive keeps the notes that went and appeared in the pass p with
// those of the rename window before it and pairs them (caller holds
// e.mu). A note that appeared and was edited since (an editor writing it
// in steps) is paired as it is now.
func (e *Engine) trackLive(p *pass, now time.Time) {
	rs := &e.renames
	window := e.opts.RenameWindow
	if window <= 0 {
		window = DefaultRenameWindow
	}
	for i := range p.seen.gone {
		p.seen.gone[i].at = now
	}
	for i := range p.seen.added {
		p.seen.added[i].at = now
	}
	fresh := func(s []seenNote, present bool) []seenNote {
		out := s[:0]
		for _, n := range s {
			ns, ok := e.notes[n.note.ID]
			if now.Sub(n.at) > window || ok != present {
				continue
			}
			if ok {
				n.note = ns.full()
			}
			out = append(out, n)
		}
		return out[max(0, len(out)-maxRenameSeen):]
	}
	rs.gone = fresh(append(rs.gone, p.seen.gone...), false)
	rs.added = fresh(append(rs.added, p.seen.added...), true)
	if len(rs.gone) == 0 || len(rs.added) == 0 {
		return
	}
	paired := e.pairRenames(rs.gone, rs.added, now)
	rs.gone = slices.DeleteFunc(rs.gone, func(n seenNote) bool { return paired[n.note.ID] })
	rs.added = slices.DeleteFunc(rs.added, func(n seenNote) bool { return paired[n.note.ID] })
}

// pairRenames pairs gone with added (when a note that went had incoming
// links, or both are few: the moves of notes without incoming links still
// tell where a folder went) and adds the new pending repairs; it returns
// the IDs paired (caller holds e.mu).
func (e *Engine) pairRenames(gone, added []seenNote, now time.Time) map[string]bool {
	few := len(gone)*len(added) <= maxFewPairs
	if len(gone) == 0 || len(added) == 0 || !few && !slices.ContainsFunc(gone, func(n seenNote) bool { return n.incoming }) {
		return nil
	}
	cand := func(s []seenNote) []vault.RenameCandidate {
		out := make([]vault.RenameCandidate, len(s))
		for i, n := range s {
			out[i] = vault.RenameCandidate{ID: n.note.ID, Hash: n.note.Hash, Size: n.note.Size}
			if len(gone)*len(added) <= maxSimilarPairs {
				out[i].Features = vault.NoteFeatures(n.note)
			}
		}
		return out
	}
	paired := map[string]bool{}
	for _, pr := range vault.PairRenames(cand(gone), cand(added), maxSimilarPairs) {
		if pr.From == pr.To {
			continue // went and came back: an editor's save, not a rename
		}
		paired[pr.From], paired[pr.To] = true, true
		if !pr.Ambiguous {
			e.renames.moved(pr.From, pr.To, now)
		}
		r := RenameRepair{From: pr.From, To: pr.To, Similar: pr.Similar, Ambiguous: pr.Ambiguous, Found: now.UTC()}
		e.countRepairLinks(&r)
		e.renames.pending = slices.DeleteFunc(e.renames.pending, func(o RenameRepair) bool { return o.From == r.From && o.To == r.To })
		e.renames.pending = append(e.renames.pending, r)
		if r.Links > 0 {
			e.log.Info("found a rename made outside vaultgraph", "from", r.From, "to", r.To, "links", r.Links, "ambiguous", r.Ambiguous)
		}
	}
	return paired
}

// countRepairLinks counts the links in other notes that would resolve to
// r.From if the note were still there instead of at r.To, and that do not
// resolve to r.To now, and sets r.Links: 0 when From is a note again
// (renamed back, or a new note took the path), when To is gone, or when
// the links were fixed by hand. The index is changed for the count and
// put back (caller holds e.mu for writing).
func (e *Engine) countRepairLinks(r *RenameRepair) int {
	r.Links = 0
	if _, ok := e.index.Note(r.From); ok {
		return 0
	}
	if _, ok := e.notes[r.To]; !ok {
		return 0
	}
	type link struct {
		src string
		l   vault.Link
	}
	var meant []link
	e.index.RemoveNote(r.To)
	e.index.AddNote(r.From)
	for _, src := range e.refIndex()[refKey(r.From)] {
		ns, ok := e.notes[src]
		if !ok || src == r.To {
			continue
		}
		for _, l := range ns.eachLink() {
			if to, st := e.index.Resolve(src, l); !l.IsSelf() && st == vault.Resolved && to == r.From {
				meant = append(meant, link{src, l})
			}
		}
	}
	e.index.RemoveNote(r.From)
	e.index.AddNote(r.To)
	for _, m := range meant {
		if to, st := e.index.Resolve(m.src, m.l); st != vault.Resolved || to != r.To {
			r.Links++
		}
	}
	return r.Links
}

// encodeRepairs is the pending list as stored in the index's meta.
func encodeRepairs(rs []RenameRepair) string {
	b, err := json.Marshal(rs)
	if err != nil || len(rs) == 0 {
		return "[]"
	}
	return string(b)
}

// loadRepairs sets the pending list from the index's meta (caller holds
// e.mu); the start-up pass checks each again.
func (e *Engine) loadRepairs(meta map[string]string) {
	e.renames = renameState{}
	if s := meta[metaRenames]; s != "" {
		if err := json.Unmarshal([]byte(s), &e.renames.pending); err != nil {
			e.log.Warn("pending rename repairs unreadable; renames are found again as they happen", "err", err)
			e.renames.pending = nil
		}
	}
}

// PendingRenames lists the pending repairs of renames made outside
// vaultgraph (those with links to rewrite), sorted by From and To.
func (e *Engine) PendingRenames() ([]RenameRepair, error) {
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	out := slices.DeleteFunc(slices.Clone(e.renames.pending), func(r RenameRepair) bool { return r.Links == 0 })
	slices.SortFunc(out, func(a, b RenameRepair) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
	return out, nil
}

// count is the number of pending repairs with links to rewrite.
func (rs *renameState) count() int {
	n := 0
	for _, r := range rs.pending {
		if r.Links > 0 {
			n++
		}
	}
	return n
}

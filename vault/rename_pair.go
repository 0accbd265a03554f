package vault

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// RenameCandidate is one side of a possible rename made outside
// vaultgraph: a note that went (From side) or a note that appeared (To
// side), with what identifies its content.
type RenameCandidate struct {
	// ID is the note's ID.
	ID string
	// Hash is the content hash of the whole file.
	Hash string
	// Size is the file's size in bytes.
	Size int64
	// Features are what NoteFeatures found in the note, for pairing notes
	// whose content an editor changed a little on the way.
	Features []string
}

// RenamePair is a note that went (From) paired with a note that appeared
// (To): a rename or move.
type RenamePair struct {
	From, To string
	// Similar says the contents are nearly, not exactly, the same.
	Similar bool
	// Ambiguous says From or To has another candidate too: such a pair is
	// offered, never applied by itself.
	Ambiguous bool
}

// Thresholds of a pairing by similar content: both notes have at least
// SimilarMinFeatures features, the share of features they have in common
// (Jaccard) is at least SimilarMinShare, and the smaller file is at least
// SimilarMinSize of the larger.
const (
	SimilarMinFeatures = 4
	SimilarMinShare    = 0.8
	SimilarMinSize     = 0.5
)

// NoteFeatures lists what identifies a note's content besides its exact
// bytes: its link targets, tags, aliases, headings, block ids and
// properties, each once.
func NoteFeatures(n *Note) []string {
	var f []string
	for _, l := range n.Links {
		f = append(f, "l:"+Fold(l.Target)+"#"+l.Fragment)
	}
	for _, t := range n.Tags {
		f = append(f, "t:"+Fold(t))
	}
	for _, a := range n.Aliases {
		f = append(f, "a:"+a)
	}
	for _, h := range n.Headings {
		f = append(f, "h:"+h.Text)
	}
	for _, b := range n.BlockIDs {
		f = append(f, "b:"+b)
	}
	for _, p := range n.Properties {
		if !strings.EqualFold(p.Key, "title") {
			f = append(f, fmt.Sprintf("p:%s=%v", p.Key, p.Value))
		}
	}
	slices.Sort(f)
	return slices.Compact(f)
}

// PairRenames pairs the notes that went with the notes that appeared: by
// the same content hash first, then, among those left, by similar content
// (see the Similar thresholds; maxSimilar bounds the comparisons, so a
// huge burst is paired by hash only). When a hash or a similarity names
// several candidates, a pair whose notes share a base name (a folder
// moved) wins; the others are Ambiguous. Pairs come sorted by From, To.
func PairRenames(gone, added []RenameCandidate, maxSimilar int) []RenamePair {
	var out []RenamePair
	usedFrom, usedTo := map[string]bool{}, map[string]bool{}
	byHash := map[string][]RenameCandidate{}
	for _, a := range added {
		byHash[a.Hash] = append(byHash[a.Hash], a)
	}
	goneByHash := map[string][]RenameCandidate{}
	for _, g := range gone {
		goneByHash[g.Hash] = append(goneByHash[g.Hash], g)
	}
	for _, g := range gone {
		cands := byHash[g.Hash]
		if len(cands) == 0 {
			continue
		}
		out = append(out, choose(g, cands, goneByHash[g.Hash], false)...)
		usedFrom[g.ID] = true
		for _, c := range cands {
			usedTo[c.ID] = true
		}
	}
	restGone := slices.DeleteFunc(slices.Clone(gone), func(g RenameCandidate) bool { return usedFrom[g.ID] })
	restAdded := slices.DeleteFunc(slices.Clone(added), func(a RenameCandidate) bool { return usedTo[a.ID] })
	if len(restGone)*len(restAdded) <= maxSimilar {
		out = append(out, pairSimilar(restGone, restAdded)...)
	}
	slices.SortFunc(out, func(a, b RenamePair) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
	return out
}

// choose pairs g with its candidates cands, knowing the notes that went
// which are rivals for them (rivals includes g): one candidate with one
// rival is a sure pair; else a candidate sharing g's base name that no
// other rival shares is; else every candidate is an ambiguous pair.
func choose(g RenameCandidate, cands, rivals []RenameCandidate, similar bool) []RenamePair {
	if len(cands) == 1 && len(rivals) == 1 {
		return []RenamePair{{From: g.ID, To: cands[0].ID, Similar: similar}}
	}
	name := Fold(BaseName(g.ID))
	if namesakes(cands, name) == 1 && namesakes(rivals, name) == 1 {
		i := slices.IndexFunc(cands, func(c RenameCandidate) bool { return Fold(BaseName(c.ID)) == name })
		return []RenamePair{{From: g.ID, To: cands[i].ID, Similar: similar}}
	}
	out := make([]RenamePair, 0, len(cands))
	for _, c := range cands {
		// A rival has c's base name: c is that rival's own move (a folder
		// moved), not g's rename.
		if n := Fold(BaseName(c.ID)); n != name && namesakes(rivals, n) == 1 {
			continue
		}
		out = append(out, RenamePair{From: g.ID, To: c.ID, Similar: similar, Ambiguous: true})
	}
	return out
}

// namesakes counts the notes of list whose folded base name is name.
func namesakes(list []RenameCandidate, name string) int {
	n := 0
	for _, r := range list {
		if Fold(BaseName(r.ID)) == name {
			n++
		}
	}
	return n
}

// pairSimilar pairs notes whose contents are similar enough: each note
// that went with every note that appeared above the thresholds.
func pairSimilar(gone, added []RenameCandidate) []RenamePair {
	matches := map[string][]RenameCandidate{} // gone ID -> similar added
	rivals := map[string][]RenameCandidate{}  // added ID -> similar gone
	for _, g := range gone {
		for _, a := range added {
			if Similar(g, a) {
				matches[g.ID] = append(matches[g.ID], a)
				rivals[a.ID] = append(rivals[a.ID], g)
			}
		}
	}
	var out []RenamePair
	for _, g := range gone {
		cands := matches[g.ID]
		if len(cands) == 0 {
			continue
		}
		var all []RenameCandidate
		for _, c := range cands {
			for _, r := range rivals[c.ID] {
				if !slices.ContainsFunc(all, func(x RenameCandidate) bool { return x.ID == r.ID }) {
					all = append(all, r)
				}
			}
		}
		out = append(out, choose(g, cands, all, true)...)
	}
	return out
}

// Similar reports whether two notes' contents are nearly the same by the
// Similar thresholds.
func Similar(a, b RenameCandidate) bool {
	if len(a.Features) < SimilarMinFeatures || len(b.Features) < SimilarMinFeatures {
		return false
	}
	small, large := min(a.Size, b.Size), max(a.Size, b.Size)
	if large > 0 && float64(small) < SimilarMinSize*float64(large) {
		return false
	}
	common := 0
	for _, f := range a.Features {
		if _, ok := slices.BinarySearch(b.Features, f); ok {
			common++
		}
	}
	union := len(a.Features) + len(b.Features) - common
	return float64(common) >= SimilarMinShare*float64(union)
}

package vaultgraph_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
	"github.com/vaultgraph/vaultgraph/vault"
)

func TestRenameLinkForms(t *testing.T) {
	for _, tt := range renameCases() {
		t.Run(tt.desc, func(t *testing.T) {
			runRenameCase(t, tt)
		})
	}
}

func runRenameCase(t *testing.T, tt renameCase) {
	errorf := t.Errorf
	ctx := context.Background()
	dir := makeVault(t, tt.files)
	e := openWriter(t, dir, false)
	before := noteFiles(t, dir)

	// The graph around the note before.
	old := mustNode(t, e, tt.id)
	inBefore, outBefore := neighborIDs(t, e, tt.id, graph.In), neighborIDs(t, e, tt.id, graph.Out)

	u := vaultgraph.NoteUpdate{ID: tt.id, Title: tt.title, Directory: tt.dir, DryRun: true}
	dry, err := e.UpdateNode(ctx, u)
	if err != nil {
		t.Fatalf("UpdateNode(%+v) = %v", u, err)
	}
	if d := treeDiff(noteFiles(t, dir), before); d != "" {
		t.Fatalf("a dry run changed files:\n%s", d)
	}
	if !dry.DryRun || dry.Node != nil {
		errorf("dry run answer DryRun %v Node %v, want true and nil", dry.DryRun, dry.Node)
	}
	if n := mustNode(t, e, tt.id); n.ID != old.ID || n.Hash != old.Hash {
		errorf("after a dry run GetNode(%s) = %s %s, want it unchanged", tt.id, n.ID, n.Hash)
	}

	u.DryRun = false
	res, err := e.UpdateNode(ctx, u)
	if err != nil {
		t.Fatalf("UpdateNode(%+v) = %v", u, err)
	}
	if len(res.Warnings) > 0 {
		errorf("UpdateNode warnings %q, want none", res.Warnings)
	}
	newID := res.Node.ID

	// The files, whole.
	want := maps.Clone(before)
	if newID != tt.id {
		delete(want, tt.id)
		want[newID] = before[tt.id]
	}
	maps.Copy(want, tt.want)
	if d := treeDiff(noteFiles(t, dir), want); d != "" {
		errorf("files after the rename:\n%s", d)
	}
	if leftover := leftovers(t, dir); len(leftover) > 0 {
		errorf("temporary files left: %q", leftover)
	}

	// The answer: the same list as the dry run; every changed file
	// listed with its rewritten links.
	if !slices.EqualFunc(dry.Files, res.Files, fileChangeEqual) {
		errorf("dry run listed %s\nthe write %s", fmtChanges(dry.Files), fmtChanges(res.Files))
	}
	gotLinks := map[string][]string{}
	var gotPaths []string
	for _, f := range res.Files {
		gotPaths = append(gotPaths, f.Path)
		for _, l := range f.Links {
			gotLinks[f.Path] = append(gotLinks[f.Path], l.Old+" => "+l.New)
		}
		switch {
		case f.Path == newID && newID != tt.id:
			if f.Action != vaultgraph.ActionMove || f.From != tt.id {
				errorf("the note's change = %+v, want a move from %s", f, tt.id)
			}
		case f.Action != vaultgraph.ActionUpdate:
			errorf("change %+v, want an update", f)
		}
	}
	var wantPaths []string
	for p := range tt.want {
		wantPaths = append(wantPaths, p)
	}
	if !slices.Contains(wantPaths, newID) {
		wantPaths = append(wantPaths, newID)
	}
	slices.Sort(gotPaths)
	slices.Sort(wantPaths)
	if !slices.Equal(gotPaths, wantPaths) {
		errorf("changed files listed %q, want %q", gotPaths, wantPaths)
	}
	if !mapsEqualSlices(gotLinks, tt.links) {
		errorf("rewritten links = %q\nwant %q", gotLinks, tt.links)
	}

	// The graph: the same neighbours under the new ID.
	if newID != tt.id {
		if n, _ := e.GetNode(ctx, tt.id, false); n != nil && n.ID == tt.id {
			errorf("GetNode(%s) after the move = %s, want nil", tt.id, n.ID)
		}
	}
	n := mustNode(t, e, newID)
	if n.InDegree != old.InDegree || n.OutDegree != old.OutDegree {
		errorf("%s in/out = %d/%d, want %d/%d as before", newID, n.InDegree, n.OutDegree, old.InDegree, old.OutDegree)
	}
	mapID := func(ids []string) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = id
			if id == tt.id {
				out[i] = newID
			}
		}
		slices.Sort(out)
		return out
	}
	if got := neighborIDs(t, e, newID, graph.In); !slices.Equal(got, mapID(inBefore)) {
		errorf("Neighbors(%s, in) = %q, want %q", newID, got, mapID(inBefore))
	}
	if got := neighborIDs(t, e, newID, graph.Out); !slices.Equal(got, mapID(outBefore)) {
		errorf("Neighbors(%s, out) = %q, want %q", newID, got, mapID(outBefore))
	}
	// A new engine over the files sees the same links.
	checkLikeReload(t, e)
}

// neighborIDs returns the sorted IDs of id's neighbours in direction dir.
func neighborIDs(t testing.TB, e *vaultgraph.Engine, id string, dir graph.Direction) []string {
	t.Helper()
	nbs, _, _, err := e.Neighbors(context.Background(), id, dir, 50)
	if err != nil {
		t.Fatalf("Neighbors(%s) = %v", id, err)
	}
	ids := nbIDs(nbs)
	slices.Sort(ids)
	return ids
}

func fmtChanges(fs []vaultgraph.FileChange) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s %s (from %q): %v", f.Action, f.Path, f.From, f.Links)
	}
	return b.String()
}

func mapsEqualSlices(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// linkState is a vault read from disk with the vault package alone: every
// note's bytes, parse and the index its links resolve with. It is the
// oracle of the property tests, independent of the Engine's bookkeeping.
type linkState struct {
	data  map[string][]byte // by note ID
	notes map[string]*vault.Note
	idx   *vault.Index
	// excluded are the notes in data and notes that the user's filters
	// exclude: not in idx, but their links are rewritten too.
	excluded map[string]bool
}

// parseCache keeps parses by ID and content across readLinkState calls.
type parseCache map[string]*vault.Note

func readLinkState(t testing.TB, dir string, cache parseCache) *linkState {
	t.Helper()
	ig, err := vault.LoadIgnore(dir)
	if err != nil {
		t.Fatal(err)
	}
	scan, err := vault.Scan(dir, ig)
	if err != nil {
		t.Fatal(err)
	}
	p := vault.NewParser()
	s := &linkState{data: map[string][]byte{}, notes: map[string]*vault.Note{}, idx: vault.NewIndex(), excluded: map[string]bool{}}
	files := scan.Notes
	for _, f := range vault.ListExcluded(dir, scan.ExcludedDirs, scan.ExcludedFiles) {
		if !vault.IsCanvas(f.ID) {
			s.excluded[f.ID] = true
			files = append(files, f)
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		key := f.ID + "\x00" + vault.Hash(b)
		n, ok := cache[key]
		if !ok {
			// Reference-style links get their definition's range.
			if n, err = p.ParseForRewrite(f.ID, b); err != nil {
				t.Fatalf("parse %s: %v", f.ID, err)
			}
			cache[key] = n
		}
		s.data[f.ID], s.notes[f.ID] = b, n
		if !s.excluded[f.ID] {
			s.idx.AddNote(f.ID)
		}
	}
	for _, a := range scan.Attachments {
		s.idx.AddFile(a)
	}
	return s
}

// ids are the notes of the graph; allIDs adds the excluded notes.
func (s *linkState) ids() []string {
	return slices.DeleteFunc(s.allIDs(), func(id string) bool { return s.excluded[id] })
}

func (s *linkState) allIDs() []string { return slices.Sorted(maps.Keys(s.notes)) }

// checkRenamed checks a rename or move of oldID to newID against the
// files: every note is still there (the moved one under newID); each
// file's bytes are the old ones with some link targets rewritten and
// nothing else (the moved note may also have had its title property set to
// setTitle); every link that resolved still resolves to the same note
// (oldID now being newID); and the answer lists exactly the files and
// links that changed.
func checkRenamed(t testing.TB, before, after *linkState, oldID, newID string, setTitle *string, res *vaultgraph.WriteResult) {
	t.Helper()
	mapID := func(id string) string {
		if id == oldID {
			return newID
		}
		return id
	}
	var wantIDs []string
	for _, id := range before.ids() {
		wantIDs = append(wantIDs, mapID(id))
	}
	slices.Sort(wantIDs)
	if got := after.ids(); !slices.Equal(got, wantIDs) {
		t.Fatalf("rename %s -> %s: notes after = %d, want %d\n%s", oldID, newID, len(got), len(wantIDs),
			treeDiff(setOf(got), setOf(wantIDs)))
	}
	listed := map[string]vaultgraph.FileChange{}
	warned := map[string]bool{} // "path:line" of links reported as not rewritten
	if res != nil {
		for _, f := range res.Files {
			listed[f.Path] = f
		}
		for _, w := range res.Warnings {
			if m := notRewritten.FindStringSubmatch(w); m != nil {
				warned[m[1]+":"+m[2]] = true
			}
		}
	}
	p := vault.NewParser()
	changed := map[string]bool{}
	for _, id := range before.allIDs() {
		nid := mapID(id)
		b0, n0 := before.data[id], before.notes[id]
		if id == oldID && setTitle != nil {
			var err error
			if b0, err = vault.SetFrontmatter(b0, nil, false, []vault.Property{{Key: "title", Value: *setTitle}}); err != nil {
				t.Fatalf("set the title of %s: %v", id, err)
			}
			if n0, err = p.ParseForRewrite(id, b0); err != nil {
				t.Fatal(err)
			}
		}
		b1, n1 := after.data[nid], after.notes[nid]
		if len(n1.Links) != len(n0.Links) {
			t.Errorf("rename %s -> %s: %s has %d links, had %d", oldID, newID, nid, len(n1.Links), len(n0.Links))
			continue
		}
		// The bytes: the old ones with the link targets of the new. A
		// reference definition serves several links: it is one edit,
		// listed as its line.
		var edits []vault.Edit
		var linkChanges []string
		seenRange := map[[2]int]bool{}
		for i, l0 := range n0.Links {
			l1 := n1.Links[i]
			if l0.TargetStart < 0 || l0.TargetEnd < l0.TargetStart || l1.TargetStart < 0 || l1.TargetEnd < l1.TargetStart {
				continue // a reference without a definition found: no target bytes
			}
			text := string(b1[l1.TargetStart:l1.TargetEnd])
			if text == string(b0[l0.TargetStart:l0.TargetEnd]) || seenRange[[2]int{l0.TargetStart, l0.TargetEnd}] {
				continue
			}
			seenRange[[2]int{l0.TargetStart, l0.TargetEnd}] = true
			edits = append(edits, vault.Edit{Start: l0.TargetStart, End: l0.TargetEnd, Text: text})
			if l0.TargetStart < l0.Start || l0.TargetEnd > l0.End {
				linkChanges = append(linkChanges, lineAround(b0, l0.TargetStart, l0.TargetEnd)+" => "+lineAround(b1, l1.TargetStart, l1.TargetEnd))
				continue
			}
			linkChanges = append(linkChanges, string(b0[l0.Start:l0.End])+" => "+string(b1[l1.Start:l1.End]))
		}
		rebuilt, err := vault.ApplyEdits(b0, edits)
		if err != nil {
			t.Fatalf("rename %s -> %s: rebuild %s: %v", oldID, newID, nid, err)
		}
		if string(rebuilt) != string(b1) {
			t.Errorf("rename %s -> %s: %s changed outside its link targets:\n%s", oldID, newID, nid, firstDiff(rebuilt, b1))
		}
		if string(before.data[id]) != string(b1) || nid != id {
			changed[nid] = true
		}
		// The answer's list of rewritten links.
		if res != nil {
			var got []string
			for _, l := range listed[nid].Links {
				got = append(got, l.Old+" => "+l.New)
			}
			if !slices.Equal(got, linkChanges) {
				t.Errorf("rename %s -> %s: links listed for %s = %q, want %q", oldID, newID, nid, got, linkChanges)
			}
		}
		// The resolutions.
		for i, l0 := range before.notes[id].Links {
			was, st := before.idx.Resolve(id, l0)
			now, nst := after.idx.Resolve(nid, n1.Links[i])
			switch st {
			case vault.Resolved:
				if now != mapID(was) && warned[fmt.Sprintf("%s:%d", nid, l0.Line)] {
					t.Logf("rename %s -> %s: %s line %d %q no longer resolves, as the answer warned", oldID, newID, nid, l0.Line,
						b0[n0.Links[i].Start:n0.Links[i].End])
				} else if now != mapID(was) {
					t.Errorf("rename %s -> %s: %s line %d %q resolved to %s, now to %q (%s)", oldID, newID, nid, l0.Line,
						b0[n0.Links[i].Start:n0.Links[i].End], was, now, nst)
				}
			case vault.Attachment:
				f0, _ := before.idx.ResolveFile(id, l0)
				if f1, ok := after.idx.ResolveFile(nid, n1.Links[i]); !ok || !f1.Same(f0) || f1.ByName && !f0.ByName {
					t.Errorf("rename %s -> %s: %s line %d %q was a link to the file %+v, now %s %+v", oldID, newID, nid, l0.Line,
						b0[n0.Links[i].Start:n0.Links[i].End], f0, nst, f1)
				}
			}
		}
	}
	if res != nil {
		if got, want := slices.Sorted(maps.Keys(listed)), slices.Sorted(maps.Keys(changed)); !slices.Equal(got, want) {
			t.Errorf("rename %s -> %s: files listed %q, files changed %q", oldID, newID, got, want)
		}
	}
}

// lineAround returns the line of b that holds the bytes [start, end),
// without its line break.
func lineAround(b []byte, start, end int) string {
	s := string(b)
	from := strings.LastIndexByte(s[:start], '\n') + 1
	to := len(s)
	if i := strings.IndexByte(s[end:], '\n'); i >= 0 {
		to = end + i
	}
	return strings.TrimRight(s[from:to], "\r")
}

// notRewritten matches the warning of a link a rename could not rewrite.
var notRewritten = regexp.MustCompile(`^(.+?) line (\d+): .* could not be rewritten`)

func setOf(ids []string) map[string]string {
	m := map[string]string{}
	for _, id := range ids {
		m[id] = ""
	}
	return m
}

// firstDiff shows where two texts start to differ.
func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(i-60, 0)
	return fmt.Sprintf("at byte %d:\n  want %q\n  got  %q", i, want[from:min(len(want), i+60)], got[from:min(len(got), i+60)])
}

// randomTitleWords make random titles: spaces, letter case, accents,
// CJK, emoji, punctuation a file name may hold.
var randomTitleWords = []string{
	"Alpha", "beta", "Gamma", "plan", "Notes", "Café", "東京", "naïve", "Ünïcödé", "🚀", "x",
	"Meeting", "Home", "Old", "Q&A", "it's", "1999", "über-cool", "(draft)", "a,b", "Ωmega", "Ideas",
	"100%", "a`b", "&amp;", "{curly}", "$HOME", "_under_", "Cafe\u0301", "~tilde", "x;y", "=eq", "'quoted'", "%20",
}

// randomRename picks a note and a new title and/or folder.
func randomRename(rng *rand.Rand, s *linkState) (id string, title, dir *string) {
	ids := s.ids()
	id = ids[rng.IntN(len(ids))]
	kind := rng.IntN(4) // 0, 1: rename; 2: move; 3: both
	if kind != 2 {
		var t string
		switch r := rng.IntN(10); {
		case r < 2: // another note's name: now ambiguous
			t = vault.BaseName(ids[rng.IntN(len(ids))])
		default:
			n := 1 + rng.IntN(3)
			words := make([]string, n)
			for i := range words {
				words[i] = randomTitleWords[rng.IntN(len(randomTitleWords))]
			}
			t = strings.Join(words, " ")
			if rng.IntN(10) == 0 {
				t += "?" // a forbidden character: the title goes to the frontmatter
			}
		}
		title = &t
	}
	if kind >= 2 {
		var d string
		switch r := rng.IntN(10); {
		case r < 5:
			d = vault.Dir(ids[rng.IntN(len(ids))])
		case r < 8:
			d = fmt.Sprintf("Fresh %d/Sub %s", rng.IntN(3), randomTitleWords[rng.IntN(len(randomTitleWords))])
		default:
			d = ""
		}
		dir = &d
	}
	return id, title, dir
}

// TestRenameProperty renames and moves random notes of testvault and of
// a generated vault many times. After each write, checkRenamed compares
// the files with the files before; every few writes the engine is
// compared with one opened afresh. A link the rewriter cannot write (a
// title with '`' after a code span in the link's paragraph) must be
// reported in the answer's warnings (see TestRenameUnwritableLink).
func TestRenameProperty(t *testing.T) {
	ops := 100
	if testing.Short() {
		ops = 25
	}
	vaults := []struct {
		name string
		make func(t *testing.T) string
	}{
		{"testvault", func(t *testing.T) string { return copyTestVault(t) }},
		{"generated", func(t *testing.T) string {
			dir := filepath.Join(t.TempDir(), "vault")
			if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 300, Seed: 7}); err != nil {
				t.Fatal(err)
			}
			return dir
		}},
		{"forms", formsVault},
	}
	for _, v := range vaults {
		t.Run(v.name, func(t *testing.T) {
			dir := v.make(t)
			e := openMemWriter(t, dir)
			ctx := context.Background()
			cache := parseCache{}
			seed := uint64(time.Now().UnixNano())
			if s := os.Getenv("VAULTGRAPH_RENAME_SEED"); s != "" {
				seed, _ = strconv.ParseUint(s, 10, 64)
			}
			t.Logf("seed %d (set VAULTGRAPH_RENAME_SEED to repeat)", seed)
			rng := rand.New(rand.NewPCG(seed, 6))
			before := readLinkState(t, dir, cache)
			done, refused := 0, 0
			for op := range ops {
				id, title, dir2 := randomRename(rng, before)
				u := vaultgraph.NoteUpdate{ID: id, Title: title, Directory: dir2}
				res, err := e.UpdateNode(ctx, u)
				// Refused: the name is taken, the title needs the
				// frontmatter and it is malformed (Notes/Broken YAML.md), or
				// some link could not be written to the new name (a '`' in
				// it after a code span): nothing may have changed.
				if errors.Is(err, vaultgraph.ErrExists) || errors.Is(err, vaultgraph.ErrInvalid) &&
					(strings.Contains(err.Error(), "malformed YAML") || strings.Contains(err.Error(), "nothing was written")) {
					refused++
					after := readLinkState(t, dir, cache)
					checkRenamed(t, before, after, id, id, nil, nil)
					continue
				}
				if err != nil {
					t.Fatalf("op %d: UpdateNode(%s, title %v, dir %v) = %v", op, id, deref(title), deref(dir2), err)
				}
				for _, w := range res.Warnings {
					if strings.Contains(w, "rewritten") {
						t.Logf("op %d: rename %s: warning %s", op, id, w)
					}
				}
				newID := res.Node.ID
				after := readLinkState(t, dir, cache)
				checkRenamed(t, before, after, id, newID, titleSet(before, id, newID, title), res)
				if t.Failed() {
					t.Fatalf("op %d: UpdateNode(%s, title %v, dir %v) -> %s: see above", op, id, deref(title), deref(dir2), newID)
				}
				if newID != id && !strings.EqualFold(newID, id) {
					if n, _ := e.GetNode(ctx, id, false); n != nil && n.ID == id {
						t.Errorf("op %d: GetNode(%s) after the move = %s, want it gone", op, id, n.ID)
					}
				}
				if leftover := leftovers(t, dir); len(leftover) > 0 {
					t.Fatalf("op %d: temporary files left: %q", op, leftover)
				}
				if op%20 == 19 {
					checkLikeReload(t, e)
				}
				before = after
				done++
			}
			t.Logf("%d renames and moves, %d refused (name taken, malformed frontmatter)", done, refused)
			if done < ops/2 {
				t.Errorf("only %d of %d writes went through", done, ops)
			}
			checkLikeReload(t, e)
		})
	}
}

// formsVault is a vault holding the link forms testvault and the
// generated vault lack: reference-style links (several uses of one
// definition, angle brackets, titles), relative links and bare names of
// attachments (one name in two folders), a relative link to a missing
// file, frontmatter links in quoted values with escapes, and note names
// that several folders share.
func formsVault(t *testing.T) string {
	ids := []string{
		"Alpha.md", "A/Alpha.md", "A/B/Beta.md", "C/Beta.md", "It's.md", "C/Gamma.md",
		"A/B/Gamma.md", "Delta.md", "A/Delta One.md", "C/Hub.md", "A/B/Deep.md", "Omega.md",
	}
	files := map[string]string{"img.png": "png", "A/pic.png": "png", "C/pic.png": "png", "A/B/doc.pdf": "pdf"}
	enc := strings.NewReplacer(" ", "%20")
	for i, id := range ids {
		dir := vault.Dir(id)
		var fm, body, defs strings.Builder
		fm.WriteString("---\n")
		for k, step := range []int{1, 3, 5, 8} {
			to := ids[(i+step)%len(ids)]
			base, noExt := vault.BaseName(to), strings.TrimSuffix(to, ".md")
			rel := relPath(dir, to)
			switch (i + k) % 4 {
			case 0:
				fmt.Fprintf(&body, "[[%s]] [m%d](%s) [r%d][k%d] and [k%d][]\n", base, k, enc.Replace(rel), k, k, k)
				fmt.Fprintf(&defs, "[k%d]: <%s> \"title\"\n", k, rel)
				fmt.Fprintf(&fm, "rel%d: '[[%s|it''s]]'\n", k, strings.ReplaceAll(base, "'", "''"))
			case 1:
				fmt.Fprintf(&body, "[[%s|alias]] ![[%s#H]] [K%d]\n", noExt, base, k)
				fmt.Fprintf(&defs, "[k%d]: %s\n", k, enc.Replace(rel))
				fmt.Fprintf(&fm, "q%d: \"[[%s|say \\\"hi\\\"]]\"\n", k, base)
			case 2:
				fmt.Fprintf(&body, "[x](/%s) [[%s]]\n", enc.Replace(to), base)
				fmt.Fprintf(&fm, "list%d: [\"[[%s]]\", '[[%s]]']\n", k, noExt, strings.ReplaceAll(noExt, "'", "''"))
			default:
				fmt.Fprintf(&body, "[y][u%d] [[%s#Part|p]]\n", k, base)
				fmt.Fprintf(&defs, "[U%d]:\n  %s 'title'\n", k, enc.Replace(rel))
			}
		}
		switch dir {
		case "":
			body.WriteString("![i](img.png) ![[img.png]] ![p](A/pic.png) ![[C/pic.png]]\n")
		case "A":
			body.WriteString("![i](../img.png) ![p](./pic.png) ![q](pic.png) ![[pic.png]] [d](B/doc.pdf) [m](../missing.png)\n")
		case "A/B":
			body.WriteString("![[../pic.png]] [d](./doc.pdf) [d2](doc.pdf) ![[doc.pdf]] ![[../../img.png|w]]\n")
		case "C":
			body.WriteString("![[pic.png]] ![p](pic.png) ![i](../img.png) ![[./missing.pdf]]\n")
		}
		fm.WriteString("---\n")
		files[id] = fm.String() + "# " + vault.BaseName(id) + "\n\n## Part\n\n" + body.String() + "\n" + defs.String()
	}
	return makeVault(t, files)
}

// relPath returns the path of the vault path to from the folder dir.
func relPath(dir, to string) string {
	var from []string
	if dir != "" {
		from = strings.Split(dir, "/")
	}
	parts := strings.Split(to, "/")
	i := 0
	for i < len(from) && i < len(parts)-1 && from[i] == parts[i] {
		i++
	}
	return strings.Repeat("../", len(from)-i) + strings.Join(parts[i:], "/")
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%q", *s)
}

// roundTripExact reports whether renaming or moving id to id2 and back
// must give the vault's bytes back exactly, and if not why: the note has
// no title property and its name is a clean file name; every link to it
// is written the way the rewriter writes it (Retarget gives the same
// text back); and the write disturbs no other link: no link to another
// note, and none of the note's own links (to notes or to attachments),
// resolves differently after it (such links would be rewritten into
// another style). For a move, the
// note's name is its own (no other note shares it).
func roundTripExact(s *linkState, id, id2 string) (bool, string) {
	if _, has := s.notes[id].Property("title"); has {
		return false, "it has a title property"
	}
	name := vault.BaseName(id)
	if clean, err := vault.FileName(name); err != nil || clean != name {
		return false, "its name is not a clean file name"
	}
	if vault.Dir(id) != vault.Dir(id2) && len(s.idx.Named(name)) > 1 {
		return false, "another note has its name"
	}
	newIdx := s.idx.Clone()
	newIdx.RemoveNote(id)
	newIdx.AddNote(id2)
	for _, src := range s.allIDs() {
		data := s.data[src]
		newSrc := src
		if src == id {
			newSrc = id2
		}
		for _, l := range s.notes[src].Links {
			if f0, ok := s.idx.ResolveFile(src, l); ok {
				if f1, _ := newIdx.ResolveFile(newSrc, l); !f1.Same(f0) || f1.ByName && !f0.ByName {
					return false, fmt.Sprintf("%s line %d %q would point at another file, or by name", src, l.Line, data[l.Start:l.End])
				}
			}
			was, st := s.idx.Resolve(src, l)
			if st != vault.Resolved {
				continue
			}
			if was == id {
				ed, err := vault.RetargetEdit(s.idx, src, data, l, id)
				if err != nil || ed.Text != string(data[l.TargetStart:l.TargetEnd]) {
					return false, fmt.Sprintf("%s line %d %q is not written as the rewriter would (%q, %v)",
						src, l.Line, data[l.Start:l.End], ed.Text, err)
				}
				continue
			}
			if now, _ := newIdx.Resolve(newSrc, l); now != was {
				return false, fmt.Sprintf("%s line %d %q would point elsewhere", src, l.Line, data[l.Start:l.End])
			}
		}
	}
	return true, ""
}

// nfcKeys returns files keyed by NFC path: a rename writes NFC names, so
// a note whose name was stored decomposed comes back composed.
func nfcKeys(files map[string]string) map[string]string {
	out := make(map[string]string, len(files))
	for k, v := range files {
		out[vault.NFC(k)] = v
	}
	return out
}

// TestRenameRoundTrip renames (or moves) notes to a new name (or folder)
// and back. Every write is checked as in TestRenameProperty; and where
// roundTripExact says so, the vault must then be byte-identical to what
// it was.
func TestRenameRoundTrip(t *testing.T) {
	vaults := []struct {
		name string
		make func(t *testing.T) string
		max  int
	}{
		{"testvault", func(t *testing.T) string { return copyTestVault(t) }, 100},
		{"generated", func(t *testing.T) string {
			dir := filepath.Join(t.TempDir(), "vault")
			if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 300, Seed: 8}); err != nil {
				t.Fatal(err)
			}
			return dir
		}, 24},
		{"forms", formsVault, 12},
	}
	for _, v := range vaults {
		t.Run(v.name, func(t *testing.T) {
			dir := v.make(t)
			e := openMemWriter(t, dir)
			ctx := context.Background()
			cache := parseCache{}
			ids := readLinkState(t, dir, cache).ids()
			rng := rand.New(rand.NewPCG(8, 8))
			rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
			ids = ids[:min(len(ids), v.max)]
			exact := 0
			for k, id := range ids {
				start := readLinkState(t, dir, cache)
				startFiles := nfcKeys(noteFiles(t, dir))
				u := vaultgraph.NoteUpdate{ID: id}
				name, folder := vault.BaseName(id), vault.Dir(id)
				id2 := ""
				if k%2 == 0 {
					u.Title = strp(fmt.Sprintf("Zq Rönd Trip %d", k))
					id2 = path.Join(folder, *u.Title+".md")
				} else {
					u.Directory = strp(fmt.Sprintf("Zq Fresh Folder %d/Sub", k))
					id2 = path.Join(*u.Directory, name+".md")
				}
				want, why := roundTripExact(start, id, id2)

				res, err := e.UpdateNode(ctx, u)
				if err != nil {
					t.Fatalf("UpdateNode(%+v) = %v", u, err)
				}
				if res.Node.ID != id2 {
					t.Fatalf("UpdateNode(%+v) made %s, want %s", u, res.Node.ID, id2)
				}
				mid := readLinkState(t, dir, cache)
				checkRenamed(t, start, mid, id, id2, titleSet(start, id, id2, u.Title), res)

				back := vaultgraph.NoteUpdate{ID: id2}
				if u.Title != nil {
					back.Title = &name
				} else {
					back.Directory = &folder
				}
				res, err = e.UpdateNode(ctx, back)
				if err != nil {
					t.Fatalf("UpdateNode(%+v) = %v", back, err)
				}
				if res.Node.ID != id {
					t.Fatalf("UpdateNode(%+v) made %s, want %s back", back, res.Node.ID, id)
				}
				end := readLinkState(t, dir, cache)
				checkRenamed(t, mid, end, id2, id, titleSet(mid, id2, id, back.Title), res)
				if t.Failed() {
					t.Fatalf("%s -> %s -> back: see above", id, id2)
				}
				d := treeDiff(nfcKeys(noteFiles(t, dir)), startFiles)
				switch {
				case want && d != "":
					t.Errorf("%s -> %s -> back: the vault differs from before:\n%s", id, id2, d)
				case want:
					exact++
				case d != "":
					t.Logf("%s -> %s -> back: not exact, as expected (%s)", id, id2, why)
				}
			}
			t.Logf("%d of %d round trips exact", exact, len(ids))
			if exact < len(ids)/3 {
				t.Errorf("only %d of %d round trips were expected to be exact: the check is too weak", exact, len(ids))
			}
			checkLikeReload(t, e)
		})
	}
}

// titleSet is the title UpdateNode writes into the frontmatter of a note
// renamed from id to id2 with title, or nil.
func titleSet(s *linkState, id, id2 string, title *string) *string {
	if title == nil {
		return nil
	}
	tt := strings.TrimSpace(*title)
	if _, has := s.notes[id].Property("title"); has || vault.BaseName(id2) != tt {
		return &tt
	}
	return nil
}

// TestRenameUnwritableLink renames a note to a title that one of its
// incoming links cannot hold: a '`' in a wikilink after a code span in
// the same paragraph (it could close the span and break the link). The
// write must not break the link.
func TestRenameUnwritableLink(t *testing.T) {
	dir := makeVault(t, map[string]string{"Old.md": oldNote, "Src.md": "Use `code` and [[Old]].\n", "Other.md": "[[Old]]\n"})
	e := openWriter(t, dir, false)
	before := noteFiles(t, dir)
	res, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Old.md", Title: strp("a`b")})
	if err == nil {
		t.Errorf("UpdateNode(title a`b) = nil error, warnings %q, Src.md %q, want ErrInvalid and nothing written",
			res.Warnings, noteFiles(t, dir)["Src.md"])
	}
	if !errors.Is(err, vaultgraph.ErrInvalid) {
		t.Errorf("UpdateNode(title a`b) = %v, want ErrInvalid", err)
	}
	if d := treeDiff(noteFiles(t, dir), before); d != "" {
		t.Errorf("a refused rename changed files:\n%s", d)
	}
}

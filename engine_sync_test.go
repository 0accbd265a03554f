package vaultgraph_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// remove deletes a file under dir.
func remove(t testing.TB, dir, rel string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

func syncPaths(t testing.TB, e *vaultgraph.Engine, paths ...string) {
	t.Helper()
	if err := e.Sync(context.Background(), paths...); err != nil {
		t.Fatalf("Sync(%q) = %v", paths, err)
	}
}

func mustNode(t testing.TB, e *vaultgraph.Engine, id string) *vaultgraph.Node {
	t.Helper()
	n, err := e.GetNode(context.Background(), id, false)
	if err != nil || n == nil {
		t.Fatalf("GetNode(%q) = %v, %v, want a note", id, n, err)
	}
	return n
}

// snapshot is what a note looks like from outside, for comparing an
// engine kept up to date by Sync with one that loaded the vault afresh.
type snapshot struct {
	Title       string
	Links       []string
	Broken      []string
	Attachments []string
	Tags        []string
	In, Out     int
}

type engineState struct {
	Notes    map[string]snapshot
	Counts   [7]int // notes, links, broken, attachment links, attachments, tags, edges
	Problems []string
	Dups     []string
}

func stateOf(t testing.TB, e *vaultgraph.Engine) engineState {
	t.Helper()
	ctx := context.Background()
	st := engineState{Notes: map[string]snapshot{}}
	for page := 1; ; page++ {
		res, err := e.ListNodes(ctx, vaultgraph.ListQuery{Page: page, Limit: vaultgraph.MaxListLimit})
		if err != nil {
			t.Fatalf("ListNodes = %v", err)
		}
		for _, n := range res.Nodes {
			st.Notes[n.ID] = snapshot{
				Title: n.Title, Links: linkIDs(n.Links), Broken: n.Broken, Attachments: n.Attachments,
				Tags: n.Tags, In: n.InDegree, Out: n.OutDegree,
			}
		}
		if page >= res.TotalPages {
			break
		}
	}
	s, err := e.Status(ctx)
	if err != nil {
		t.Fatalf("Status = %v", err)
	}
	st.Counts = [7]int{s.Notes, s.Links, s.BrokenLinks, s.AttachmentLinks, s.Attachments, s.Tags, s.Edges}
	for _, p := range s.Problems {
		st.Problems = append(st.Problems, p.Path)
	}
	for _, d := range s.DuplicateNames {
		st.Dups = append(st.Dups, strings.Join(d.IDs, "|"))
	}
	return st
}

// checkLikeReload fails unless e answers as an engine freshly opened on
// its vault does.
func checkLikeReload(t testing.TB, e *vaultgraph.Engine) {
	t.Helper()
	fresh := openVault(t, e.Root())
	got, want := stateOf(t, e), stateOf(t, fresh)
	if !reflect.DeepEqual(got.Counts, want.Counts) || !slices.Equal(got.Problems, want.Problems) || !slices.Equal(got.Dups, want.Dups) {
		t.Errorf("after Sync: counts %v, problems %q, duplicates %q; after reload: %v, %q, %q",
			got.Counts, got.Problems, got.Dups, want.Counts, want.Problems, want.Dups)
	}
	for id, w := range want.Notes {
		if g, ok := got.Notes[id]; !ok {
			t.Errorf("after Sync %q is missing; after reload it is %+v", id, w)
		} else if !reflect.DeepEqual(g, w) {
			t.Errorf("after Sync %q = %+v\nafter reload %+v", id, g, w)
		}
	}
	for id := range got.Notes {
		if _, ok := want.Notes[id]; !ok {
			t.Errorf("after Sync %q exists; after reload it does not", id)
		}
	}
}

func TestSyncCreateAndDeleteMissingNote(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)

	write(t, dir, "Missing Note.md", "# Missing Note\n\nNow it exists. #found\n")
	syncPaths(t, e, "Missing Note.md")
	h := mustNode(t, e, "Home")
	if len(h.Broken) != 0 {
		t.Errorf("Home.Broken = %q after creating Missing Note.md, want none", h.Broken)
	}
	if !slices.Contains(linkIDs(h.Links), "Missing Note.md") || h.OutDegree != 7 {
		t.Errorf("Home links = %q (out %d), want Missing Note.md among 7", linkIDs(h.Links), h.OutDegree)
	}
	if m := mustNode(t, e, "missing note"); m.InDegree != 1 || !slices.Equal(m.Tags, []string{"found"}) {
		t.Errorf("Missing Note in degree, tags = %d, %q, want 1, [found]", m.InDegree, m.Tags)
	}
	checkLikeReload(t, e)

	remove(t, dir, "Missing Note.md")
	syncPaths(t, e, "Missing Note.md")
	h = mustNode(t, e, "Home")
	if !slices.Equal(h.Broken, []string{"Missing Note"}) || h.OutDegree != 6 {
		t.Errorf("Home broken, out = %q, %d after deleting Missing Note.md, want [Missing Note], 6", h.Broken, h.OutDegree)
	}
	if n, err := e.GetNode(context.Background(), "Missing Note", false); n != nil || err != nil {
		t.Errorf("GetNode(Missing Note) = %v, %v after delete, want nil", n, err)
	}
	if tags, _ := e.ListTags(context.Background()); slices.ContainsFunc(tags, func(tc vaultgraph.TagCount) bool { return tc.Tag == "found" }) {
		t.Errorf("ListTags() = %v after delete, want no tag found", tags)
	}
	checkLikeReload(t, e)
}

func TestSyncEditLinks(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	ctx := context.Background()

	write(t, dir, "Orphan.md", "# Orphan\n\nNow links to [[Home]] and [[Beta]]. #adopted\n")
	syncPaths(t, e, "Orphan.md")
	o := mustNode(t, e, "Orphan")
	if got, want := linkIDs(o.Links), []string{home, beta}; !slices.Equal(got, want) {
		t.Errorf("Orphan links = %q, want %q", got, want)
	}
	if h := mustNode(t, e, "Home"); h.InDegree != 7 {
		t.Errorf("Home in degree = %d, want 7", h.InDegree)
	}
	if p, _, _ := e.FindPath(ctx, "Orphan", "Home", true); p == nil || p.Length != 1 {
		t.Errorf("FindPath(Orphan, Home, directed) = %v, want length 1", p)
	}
	if res, _ := e.ListNodes(ctx, vaultgraph.ListQuery{Orphans: true}); slices.Contains(nodeIDs(res.Nodes), orphan) {
		t.Errorf("ListNodes(orphans) = %q, want no Orphan.md", nodeIDs(res.Nodes))
	}
	if nodes, _, _ := e.SearchByTags(ctx, []string{"adopted"}, false, 0); !slices.Equal(nodeIDs(nodes), []string{orphan}) {
		t.Errorf("SearchByTags(adopted) = %q, want [Orphan.md]", nodeIDs(nodes))
	}
	checkLikeReload(t, e)

	write(t, dir, "Orphan.md", "# Orphan\n\nOnly [[Beta]] now, and [[Nowhere]].\n")
	syncPaths(t, e, "Orphan.md")
	o = mustNode(t, e, "Orphan")
	if got := linkIDs(o.Links); !slices.Equal(got, []string{beta}) || !slices.Equal(o.Broken, []string{"Nowhere"}) {
		t.Errorf("Orphan links, broken = %q, %q, want [%s], [Nowhere]", got, o.Broken, beta)
	}
	if h := mustNode(t, e, "Home"); h.InDegree != 6 {
		t.Errorf("Home in degree = %d, want 6", h.InDegree)
	}
	if nb, total, _, _ := e.Neighbors(ctx, "Beta", graph.In, 0); total != 4 || !slices.Contains(nbIDs(nb), orphan) {
		t.Errorf("Neighbors(Beta, in) = %s (%d), want 4 with Orphan.md", nbString(nb), total)
	}
	checkLikeReload(t, e)

	t.Run("unchanged file", func(t *testing.T) {
		before := stateOf(t, e)
		syncPaths(t, e, "Orphan.md", "Home.md", "Orphan.md")
		if after := stateOf(t, e); !reflect.DeepEqual(before, after) {
			t.Errorf("Sync of unchanged files changed the state:\n%+v\nto\n%+v", before, after)
		}
	})
}

func nbIDs(nbs []vaultgraph.Neighbor) []string {
	ids := make([]string, len(nbs))
	for i, nb := range nbs {
		ids[i] = nb.ID
	}
	return ids
}

func TestSyncSameNameInFolder(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)

	// Meeting Notes (in Notes/) links [[Beta]] from its frontmatter; a
	// Beta in Notes/ is now the better match. Alpha Plan (in Projects/)
	// keeps its own folder's Beta.
	write(t, dir, "Notes/Beta.md", "# Beta, the notes\n")
	syncPaths(t, e, "Notes/Beta.md")
	if got := linkIDs(mustNode(t, e, meeting).Links); !slices.Contains(got, "Notes/Beta.md") || slices.Contains(got, beta) {
		t.Errorf("Meeting Notes links = %q, want Notes/Beta.md instead of %s", got, beta)
	}
	if got := linkIDs(mustNode(t, e, projAlpha).Links); !slices.Contains(got, beta) {
		t.Errorf("Projects/Alpha Plan links = %q, want %s", got, beta)
	}
	if n := mustNode(t, e, "Notes/Beta"); n.InDegree < 1 {
		t.Errorf("Notes/Beta.md in degree = %d, want at least 1", n.InDegree)
	}
	n := mustNode(t, e, "Beta")
	if !slices.ContainsFunc(n.Warnings, func(w string) bool { return strings.Contains(w, "2 notes are named") }) {
		t.Errorf("GetNode(Beta).Warnings = %q, want the ambiguity listed", n.Warnings)
	}
	checkLikeReload(t, e)

	remove(t, dir, "Notes/Beta.md")
	syncPaths(t, e, "Notes/Beta.md")
	if got := linkIDs(mustNode(t, e, meeting).Links); !slices.Contains(got, beta) {
		t.Errorf("Meeting Notes links = %q after delete, want %s back", got, beta)
	}
	checkLikeReload(t, e)
}

func TestSyncAttachments(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	ctx := context.Background()

	write(t, dir, "Files.md", "Data in [[numbers.xyz]] and ![[report.pdf]].\n")
	syncPaths(t, e, "Files.md")
	f := mustNode(t, e, "Files")
	if !slices.Equal(f.Broken, []string{"numbers.xyz"}) || !slices.Equal(f.Attachments, []string{"report.pdf"}) {
		t.Errorf("Files broken, attachments = %q, %q, want [numbers.xyz], [report.pdf]", f.Broken, f.Attachments)
	}

	write(t, dir, "Data/numbers.xyz", "1 2 3")
	write(t, dir, "report.pdf", "%PDF-1.4")
	syncPaths(t, e, "Data/numbers.xyz", "report.pdf")
	f = mustNode(t, e, "Files")
	if len(f.Broken) != 0 || !slices.Equal(f.Attachments, []string{"numbers.xyz", "report.pdf"}) {
		t.Errorf("Files broken, attachments = %q, %q after adding the files, want none, [numbers.xyz report.pdf]", f.Broken, f.Attachments)
	}
	if s, _ := e.Status(ctx); s.Attachments != 3 || s.BrokenLinks != 2 {
		t.Errorf("Status attachments, broken links = %d, %d, want 3, 2", s.Attachments, s.BrokenLinks)
	}
	checkLikeReload(t, e)

	remove(t, dir, "Data/numbers.xyz")
	remove(t, dir, "report.pdf")
	syncPaths(t, e, "Data/numbers.xyz", "report.pdf")
	f = mustNode(t, e, "Files")
	if !slices.Equal(f.Broken, []string{"numbers.xyz"}) || !slices.Equal(f.Attachments, []string{"report.pdf"}) {
		t.Errorf("Files broken, attachments = %q, %q after removing the files, want [numbers.xyz], [report.pdf]", f.Broken, f.Attachments)
	}
	if s, _ := e.Status(ctx); s.Attachments != 1 || s.BrokenLinks != 3 {
		t.Errorf("Status attachments, broken links = %d, %d, want 1, 3", s.Attachments, s.BrokenLinks)
	}
	checkLikeReload(t, e)
}

func TestSyncBinaryNote(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	ctx := context.Background()

	write(t, dir, "Projects/Beta.md", "PK\x03\x04\x00\x00binary")
	syncPaths(t, e, "Projects/Beta.md")
	s, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != 1 || s.Problems[0].Path != beta || !strings.Contains(s.Problems[0].Reason, "binary") {
		t.Errorf("Status().Problems = %v, want %s as binary", s.Problems, beta)
	}
	if s.Notes != 12 {
		t.Errorf("Status().Notes = %d, want 12", s.Notes)
	}
	if n, _ := e.GetNode(ctx, beta, false); n != nil {
		t.Errorf("GetNode(%s) = %s, want nil", beta, n.ID)
	}
	if e.Graph().Has(beta) {
		t.Errorf("Graph().Has(%s) = true, want false", beta)
	}
	h := mustNode(t, e, "Home")
	if slices.Contains(linkIDs(h.Links), beta) || !slices.Contains(h.Broken, "Beta") {
		t.Errorf("Home links, broken = %q, %q, want Beta broken", linkIDs(h.Links), h.Broken)
	}
	checkLikeReload(t, e)

	write(t, dir, "Projects/Beta.md", "# Beta\n\nBack to text, links [[Home]].\n")
	syncPaths(t, e, "Projects/Beta.md")
	if s, _ := e.Status(ctx); len(s.Problems) != 0 || s.Notes != 13 {
		t.Errorf("Status problems, notes = %v, %d after fixing the file, want none, 13", s.Problems, s.Notes)
	}
	if h := mustNode(t, e, "Home"); !slices.Contains(linkIDs(h.Links), beta) {
		t.Errorf("Home links = %q, want %s again", linkIDs(h.Links), beta)
	}
	checkLikeReload(t, e)
}

func TestSyncIgnoredAndOddPaths(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	before := stateOf(t, e)

	write(t, dir, "Ignored/New.md", "[[Home]]")
	write(t, dir, ".trash/New.md", "[[Home]]")
	write(t, dir, ".obsidian/workspace.json", "{}")
	if err := os.MkdirAll(filepath.Join(dir, "Empty Folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	syncPaths(t, e, "Ignored/New.md", ".trash/New.md", ".obsidian/workspace.json", "Empty Folder", "Never Existed.md")
	if after := stateOf(t, e); !reflect.DeepEqual(before, after) {
		t.Errorf("Sync of ignored paths changed the state:\n%+v\nto\n%+v", before, after)
	}

	t.Run("new folder", func(t *testing.T) {
		write(t, dir, "A/B/C/New.md", "Up to [[Deep Note]].")
		syncPaths(t, e, "A/B/C/New.md")
		if got := linkIDs(mustNode(t, e, "New").Links); !slices.Equal(got, []string{deepNote}) {
			t.Errorf("New links = %q, want [%s]", got, deepNote)
		}
		checkLikeReload(t, e)
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := e.Sync(ctx, "Home.md"); !errors.Is(err, context.Canceled) {
			t.Errorf("Sync(cancelled) = %v, want context.Canceled", err)
		}
	})
}

// A note linked with a differently cased extension, or whose own
// extension is upper case, must be re-resolved when it goes.
func TestSyncDeleteUpperCaseExtension(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	ctx := context.Background()

	write(t, dir, "Upper.MD", "# Upper\n")
	write(t, dir, "Linker.md", "To [[Upper]] and [[Home.MD]].\n")
	syncPaths(t, e, "Upper.MD", "Linker.md")
	if got := linkIDs(mustNode(t, e, "Linker").Links); !slices.Equal(got, []string{"Upper.MD", home}) {
		t.Fatalf("Linker links = %q, want [Upper.MD Home.md]", got)
	}

	remove(t, dir, "Upper.MD")
	remove(t, dir, "Home.md")
	syncPaths(t, e, "Upper.MD", "Home.md")
	l := mustNode(t, e, "Linker")
	if len(l.Links) != 0 || !slices.Equal(l.Broken, []string{"Upper", "Home.MD"}) {
		t.Errorf("Linker links, broken = %q, %q, want none, [Upper Home.MD]", linkIDs(l.Links), l.Broken)
	}
	if _, err := e.Hubs(ctx, graph.InDegree, 0); err != nil {
		t.Errorf("Hubs = %v", err)
	}
	checkLikeReload(t, e)
}

// The watcher reports paths as the file system spells them; macOS stores
// "Café" decomposed. Either spelling must update the note, not drop it.
func TestSyncDecomposedFileName(t *testing.T) {
	for _, give := range []string{"Notes/Cafe\u0301 Menu.md", "Notes/Café Menu.md"} {
		t.Run(fmt.Sprintf("%+q", give), func(t *testing.T) {
			dir := copyTestVault(t)
			e := openVault(t, dir)
			write(t, dir, "Notes/Cafe\u0301 Menu.md", "# Café Menu\n\nNow links to [[Orphan]].\n")
			syncPaths(t, e, give)
			n, err := e.GetNode(context.Background(), cafe, true)
			if err != nil || n == nil {
				t.Fatalf("GetNode(%q) = %v, %v after Sync(%+q), want the note", cafe, n, err, give)
			}
			if got := linkIDs(n.Links); !slices.Equal(got, []string{orphan}) || !strings.Contains(n.Content, "[[Orphan]]") {
				t.Errorf("Café Menu links, content = %q, %q, want [Orphan.md] and the new text", got, n.Content)
			}
			checkLikeReload(t, e)
		})
	}
}

// TestSyncConcurrentReads runs readers of every kind while a writer edits
// files and syncs them; run it with -race.
func TestSyncConcurrentReads(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	ctx := context.Background()

	// Every ID that can exist during the test.
	known := map[string]bool{"Missing Note.md": true, "Notes/Beta.md": true}
	for _, id := range allNotes {
		known[id] = true
	}
	ids := []string{"Home", "Beta", "Missing Note", "Notes/Beta", "Orphan", "Alpha Plan", "東京 Trip", "Meeting Notes"}

	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	report := func(format string, args ...any) {
		select {
		case errs <- fmt.Errorf(format, args...):
		default:
		}
	}
	checkNode := func(where string, n *vaultgraph.Node) {
		if !known[n.ID] {
			report("%s: unknown note %q", where, n.ID)
		}
		if n.OutDegree != len(n.Links) {
			report("%s: %s out degree %d with %d links %q", where, n.ID, n.OutDegree, len(n.Links), linkIDs(n.Links))
		}
		for _, l := range n.Links {
			if !known[l.ID] || l.Title == "" {
				report("%s: %s links to %+v", where, n.ID, l)
			}
		}
	}
	readers := []func(i int){
		func(i int) {
			n, err := e.GetNode(ctx, ids[i%len(ids)], true)
			if err != nil {
				report("GetNode: %v", err)
			} else if n != nil {
				checkNode("GetNode", n)
			}
		},
		func(i int) {
			nbs, total, _, err := e.Neighbors(ctx, ids[i%len(ids)], graph.Both, 5)
			if err != nil || len(nbs) > total || len(nbs) > 5 {
				report("Neighbors: %d of %d, %v", len(nbs), total, err)
			}
			for _, nb := range nbs {
				checkNode("Neighbors", nb.Node)
			}
		},
		func(i int) {
			p, _, err := e.FindPath(ctx, ids[i%len(ids)], ids[(i+3)%len(ids)], i%2 == 0)
			if err != nil {
				report("FindPath: %v", err)
			} else if p != nil && (p.Length != len(p.Path)-1 || slices.ContainsFunc(p.Path, func(id string) bool { return !known[id] })) {
				report("FindPath: %+v", p)
			}
		},
		func(i int) {
			res, err := e.ListNodes(ctx, vaultgraph.ListQuery{SortBy: []string{"-pagerank", "-inDegree"}, Limit: 100})
			if err != nil || res.Total != len(res.Nodes) || res.Total < 11 || res.Total > 15 {
				report("ListNodes: %v, %v", res, err)
				return
			}
			for _, n := range res.Nodes {
				checkNode("ListNodes", n)
			}
		},
		func(i int) {
			hubs, err := e.Hubs(ctx, graph.PageRank, 0)
			sum := 0.0
			for _, h := range hubs {
				sum += h.Score
				if !known[h.ID] || h.Title == "" {
					report("Hubs: %+v", h)
				}
			}
			if err != nil || math.Abs(sum-1) > 1e-6 {
				report("Hubs(pagerank): %d hubs summing to %v, %v", len(hubs), sum, err)
			}
		},
		func(i int) {
			s, err := e.Status(ctx)
			if err != nil || s.Notes < 11 || s.Notes > 15 {
				report("Status: %+v, %v", s, err)
			}
		},
	}
	for i, read := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := i; ; k++ {
				select {
				case <-done:
					return
				default:
				}
				read(k)
				runtime.Gosched() // leave the writer its share of the CPUs
			}
		}()
	}

	steps := []func(){
		func() {
			write(t, dir, "Missing Note.md", "# Missing\n[[Orphan]] [[Beta]]\n")
			syncPaths(t, e, "Missing Note.md")
		},
		func() {
			write(t, dir, "Orphan.md", "[[Home]] [[Alpha Plan]] [[Nowhere]]\n")
			syncPaths(t, e, "Orphan.md")
		},
		func() { write(t, dir, "Notes/Beta.md", "[[Meeting Notes]]\n"); syncPaths(t, e, "Notes/Beta.md") },
		func() { write(t, dir, "Projects/Beta.md", "\x00binary"); syncPaths(t, e, "Projects/Beta.md") },
		func() { remove(t, dir, "Missing Note.md"); syncPaths(t, e, "Missing Note.md") },
		func() { write(t, dir, "Orphan.md", "# Orphan\n"); syncPaths(t, e, "Orphan.md") },
		func() { write(t, dir, "Projects/Beta.md", "# Beta\n[[Home]]\n"); syncPaths(t, e, "Projects/Beta.md") },
		func() { remove(t, dir, "Notes/Beta.md"); syncPaths(t, e, "Notes/Beta.md") },
	}
	for range 25 {
		for _, step := range steps {
			step()
		}
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkLikeReload(t, e)
}

// A note deleted on disk before anyone called Sync reads as missing, not
// as an error.
func TestReadDeletedBeforeSync(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	ctx := context.Background()
	remove(t, dir, "Orphan.md")

	if n, err := e.GetNode(ctx, "Orphan", true); n != nil || err != nil {
		t.Errorf("GetNode(Orphan, content) = %v, %v, want nil, nil", n, err)
	}
	if n, err := e.GetNode(ctx, "Orphan", false); n == nil || err != nil {
		t.Errorf("GetNode(Orphan, no content) = %v, %v, want the indexed note", n, err)
	}
	if _, err := e.Content(ctx, orphan); !errors.Is(err, vaultgraph.ErrNotFound) {
		t.Errorf("Content(Orphan) = %v, want ErrNotFound", err)
	}
}

// Paths are cleaned before use: "./x" is x, and a path that leaves the
// vault is never read.
func TestSyncUncleanPaths(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	write(t, dir, "Orphan.md", "# Orphan\n\nNow links to [[Home]].\n")
	write(t, filepath.Dir(dir), "Outside.md", "# Outside\n\n[[Home]]\n")
	syncPaths(t, e, "./Orphan.md", "Notes/../Orphan.md", "../Outside.md", "Notes/../../Outside.md", "/Outside.md")
	if s, _ := e.Status(context.Background()); s.Notes != 13 {
		t.Errorf("Status().Notes = %d, want 13", s.Notes)
	}
	if got := linkIDs(mustNode(t, e, orphan).Links); !slices.Equal(got, []string{home}) {
		t.Errorf("Orphan links = %q, want [Home.md]", got)
	}
	checkLikeReload(t, e)
}

// TestSyncOutOfStep checks which paths Sync skips without its lock: only
// notes whose size and modification time are the engine's.
func TestSyncOutOfStep(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	if _, err := e.CreateNode(context.Background(), vaultgraph.NewNote{Title: "Echo", Content: "Written by the engine."}); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "Home.md", "# Home\n\nEdited outside.\n")
	write(t, dir, "Fresh.md", "# Fresh\n")
	tests := []struct {
		desc string
		give []string
		want []string
	}{
		{desc: "the echo of the engine's own write", give: []string{"Echo.md"}, want: []string{}},
		{desc: "a note edited outside", give: []string{"Home.md"}, want: []string{"Home.md"}},
		{desc: "a note the engine does not know", give: []string{"Fresh.md"}, want: []string{"Fresh.md"}},
		{desc: "a missing note", give: []string{"Gone.md"}, want: []string{"Gone.md"}},
		{desc: "a folder", give: []string{"Projects"}, want: []string{"Projects"}},
		{desc: "outside the vault", give: []string{"../Echo.md"}, want: []string{"../Echo.md"}},
		{desc: "mixed", give: []string{"Echo.md", "Home.md"}, want: []string{"Home.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := e.OutOfStep(tt.give...); !slices.Equal(got, tt.want) {
				t.Errorf("OutOfStep(%q) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
	syncPaths(t, e, "Echo.md", "Home.md", "Fresh.md")
	if got := e.OutOfStep("Echo.md", "Home.md", "Fresh.md"); len(got) != 0 {
		t.Errorf("OutOfStep after Sync = %q, want none", got)
	}
	checkLikeReload(t, e)
}

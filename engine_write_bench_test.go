package vaultgraph_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// benchTarget is the note 1,000 notes of the write benchmark vault link
// to; benchLinkers is how many.
const (
	benchTarget  = "Bench Target"
	benchLinkers = 1_000
)

// writeBenchEngine copies the 10,000-note benchmark vault (benchVault),
// adds benchTarget.md and a link to it, in one of several forms, at the
// end of 1,000 of its notes, and opens a writable engine on it with its
// index (as `vaultgraph serve` runs). It returns the engine and the notes
// that link to the target.
func writeBenchEngine(b *testing.B) (*vaultgraph.Engine, []string) {
	b.Helper()
	src := benchVault(b)
	dir := filepath.Join(b.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	ids := benchIDs(b, dir)
	if err := os.WriteFile(filepath.Join(dir, benchTarget+".md"), []byte("# Bench Target\n\n## Part\n\nText ^b1\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	forms := []string{
		"[[Bench Target]]", "[[Bench Target|the target]]", "[[Bench Target#Part]]", "![[Bench Target]]",
		"[t](Bench%20Target.md)", "[[Bench Target#^b1|block]]",
	}
	step := len(ids) / benchLinkers
	var linkers []string
	for i := 0; len(linkers) < benchLinkers; i += step {
		id := ids[i]
		f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(id)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		_, err = fmt.Fprintf(f, "\nSee %s.\n", forms[len(linkers)%len(forms)])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			b.Fatal(err)
		}
		linkers = append(linkers, id)
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(b.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	n, err := e.GetNode(context.Background(), benchTarget+".md", false)
	if err != nil || n == nil || n.InDegree != benchLinkers {
		b.Fatalf("GetNode(%s) = %+v, %v, want %d notes linking in", benchTarget, n, err, benchLinkers)
	}
	return e, linkers
}

// benchIDs lists the note IDs of the vault at dir, sorted.
func benchIDs(b *testing.B, dir string) []string {
	b.Helper()
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, NoIndex: true})
	if err := e.Open(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ids := e.Graph().IDs()
	if len(ids) != benchNotes {
		b.Fatalf("the benchmark vault has %d notes, want %d", len(ids), benchNotes)
	}
	return ids
}

// BenchmarkRename1000Links10k renames a note that 1,000 notes link to, in
// a 10,000-note vault: 1,001 files rewritten in one commit, and the index
// brought up to date. Each iteration renames it again.
func BenchmarkRename1000Links10k(b *testing.B) {
	e, _ := writeBenchEngine(b)
	ctx := context.Background()
	id := benchTarget + ".md"
	i := 0
	for b.Loop() {
		title := fmt.Sprintf("%s %d", benchTarget, i)
		res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: id, Title: &title})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Files) != benchLinkers+1 {
			b.Fatalf("the rename changed %d files, want %d", len(res.Files), benchLinkers+1)
		}
		id = res.Node.ID
		i++
	}
	b.ReportMetric(benchLinkers+1, "files/op")
}

// BenchmarkRenameDryRun1000Links10k works out the same rename without
// writing: the cost of planning and verifying the rewrite alone.
func BenchmarkRenameDryRun1000Links10k(b *testing.B) {
	e, _ := writeBenchEngine(b)
	ctx := context.Background()
	title := benchTarget + " Renamed"
	for b.Loop() {
		res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: benchTarget + ".md", Title: &title, DryRun: true})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Files) != benchLinkers+1 {
			b.Fatalf("the rename would change %d files, want %d", len(res.Files), benchLinkers+1)
		}
	}
}

// BenchmarkCreateNode10k creates a note with tags and links in the
// 10,000-note vault (file written, indexed, answer built).
func BenchmarkCreateNode10k(b *testing.B) {
	e, linkers := writeBenchEngine(b)
	ctx := context.Background()
	i := 0
	for b.Loop() {
		_, err := e.CreateNode(ctx, vaultgraph.NewNote{
			Title:     fmt.Sprintf("Created Note %d", i),
			Content:   fmt.Sprintf("# Created\n\nLinks to [[%s]] and [[%s]].\n", benchTarget, linkers[i%len(linkers)]),
			Tags:      []string{"bench", "created"},
			Directory: "Bench Created",
		})
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkUpdateContent10k replaces the body of one note (one of those
// linking to the target) in the 10,000-note vault, with ifMatch.
func BenchmarkUpdateContent10k(b *testing.B) {
	e, linkers := writeBenchEngine(b)
	ctx := context.Background()
	id := linkers[len(linkers)/2]
	n, err := e.GetNode(ctx, id, false)
	if err != nil || n == nil {
		b.Fatalf("GetNode(%s) = %v, %v", id, n, err)
	}
	hash := n.Hash
	i := 0
	for b.Loop() {
		content := fmt.Sprintf("# Updated %d\n\nNow links to [[%s]] and #tag%d.\n", i, benchTarget, i%7)
		res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: id, Content: &content, IfMatch: hash})
		if err != nil {
			b.Fatal(err)
		}
		hash = res.Node.Hash
		i++
	}
}

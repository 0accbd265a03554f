package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// TestRankTopKSameAsSQL checks that Keyword ranked in Go finds the same
// hits as ranked by SQL, in the same order, with the same scores to the
// bit: on a generated vault after edits and deletions (so that the
// full-text tables hold deleted rows), for queries of every kind the
// bench asks (title words, questions with common words, body words, runs
// of words, short prefixes), with all terms and any term, and with
// filters.
func TestRankTopKSameAsSQL(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 600, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	index := indexVault(t, dir)
	paths := notePathsOf(t, dir)
	// Edits and deletions while no engine runs: the next open applies them.
	for i, p := range paths {
		switch {
		case i%17 == 0:
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		case i%11 == 0:
			if err := os.WriteFile(p, []byte("# Rewritten\n\nOutline of the meeting about the garden [[Home]].\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: index})
	if err := e.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(ctx, index)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	queries := rankQueries(t, paths)
	var ids []string
	for _, p := range paths[:200] {
		rel, _ := filepath.Rel(dir, p)
		ids = append(ids, filepath.ToSlash(rel))
	}
	compared := 0
	for i, text := range queries {
		q := store.KeywordQuery{Text: text, Limit: 251, NoSnippets: true, Any: i%5 == 4}
		switch i % 7 {
		case 3:
			q.IDs = ids
		case 5:
			q.Exclude = ids
		}
		store.SetSQLRank(s, false)
		got, err := s.Keyword(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		store.SetSQLRank(s, true)
		want, err := s.Keyword(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Keyword(%+v) in Go differs from SQL:\n got %s\nwant %s", q, hitsText(got), hitsText(want))
		}
		if len(want) > 0 {
			compared++
		}
	}
	if compared < len(queries)*3/4 {
		t.Errorf("only %d of %d queries found notes", compared, len(queries))
	}
}

// notePathsOf lists the notes of a vault, in path order.
func notePathsOf(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// rankQueries derives queries from the notes, as the bench does, and
// adds short prefixes and an anchor-heavy word.
func rankQueries(t *testing.T, paths []string) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	out := []string{"home", "outline meeting", "me", "ga", "the", "the of", "rewritten garden"}
	for i := 0; i < len(paths); i += 5 {
		src, err := os.ReadFile(paths[i])
		if err != nil {
			continue // deleted
		}
		title := strings.ToLower(strings.TrimSuffix(filepath.Base(paths[i]), ".md"))
		var words []string
		for _, w := range strings.Fields(string(src)) {
			w = strings.ToLower(strings.Trim(w, ".,;:!?()[]#*\"'"))
			if w != "" && strings.IndexFunc(w, func(c rune) bool { return c < 'a' || c > 'z' }) < 0 {
				words = append(words, w)
			}
		}
		out = append(out, title, "what do I know about "+title)
		if len(words) >= 6 {
			at := r.IntN(len(words) - 5)
			out = append(out, strings.Join(words[at:at+6], " "), words[r.IntN(len(words))]+" "+words[r.IntN(len(words))])
			if w := words[r.IntN(len(words))]; len(w) >= 3 {
				out = append(out, w[:2]+" "+words[r.IntN(len(words))])
			}
		}
	}
	return out
}

func hitsText(hits []store.KeywordHit) string {
	var b strings.Builder
	for _, h := range hits[:min(len(hits), 8)] {
		fmt.Fprintf(&b, "%s %v title=%v matched=%d/%d; ", h.ID, h.BM25, h.Title, h.Matched, h.Terms)
	}
	return fmt.Sprintf("%d hits: %s", len(hits), b.String())
}

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
	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// TestKeywordLimitKeepsTheBest checks that a search with a small limit
// returns the best hits of all, as a search that returns every match
// ranks them: on a generated vault after edits and deletions, for
// queries of every kind the bench asks (title words, questions with
// common words, body words, runs of words, short prefixes), with all
// terms and any term, and with filters. Until the anchored query's parts
// were renamed, its ORDER BY sorted a note found both in its own text
// and in the anchor text of the links to it by one of its two scores, not
// their sum, and such a note could be cut from the top.
func TestKeywordLimitKeepsTheBest(t *testing.T) {
	ctx := context.Background()
	s, queries := rankCases(t)
	for _, q := range queries {
		q.Limit = 1000 // more than the vault has notes: every match
		all, err := s.Keyword(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		q.Limit = 5
		top, err := s.Keyword(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := rankKeys(top), rankKeys(all[:min(5, len(all))]); !reflect.DeepEqual(got, want) {
			t.Errorf("Keyword(%+v) = %s,\nthe best of all: %s", q, hitsText(top), hitsText(all))
		}
	}
}

// rankCases returns the index of editedIndex and searches of every kind
// the bench asks (rankQueries), with all terms and any term, some with
// filters (IDs or Exclude), limit 251 (the engine's).
func rankCases(t *testing.T) (*store.Store, []store.KeywordQuery) {
	t.Helper()
	s, dir, paths := editedIndex(t)
	var ids []string
	for _, p := range paths[:200] {
		rel, _ := filepath.Rel(dir, p)
		ids = append(ids, filepath.ToSlash(rel))
	}
	var out []store.KeywordQuery
	for i, text := range rankQueries(t, paths) {
		q := store.KeywordQuery{Text: text, Limit: 251, NoSnippets: true, Any: i%5 == 4}
		switch i % 7 {
		case 3:
			q.IDs = ids
		case 5:
			q.Exclude = ids
		}
		out = append(out, q)
	}
	return s, out
}

// editedIndex indexes a generated vault of 600 notes, then deletes and
// rewrites some while no engine runs and opens the vault again, so that
// the full-text tables hold deleted rows; it returns the index, open,
// the vault's folder and its notes' paths as generated (path order).
func editedIndex(t *testing.T) (*store.Store, string, []string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 600, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	index := indexVault(t, dir)
	var paths []string
	for rel := range testutil.Files(t, dir) {
		if strings.HasSuffix(rel, ".md") {
			paths = append(paths, filepath.Join(dir, filepath.FromSlash(rel)))
		}
	}
	slices.Sort(paths)
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
	t.Cleanup(func() { s.Close() })
	return s, dir, paths
}

// rankKeys are the hits' ranking keys (Matched × Relevance), which a
// tie between notes leaves the same whichever note comes first.
func rankKeys(hits []store.KeywordHit) []float64 {
	out := make([]float64, len(hits))
	for i, h := range hits {
		out[i] = float64(h.Matched) * h.Relevance()
	}
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

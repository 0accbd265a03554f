package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGoSnippetSameAsFTS5 compares the snippets made in Go (snipExpr)
// with FTS5's snippet() over the same rows, and whether a row matches,
// on random ASCII rows (words that repeat, sentences, colons, line
// breaks, runs of spaces and punctuation, short and long bodies) and
// random queries of words and prefixes, as KeywordTerms and matchExpr
// write them (with the stems column's marked tokens).
func TestGoSnippetSameAsFTS5(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE VIRTUAL TABLE temp.t USING "+snipTable); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	words := []string{"plan", "plans", "planning", "garden", "Garden", "meeting", "the", "a", "of", "project", "x1", "budget", "review", "music"}
	seps := []string{" ", " ", " ", "  ", ", ", ". ", ": ", ".\n", "\n\n", " - ", "(", ") ", ".", ":", "\t", "'", "**"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString(seps[r.IntN(len(seps))])
		}
		return b.String()
	}
	compared, matched := 0, 0
	for row := range 400 {
		var cols [len(ftsColumns)]string
		cols[0] = text(1 + r.IntN(3))
		cols[1] = text([]int{0, 1, 3, 20, 29, 30, 31, 45, 60, 200, 600}[r.IntN(11)])
		cols[4], cols[5] = text(r.IntN(3)), text(r.IntN(2))
		cols[7] = strings.Join(strings.Fields(foldMarker+strings.ToLower(strings.ReplaceAll(text(r.IntN(5)), " ", " "+foldMarker))), " ")
		args := ftsRowArgs(int64(row+1), cols)
		if _, err := conn.ExecContext(ctx, "INSERT INTO temp.t(rowid, title, body, cjktitle, cjk, headings, tags, props, stems) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", args...); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			query := words[r.IntN(len(words))]
			for range r.IntN(3) {
				w := words[r.IntN(len(words))]
				query += " " + w[:1+r.IntN(len(w))]
			}
			terms := KeywordTerms(query)
			e := newSnipExpr(terms)
			if e == nil {
				t.Fatalf("query %q: no expression in Go", query)
			}
			got, gotMatch, ok := e.snippet(cols)
			if !ok {
				t.Fatalf("row %d: not made in Go", row)
			}
			var want string
			err := conn.QueryRowContext(ctx, "SELECT snippet(t, 1, ?, ?, ?, ?) FROM temp.t WHERE t MATCH ? AND rowid = ?",
				MarkOpen, MarkClose, SnippetEllipsis, SnippetTokens, matchExpr(terms, "OR"), row+1).Scan(&want)
			wantMatch := err == nil
			if err != nil && !strings.Contains(err.Error(), "no rows") {
				t.Fatal(err)
			}
			compared++
			if gotMatch != wantMatch || gotMatch && got != want {
				t.Fatalf("row %d, query %q (%s):\nbody %q\n got %v %q\nwant %v %q", row, query, matchExpr(terms, "OR"), cols[1], gotMatch, got, wantMatch, want)
			}
			if gotMatch {
				matched++
			}
		}
	}
	t.Log(fmt.Sprintf("%d snippets compared, %d of matching rows", compared, matched))
	if matched < compared/3 {
		t.Errorf("only %d of %d rows matched: the test needs more", matched, compared)
	}
}

// TestKeywordSnippetsInGo: KeywordSnippets makes the snippets of ASCII
// notes in Go, without rows in temp.snip, the same as Keyword's (made by
// FTS5), a note found by its title alone included; a note with other
// text still gets FTS5's.
func TestKeywordSnippetsInGo(t *testing.T) {
	ctx := context.Background()
	s, _, write := vaultStore(t)
	write("A.md", "Harbour", "# Harbour\n\nThe harbour light is lit at dusk. The keeper: rows out.\n", "a")
	write("B.md", "Keeper", "Nothing about it here, only a boat.\n", "b")
	write("C.md", "Café", "The café by the harbour opens at dawn.\n", "c")
	want, err := s.Keyword(ctx, KeywordQuery{Text: "harbour keeper", Any: true})
	if err != nil || len(want) != 3 {
		t.Fatalf("Keyword = %d hits, %v; want 3", len(want), err)
	}
	bare, err := s.Keyword(ctx, KeywordQuery{Text: "harbour keeper", Any: true, NoSnippets: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.snip.ExecContext(ctx, "DELETE FROM temp.snip_hash"); err != nil {
		t.Fatal(err)
	}
	got, err := s.KeywordSnippets(ctx, bare)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range want {
		if got[h.ID] != h.Snippet {
			t.Errorf("KeywordSnippets[%s] = %q, want %q (FTS5's)", h.ID, got[h.ID], h.Snippet)
		}
	}
	var rows int
	if err := s.snip.QueryRowContext(ctx, "SELECT count(*) FROM temp.snip_hash").Scan(&rows); err != nil || rows != 1 {
		t.Errorf("temp.snip rows made: %d, %v; want 1 (the note with other text)", rows, err)
	}
}

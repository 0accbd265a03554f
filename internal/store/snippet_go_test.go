package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
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
	conn := tempConn(t, "CREATE VIRTUAL TABLE temp.t USING "+snipTable)
	r := rand.New(rand.NewPCG(5, 6))
	words := []string{"plan", "plans", "planning", "garden", "Garden", "meeting", "the", "a", "of", "project", "x1", "budget", "review", "music", "cafe", "resume", "uber"}
	latin := []string{"café", "Café", "résumé", "Über", "naïve", "jalapeño", "façade", "ŝtar", "½"}
	seps := []string{" ", " ", " ", "  ", ", ", ". ", ": ", ".\n", "\n\n", " - ", "(", ") ", ".", ":", "\t", "'", "**", " — ", "“", "” ", "\u00a0", "…"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			if r.IntN(4) == 0 {
				b.WriteString(latin[r.IntN(len(latin))])
			} else {
				b.WriteString(words[r.IntN(len(words))])
			}
			b.WriteString(seps[r.IntN(len(seps))])
		}
		return b.String()
	}
	compared, matched, skipped := 0, 0, 0
	for row := range 400 {
		var cols [len(ftsColumns)]string
		cols[0] = text(1 + r.IntN(3))
		cols[1] = text([]int{0, 1, 3, 20, 29, 30, 31, 45, 60, 200, 600}[r.IntN(11)])
		cols[2], cols[3] = hiddenText(cols[0]), hiddenText(cols[1])
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
				skipped++
				continue
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
	t.Log(fmt.Sprintf("%d snippets compared, %d of matching rows; %d rows left to FTS5", compared, matched, skipped))
	if matched < compared/3 || skipped > compared/2 {
		t.Errorf("only %d of %d rows matched: the test needs more", matched, compared)
	}
}

// TestKeywordSnippetsInGo: KeywordSnippets makes the snippets of notes
// in ASCII and Latin text in Go, without rows in temp.snip, the same as
// Keyword's (made by FTS5), a note found by its title alone included; a
// note with other text (Greek) still gets FTS5's.
func TestKeywordSnippetsInGo(t *testing.T) {
	ctx := context.Background()
	s, _, write := vaultStore(t)
	write("A.md", "Harbour", "# Harbour\n\nThe harbour light is lit at dusk. The keeper: rows out.\n", "a")
	write("B.md", "Keeper", "Nothing about it here, only a boat.\n", "b")
	write("C.md", "Café", "The café — by the harbour — opens at dawn.\n", "c")
	write("D.md", "Athens", "The harbour of Αθήνα opens at dawn.\n", "d")
	want, err := s.Keyword(ctx, KeywordQuery{Text: "harbour keeper", Any: true})
	if err != nil || len(want) != 4 {
		t.Fatalf("Keyword = %d hits, %v; want 4", len(want), err)
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

// TestTokens61SameAsFTS5: for every character of Latin-1, Latin
// Extended-A and -B and the general punctuation, tokens61 splits and
// folds "a" + it + "b" as FTS5's unicode61 does, or leaves it to FTS5;
// it takes most of them.
func TestTokens61SameAsFTS5(t *testing.T) {
	ctx := context.Background()
	conn := tempConn(t, "CREATE VIRTUAL TABLE temp.p USING fts5(x, tokenize = 'unicode61 remove_diacritics 2')",
		"CREATE VIRTUAL TABLE temp.pv USING fts5vocab(temp, p, 'instance')")
	taken := 0
	for _, rg := range [][2]rune{{0xA0, 0x24F}, {0x2000, 0x206F}} {
		for c := rg[0]; c <= rg[1]; c++ {
			text := "a" + string(c) + "b"
			toks, ok := tokens61(text)
			if !ok {
				continue
			}
			taken++
			if _, err := conn.ExecContext(ctx, "DELETE FROM temp.p"); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.ExecContext(ctx, "INSERT INTO temp.p(rowid, x) VALUES (1, ?)", text); err != nil {
				t.Fatal(err)
			}
			rows, err := conn.QueryContext(ctx, "SELECT term FROM temp.pv ORDER BY offset")
			want, err := scanRows(rows, err, func(rows *sql.Rows, term *string) error { return rows.Scan(term) })
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tk := range toks {
				got = append(got, tk.text)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%U %q: tokens %q, FTS5's %q", c, string(c), got, want)
			}
		}
	}
	if taken < 300 {
		t.Errorf("tokens61 takes %d of the characters, want most", taken)
	}
}

// tempConn is a connection to a new index with the tables stmts make.
func tempConn(t testing.TB, stmts ...string) *sql.Conn {
	t.Helper()
	ctx := context.Background()
	s, _ := openTemp(t)
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := execAll(ctx, conn, stmts...); err != nil {
		t.Fatal(err)
	}
	return conn
}

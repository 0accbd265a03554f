package store

import (
	"context"
	"strings"
	"testing"
)

// FuzzGoSnippet: wherever the snippet of a row is made in Go (snipExpr),
// it is FTS5's snippet() of the same row and query, and the row matches
// exactly when FTS5 says it does.
func FuzzGoSnippet(f *testing.F) {
	for _, s := range [][2]string{
		{"The harbour light is lit at dusk. The keeper: rows out.", "harbour keeper"},
		{"plan plans planning. Garden: the garden\n\nmeeting of the project", "plan gard"},
		{"Café — by the harbour — opens at dawn…", "cafe harbour"},
		{"a  b\tc.d:e (f) **g** “h” i\u00a0j", "d g j"},
		{strings.Repeat("word ", 90) + "needle. " + strings.Repeat("more ", 90), "needle more"},
	} {
		f.Add(s[0], s[1])
	}
	ctx := context.Background()
	conn := tempConn(f, "CREATE VIRTUAL TABLE temp.t USING "+snipTable)
	f.Fuzz(func(t *testing.T, body, query string) {
		terms := KeywordTerms(query)
		e := newSnipExpr(terms)
		if e == nil {
			return
		}
		var cols [len(ftsColumns)]string
		cols[0], cols[1] = "title", body
		cols[2], cols[3] = hiddenText(cols[0]), hiddenText(cols[1])
		got, gotMatch, ok := e.snippet(cols)
		if !ok {
			return // left to FTS5
		}
		if _, err := conn.ExecContext(ctx, "DELETE FROM temp.t"); err != nil {
			t.Fatal(err)
		}
		args := ftsRowArgs(1, cols)
		if _, err := conn.ExecContext(ctx, "INSERT INTO temp.t(rowid, title, body, cjktitle, cjk, headings, tags, props, stems) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", args...); err != nil {
			t.Fatal(err)
		}
		var want string
		err := conn.QueryRowContext(ctx, "SELECT snippet(t, 1, ?, ?, ?, ?) FROM temp.t WHERE t MATCH ? AND rowid = 1",
			MarkOpen, MarkClose, SnippetEllipsis, SnippetTokens, matchExpr(terms, "OR")).Scan(&want)
		wantMatch := err == nil
		if err != nil && !strings.Contains(err.Error(), "no rows") {
			return // a query FTS5 refuses is not the snippet's concern
		}
		if gotMatch != wantMatch || gotMatch && got != want {
			t.Fatalf("query %q (%s), body %q:\n got %v %q\nwant %v %q", query, matchExpr(terms, "OR"), body, gotMatch, got, wantMatch, want)
		}
	})
}

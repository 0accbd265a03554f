package store

import (
	"context"
	"testing"
	"unicode"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
)

func TestFoldText(t *testing.T) {
	tests := []struct{ desc, give, want string }{
		{"ASCII", "Plan B for the café", ""},
		{"unicode61 folds these", "Café, Ñandú, Москва, αθηνα", ""},
		{"Greek", "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας",
			"vgfoldαθηνα vgfoldειναι vgfold vgfoldπρωτευουσα vgfoldτησ vgfoldελλαδασ"},
		{"each occurrence", "Straße, Straße", "vgfoldstrasse vgfoldstrasse"},
		{"gap between runs", "Straße und Łódź", "vgfoldstrasse vgfold vgfoldlodz"},
		{"Cyrillic", "Новогодняя ёлка и йогурт", "vgfoldелка vgfold vgfoldиогурт"},
		{"CJK words are not folded", "東京 Straße", "vgfoldstrasse"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := foldText(tt.give); got != tt.want {
				t.Errorf("foldText(%q) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
	if got, want := hiddenText("東京 Straße"), "東京 京 vgfold vgfoldstrasse"; got != want {
		t.Errorf("hiddenText(東京 Straße) = %q, want %q", got, want)
	}
	if got, want := hiddenText("Ελληνικά"), "vgfoldελληνικα"; got != want {
		t.Errorf("hiddenText(Ελληνικά) = %q, want %q", got, want)
	}
}

// TestFoldUnicode61: a word that textfold.FoldWord says unicode61 folds as Fold
// does has the same tokens in SQLite's unicode61 (remove_diacritics 2) as
// its folded form, so no marked token is needed for it. Checked for every
// letter, digit and mark outside CJK (and private use), between two ASCII
// letters.
func TestFoldUnicode61(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, stmt := range []string{
		"CREATE VIRTUAL TABLE u61 USING fts5(word, folded, tokenize = 'unicode61 remove_diacritics 2')",
		"CREATE VIRTUAL TABLE u61v USING fts5vocab(u61, 'instance')",
	} {
		if _, err := s.db.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO u61(rowid, word, folded) VALUES (?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	same, marked := 0, 0
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !textfold.IsWordRune(r) || textfold.IsCJK(r) || unicode.Is(unicode.Co, r) {
			continue
		}
		w := "a" + string(r) + "b"
		f, differs := textfold.FoldWord(w)
		if differs {
			marked++
			continue
		}
		same++
		if _, err := stmt.ExecContext(ctx, r, w, f); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := tx.QueryContext(ctx, "SELECT doc, col, term FROM u61v ORDER BY doc, col, offset")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	toks := map[int64][2]string{}
	for rows.Next() {
		var doc int64
		var col, term string
		if err := rows.Scan(&doc, &col, &term); err != nil {
			t.Fatal(err)
		}
		tk := toks[doc]
		if col == "word" {
			tk[0] += term + " "
		} else {
			tk[1] += term + " "
		}
		toks[doc] = tk
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for doc, tk := range toks {
		if tk[0] != tk[1] {
			if bad++; bad <= 20 {
				r := rune(doc)
				t.Errorf("%U %q: unicode61 tokens %q, of Fold %q; want the same (or textfold.FoldWord to report a difference)", r, "a"+string(r)+"b", tk[0], tk[1])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d characters unicode61 folds otherwise than textfold.FoldWord says", bad)
	}
	t.Logf("%d characters folded alike, %d marked", same, marked)
	if same < 10000 || marked < 1000 {
		t.Errorf("%d alike, %d marked: too few checked", same, marked)
	}
}

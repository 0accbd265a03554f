package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/vault"
)

func TestCJKText(t *testing.T) {
	tests := []struct{ desc, give, want string }{
		{"Japanese sentence", "東京から京都", "東京 京か から ら京 京都 都"},
		{"single character", "京", "京"},
		{"CJK punctuation separates runs", "東京、京都。", "東京 京 京都 都"},
		{"text without CJK", "Hello, world", ""},
		{"only the words with CJK", "see 東京 and Kyoto", "東京 京"},
		{"mixed word keeps its other parts", "Tokyo東京タワー x", "Tokyo 東京 京タ タワ ワー ー"},
		{"digits", "2024年に", "2024 年に に"},
		{"Korean", "서울에서 부산까지", "서울 울에 에서 서 부산 산까 까지 지"},
		{"katakana with prolonged sound mark", "ラーメン", "ラー ーメ メン ン"},
		{"iteration mark", "時々", "時々 々"},
		{"NFC", "カ\u3099ス", "ガス ス"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := cjkText(tt.give); got != tt.want {
				t.Errorf("cjkText(%q) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
}

func TestTermCJKExpr(t *testing.T) {
	tests := []struct {
		give Term
		want string
	}{
		{Term{Text: "京都"}, `{cjktitle cjk} : "京都"`},
		{Term{Text: "新幹線"}, `{cjktitle cjk} : "新幹 幹線"`},
		{Term{Text: "京"}, `{cjktitle cjk} : "京"*`},
		{Term{Text: "京", Phrase: true}, `{cjktitle cjk} : "京"*`},
		{Term{Text: "東京 京都", Phrase: true}, `{cjktitle cjk} : "東京 京 京都"`},
		{Term{Text: "東京、京都"}, `{cjktitle cjk} : "東京 京 京都"`},
		{Term{Text: "Tokyo東京"}, `{cjktitle cjk} : "Tokyo 東京"`},
		{Term{Text: "東京Tok"}, `{cjktitle cjk} : "東京 京 Tok"*`},
		{Term{Text: "東京Tok", Phrase: true}, `{cjktitle cjk} : "東京 京 Tok"`},
		{Term{Text: "京x"}, `{cjktitle cjk} : "京 x"*`},
		{Term{Text: "東京 Tokyo", Phrase: true}, `({cjktitle cjk} : "東京 京" AND {title body} : "Tokyo")`},
		{Term{Text: "Tokyo"}, ""},
	}
	for _, tt := range tests {
		if got := tt.give.cjkExpr(); got != tt.want {
			t.Errorf("%+v.cjkExpr() = %s, want %s", tt.give, got, tt.want)
		}
	}
	if got, want := (Term{Text: "京都"}).expr(), `({title body} : ("京都" OR "京都"*) OR {cjktitle cjk} : "京都")`; got != want {
		t.Errorf("京都.expr() = %s, want %s", got, want)
	}
}

// cjkStore is an index of notes in Chinese, Japanese and Korean, and
// filler notes so that their words are rare enough for bm25.
func cjkStore(t *testing.T) *Store {
	t.Helper()
	notes := []struct{ id, title, body string }{
		{"Japanese.md", "旅行記", "東京から京都へ新幹線で行った。伏見稲荷大社はとても綺麗でした。"},
		{"Chinese.md", "日记", "我们昨天从上海坐高铁去了北京，然后参观了故宫。"},
		{"Korean.md", "메모", "대한민국의 수도는 서울입니다. 부산까지 기차를 탔습니다."},
		{"Kana.md", "ひらがな", "きょうはいいてんきですね。とんこつラーメンが好き。"},
		{"Mixed.md", "Mixed", "Bought an iPhone15を買った and saw Tokyo東京タワー at night."},
		{"Apart.md", "Apart", "Tokyo is far from 大阪. Then 新幹 線 and 東京 都."},
		{"Station.md", "Station", "これは駅"},
		{"Shinkansen.md", "新幹線の旅", strings.Repeat("車窓の景色を楽しんだ。", 20)},
		{"Latin.md", "Latin", "Nothing but words about the plan."},
	}
	for i := 1; i <= 8; i++ {
		notes = append(notes, struct{ id, title, body string }{fmt.Sprintf("Filler/N%02d.md", i), fmt.Sprintf("N%02d", i), "ほかの話題について。"})
	}
	return storeOf(t, notes)
}

func TestKeywordCJK(t *testing.T) {
	s := cjkStore(t)
	ctx := context.Background()
	tests := []struct {
		desc, give string
		want       []string // the hits, best first; nil: none
	}{
		{"Japanese word mid-sentence", "京都", []string{"Japanese.md"}},
		{"Japanese three characters", "新幹線", []string{"Shinkansen.md", "Japanese.md"}},
		{"Japanese word at the end of a run", "大社", []string{"Japanese.md"}},
		{"Chinese word mid-sentence", "北京", []string{"Chinese.md"}},
		{"Chinese two words", "高铁 故宫", []string{"Chinese.md"}},
		{"Korean inside a word", "민국", []string{"Korean.md"}},
		{"Korean word start (as before)", "서울", []string{"Korean.md"}},
		{"single character", "駅", []string{"Station.md"}},
		{"single character mid-run", "稲", []string{"Japanese.md"}},
		{"CJK title prefix (as before)", "新幹線の", []string{"Shinkansen.md"}},
		{"CJK title inside", "幹線", []string{"Shinkansen.md", "Japanese.md"}},
		{"hiragana", "てんき", []string{"Kana.md"}},
		{"katakana", "ラーメン", []string{"Kana.md"}},
		{"mixed text: CJK after Latin", "買った", []string{"Mixed.md"}},
		{"mixed text: Latin word start (as before)", "iphone", []string{"Mixed.md"}},
		{"mixed word", "Tokyo東京", []string{"Mixed.md"}},
		{"mixed word mid-run", "東京タ", []string{"Mixed.md"}},
		{"mixed words apart do not match", "Tokyo大阪", nil},
		{"CJK and Latin words", "大阪 Tokyo", []string{"Apart.md"}},
		{"quoted phrase", `"京都へ新幹線"`, []string{"Japanese.md"}},
		{"quoted phrase in another order", `"新幹線へ京都"`, nil},
		{"separate runs are not a word", "東京都", nil},
		{"Latin unchanged", "plan", []string{"Latin.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			hits, err := s.Keyword(ctx, KeywordQuery{Text: tt.give})
			if err != nil {
				t.Fatalf("Keyword(%q) = %v", tt.give, err)
			}
			if got := hitIDs(hits); !slices.Equal(got, tt.want) {
				t.Errorf("Keyword(%q) = %q, want %q", tt.give, got, tt.want)
			}
			for i, h := range hits {
				if h.Matched != h.Terms || h.BM25 >= 0 {
					t.Errorf("Keyword(%q)[%d] = %+v, want all terms matched, BM25 < 0", tt.give, i, h)
				}
				if h.Snippet == "" {
					t.Errorf("Keyword(%q)[%d] %s has no snippet", tt.give, i, h.ID)
				}
			}
		})
	}
	// A CJK title counts as a title match, and ranks first.
	hits, err := s.Keyword(ctx, KeywordQuery{Text: "幹線"})
	if err != nil || len(hits) != 2 || !hits[0].Title || hits[1].Title {
		t.Errorf("Keyword(幹線) = %+v, %v; want the note titled 新幹線の旅 first, as a title match", hits, err)
	}
}

func TestKeywordCJKSnippet(t *testing.T) {
	s := cjkStore(t)
	ctx := context.Background()
	long := "# 長い記事\n\n" + strings.Repeat("今日は天気がいいので散歩に行きました。", 10) +
		"途中で京都の友達に会いました。" + strings.Repeat("それから家に帰って本を読みました。", 10)
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{{Note: &vault.Note{ID: "Long.md", Title: "長い記事"}, Path: "Long.md", Body: long}}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ desc, give, id, want string }{
		{"word mid-sentence", "京都", "Japanese.md", "東京から**京都**へ新幹線で行った。"},
		{"several words", "京都 稲荷", "Japanese.md", "**京都**へ新幹線で行った。伏見**稲荷**大社"},
		{"adjacent highlights join", "京都へ 新幹線", "Japanese.md", "東京から**京都へ新幹線**で"},
		{"Latin words highlighted too", "大阪 Tokyo", "Apart.md", "**Tokyo** is far from **大阪**."},
		{"mixed word", "Tokyo東京", "Mixed.md", "saw **Tokyo東京**タワー"},
		{"Korean", "민국", "Korean.md", "대한**민국**의 수도는"},
		{"cut around the match", "京都", "Long.md", "途中で**京都**の友達に会いました。"},
		// Only the title has it: the start of the body.
		{"title match", "幹線", "Shinkansen.md", "車窓の景色を楽しんだ。"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			checkSnippet(t, s, tt.give, tt.id, tt.want)
		})
	}
	// Long CJK text is cut: around the match, or at the start of the
	// body when only the title matched.
	for _, tt := range []struct{ give, id, prefix string }{{"京都", "Long.md", SnippetEllipsis}, {"幹線", "Shinkansen.md", "車窓"}} {
		hits, err := s.Keyword(ctx, KeywordQuery{Text: tt.give})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(hits, func(h KeywordHit) bool { return h.ID == tt.id })
		if i < 0 {
			t.Fatalf("Keyword(%q) = %q, lacks %s", tt.give, hitIDs(hits), tt.id)
		}
		snip := hits[i].Snippet
		if !strings.HasPrefix(snip, tt.prefix) || !strings.HasSuffix(snip, SnippetEllipsis) {
			t.Errorf("Keyword(%q) snippet of %s = %q, want %s… cut text…", tt.give, tt.id, snip, tt.prefix)
		}
		if n := utf8.RuneCountInString(snip); n > 2*SnippetTokens+30 {
			t.Errorf("Keyword(%q) snippet of %s has %d characters, want about %d", tt.give, tt.id, n, 2*SnippetTokens)
		}
	}
}

// TestOpenOldSchema: a schema-1 index (full-text table without the CJK
// columns) is brought up to date in place on Open: its notes and
// vectors stay, and its notes are found by CJK and folded words; an index
// of an unknown older schema is still set aside and rebuilt.
func TestOpenOldSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	recs := []*Record{
		{Note: &vault.Note{ID: "T.md", Title: "東京"}, Path: "T.md", Body: "東京から京都へ新幹線で行った"},
		{Note: &vault.Note{ID: "E.md", Title: "Plans", Aliases: []string{"Roadmap"}}, Path: "E.md", Body: "budget review in Łódź"},
	}
	if err := s.Apply(ctx, &Batch{Upserts: recs}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutVectors(ctx, "m", 2, []NoteVectors{{Note: "T.md", Hash: "h", Vecs: [][]float32{{1, 0}}}}); err != nil {
		t.Fatal(err)
	}
	// Make it a schema-1 file: the full-text table of version 1.
	if _, err := s.db.ExecContext(ctx, "CREATE VIRTUAL TABLE fts1 USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')"); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs { // fts keeps no text since schema 8
		if _, err := s.db.ExecContext(ctx, "INSERT INTO fts1(rowid, title, body) SELECT rowid, title, ? FROM notes WHERE id = ?", r.Body, r.Note.ID); err != nil {
			t.Fatal(err)
		}
	}
	for _, stmt := range []string{
		"DROP TABLE fts",
		"ALTER TABLE fts1 RENAME TO fts",
		"PRAGMA user_version = 1",
	} {
		if _, err := s.db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	s.Close()

	s, reason, err := OpenOrRebuild(ctx, path)
	if err != nil || reason != "" {
		t.Fatalf("OpenOrRebuild(schema 1) = %q, %v; want it migrated in place", reason, err)
	}
	defer s.Close()
	if m, _ := filepath.Glob(path + ".broken-*"); len(m) != 0 {
		t.Errorf("set-aside copies = %q, want none", m)
	}
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("user_version = %d, %v; want %d", version, err, SchemaVersion)
	}
	for _, q := range []string{"京都", "新幹線", "budget", "東京", "roadmap", "lodz"} {
		if hits, err := s.Keyword(ctx, KeywordQuery{Text: q}); err != nil || len(hits) != 1 {
			t.Errorf("Keyword(%q) after the migration = %+v, %v; want one note", q, hits, err)
		}
	}
	if h, err := s.VectorHashes(ctx, "m", 2); err != nil || h["T.md"] != "h" {
		t.Errorf("vectors after the migration = %v, %v; want T.md's kept", h, err)
	}

	// Schema 0 with tables of another shape, or a version this package
	// never wrote, is still rebuilt.
	other := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(other))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s2, reason, err := OpenOrRebuild(ctx, other)
	if err != nil || !strings.Contains(reason, "rebuilt the index") {
		t.Fatalf("OpenOrRebuild(schema 99) = %q, %v; want it rebuilt", reason, err)
	}
	s2.Close()
}

// checkSnippet checks that Keyword(give) finds id with a snippet
// containing want, and that KeywordSnippets of the same hit, searched
// with NoSnippets, makes exactly that snippet.
func checkSnippet(t *testing.T, s *Store, give, id, want string) {
	t.Helper()
	ctx := context.Background()
	hits, err := s.Keyword(ctx, KeywordQuery{Text: give})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(hits, func(h KeywordHit) bool { return h.ID == id })
	if i < 0 {
		t.Fatalf("Keyword(%q) = %q, lacks %s", give, hitIDs(hits), id)
	}
	if got := hits[i].Snippet; !strings.Contains(got, want) {
		t.Errorf("Keyword(%q) snippet of %s = %q, want it to contain %q", give, id, got, want)
	}
	bare, err := s.Keyword(ctx, KeywordQuery{Text: give, NoSnippets: true})
	if err != nil || len(bare) <= i || bare[i].ID != id {
		t.Fatalf("Keyword(%q, NoSnippets) = %+v, %v; want %s at %d", give, bare, err, id, i)
	}
	snips, err := s.KeywordSnippets(ctx, bare[i:i+1])
	if err != nil || snips[id] != hits[i].Snippet {
		t.Errorf("KeywordSnippets(%q, %s) = %q, %v; want %q", give, id, snips, err, hits[i].Snippet)
	}
}

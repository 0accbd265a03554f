package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".vaultgraph", "index.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%s) = %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func sampleRecord(id string) *Record {
	date := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	return &Record{
		Note: &vault.Note{
			ID: id, Title: "Alpha", Aliases: []string{"A"}, Tags: []string{"project", "Project/Alpha"},
			Properties: []vault.Property{
				{Key: "status", Value: "active"},
				{Key: "priority", Value: int64(2)},
				{Key: "ratio", Value: 0.5},
				{Key: "done", Value: false},
				{Key: "created", Value: date},
				{Key: "list", Value: []any{"x", int64(1), []any{}}},
				{Key: "nested", Value: map[string]any{"a": "b"}},
				{Key: "empty", Value: nil},
			},
			Links: []vault.Link{
				{Kind: vault.KindWiki, Target: "Beta", Fragment: "Goals", Start: 10, End: 25, TargetStart: 12, TargetEnd: 16, Line: 3},
				{Kind: vault.KindMarkdown, Target: "Missing.md", Alias: "m", Start: 30, End: 45, TargetStart: 34, TargetEnd: 44, Line: 4},
			},
			BodyStart: 5, Size: 120, ModTime: time.Unix(1700000000, 123), Hash: "abc", Warnings: []string{"w"},
		},
		Path:     id,
		Resolved: []string{"Beta.md", ""},
		Status:   []vault.Status{vault.Resolved, vault.Broken},
		Body:     "The café plan for alpha",
	}
}

func TestApplyLoadRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	want := sampleRecord("Projects/Alpha.md")
	beta := sampleRecord("Beta.md")
	beta.Note.Links, beta.Resolved, beta.Status = nil, nil, nil
	if err := s.Apply(ctx, &Batch{
		Upserts: []*Record{want, beta}, AddFiles: []string{"img.png"},
		Problems: []vault.Problem{{Path: "bad.md", Reason: "binary"}}, Meta: map[string]string{"vault": "/v"},
	}); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Notes) != 2 {
		t.Fatalf("Load() notes = %d, want 2", len(snap.Notes))
	}
	var got *Record
	for _, r := range snap.Notes {
		if r.Note.ID == want.Note.ID {
			got = r
		}
	}
	if got == nil {
		t.Fatalf("Load() lacks %s", want.Note.ID)
	}
	got.Body = want.Body // bodies are not loaded
	if !got.Note.ModTime.Equal(want.Note.ModTime) {
		t.Errorf("ModTime = %v, want %v", got.Note.ModTime, want.Note.ModTime)
	}
	got.Note.ModTime = want.Note.ModTime
	for i, p := range got.Note.Properties {
		if d, ok := p.Value.(time.Time); ok {
			if !d.Equal(want.Note.Properties[i].Value.(time.Time)) {
				t.Errorf("date = %v", d)
			}
			got.Note.Properties[i].Value = want.Note.Properties[i].Value
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load() record =\n%#v\nwant\n%#v", got, want)
	}
	if !reflect.DeepEqual(snap.Attachments, []string{"img.png"}) {
		t.Errorf("Attachments = %v", snap.Attachments)
	}
	if len(snap.Problems) != 1 || snap.Problems[0].Reason != "binary" {
		t.Errorf("Problems = %v", snap.Problems)
	}
	if snap.Meta["vault"] != "/v" {
		t.Errorf("Meta = %v", snap.Meta)
	}
}

func TestRelinkDeleteAndFTS(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := sampleRecord("Alpha.md")
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{r}}); err != nil {
		t.Fatal(err)
	}
	if n := ftsCount(t, s.db, "cafe"); n != 1 {
		t.Errorf("fts match 'cafe' (diacritics folded) = %d, want 1", n)
	}
	r.Resolved[1], r.Status[1] = "Missing.md", vault.Resolved
	if err := s.Apply(ctx, &Batch{Relinks: []*Record{r}}); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := snap.Notes[0].Resolved[1]; got != "Missing.md" {
		t.Errorf("after Relink resolved = %q, want Missing.md", got)
	}
	// Upserting again replaces, never duplicates, links and fts rows.
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{r}}); err != nil {
		t.Fatal(err)
	}
	if n := ftsCount(t, s.db, "alpha"); n != 1 {
		t.Errorf("fts rows after second upsert = %d, want 1", n)
	}
	if err := s.Apply(ctx, &Batch{Deletes: []string{"Alpha.md"}}); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"notes", "links"} { // no tags table since schema 8
		var n int
		if err := s.db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%s rows after delete = %d, want 0", table, n)
		}
	}
	if n := ftsCount(t, s.db, "alpha"); n != 0 {
		t.Errorf("fts rows after delete = %d, want 0", n)
	}
}

func ftsCount(t *testing.T, db *sql.DB, q string) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM fts WHERE fts MATCH ?", q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestOpenOrRebuild(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		desc string
		give func(t *testing.T, path string)
		want string // substring of the reason; "" = no rebuild
	}{
		{desc: "new file", give: func(*testing.T, string) {}, want: ""},
		{desc: "garbage", give: func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 500)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, want: "moved it to"},
		{desc: "newer schema", give: func(t *testing.T, path string) {
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
				t.Fatal(err)
			}
			s.Close()
		}, want: "newer"},
		{desc: "truncated", give: func(t *testing.T, path string) {
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			var recs []*Record
			for i := range 300 {
				recs = append(recs, sampleRecord(strings.Repeat("x", i%50)+string(rune('a'+i%26))+time.Duration(i).String()+".md"))
			}
			if err := s.Apply(ctx, &Batch{Upserts: recs}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
				t.Fatal(err)
			}
			s.Close()
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}, want: "moved it to"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			tt.give(t, path)
			s, reason, err := OpenOrRebuild(ctx, path)
			if err != nil {
				t.Fatalf("OpenOrRebuild() error = %v", err)
			}
			defer s.Close()
			if !strings.Contains(reason, tt.want) || (tt.want == "") != (reason == "") {
				t.Errorf("OpenOrRebuild() reason = %q, want it to contain %q", reason, tt.want)
			}
			if _, err := s.Load(ctx); err != nil {
				t.Errorf("Load() after OpenOrRebuild = %v", err)
			}
			if tt.want != "" {
				matches, _ := filepath.Glob(path + ".broken-*")
				if len(matches) == 0 {
					t.Errorf("no set-aside copy of the unusable index")
				}
			}
		})
	}
}

// TestCommitSynced checks that every connection of the index syncs its
// commits (synchronous=FULL): the index transaction of a group commit is
// on disk before the group's writers are answered.
func TestCommitSynced(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	var conns []*sql.Conn
	for range 3 { // several connections of the pool, each set up by the DSN
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		var mode int
		if err := c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if mode != 2 {
			t.Errorf("connection %d: PRAGMA synchronous = %d, want 2 (FULL)", i, mode)
		}
	}
}

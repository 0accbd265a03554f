package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// linkRec is a record of a note whose body links to target with the
// given display text (the link's byte range set as the parser sets it).
func linkRec(id, body, target, alias string) *Record {
	n := &vault.Note{ID: id, Title: strings.TrimSuffix(id, ".md")}
	if i := strings.Index(body, "[["); i >= 0 {
		j := strings.Index(body, "]]") + 2
		n.Links = []vault.Link{{Target: target, Alias: alias, Start: i, End: j}}
	}
	var resolved []string
	if len(n.Links) > 0 {
		resolved = []string{target + ".md"}
	}
	return &Record{Note: n, Path: id, Body: body, Resolved: resolved, Status: make([]vault.Status, len(resolved))}
}

func keywordIDs(t *testing.T, s *Store, q string) []string {
	t.Helper()
	hits, err := s.Keyword(context.Background(), KeywordQuery{Text: q})
	if err != nil {
		t.Fatalf("Keyword(%q) = %v", q, err)
	}
	return hitIDs(hits)
}

// TestAnchorText: the display text of a link and the words around it
// find the note it links to; an edit or the removal of the linking note
// updates that at once, and a note created after the links to it gets
// their anchor text.
func TestAnchorText(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	apply := func(b *Batch) {
		t.Helper()
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	// The source is written before its target exists.
	apply(&Batch{Upserts: []*Record{linkRec("Guide.md", "Use [[Callouts|callout]] blocks for warnings.", "Callouts", "callout")}})
	apply(&Batch{Upserts: []*Record{linkRec("Callouts.md", "Boxes of colour in a note.", "", "")}})
	tests := []struct {
		desc, give string
		want       []string
	}{
		{"display text", "callout", []string{"Callouts.md", "Guide.md"}},
		{"words around the link", "warnings", []string{"Callouts.md", "Guide.md"}},
		{"the target's own words", "colour", []string{"Callouts.md"}},
	}
	for _, tt := range tests {
		if got := keywordIDs(t, s, tt.give); !slices.Equal(slices.Sorted(slices.Values(got)), tt.want) {
			t.Errorf("%s: Keyword(%q) = %q, want %q in any order", tt.desc, tt.give, got, tt.want)
		}
	}
	// The source changes its words: the target's anchor text follows.
	apply(&Batch{Upserts: []*Record{linkRec("Guide.md", "See [[Callouts|admonition]] here.", "Callouts", "admonition")}})
	if got := keywordIDs(t, s, "warnings"); len(got) != 0 {
		t.Errorf("after the edit, Keyword(warnings) = %q, want none", got)
	}
	if got, want := keywordIDs(t, s, "admonition"), []string{"Callouts.md", "Guide.md"}; !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("after the edit, Keyword(admonition) = %q, want %q", got, want)
	}
	// The source goes: so does the anchor text.
	apply(&Batch{Deletes: []string{"Guide.md"}})
	if got := keywordIDs(t, s, "admonition"); len(got) != 0 {
		t.Errorf("after the delete, Keyword(admonition) = %q, want none", got)
	}
}

// TestStemming: English words match by their Snowball stem, and a note
// with the word as typed ranks above one with another word of its stem.
func TestStemming(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	b := &Batch{Upserts: []*Record{
		{Note: &vault.Note{ID: "A.md", Title: "A"}, Path: "A.md", Body: "She connected the cables."},
		{Note: &vault.Note{ID: "B.md", Title: "B"}, Path: "B.md", Body: "Connecting things is hard: one connection at a time."},
		{Note: &vault.Note{ID: "C.md", Title: "C"}, Path: "C.md", Body: "Nothing here."},
	}}
	if err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		give string
		want []string
	}{
		{"connections", []string{"A.md", "B.md"}}, // stem connect: connected, connecting
		{"connecting", []string{"B.md", "A.md"}},  // B has it as typed
		{"thing", []string{"B.md"}},               // prefix
		{`"connect"`, nil},                        // a quoted word is not stemmed
	}
	for _, tt := range tests {
		if got := keywordIDs(t, s, tt.give); !slices.Equal(got, tt.want) {
			t.Errorf("Keyword(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
	for _, tt := range []struct{ give, want string }{
		{"connections", "connect"}, {"Running", "run"}, {"go", ""}, {"café", ""}, {"東京", ""},
	} {
		if got := Stem(tt.give); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

// TestFields: headings, tags and frontmatter properties (keys, values,
// links as names) are searched, each as its own field.
func TestFields(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	n := &vault.Note{ID: "Blade Runner.md", Title: "Blade Runner", Tags: []string{"film/noir"},
		Properties: []vault.Property{
			{Key: "director", Value: []any{"[[Ridley Scott]]"}},
			{Key: "cast", Value: []any{"[[Harrison Ford|Ford]]"}},
			{Key: "year", Value: "1982"},
		},
		Headings: []vault.Heading{{Level: 2, Text: "Replicants"}}}
	b := &Batch{Upserts: []*Record{
		{Note: n, Path: n.ID, Body: "## Replicants\n\nTears in rain."},
		{Note: &vault.Note{ID: "Other.md", Title: "Other"}, Path: "Other.md", Body: "Unrelated."},
	}}
	if err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ridley scott", "harrison", "director", "1982", "noir", "replicants"} {
		if got, want := keywordIDs(t, s, q), []string{"Blade Runner.md"}; !slices.Equal(got, want) {
			t.Errorf("Keyword(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestOpenSchema4: an index written by the vaultgraph of schema 4
// (testdata/schema4-testvault.db: testvault indexed with --embed none) is brought
// up to date in place: the new fields, the links' contexts and the
// anchor text are made from what it holds, without the files.
func TestOpenSchema4Fields(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	copyFile(t, filepath.Join("testdata", "schema4-testvault.db"), path)
	s, reason, err := OpenOrRebuild(ctx, path)
	if err != nil || reason != "" {
		t.Fatalf("OpenOrRebuild(schema 4) = %q, %v; want it migrated in place", reason, err)
	}
	defer s.Close()
	loadMigrated(t, s, 13)
	tests := []struct {
		desc, give string
		want       []string
	}{
		{"a property value", "paused", []string{"Projects/Beta.md"}},
		{"anchor text: [[Projects/Alpha Plan|the plan, path-qualified]] in Home", "qualified", []string{"Home.md", "Projects/Alpha Plan.md"}},
		{"a body word", "malformed", []string{"Notes/Broken YAML.md"}},
	}
	for _, tt := range tests {
		if got := keywordIDs(t, s, tt.give); !slices.Equal(slices.Sorted(slices.Values(got)), tt.want) {
			t.Errorf("%s: Keyword(%q) = %q, want %q in any order", tt.desc, tt.give, got, tt.want)
		}
	}
}

// TestStemText: the stems column lists each stem once, in first-seen
// order, leaves out words that are their own stem, and is the same on
// every call: the pooled scratch of one call (a long text's included)
// leaves nothing behind for the next.
func TestStemText(t *testing.T) {
	long := strings.Repeat("word ", 10) + func() string {
		var b strings.Builder
		for i := range 6000 { // more distinct words than a pooled set keeps
			fmt.Fprintf(&b, "x%d ", i)
		}
		return b.String()
	}()
	tests := []struct {
		give []string
		want string
	}{
		{[]string{"Running runs", "the RUNNING runner ran", "connected"}, stemMarker + "run " + stemMarker + "connect"},
		{[]string{"connections", "connected"}, stemMarker + "connect"},
		{[]string{"go café 東京"}, ""},
		{[]string{long, "connections"}, stemMarker + "connect"},
	}
	for round := range 3 {
		for _, tt := range tests {
			if got := stemText(tt.give...); got != tt.want {
				t.Errorf("round %d: stemText(%.40q) = %q, want %q", round, tt.give, got, tt.want)
			}
		}
	}
}

// TestNextStemWord: nextStemWord finds the words of
// strings.FieldsFuncSeq(t, notStemRune), in random texts of ASCII,
// other letters, digits, marks, separators and invalid UTF-8.
func TestNextStemWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "Z", "7", " ", "-", "_", "é", "Ж", "٣", "\u0301", "漢", "。", "\xff", "\x80", "\xe2\x80", "😀", "ab"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		want := slices.Collect(strings.FieldsFuncSeq(text, notStemRune))
		var got []string
		for w, i := nextStemWord(text, 0); w != ""; w, i = nextStemWord(text, i) {
			got = append(got, w)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("words of %q = %q, want %q", text, got, want)
		}
	}
}

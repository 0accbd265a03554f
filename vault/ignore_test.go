package vault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIgnoreSkip(t *testing.T) {
	type give struct {
		path  string
		isDir bool
	}
	tests := []struct {
		desc    string
		filters []string
		give    give
		want    bool
	}{
		{desc: "obsidian folder", give: give{".obsidian", true}, want: true},
		{desc: "obsidian config file", give: give{".obsidian/app.json", false}, want: true},
		{desc: "trash folder", give: give{".trash", true}, want: true},
		{desc: "note in the trash", give: give{".trash/Trashed.md", false}, want: true},
		{desc: "git folder", give: give{".git", true}, want: true},
		{desc: "vaultgraph index folder", give: give{".vaultgraph/index.db", false}, want: true},
		{desc: "nested dot folder", give: give{"Notes/.drafts/x.md", false}, want: true},
		{desc: "dot file", give: give{".hidden.md", false}, want: true},
		{desc: "plain note", give: give{"Notes/Meeting Notes.md", false}, want: false},
		{desc: "plain folder", give: give{"Notes", true}, want: false},
		{desc: "dot inside a name is fine", give: give{"Note v1.2.md", false}, want: false},
		{desc: "vault root", give: give{".", true}, want: false},
		{desc: "empty path", give: give{"", true}, want: false},
		{desc: "folder prefix: the folder", filters: []string{"Ignored/"}, give: give{"Ignored", true}, want: true},
		{desc: "folder prefix: a note inside", filters: []string{"Ignored/"}, give: give{"Ignored/Hidden.md", false}, want: true},
		{desc: "folder prefix: a deeper note", filters: []string{"Ignored/"}, give: give{"Ignored/a/b.md", false}, want: true},
		{desc: "folder prefix: a longer folder name", filters: []string{"Ignored/"}, give: give{"Ignored Stuff/x.md", false}, want: false},
		{desc: "folder prefix: the same name deeper", filters: []string{"Ignored/"}, give: give{"Notes/Ignored/x.md", false}, want: false},
		{desc: "prefix without a slash", filters: []string{"Templates"}, give: give{"Templates/Daily.md", false}, want: true},
		{desc: "file prefix", filters: []string{"Archive/old.md"}, give: give{"Archive/old.md", false}, want: true},
		{desc: "file prefix leaves its siblings", filters: []string{"Archive/old.md"}, give: give{"Archive/new.md", false}, want: false},
		{desc: "regex", filters: []string{`/\.excalidraw\.md$/`}, give: give{"Drawings/Board.excalidraw.md", false}, want: true},
		{desc: "regex no match", filters: []string{`/\.excalidraw\.md$/`}, give: give{"Drawings/Board.md", false}, want: false},
		{desc: "anchored regex", filters: []string{`/^Daily\/2023-/`}, give: give{"Daily/2023-01-05.md", false}, want: true},
		{desc: "anchored regex other year", filters: []string{`/^Daily\/2023-/`}, give: give{"Daily/2024-01-05.md", false}, want: false},
		{desc: "several filters", filters: []string{"A/", "B/"}, give: give{"B/x.md", false}, want: true},
		{desc: "blank filter ignored", filters: []string{"", "  "}, give: give{"x.md", false}, want: false},
		{desc: "built-in rules stay with filters", filters: []string{"Ignored/"}, give: give{".trash/x.md", false}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			ig, err := newIgnore(tt.filters...)
			if err != nil {
				t.Fatalf("newIgnore(%q) error: %v", tt.filters, err)
			}
			if got := ig.Skip(tt.give.path, tt.give.isDir); got != tt.want {
				t.Errorf("newIgnore(%q).Skip(%q, %v) = %v, want %v", tt.filters, tt.give.path, tt.give.isDir, got, tt.want)
			}
		})
	}
}

func TestIgnoreNil(t *testing.T) {
	var ig *Ignore
	tests := []struct {
		give string
		want bool
	}{
		{give: ".obsidian", want: true},
		{give: ".trash/x.md", want: true},
		{give: "Ignored/Hidden.md", want: false},
	}
	for _, tt := range tests {
		if got := ig.Skip(tt.give, false); got != tt.want {
			t.Errorf("(*Ignore)(nil).Skip(%q) = %v, want %v", tt.give, got, tt.want)
		}
	}
}

func TestNewIgnoreBadRegex(t *testing.T) {
	if _, err := newIgnore("/[unclosed/"); err == nil || !strings.Contains(err.Error(), "[unclosed") {
		t.Errorf("newIgnore(%q) error = %v, want one naming the filter", "/[unclosed/", err)
	}
}

func TestLoadIgnore(t *testing.T) {
	type check struct {
		path string
		want bool
	}
	tests := []struct {
		desc    string
		appJSON *string // nil: no .obsidian/app.json
		dirJSON bool    // app.json is a folder (unreadable)
		wantErr string  // substring; "" for no error
		checks  []check
	}{
		{
			desc:   "no app.json",
			checks: []check{{".obsidian/app.json", true}, {"Ignored/x.md", false}, {"x.md", false}},
		},
		{
			desc:    "filters",
			appJSON: ptr(`{"userIgnoreFilters": ["Ignored/", "/\\.tmp\\.md$/"], "alwaysUpdateLinks": true}`),
			checks:  []check{{"Ignored/x.md", true}, {"a/b.tmp.md", true}, {"a/b.md", false}, {".trash/x.md", true}},
		},
		{
			desc:    "no filters key",
			appJSON: ptr(`{"alwaysUpdateLinks": true}`),
			checks:  []check{{"Ignored/x.md", false}, {".git/config", true}},
		},
		{
			desc:    "malformed JSON: error, built-in rules still apply",
			appJSON: ptr(`{"userIgnoreFilters": ["Ignored/"`),
			wantErr: "app.json",
			checks:  []check{{".obsidian", true}, {".trash/x.md", true}, {"Ignored/x.md", false}, {"x.md", false}},
		},
		{
			desc:    "filters of the wrong type",
			appJSON: ptr(`{"userIgnoreFilters": "Ignored/"}`),
			wantErr: "app.json",
			checks:  []check{{".obsidian", true}, {"x.md", false}},
		},
		{
			desc:    "one bad regex: error, the other filters still apply",
			appJSON: ptr(`{"userIgnoreFilters": ["/[bad/", "Ignored/"]}`),
			wantErr: "[bad",
			checks:  []check{{"Ignored/x.md", true}, {".obsidian", true}, {"x.md", false}},
		},
		{
			desc:    "unreadable app.json",
			dirJSON: true,
			wantErr: "app.json",
			checks:  []check{{".obsidian", true}, {"x.md", false}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			root := t.TempDir()
			if err := os.Mkdir(filepath.Join(root, ".obsidian"), 0o755); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(root, ".obsidian", "app.json")
			if tt.appJSON != nil {
				if err := os.WriteFile(file, []byte(*tt.appJSON), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.dirJSON {
				if err := os.Mkdir(file, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			ig, err := LoadIgnore(root)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("LoadIgnore() error = %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("LoadIgnore() error = %v, want one containing %q", err, tt.wantErr)
			}
			if ig == nil {
				t.Fatal("LoadIgnore() = nil Ignore, want the built-in rules at least")
			}
			for _, c := range tt.checks {
				if got := ig.Skip(c.path, false); got != c.want {
					t.Errorf("LoadIgnore().Skip(%q) = %v, want %v", c.path, got, c.want)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// newIgnore returns an Ignore with the built-in rules and the given
// Obsidian-style filters: a path prefix ("Templates/", "Archive/old.md")
// or a regular expression between slashes ("/\.excalidraw\.md$/").
func newIgnore(filters ...string) (*Ignore, error) {
	ig := &Ignore{}
	for _, f := range filters {
		if err := ig.add(f); err != nil {
			return ig, err
		}
	}
	return ig, nil
}

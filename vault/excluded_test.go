package vault

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestScanExcluded checks what Scan reports of the user's excluded
// folders and files, and that ListExcluded finds their notes and
// canvases, dot-folders and symlinks left out.
func TestScanExcluded(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		".obsidian/app.json":       `{"userIgnoreFilters":["Templates/","/\\.draft\\.md$/","Archive/old.md"]}`,
		"Note.md":                  "x",
		"Templates/Daily.md":       "x",
		"Templates/Board.canvas":   "{}",
		"Templates/pic.png":        "x",
		"Templates/.hidden/T.md":   "x",
		"Templates/Deep/Week.md":   "x",
		"Notes/Idea.draft.md":      "x",
		"Archive/old.md":           "x",
		".trash/Templates/Gone.md": "x",
		".trash/X.draft.md":        "x",
	})
	if err := os.Symlink(filepath.Join(root, "Note.md"), filepath.Join(root, "Templates", "Link.md")); err != nil {
		t.Skip("no symlinks here")
	}
	ig, err := LoadIgnore(root)
	if err != nil {
		t.Fatal(err)
	}
	scan, err := Scan(root, ig)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(scan.ExcludedFiles)
	if want := []string{"Templates"}; !slices.Equal(scan.ExcludedDirs, want) {
		t.Errorf("ExcludedDirs = %q, want %q", scan.ExcludedDirs, want)
	}
	if want := []string{"Archive/old.md", "Notes/Idea.draft.md"}; !slices.Equal(scan.ExcludedFiles, want) {
		t.Errorf("ExcludedFiles = %q, want %q", scan.ExcludedFiles, want)
	}
	var got []string
	for _, f := range ListExcluded(root, scan.ExcludedDirs, append(scan.ExcludedFiles, "Gone.md")) {
		got = append(got, f.ID)
	}
	want := []string{"Archive/old.md", "Notes/Idea.draft.md", "Templates/Board.canvas", "Templates/Daily.md", "Templates/Deep/Week.md"}
	if !slices.Equal(got, want) {
		t.Errorf("ListExcluded = %q, want %q", got, want)
	}
	if got, want := ig.FilterFolders(), []string{"Templates", "Archive/old.md"}; !slices.Equal(got, want) {
		t.Errorf("FilterFolders = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		give           string
		hidden, filter bool
	}{
		{".trash/X.draft.md", true, true},
		{"Templates/a.md", false, true},
		{"Notes/a.md", false, false},
		{"Notes/.obsidian", true, false},
	} {
		if h, f := Hidden(tt.give), ig.Filtered(tt.give, false); h != tt.hidden || f != tt.filter {
			t.Errorf("Hidden, Filtered(%q) = %v, %v; want %v, %v", tt.give, h, f, tt.hidden, tt.filter)
		}
	}
}

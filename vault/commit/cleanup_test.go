package commit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestInterrupted checks that a scan plus Interrupted finds a leftover
// wherever Recover's own walk finds one, and nothing where it finds
// nothing: in walked folders, dot-folders, excluded folders, .git, and a
// backup whose file name is not NFC on disk.
func TestInterrupted(t *testing.T) {
	backup := BackupPrefix + "0123abcd-"
	for _, tc := range []struct {
		desc string
		file string // a file made beside the notes ("" none)
		dir  bool   // file is a folder
		want bool
	}{
		{desc: "clean vault"},
		{desc: "temporary file at the root", file: TempPrefix + "x.md", want: true},
		{desc: "backup in a folder", file: "Notes/" + backup + "A.md", want: true},
		{desc: "backup named in NFD", file: "Notes/" + backup + "Cafe\u0301.md", want: true},
		{desc: "temporary file in a dot-folder", file: ".obsidian/" + TempPrefix + "y", want: true},
		{desc: "backup in an excluded folder", file: "Excluded/Deep/" + backup + "B.md", want: true},
		{desc: "temporary file in .git", file: ".git/objects/" + TempPrefix + "z"},
		{desc: "temporary file in a nested .git", file: "Notes/.git/" + TempPrefix + "z"},
		{desc: "a folder named like a temporary file", file: "Notes/" + TempPrefix + "d", dir: true},
		{desc: "a note named with the prefix but neither", file: "Notes/" + vault.WritePrefix + "note.md"},
		{desc: "the journal", file: vault.StateDir + "/" + JournalName, want: true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			root := t.TempDir()
			for p, body := range map[string]string{
				"Home.md": "# Home\n", "Notes/A.md": "a\n", "Excluded/Deep/B.md": "b\n", ".git/objects/o": "o",
				".obsidian/app.json": `{"userIgnoreFilters": ["Excluded/"]}`,
			} {
				writeTestFile(t, filepath.Join(root, p), body)
			}
			if tc.file != "" {
				p := filepath.Join(root, filepath.FromSlash(tc.file))
				if tc.dir {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
				} else {
					writeTestFile(t, p, "left\n")
				}
			}
			ig, err := vault.LoadIgnore(root)
			if err != nil {
				t.Fatal(err)
			}
			scan, err := vault.Scan(root, ig)
			if err != nil {
				t.Fatal(err)
			}
			temps, baks, err := findLeftovers(root)
			if err != nil {
				t.Fatal(err)
			}
			journal, _ := exists(journalPath(root))
			recoverSees := len(temps)+len(baks) > 0 || journal
			if recoverSees != tc.want {
				t.Fatalf("Recover's walk finds %v %v (journal %v), the test wants leftovers: %v", temps, baks, journal, tc.want)
			}
			if got := Interrupted(root, scan.Marked, scan.Unwalked); got != tc.want {
				t.Errorf("Interrupted() = %v, want %v (marked %q, unwalked %q)", got, tc.want, scan.Marked, scan.Unwalked)
			}
		})
	}
}

// writeTestFile writes body at p, making its folders.
func writeTestFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

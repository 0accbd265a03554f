package vault

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// testVault is the hand-made vault at the root of the module.
const testVault = "../testvault"

// testVaultNotes are the note IDs of testvault, NFC, sorted. Not listed:
// .obsidian/app.json, .trash/Trashed.md (dot folders), Ignored/Hidden.md
// (userIgnoreFilters), Diagram.png (an attachment).
var testVaultNotes = []string{
	"Archive/Alpha Plan.md",
	"Archive/Old Ideas.md",
	"Deep/Nested/Folder/Deep Note.md",
	"Home.md",
	"Notes/Broken YAML.md",
	"Notes/Café Menu.md",
	"Notes/Meeting Notes.md",
	"Notes/東京 Trip.md",
	"Orphan.md",
	"Projects/Alpha Plan.md",
	"Projects/Beta.md",
	"Tagged.md",
	"Unclosed.md",
}

// scanTestVault loads the ignore rules of testvault and scans it.
func scanTestVault(t testing.TB) ScanResult {
	t.Helper()
	ig, err := LoadIgnore(testVault)
	if err != nil {
		t.Fatalf("LoadIgnore(%q) error: %v", testVault, err)
	}
	res, err := Scan(testVault, ig)
	if err != nil {
		t.Fatalf("Scan(%q) error: %v", testVault, err)
	}
	return res
}

func noteIDs(files []File) []string {
	ids := make([]string, len(files))
	for i, f := range files {
		ids[i] = f.ID
	}
	sort.Strings(ids)
	return ids
}

func TestScanTestVault(t *testing.T) {
	res := scanTestVault(t)
	if got := noteIDs(res.Notes); !reflect.DeepEqual(got, testVaultNotes) {
		t.Errorf("Scan(%q) notes =\n%q\nwant\n%q", testVault, got, testVaultNotes)
	}
	if want := []string{"Diagram.png"}; !reflect.DeepEqual(res.Attachments, want) {
		t.Errorf("Scan(%q) attachments = %q, want %q", testVault, res.Attachments, want)
	}
	if len(res.Problems) != 0 {
		t.Errorf("Scan(%q) problems = %v, want none", testVault, res.Problems)
	}
	for _, f := range res.Notes {
		fi, err := os.Stat(f.Path)
		if err != nil {
			t.Errorf("Scan(%q) note %s: Path %q: %v", testVault, f.ID, f.Path, err)
			continue
		}
		if fi.Size() != f.Size || !fi.ModTime().Equal(f.ModTime) {
			t.Errorf("Scan(%q) note %s: size %d, mtime %v, want %d, %v", testVault, f.ID, f.Size, f.ModTime, fi.Size(), fi.ModTime())
		}
		if !norm.NFC.IsNormalString(f.ID) || !utf8.ValidString(f.ID) {
			t.Errorf("Scan(%q) note ID %q is not NFC", testVault, f.ID)
		}
	}
}

// TestScanTestVaultDecomposed checks that the café note really is stored
// decomposed, so that TestScanTestVault proves the ID is normalised.
func TestScanTestVaultDecomposed(t *testing.T) {
	res := scanTestVault(t)
	for _, f := range res.Notes {
		if f.ID != "Notes/Café Menu.md" {
			continue
		}
		base := filepath.Base(f.Path)
		if want := norm.NFD.String("Café Menu.md"); base != want {
			t.Errorf("café note is stored as %+q, want the decomposed %+q (testvault changed?)", base, want)
		}
		return
	}
	t.Errorf("Scan(%q) did not find Notes/Café Menu.md", testVault)
}

func TestScanIgnore(t *testing.T) {
	tests := []struct {
		desc    string
		filters []string // nil: no Ignore at all
		want    []string
	}{
		{
			desc: "no user filters: Ignored/ is part of the vault, dot folders are not",
			want: append([]string{"Ignored/Hidden.md"}, testVaultNotes...),
		},
		{
			desc:    "more filters",
			filters: []string{"Ignored/", "Archive/", `/^Notes\/.*Menu/`},
			want: []string{
				"Deep/Nested/Folder/Deep Note.md",
				"Home.md",
				"Notes/Broken YAML.md",
				"Notes/Meeting Notes.md",
				"Notes/東京 Trip.md",
				"Orphan.md",
				"Projects/Alpha Plan.md",
				"Projects/Beta.md",
				"Tagged.md",
				"Unclosed.md",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var ig *Ignore
			if tt.filters != nil {
				var err error
				if ig, err = newIgnore(tt.filters...); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Scan(testVault, ig)
			if err != nil {
				t.Fatal(err)
			}
			want := append([]string(nil), tt.want...)
			sort.Strings(want)
			if got := noteIDs(res.Notes); !reflect.DeepEqual(got, want) {
				t.Errorf("Scan(%q) notes =\n%q\nwant\n%q", testVault, got, want)
			}
		})
	}
}

func TestScanRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.md")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "vault-link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc      string
		give      string
		wantErr   bool
		wantNotes []string
	}{
		{desc: "missing folder", give: filepath.Join(dir, "nope"), wantErr: true},
		{desc: "a file", give: file, wantErr: true},
		{desc: "a symlink to the vault", give: link, wantNotes: []string{"file.md"}},
		{desc: "empty vault", give: t.TempDir(), wantNotes: nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			res, err := Scan(tt.give, nil)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Scan(%q) error = %v, want error: %v", tt.give, err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if got := noteIDs(res.Notes); len(got)+len(tt.wantNotes) > 0 && !reflect.DeepEqual(got, tt.wantNotes) {
				t.Errorf("Scan(%q) notes = %q, want %q", tt.give, got, tt.wantNotes)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	tests := []struct {
		root, give string
		want       bool
	}{
		{root: "/v", give: "/v", want: true},
		{root: "/v", give: "/v/a.md", want: true},
		{root: "/v", give: "/v/a/../b.md", want: true},
		{root: "/v", give: "/vault/a.md", want: false},
		{root: "/v", give: "/a.md", want: false},
		{root: "/v", give: "/v/../a.md", want: false},
		{root: "/v", give: "/v/..a.md", want: true},
	}
	for _, tt := range tests {
		if got := Within(tt.root, tt.give); got != tt.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tt.root, tt.give, got, tt.want)
		}
	}
}

package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// testVaultFiles returns the content of every .md file under testvault,
// the ignored and trashed ones too.
func testVaultFiles(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	err := filepath.WalkDir(testVault, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		out = append(out, b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var fuzzSeeds = []string{
	"",
	"---",
	"---\n---",
	"\uFEFF---\ntitle: x\n---\n",
	"---\r\ntags: [a, b]\r\nrelated: \"[[X]]\"\r\n---\r\n[[Y]]",
	"---\na: &a [*a]\n---\n",
	"---\nx: \"[[a]] [[b|c]]\" # [[d]]\n---\n",
	"[[a#h1#h2]] [[a\\|b]] ![[i.png]] [[#H]] [[|]] [[a|]] [[]]",
	"[x](<T Name.md>) [y](T%20N.md#H) [z](../a.md \"t\") [r][ref]\n\n[ref]: R.md\n",
	"![img](p.png) [e](https://x.y/#z) <https://a.b>",
	"#tag #a/b #123 a#b `#code` example.com/#x",
	"```\n[[code]]\n```\n    [[indented]]\n> [[quote]]\n- [[list]]",
	"[[a\xff]] #t\xff [b\xfe](c\xfd.md)",
	"| a | [[b\\|c]] |\n| --- | --- |\n",
	"# A: b\n## C.d ^x\n\ntext ^blk\n\n- li ^Li-2\n\n[[#A b#C d]] [[#^blk]] [y](#A%20b) [[N#^]] [[#a#b#]]\n",
	"Set\u00a0ext\n===\n\n# \u2014 x \uFEFF\n### [[L]] `c` **b**\n\n^only\n",
}

func FuzzParse(f *testing.F) {
	for _, b := range testVaultFiles(f) {
		f.Add(b)
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	p := NewParser()
	f.Fuzz(func(t *testing.T, src []byte) {
		n, err := parseBounded(t, p, src)
		if err != nil {
			if !errors.Is(err, ErrBinary) || n != nil {
				t.Fatalf("Parse() = %v, %v, want a note or ErrBinary", n, err)
			}
			return
		}
		for _, w := range n.Warnings {
			if strings.HasPrefix(w, "parser failed") {
				t.Fatalf("Parse() panicked: %s", w)
			}
		}
		if n.Title == "" || !utf8.ValidString(n.Title) {
			t.Errorf("Parse().Title = %q, want valid non-empty UTF-8", n.Title)
		}
		if n.BodyStart < 0 || n.BodyStart > len(src) {
			t.Errorf("Parse().BodyStart = %d, outside [0, %d]", n.BodyStart, len(src))
		}
		for _, tag := range n.Tags {
			if tag == "" || strings.Contains(tag, "#") || !utf8.ValidString(tag) {
				t.Errorf("Parse().Tags holds %q, want non-empty valid UTF-8 without '#'", tag)
			}
		}
		prev := 0
		for _, l := range n.Links {
			inRange := 0 <= l.Start && l.Start <= l.End && l.End <= len(src)
			noTarget := l.TargetStart == -1 && l.TargetEnd == -1
			targetIn := l.Start <= l.TargetStart && l.TargetStart <= l.TargetEnd && l.TargetEnd <= l.End
			if !inRange || !(targetIn || noTarget) {
				t.Fatalf("link %+v: ranges [%d,%d) [%d,%d) out of order or outside %d bytes", l, l.Start, l.End, l.TargetStart, l.TargetEnd, len(src))
			}
			if l.Start < prev {
				t.Errorf("link %+v starts before the previous one (%d)", l, prev)
			}
			prev = l.Start
			if l.Line < 1 {
				t.Errorf("link %+v: line %d, want >= 1", l, l.Line)
			}
			for _, s := range []string{l.Target, l.Fragment, l.Alias, l.Property} {
				if !utf8.ValidString(s) {
					t.Errorf("link %+v holds invalid UTF-8 %q", l, s)
				}
			}
			_ = n.AnchorProblem(l.Fragment) // must not panic
		}
		checkAnchors(t, n)
	})
}

// checkAnchors fails unless every heading of n is found by a link to its
// key and every block id by a link to it, and HeadingKey is stable.
func checkAnchors(t *testing.T, n *Note) {
	t.Helper()
	for _, h := range n.Headings {
		key := HeadingKey(h.Text)
		if again := HeadingKey(key); again != key {
			t.Errorf("HeadingKey(%q) = %q, but HeadingKey of that = %q", h.Text, key, again)
		}
		if p := n.AnchorProblem(key); p != "" {
			t.Errorf("heading %q: AnchorProblem(%q) = %q, want it found", h.Text, key, p)
		}
	}
	for _, id := range n.BlockIDs {
		if p := n.AnchorProblem("^" + id); p != "" {
			t.Errorf("block %q: AnchorProblem = %q, want it found", id, p)
		}
	}
}

// parseBounded parses src and fails when that takes more than a few
// seconds: no input may hang the parser.
func parseBounded(t *testing.T, p *Parser, src []byte) (*Note, error) {
	type result struct {
		n   *Note
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := p.Parse("Fuzz/Note.md", src)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-time.After(5 * time.Second):
		t.Fatalf("Parse(%q) still running after 5s", src)
		return nil, nil
	}
}

func FuzzResolve(f *testing.F) {
	for _, s := range []struct {
		source, target string
		kind           uint8
	}{
		{"Home.md", "Alpha Plan", 0},
		{"Projects/Beta.md", "../Home.md", 2},
		{"", "./x/../../y", 0},
		{"a/b/c.md", "../../../../../../etc/passwd", 2},
		{"Notes/M.md", "Café Menu.md", 2},
		{"", "/", 0},
		{"", "b/Note", 1},
		{"", "x.pdf", 1},
		{"", "\xff/\xfe.md", 0},
		{"", "Note v1.2", 0},
		{"x", "//", 2},
	} {
		f.Add(s.source, s.target, s.kind)
	}
	kinds := []LinkKind{KindWiki, KindEmbed, KindMarkdown, KindImage, KindFrontmatter}
	x := testIndex()
	f.Fuzz(func(t *testing.T, source, target string, kind uint8) {
		l := Link{Kind: kinds[int(kind)%len(kinds)], Target: target}
		id, st := x.Resolve(source, l)
		switch st {
		case Resolved:
			if got, ok := x.Note(id); !ok || got != id {
				t.Fatalf("Resolve(%q, %q) = %q, which is not a note of the index", source, target, id)
			}
		case Broken, Attachment, Self:
			if id != "" {
				t.Fatalf("Resolve(%q, %q) = %q, %s, want no ID", source, target, id, st)
			}
		default:
			t.Fatalf("Resolve(%q, %q) status = %q", source, target, st)
		}
		if _, st := x.ResolveName(source, target); st == "" {
			t.Fatalf("ResolveName(%q, %q) status is empty", source, target)
		}
		x.Named(target)
		x.Note(target)
	})
}

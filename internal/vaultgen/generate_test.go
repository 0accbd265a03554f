package vaultgen

import (
	"bytes"
	"image/png"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// readTree returns every file under dir keyed by slash path, and the list
// of directories below dir.
func readTree(t testing.TB, dir string) (files map[string][]byte, dirs []string) {
	t.Helper()
	files = map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." {
				dirs = append(dirs, rel)
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[rel] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, dirs
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// scan is what an independent, simple-minded parser finds in a vault.
type scan struct {
	notes, links, broken, ambiguous, badHeadings int
	withFrontmatter                              int
	inDegree                                     map[string]int
	titles                                       []string // slash paths of notes without .md
	leaks                                        []string // code-only text found outside code
}

var (
	wikiRE   = regexp.MustCompile(`(!?)\[\[([^\[\]]+)\]\]`)
	mdLinkRE = regexp.MustCompile(`(!?)\[([^\]]*)\]\(([^)\s]+)\)`)
	codeRE   = regexp.MustCompile("`[^`]*`")
	headRE   = regexp.MustCompile(`^#{1,6} (.+)$`)
)

// scanVault parses the vault in files the way a graph builder would and
// resolves every link against the notes on disk.
func scanVault(t testing.TB, files map[string][]byte) scan {
	t.Helper()
	s := scan{inDegree: map[string]int{}}
	byPath := map[string]string{}   // lower path -> path
	byBase := map[string][]string{} // lower base name -> paths
	headings := map[string]map[string]bool{}
	bodies := map[string][]string{} // path -> link targets (raw), in order
	for _, name := range sortedKeys(files) {
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		p := strings.TrimSuffix(name, ".md")
		s.notes++
		s.titles = append(s.titles, p)
		byPath[strings.ToLower(p)] = p
		base := strings.ToLower(path.Base(p))
		byBase[base] = append(byBase[base], p)
		headings[p] = map[string]bool{}

		text := string(files[name])
		var targets []string
		if rest, ok := strings.CutPrefix(text, "---\n"); ok {
			fm, body, found := strings.Cut("\n"+rest, "\n---\n") // empty frontmatter is legal
			if !found {
				t.Fatalf("%s: unterminated frontmatter", name)
			}
			s.withFrontmatter++
			for _, m := range wikiRE.FindAllStringSubmatch(fm, -1) {
				targets = append(targets, "[["+m[2])
			}
			text = body
		}
		fence := ""
		for line := range strings.SplitSeq(text, "\n") {
			if fence != "" {
				if strings.HasPrefix(line, fence) {
					fence = ""
				}
				continue
			}
			if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
				fence = line[:3]
				continue
			}
			line = codeRE.ReplaceAllString(line, "")
			for _, leak := range []string{"not a link", "notatag"} {
				if strings.Contains(line, leak) {
					s.leaks = append(s.leaks, name+": "+line)
				}
			}
			if m := headRE.FindStringSubmatch(line); m != nil {
				headings[p][m[1]] = true
			}
			for _, m := range wikiRE.FindAllStringSubmatch(line, -1) {
				target, _, _ := strings.Cut(m[2], "|")
				target = strings.TrimSuffix(target, `\`)
				if m[1] == "!" && strings.HasSuffix(target, ".png") {
					continue // attachment embed
				}
				targets = append(targets, "[["+target)
			}
			for _, m := range mdLinkRE.FindAllStringSubmatch(line, -1) {
				dest := m[3]
				if m[1] == "!" || strings.Contains(dest, "://") {
					continue
				}
				file, frag, _ := strings.Cut(dest, "#")
				if !strings.HasSuffix(file, ".md") {
					continue
				}
				file, err := url.PathUnescape(strings.TrimSuffix(file, ".md"))
				if err != nil {
					t.Errorf("%s: bad link %q", name, dest)
				}
				if frag != "" {
					frag, _ = url.PathUnescape(frag)
					file += "#" + frag
				}
				targets = append(targets, "md:"+file)
			}
		}
		bodies[p] = targets
	}

	for _, p := range s.titles {
		for _, raw := range bodies[p] {
			s.links++
			raw = strings.TrimPrefix(strings.TrimPrefix(raw, "[["), "md:")
			name, heading, _ := strings.Cut(raw, "#")
			var target string
			if strings.Contains(name, "/") {
				target = byPath[strings.ToLower(name)]
			} else {
				switch c := byBase[strings.ToLower(name)]; len(c) {
				case 0:
				case 1:
					target = c[0]
				default:
					s.ambiguous++
					t.Errorf("%s: ambiguous link %q", p, raw)
				}
			}
			if target == "" {
				s.broken++
				continue
			}
			s.inDegree[target]++
			if heading != "" && !headings[target][heading] {
				s.badHeadings++
				t.Errorf("%s: link %q names a missing heading", p, raw)
			}
		}
	}
	return s
}

// checkConsistent generates a vault and checks Stats against the files.
func checkConsistent(t *testing.T, cfg Config) (Stats, scan, map[string][]byte) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	st, err := Generate(dir, cfg)
	if err != nil {
		t.Fatalf("Generate(%+v): %v", cfg, err)
	}
	files, dirs := readTree(t, dir)
	sc := scanVault(t, files)
	total := 0
	for _, b := range files {
		total += len(b)
	}
	if st.Notes != cfg.Notes || sc.notes != st.Notes {
		t.Errorf("notes: stats %d, config %d, on disk %d", st.Notes, cfg.Notes, sc.notes)
	}
	if len(dirs) != st.Folders {
		t.Errorf("folders: stats %d, on disk %d", st.Folders, len(dirs))
	}
	if total != st.Bytes {
		t.Errorf("bytes: stats %d, on disk %d", st.Bytes, total)
	}
	if sc.links != st.Links {
		t.Errorf("links: stats %d, parsed %d", st.Links, sc.links)
	}
	if sc.broken != st.BrokenLinks {
		t.Errorf("broken links: stats %d, parsed %d", st.BrokenLinks, sc.broken)
	}
	for _, l := range sc.leaks[:min(len(sc.leaks), 5)] {
		t.Errorf("code-only text outside code: %s", l)
	}
	for _, d := range dirs {
		if n := strings.Count(d, "/") + 1; n > MaxFolderDepth {
			t.Errorf("folder %q nested %d deep", d, n)
		}
	}
	return st, sc, files
}

func TestDeterministic(t *testing.T) {
	cfg := Config{Notes: 600, Seed: 42}
	a := filepath.Join(t.TempDir(), "a")
	b := filepath.Join(t.TempDir(), "b")
	c := filepath.Join(t.TempDir(), "c")
	sa, err := Generate(a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A different degree of parallelism must not change the output.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	sb, err := Generate(b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sa != sb {
		t.Errorf("stats differ: %+v vs %+v", sa, sb)
	}
	fa, da := readTree(t, a)
	fb, db := readTree(t, b)
	if !slices.Equal(da, db) {
		t.Errorf("folder lists differ")
	}
	ka, kb := sortedKeys(fa), sortedKeys(fb)
	if !slices.Equal(ka, kb) {
		t.Fatalf("file lists differ: %d vs %d files", len(ka), len(kb))
	}
	for _, k := range ka {
		if !bytes.Equal(fa[k], fb[k]) {
			t.Errorf("%s differs between runs", k)
		}
	}

	cfg.Seed = 43
	if _, err := Generate(c, cfg); err != nil {
		t.Fatal(err)
	}
	fc, _ := readTree(t, c)
	if slices.Equal(ka, sortedKeys(fc)) {
		t.Errorf("seeds 42 and 43 produced the same file names")
	}
}

func TestStatsMatchDisk(t *testing.T) {
	cfg := Config{Notes: 2000, Seed: 1}
	st, sc, files := checkConsistent(t, cfg)
	t.Logf("%+v", st)

	if st.Folders != cfg.Notes/DefaultNotesPerFolder {
		t.Errorf("default folders: got %d, want %d", st.Folders, cfg.Notes/DefaultNotesPerFolder)
	}
	want := DefaultAvgLinks * float64(cfg.Notes)
	if d := float64(st.Links) - want; d < -0.02*want || d > 0.02*want {
		t.Errorf("links = %d, want about %.0f", st.Links, want)
	}
	if rate := float64(st.BrokenLinks) / float64(st.Links); rate < 0.01 || rate > 0.03 {
		t.Errorf("broken rate = %.3f, want about %.2f", rate, DefaultBrokenRate)
	}
	if f := float64(sc.withFrontmatter) / float64(sc.notes); f < 0.75 || f > 0.95 {
		t.Errorf("frontmatter on %.2f of notes, want about 0.85", f)
	}

	// Every kind of syntax the package promises shows up somewhere.
	all := make([]byte, 0, st.Bytes)
	for _, k := range sortedKeys(files) {
		all = append(all, files[k]...)
	}
	for _, want := range []string{
		"tags:\n  - ", "tags: [", "aliases:", "created: 20", "related: \"[[", "draft: ",
		"\n## ", "\n### ", "](", "%20", ".md#", "|", `\|`, "![[image-", ".png|",
		"#project/", "```", "~~~", "[[not a link]]", "#notatag", "> [!", "- [ ] ",
		"- [x] ", "\n1. ", "| --- |", "https://", "café", "東京", " ^",
	} {
		if !bytes.Contains(all, []byte(want)) {
			t.Errorf("no note contains %q", want)
		}
	}
	if _, err := png.Decode(bytes.NewReader(files["image-1.png"])); err != nil {
		t.Errorf("attachment is not a PNG: %v", err)
	}
}

func TestInDegreeSkewed(t *testing.T) {
	st, sc, _ := checkConsistent(t, Config{Notes: 3000, Seed: 9})
	deg := make([]int, 0, len(sc.inDegree))
	resolved := 0
	for _, d := range sc.inDegree {
		deg = append(deg, d)
		resolved += d
	}
	slices.Sort(deg)
	slices.Reverse(deg)
	top := st.Notes / 100
	got := 0
	for _, d := range deg[:top] {
		got += d
	}
	share := float64(got) / float64(resolved)
	t.Logf("top 1%% of notes (%d) receive %.1f%% of %d resolved links; max in-degree %d", top, 100*share, resolved, deg[0])
	if share < 0.10 {
		t.Errorf("top 1%% of notes receive %.1f%% of links, want a much larger share than 1%%", 100*share)
	}
}

func TestTitles(t *testing.T) {
	_, sc, _ := checkConsistent(t, Config{Notes: 3000, Seed: 3})
	perFolder := map[string]bool{}
	names := map[string]int{}
	nonASCII := 0
	for _, p := range sc.titles {
		title := path.Base(p)
		if strings.ContainsAny(title, `\/:*?"<>|#^[]`) {
			t.Errorf("title %q has a forbidden character", title)
		}
		if title != strings.TrimSpace(title) || strings.HasPrefix(title, ".") || !utf8.ValidString(title) {
			t.Errorf("title %q is not a clean file name", title)
		}
		if n := len(strings.Fields(title)); n < 1 || n > 4 {
			t.Errorf("title %q has %d words", title, n)
		}
		key := strings.ToLower(p)
		if perFolder[key] {
			t.Errorf("title %q repeated (case-insensitively) in its folder", p)
		}
		perFolder[key] = true
		names[strings.ToLower(title)]++
		for _, r := range title {
			if r >= utf8.RuneSelf {
				nonASCII++
				break
			}
		}
	}
	dups := len(sc.titles) - len(names)
	t.Logf("%d notes, %d duplicate base names, %d non-ASCII titles", len(sc.titles), dups, nonASCII)
	if f := float64(dups) / float64(len(sc.titles)); f < 0.01 || f > 0.06 {
		t.Errorf("duplicate base names on %.3f of notes, want about 0.03", f)
	}
	if f := float64(nonASCII) / float64(len(sc.titles)); f < 0.005 || f > 0.05 {
		t.Errorf("non-ASCII titles on %.3f of notes, want about 0.02", f)
	}
}

func TestEdgeConfigs(t *testing.T) {
	for _, cfg := range []Config{
		{Notes: 1},
		{Notes: 2, Folders: 1, BodyWords: 1},
		{Notes: 5, Folders: 12, Seed: 5},
		{Notes: 40, AvgLinks: 60, BodyWords: 20, Seed: 6},
		{Notes: 200, AvgLinks: -1, Seed: 7},
		{Notes: 200, BrokenRate: -1, Seed: 8},
		{Notes: 200, BrokenRate: 1, AvgLinks: 3, Seed: 9},
		{Notes: 300, Folders: 150, Seed: 10},
	} {
		st, _, _ := checkConsistent(t, cfg)
		switch {
		case cfg.AvgLinks < 0 && st.Links != 0:
			t.Errorf("%+v: %d links, want none", cfg, st.Links)
		case cfg.BrokenRate < 0 && st.BrokenLinks != 0:
			t.Errorf("%+v: %d broken links, want none", cfg, st.BrokenLinks)
		case cfg.BrokenRate == 1 && st.BrokenLinks != st.Links:
			t.Errorf("%+v: %d of %d links broken, want all", cfg, st.BrokenLinks, st.Links)
		}
	}
}

func TestRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep.md"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(dir, Config{Notes: 10}); err == nil {
		t.Fatal("Generate into a non-empty directory succeeded")
	}
	files, dirs := readTree(t, dir)
	if len(files) != 1 || len(dirs) != 0 || string(files["keep.md"]) != "mine" {
		t.Errorf("refused Generate modified the directory: %v %v", sortedKeys(files), dirs)
	}

	if _, err := Generate(filepath.Join(dir, "keep.md"), Config{Notes: 10}); err == nil {
		t.Error("Generate into a regular file succeeded")
	}

	empty := t.TempDir() // exists and is empty: allowed
	if _, err := Generate(empty, Config{Notes: 10}); err != nil {
		t.Errorf("Generate into an empty directory: %v", err)
	}
}

func TestInvalidConfig(t *testing.T) {
	for _, cfg := range []Config{
		{},
		{Notes: -1},
		{Notes: 10, Folders: -1},
		{Notes: 10, BodyWords: -5},
		{Notes: 10, BrokenRate: 1.5},
	} {
		dir := filepath.Join(t.TempDir(), "v")
		if _, err := Generate(dir, cfg); err == nil {
			t.Errorf("Generate(%+v) succeeded", cfg)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("Generate(%+v) created %s despite the error", cfg, dir)
		}
	}
}

func BenchmarkGenerate10k(b *testing.B) {
	root := b.TempDir()
	cfg := Config{Notes: 10_000, Seed: 1}
	var st Stats
	for b.Loop() {
		dir := filepath.Join(root, "v")
		var err error
		st, err = Generate(dir, cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.SetBytes(int64(st.Bytes))
	b.ReportMetric(float64(st.Notes)*float64(b.N)/b.Elapsed().Seconds(), "notes/s")
}

package vaultgraph_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
	"github.com/vaultgraph/vaultgraph/vault"
)

// The real-vault tests (make realvaults) index vaults no one here wrote,
// and large generated ones, and check that nothing is lost or invented.
// They run only when $VAULTGRAPH_REALVAULTS is set; it names the folder
// of shared public vaults (../shared/vaults). The kepano-obsidian tests
// skip when that folder is absent; the generated-vault test does not
// need it. Every test works on a copy in t.TempDir(), with the index
// outside the vault.
const (
	rvEnv          = "VAULTGRAPH_REALVAULTS"
	rvKepano       = "kepano-obsidian"
	rvKepanoGolden = "testdata/realvaults/kepano-broken.txt"
	rvExtra        = "testdata/realvaults/extra"
	rvRenames      = 50
	rvGenNotes     = 10_000
)

// rvShared returns $VAULTGRAPH_REALVAULTS, skipping the test when unset.
func rvShared(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(rvEnv)
	if dir == "" {
		t.Skipf("$%s is not set (make realvaults sets it)", rvEnv)
	}
	return dir
}

// rvCopyKepano copies kepano-obsidian into a temporary folder, or skips
// the test when the shared vaults are absent.
func rvCopyKepano(t *testing.T) string {
	t.Helper()
	src := filepath.Join(rvShared(t), rvKepano)
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		t.Skipf("%s is absent: skipped", src)
	}
	dir := filepath.Join(t.TempDir(), rvKepano)
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// rvOpen opens an engine on dir with its index in a temporary folder.
func rvOpen(t *testing.T, dir, index string) *vaultgraph.Engine {
	t.Helper()
	if index == "" {
		index = filepath.Join(t.TempDir(), "index.db")
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: index})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// rvLink is one link as the engine holds it (from DumpState).
type rvLink struct {
	Source, Kind, Target, Fragment, Alias, Property string
	Seq, Line, TargetStart, TargetEnd               int
	Resolved, Status                                string
}

// rvState parses the engine's DumpState: the note IDs and every link.
func rvState(t *testing.T, e *vaultgraph.Engine) (ids []string, links []rvLink) {
	t.Helper()
	for line := range strings.SplitSeq(e.DumpState(), "\n") {
		s := rvScanner{rest: line}
		switch {
		case strings.HasPrefix(line, "note "):
			s.lit("note ")
			ids = append(ids, s.quoted())
			s.rest = "" // the rest describes the note
		case strings.HasPrefix(line, "link "):
			var l rvLink
			s.lit("link ")
			l.Source = s.quoted()
			s.lit(" #")
			l.Seq = s.int()
			s.lit(" ")
			l.Kind = s.word()
			s.lit(" ")
			l.Target = s.quoted()
			s.lit("#")
			l.Fragment = s.quoted()
			s.lit("|")
			l.Alias = s.quoted()
			s.lit(" prop=")
			l.Property = s.quoted()
			s.lit(" [")
			s.int()
			s.lit(",")
			s.int()
			s.lit(") target=[")
			l.TargetStart = s.int()
			s.lit(",")
			l.TargetEnd = s.int()
			s.lit(") line=")
			l.Line = s.int()
			s.lit(" -> ")
			l.Resolved = s.quoted()
			s.lit(" ")
			l.Status = s.word()
			links = append(links, l)
		default:
			continue
		}
		if s.err != nil || s.rest != "" {
			t.Fatalf("DumpState line %q: cannot read it (%v, left %q): update rvState", line, s.err, s.rest)
		}
	}
	slices.SortFunc(links, func(a, b rvLink) int {
		return rvCmpOr(strings.Compare(a.Source, b.Source), a.Seq-b.Seq)
	})
	return ids, links
}

func rvCmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// rvScanner reads DumpState's fields one after another.
type rvScanner struct {
	rest string
	err  error
}

func (s *rvScanner) lit(p string) {
	if s.err == nil && !strings.HasPrefix(s.rest, p) {
		s.err = fmt.Errorf("want %q", p)
	}
	s.rest = strings.TrimPrefix(s.rest, p)
}

func (s *rvScanner) quoted() string {
	q, err := strconv.QuotedPrefix(s.rest)
	if err != nil {
		s.err = rvCmpErr(s.err, err)
		return ""
	}
	s.rest = s.rest[len(q):]
	v, _ := strconv.Unquote(q)
	return v
}

func (s *rvScanner) word() string {
	i := strings.IndexByte(s.rest, ' ')
	if i < 0 {
		i = len(s.rest)
	}
	w := s.rest[:i]
	s.rest = s.rest[i:]
	return w
}

func (s *rvScanner) int() int {
	i := 0
	for i < len(s.rest) && s.rest[i] >= '0' && s.rest[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s.rest[:i])
	s.err = rvCmpErr(s.err, err)
	s.rest = s.rest[i:]
	return n
}

func rvCmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// rvWalk lists the vault's files by our own reading of Obsidian's rules,
// apart from vaultgraph's scanner: every path part starting with '.' is
// ignored, and so are .obsidian/app.json's userIgnoreFilters (path
// prefixes, or /regex/). Paths are vault-relative, slashes, NFC.
func rvWalk(t *testing.T, dir string) (notes, files []string) {
	t.Helper()
	var prefixes []string
	var patterns []*regexp.Regexp
	if data, err := os.ReadFile(filepath.Join(dir, ".obsidian", "app.json")); err == nil {
		var app struct{ UserIgnoreFilters []string }
		if err := json.Unmarshal(data, &app); err != nil {
			t.Fatalf("app.json: %v", err)
		}
		for _, f := range app.UserIgnoreFilters {
			if len(f) > 2 && f[0] == '/' && f[len(f)-1] == '/' {
				patterns = append(patterns, regexp.MustCompile(f[1:len(f)-1]))
			} else if f = strings.TrimPrefix(f, "/"); f != "" {
				prefixes = append(prefixes, strings.ToLower(f))
			}
		}
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		rel = vault.NFC(filepath.ToSlash(rel))
		key := strings.ToLower(rel)
		if d.IsDir() {
			key += "/"
		}
		skip := strings.HasPrefix(path.Base(rel), ".")
		for _, pre := range prefixes {
			skip = skip || strings.HasPrefix(key, pre)
		}
		for _, re := range patterns {
			skip = skip || re.MatchString(rel)
		}
		switch {
		case skip && d.IsDir():
			return filepath.SkipDir
		case skip || d.IsDir():
			return nil
		}
		files = append(files, rel)
		if strings.EqualFold(path.Ext(rel), ".md") {
			notes = append(notes, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return notes, files
}

// rvMatches lists the files that a link target names by Obsidian's
// rules: the vault path with or without ".md" (also relative to the
// source's folder), or a file whose path ends with it (a bare name or a
// partial path), ignoring letter case.
func rvMatches(files []string, source, target string) []string {
	t := strings.ToLower(vault.NFC(strings.TrimPrefix(strings.TrimSpace(target), "/")))
	if t == "" {
		return nil
	}
	forms := []string{t, path.Join(strings.ToLower(path.Dir(source)), t)}
	var out []string
	for _, f := range files {
		lf := strings.ToLower(f)
		for _, form := range forms {
			if lf == form || lf == form+".md" || strings.HasSuffix(lf, "/"+form) || strings.HasSuffix(lf, "/"+form+".md") {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// rvCheckIndex checks the engine's view of the vault at dir against the
// files: every note file is indexed or reported with a reason, every
// note is a file, the counts add up, every resolved link is an edge to a
// note of the linked name, and no broken link has a file it could mean.
// It returns the status and every link.
func rvCheckIndex(t *testing.T, dir string, e *vaultgraph.Engine) (*vaultgraph.Status, []rvLink) {
	t.Helper()
	ctx := context.Background()
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids, links := rvState(t, e)
	notes, files := rvWalk(t, dir)
	isNote := rvSet(ids)
	problems := map[string]string{}
	for _, p := range st.Problems {
		problems[p.Path] = p.Reason
		if strings.TrimSpace(p.Reason) == "" {
			t.Errorf("Status().Problems: %s has no reason", p.Path)
		}
	}
	for _, n := range notes {
		if _, ok := isNote[n]; !ok && problems[n] == "" {
			t.Errorf("%s is neither indexed nor in Status().Problems", n)
		}
	}
	onDisk := rvSet(notes)
	for _, id := range ids {
		if _, ok := onDisk[id]; !ok {
			t.Errorf("note %s is indexed but no such file was found", id)
		}
	}
	if st.Notes != len(ids) {
		t.Errorf("Status().Notes = %d, want %d (notes in the engine)", st.Notes, len(ids))
	}

	var nLinks, nBroken, nAttach int
	broken := map[string]map[string]bool{} // source -> broken targets
	g := e.Graph()
	for _, l := range links {
		switch l.Status {
		case "resolved":
			nLinks++
			if _, ok := isNote[l.Resolved]; !ok {
				t.Errorf("%s line %d: [[%s]] resolved to %q, not a note", l.Source, l.Line, l.Target, l.Resolved)
			}
			if got, want := strings.ToLower(vault.BaseName(l.Resolved)), strings.ToLower(vault.BaseName(vault.NFC(l.Target))); got != want {
				t.Errorf("%s line %d: [[%s]] resolved to %s: base name %q, want %q", l.Source, l.Line, l.Target, l.Resolved, got, want)
			}
			if l.Resolved != l.Source && !slices.Contains(g.Out(l.Source), l.Resolved) {
				t.Errorf("%s line %d: [[%s]] resolved to %s but the graph has no such edge", l.Source, l.Line, l.Target, l.Resolved)
			}
		case "broken":
			nLinks++
			nBroken++
			if broken[l.Source] == nil {
				broken[l.Source] = map[string]bool{}
			}
			broken[l.Source][l.Target] = true
			if m := rvMatches(files, l.Source, l.Target); len(m) > 0 {
				t.Errorf("%s line %d: [[%s]] is reported broken, but %q match it", l.Source, l.Line, l.Target, m)
			}
		case "attachment":
			nAttach++
		case "self":
		default:
			t.Errorf("%s line %d: [[%s]] has status %q", l.Source, l.Line, l.Target, l.Status)
		}
	}
	if st.Links != nLinks || st.BrokenLinks != nBroken || st.AttachmentLinks != nAttach {
		t.Errorf("Status() links/broken/attachments = %d/%d/%d, want %d/%d/%d (counted link by link)",
			st.Links, st.BrokenLinks, st.AttachmentLinks, nLinks, nBroken, nAttach)
	}
	// The public API agrees: each note's broken targets.
	for _, id := range ids {
		n, err := e.GetNode(ctx, id, false)
		if err != nil || n == nil {
			t.Fatalf("GetNode(%q) = %v, %v", id, n, err)
		}
		if got, want := rvSet(n.Broken), broken[id]; len(got) != len(want) || !rvAllIn(want, got) {
			t.Errorf("GetNode(%q).Broken = %q, want %q", id, n.Broken, slices.Sorted(maps.Keys(want)))
		}
	}
	return st, links
}

func rvSet(list []string) map[string]struct{} {
	m := make(map[string]struct{}, len(list))
	for _, s := range list {
		m[s] = struct{}{}
	}
	return m
}

func rvAllIn(want map[string]bool, got map[string]struct{}) bool {
	for k := range want {
		if _, ok := got[k]; !ok {
			return false
		}
	}
	return true
}

// rvBrokenLines formats the broken links as the golden file has them.
func rvBrokenLines(links []rvLink) []string {
	var out []string
	for _, l := range links {
		if l.Status == "broken" {
			out = append(out, fmt.Sprintf("%s\t%d\t%s", l.Source, l.Line, l.Target))
		}
	}
	return out
}

// rvReadGolden reads a golden list: one entry a line, '#' comments.
func rvReadGolden(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// frontmatterOf returns a note's frontmatter block, or "".
func rvFrontmatter(src string) string {
	if !strings.HasPrefix(src, "---\n") {
		return ""
	}
	if end := strings.Index(src[3:], "\n---"); end >= 0 {
		return src[4 : 3+end]
	}
	return ""
}

// TestRealVaultsKepano indexes kepano-obsidian and checks it against the
// files and against the broken links checked by hand (the golden file).
func TestRealVaultsKepano(t *testing.T) {
	dir := rvCopyKepano(t)
	start := time.Now()
	e := rvOpen(t, dir, "")
	took := time.Since(start)
	st, links := rvCheckIndex(t, dir, e)
	t.Logf("vault name=%s notes=%d links=%d broken=%d attachments=%d problems=%d index=%.2fs (in-process)",
		rvKepano, st.Notes, st.Links, st.BrokenLinks, st.AttachmentLinks, len(st.Problems), took.Seconds())
	if len(st.Problems) != 0 {
		t.Errorf("Status().Problems = %v, want none", st.Problems)
	}

	got, want := rvBrokenLines(links), rvReadGolden(t, rvKepanoGolden)
	if !slices.Equal(got, want) {
		for _, l := range want {
			if !slices.Contains(got, l) {
				t.Errorf("broken link in %s no longer reported: %q", rvKepanoGolden, l)
			}
		}
		for _, l := range got {
			if !slices.Contains(want, l) {
				t.Errorf("broken link reported, not in %s: %q", rvKepanoGolden, l)
			}
		}
		t.Errorf("broken links differ from %s; check the new list by hand before replacing it:\n%s",
			rvKepanoGolden, strings.Join(got, "\n"))
	}

	// Syntax kepano uses: links in properties are edges (checked for every
	// resolved link above) and each "[[" in a frontmatter block is one
	// frontmatter link; embeds of .base files are attachments.
	notes, _ := rvWalk(t, dir)
	var fmWant, baseWant int
	baseEmbed := regexp.MustCompile(`!\[\[[^\]|#]*\.base[\]|#]`)
	for _, n := range notes {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		fmWant += strings.Count(rvFrontmatter(string(b)), "[[")
		baseWant += len(baseEmbed.FindAll(b, -1))
	}
	var fmGot, fmEdges, baseGot int
	for _, l := range links {
		if l.Kind == string(vault.KindFrontmatter) {
			fmGot++
			if l.Status == "resolved" {
				fmEdges++
			}
		}
		if strings.EqualFold(path.Ext(l.Target), ".base") {
			baseGot++
			if l.Kind != string(vault.KindEmbed) || l.Status != "attachment" {
				t.Errorf("%s line %d: ![[%s]] is a %s link with status %s, want an attachment embed", l.Source, l.Line, l.Target, l.Kind, l.Status)
			}
		}
	}
	if fmGot != fmWant || fmEdges == 0 {
		t.Errorf("frontmatter links = %d (%d resolved), want %d (the \"[[\" in frontmatter blocks) and some edges", fmGot, fmEdges, fmWant)
	}
	if baseGot != baseWant || baseGot == 0 {
		t.Errorf(".base embeds = %d, want %d", baseGot, baseWant)
	}
	t.Logf("kepano: %d frontmatter links (%d edges), %d .base embeds", fmGot, fmEdges, baseGot)
}

// rvTitleWords make the titles of renamed notes: spaces, accents, CJK,
// emoji, right-to-left text and the punctuation Obsidian allows in names.
var rvTitleWords = []string{
	"Zürich", "東京", "naïve café", "🌲 grove", "Ελληνικά", "Straße", "日本語 ノート", "rocket 🚀",
	"Ørsted", "São Paulo", "한국어", "Kevin's (copy), v2", "a & b", "50% done", "x+y=z", "مرحبا",
}

func rvTitle(rng *rand.Rand, i int) string {
	return fmt.Sprintf("%s %s %02d", rvTitleWords[rng.IntN(len(rvTitleWords))], rvTitleWords[rng.IntN(len(rvTitleWords))], i)
}

// rvTree reads every file and folder under root: a file's path maps to
// its content, a folder's to "<dir>", and "<mode> path" to a file's
// permission bits.
func rvTree(t *testing.T, root string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			tree[rel] = "<dir>"
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		tree[rel] = string(b)
		tree["<mode> "+rel] = fi.Mode().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// rvTreeDiff describes every difference between two trees, line by line
// for a file whose content changed.
func rvTreeDiff(before, after map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(before)) {
		a, ok := after[k]
		switch {
		case !ok:
			out = append(out, "missing "+k)
		case a != before[k]:
			bl, al := strings.Split(before[k], "\n"), strings.Split(a, "\n")
			if len(bl) != len(al) {
				out = append(out, fmt.Sprintf("%s: %d lines, was %d", k, len(al), len(bl)))
			}
			for i := range min(len(bl), len(al)) {
				if bl[i] != al[i] {
					was, now := rvChanged(bl[i], al[i])
					out = append(out, fmt.Sprintf("%s line %d: was %q, now %q", k, i+1, was, now))
				}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(after)) {
		if _, ok := before[k]; !ok {
			out = append(out, "new "+k)
		}
	}
	return out
}

// rvChanged returns the part of two lines that differs, with up to 30
// bytes around it (cut at character boundaries, "…" where cut).
func rvChanged(a, b string) (string, string) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	from := max(0, p-30)
	for from > 0 && !utf8.RuneStart(a[from]) {
		from--
	}
	clip := func(s string) string {
		to := min(len(s), len(s)-q+30)
		for to < len(s) && !utf8.RuneStart(s[to]) {
			to++
		}
		out := s[from:to]
		if from > 0 {
			out = "…" + out
		}
		if to < len(s) {
			out += "…"
		}
		return out
	}
	return clip(a), clip(b)
}

// rvPick returns n note IDs of the engine, picked at random (seeded).
func rvPick(t *testing.T, e *vaultgraph.Engine, n int, seed uint64) []string {
	ids, _ := rvState(t, e)
	slices.Sort(ids)
	rng := rand.New(rand.NewPCG(seed, seed))
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids[:min(n, len(ids))]
}

// rvRoundTripWant is the vault's files as a round trip of the notes
// renamed must leave them: as before, except that a link naming one of
// them in another letter case or Unicode form than its file name
// ([[evergreen]] for Evergreen.md) comes back spelled as the file name,
// since the rewriter writes the name a note has and the link's own
// spelling is gone after the first rename. Those links are returned, one
// line each, as findings.
func rvRoundTripWant(before map[string]string, links []rvLink, renamed []string) (map[string]string, []string) {
	want := maps.Clone(before)
	isRenamed := rvSet(renamed)
	var findings []string
	edits := map[string][]rvLink{}
	for _, l := range links {
		if _, ok := isRenamed[l.Resolved]; !ok || l.Status != "resolved" {
			continue
		}
		src := before[l.Source]
		written, name := src[l.TargetStart:l.TargetEnd], vault.BaseName(l.Resolved)
		if written != name && vault.Fold(written) == vault.Fold(name) {
			edits[l.Source] = append(edits[l.Source], l)
			why := "letter case"
			if vault.NFC(written) != written {
				why = "Unicode form: decomposed (NFD) in the link, composed (NFC) in the name"
			}
			findings = append(findings, fmt.Sprintf("%s line %d: %+q comes back as %+q (link to %s; %s)",
				l.Source, l.Line, written, name, l.Resolved, why))
		}
	}
	for file, ls := range edits {
		src := before[file]
		slices.SortFunc(ls, func(a, b rvLink) int { return b.TargetStart - a.TargetStart })
		for _, l := range ls {
			src = src[:l.TargetStart] + vault.BaseName(l.Resolved) + src[l.TargetEnd:]
		}
		want[file] = src
	}
	return want, findings
}

// rvRoundTrip renames the notes ids of the engine's vault at dir to new
// titles (seeded) one after another, then renames each back in reverse
// order. No rename may change the number of notes, links or broken
// links, and the files must end as rvRoundTripWant says: it returns how
// they differ from that, and its findings.
func rvRoundTrip(t *testing.T, e *vaultgraph.Engine, dir string, ids []string, seed uint64) (diff, findings []string) {
	t.Helper()
	ctx := context.Background()
	before := rvTree(t, dir)
	_, links := rvState(t, e)
	want, findings := rvRoundTripWant(before, links, ids)
	st0, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sameCounts := func(when string) {
		st, err := e.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Notes != st0.Notes || st.Links != st0.Links || st.BrokenLinks != st0.BrokenLinks {
			t.Errorf("%s: notes/links/broken = %d/%d/%d, want %d/%d/%d as before",
				when, st.Notes, st.Links, st.BrokenLinks, st0.Notes, st0.Links, st0.BrokenLinks)
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed+1))
	type move struct{ from, to string }
	var moves []move
	rewritten := 0
	for i, id := range ids {
		title := rvTitle(rng, i)
		res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: id, Title: &title})
		if err != nil {
			t.Errorf("rename %s to %q: %v", id, title, err)
			continue
		}
		if want := path.Join(vault.Dir(id), title+".md"); res.Node.ID != want {
			t.Errorf("rename %s to %q made %s, want %s", id, title, res.Node.ID, want)
		}
		sameCounts(fmt.Sprintf("after renaming %s to %s", id, res.Node.ID))
		moves = append(moves, move{id, res.Node.ID})
		for _, f := range res.Files {
			rewritten += len(f.Links)
		}
	}
	for i := len(moves) - 1; i >= 0; i-- {
		m := moves[i]
		name := vault.BaseName(m.from)
		res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: m.to, Title: &name})
		if err != nil {
			t.Errorf("rename %s back to %q: %v", m.to, name, err)
			continue
		}
		if res.Node.ID != m.from {
			t.Errorf("rename %s back to %q made %s, want %s", m.to, name, res.Node.ID, m.from)
		}
	}
	sameCounts("after the round trip")
	t.Logf("renamed %d notes (rewriting %d links) and back", len(moves), rewritten)
	return rvTreeDiff(want, rvTree(t, dir)), findings
}

// rvLikeFresh checks that the engine, after writes, holds what a fresh
// engine reading the same files holds.
func rvLikeFresh(t *testing.T, e *vaultgraph.Engine, dir string) {
	t.Helper()
	fresh := vaultgraph.New(vaultgraph.Options{Vault: dir, NoIndex: true})
	if err := fresh.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if got, want := e.DumpState(), fresh.DumpState(); got != want {
		t.Errorf("after the writes the engine differs from a fresh one:\n%s", strings.Join(rvTreeDiff(
			map[string]string{"fresh": want}, map[string]string{"fresh": got}), "\n"))
	}
}

// TestRealVaultsRoundTrip renames 50 random notes of kepano-obsidian,
// then every note, to new names and back: the vault's bytes must be what
// they were, apart from the links rvRoundTripWant explains (logged).
func TestRealVaultsRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		desc string
		n    int
	}{{"50 random notes", rvRenames}, {"every note", 1 << 30}} {
		t.Run(tt.desc, func(t *testing.T) {
			dir := rvCopyKepano(t)
			e := rvOpen(t, dir, "")
			diff, findings := rvRoundTrip(t, e, dir, rvPick(t, e, tt.n, 1), 1)
			if len(diff) > 0 {
				t.Errorf("after renaming notes and back, the vault differs:\n%s", strings.Join(diff, "\n"))
			}
			for _, f := range findings {
				t.Logf("not byte-identical, as expected: %s", f)
			}
			rvLikeFresh(t, e, dir)
		})
	}
}

// rvLinkWant is a link the syntax test expects, as (kind, target,
// fragment, alias) -> (resolved, status).
type rvLinkWant struct {
	kind, target, fragment, alias, resolved, status string
}

// TestRealVaultsSyntax adds to a copy of kepano-obsidian the syntax of
// larger real vaults that it lacks (testdata/realvaults/extra, put in
// Extra/): [[Note#Heading\|alias]] in tables, path links, CJK, emoji and
// decomposed (NFD) names, an .excalidraw.md drawing. Every link of those
// notes must come out as written down here, the drawing's links must be
// indexed but its text kept out of full-text search, and renames of them
// must round-trip.
func TestRealVaultsSyntax(t *testing.T) {
	dir := rvCopyKepano(t)
	if err := os.CopyFS(filepath.Join(dir, "Extra"), os.DirFS(rvExtra)); err != nil {
		t.Fatal(err)
	}
	e := rvOpen(t, dir, "")
	ctx := context.Background()
	_, links := rvCheckIndex(t, dir, e)
	if got, want := rvBrokenLines(links), rvReadGolden(t, rvKepanoGolden); !slices.Equal(got, want) {
		t.Errorf("with Extra/, the broken links are not kepano's %d golden ones:\n%s", len(want), strings.Join(got, "\n"))
	}

	const (
		table, tokyo, tree = "Extra/Table links.md", "Extra/東京 旅行.md", "Extra/🌲 Evergreen ideas.md"
		cafe, drawing      = "Extra/Café Crème.md", "Extra/Drawing 2024-01-01.excalidraw.md"
		kyoto              = "References/Kyoto.md"
		fm, wiki, embed    = "frontmatter", "wikilink", "embed"
	)
	want := map[string][]rvLinkWant{
		table: {
			{fm, "東京 旅行", "", "", tokyo, "resolved"},
			{wiki, "Kyoto", "Fushimi", "the city", kyoto, "resolved"},
			{wiki, "References/Steph Ango", "", "Steph", "References/Steph Ango.md", "resolved"},
			{wiki, "🌲 Evergreen ideas", "", "trees", tree, "resolved"},
			{wiki, "", "Table links", "", "", "self"},
			{embed, "Drawing 2024-01-01.excalidraw", "", "", drawing, "resolved"},
		},
		tokyo: {
			{fm, "Trips", "", "", "Categories/Trips.md", "resolved"},
			{fm, "🌲 Evergreen ideas", "", "", tree, "resolved"},
			{wiki, "Table links", "", "", table, "resolved"},
			{wiki, "Kyoto", "", "", kyoto, "resolved"},
		},
		tree: {
			{fm, "Evergreen", "", "", "Categories/Evergreen.md", "resolved"},
			{wiki, "東京 旅行", "", "", tokyo, "resolved"},
			{wiki, "Drawing 2024-01-01.excalidraw", "", "the drawing", drawing, "resolved"},
			{wiki, "Café Crème", "", "", cafe, "resolved"},
		},
		cafe: {
			{fm, "Recipes", "", "", "Categories/Recipes.md", "resolved"},
			{wiki, "🌲 Evergreen ideas", "", "", tree, "resolved"},
			{wiki, "Café Crème", "Top", "", cafe, "resolved"}, // written decomposed
		},
		drawing: { // none from the JSON block
			{wiki, "Kyoto", "", "", kyoto, "resolved"},
			{wiki, "References/Fushimi Inari", "", "", "References/Fushimi Inari.md", "resolved"},
			{wiki, "kyoto-map.png", "", "", "", "attachment"},
		},
	}
	for source, ws := range want {
		var got []rvLinkWant
		for _, l := range links {
			if l.Source == source {
				got = append(got, rvLinkWant{l.Kind, l.Target, l.Fragment, l.Alias, l.Resolved, l.Status})
			}
		}
		if !slices.Equal(got, ws) {
			t.Errorf("links of %s:\n got %q\nwant %q", source, got, ws)
		}
	}
	// Links are edges both ways, by CJK, emoji and excalidraw names.
	for _, tt := range []struct{ give, want string }{
		{"東京 旅行", tokyo}, {"🌲 EVERGREEN ideas", tree}, {"Drawing 2024-01-01.excalidraw", drawing},
		{"café crème", cafe}, {"Cafe\u0301 Cre\u0300me", cafe},
	} {
		n, err := e.GetNode(ctx, tt.give, false)
		if err != nil || n == nil || n.ID != tt.want {
			t.Errorf("GetNode(%q) = %v, %v, want %s", tt.give, n, err, tt.want)
			continue
		}
		if n.InDegree == 0 {
			t.Errorf("GetNode(%q).InDegree = 0, want the links to it counted", tt.give)
		}
	}
	if !slices.Contains(e.Graph().In(kyoto), drawing) {
		t.Errorf("Graph().In(%s) = %q, want the drawing's link", kyoto, e.Graph().In(kyoto))
	}
	t.Run("CJK words inside a sentence", func(t *testing.T) {
		// Text with no spaces between words: a word in the middle of a
		// sentence must be found, as Obsidian's own search finds it.
		for _, q := range []string{"京都", "新幹線", "稲荷"} {
			hits, _, err := e.Search(ctx, vaultgraph.SearchQuery{Query: q, Mode: vaultgraph.SearchKeyword})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 || hits[0].ID != tokyo {
				t.Errorf("Search(%q) finds %d notes, want %s first", q, len(hits), tokyo)
				continue
			}
			if !strings.Contains(hits[0].Snippet, "**"+q+"**") {
				t.Errorf("Search(%q) snippet = %q, want %q highlighted", q, hits[0].Snippet, q)
			}
		}
	})
	// The drawing's text stays out of full-text search; a plain note's
	// word is found (so that the first answer means something).
	for _, tt := range []struct {
		query string
		want  []string
	}{{"zebraquux", nil}, {"quokkafrond", []string{tokyo}}} {
		hits, _, err := e.Search(ctx, vaultgraph.SearchQuery{Query: tt.query, Mode: vaultgraph.SearchKeyword})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.ID)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Search(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}

	// A rename rewrites the escaped table link and the drawing's text
	// element, not the JSON block.
	title := "京都 Kyōto"
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: kyoto, Title: &title}); err != nil {
		t.Fatal(err)
	}
	for file, wants := range map[string][]string{
		table:   {`[[京都 Kyōto#Fushimi\|the city]]`},
		drawing: {"[[京都 Kyōto]] ^Lk9dE4f5", `"link":"[[Kyoto]]"`},
	} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(string(b), w) {
				t.Errorf("after renaming %s to %q, %s does not contain %q:\n%s", kyoto, title, file, w, b)
			}
		}
	}
	name := "Kyoto"
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "References/" + title + ".md", Title: &name}); err != nil {
		t.Fatal(err)
	}
	diff, findings := rvRoundTrip(t, e, dir, []string{table, tokyo, tree, cafe, drawing, kyoto, "References/Steph Ango.md", "Categories/Evergreen.md"}, 2)
	if len(diff) > 0 {
		t.Errorf("after renaming the notes and back, the vault differs:\n%s", strings.Join(diff, "\n"))
	}
	for _, f := range findings {
		t.Logf("not byte-identical, as expected: %s", f)
	}
	rvLikeFresh(t, e, dir)
}

// TestRealVaultsGenerated indexes a generated vault of 10,000 notes with
// the checks of kepano-obsidian, the generator's own counts standing for
// the hand-checked list; opening it again from the index must parse
// nothing and hold the same; and 50 renames must round-trip.
func TestRealVaultsGenerated(t *testing.T) {
	rvShared(t)
	name := fmt.Sprintf("generated-%d", rvGenNotes)
	dir := filepath.Join(t.TempDir(), name)
	gen, err := vaultgen.Generate(dir, vaultgen.Config{Notes: rvGenNotes, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "index.db")
	start := time.Now()
	e := rvOpen(t, dir, index)
	took := time.Since(start)
	st, _ := rvCheckIndex(t, dir, e)
	t.Logf("vault name=%s notes=%d links=%d broken=%d attachments=%d problems=%d index=%.2fs (in-process)",
		name, st.Notes, st.Links, st.BrokenLinks, st.AttachmentLinks, len(st.Problems), took.Seconds())
	if st.Notes != gen.Notes || st.Links != gen.Links || st.BrokenLinks != gen.BrokenLinks {
		t.Errorf("Status() notes/links/broken = %d/%d/%d, want %d/%d/%d (as generated)",
			st.Notes, st.Links, st.BrokenLinks, gen.Notes, gen.Links, gen.BrokenLinks)
	}
	if len(st.Problems) != 0 {
		t.Errorf("Status().Problems = %v, want none", st.Problems)
	}

	dump := e.DumpState()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = rvOpen(t, dir, index)
	if r := e.Report(); r.Parsed != 0 || r.Notes != gen.Notes {
		t.Errorf("reopened from the index: %d notes, %d parsed, want %d and 0", r.Notes, r.Parsed, gen.Notes)
	}
	if e.DumpState() != dump {
		t.Errorf("reopened from the index, the engine holds something else than after the first index")
	}

	diff, findings := rvRoundTrip(t, e, dir, rvPick(t, e, rvRenames, 1), 1)
	if len(diff) > 0 {
		t.Errorf("after renaming %d notes and back, the vault differs:\n%s", rvRenames, strings.Join(diff, "\n"))
	}
	for _, f := range findings {
		t.Logf("not byte-identical, as expected: %s", f)
	}
	rvLikeFresh(t, e, dir)
}

package vaultgraph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

var (
	updateEval = flag.Bool("update-eval", false, "rewrite testdata/search-eval/vaultgen.json from the generated vault")
	evalDetail = flag.Bool("eval-detail", false, "log every query of TestSearchEval with the expected notes' rank in each mode")
)

// The evaluation: where the sets are, what is measured.
const (
	evalDir = "testdata/search-eval"
	// evalK is the cut of recall@k.
	evalK = 5
	// evalLimit is how many hits each query asks for; MRR counts the
	// first expected note down to this rank.
	evalLimit = 10
	// evalGenNotes and evalGenSeed make the generated vault of
	// vaultgen.json.
	evalGenNotes = 1000
	evalGenSeed  = 7
)

// evalSet is one evaluation set as stored in testdata/search-eval.
type evalSet struct {
	// Vault is "testvault" or "vaultgen" (generated with Notes and Seed).
	Vault   string      `json:"vault"`
	Notes   int         `json:"notes,omitempty"`
	Seed    uint64      `json:"seed,omitempty"`
	Queries []evalQuery `json:"queries"`
}

// evalQuery is a query and the notes that answer it.
type evalQuery struct {
	// Half is "tune" or "test" (held aside: never tuned on); a set
	// without halves counts its even queries as tune, odd ones as test.
	Half     string   `json:"half,omitempty"`
	Kind     string   `json:"kind"`
	Query    string   `json:"query"`
	Expected []string `json:"expected"`
	Why      string   `json:"why,omitempty"`
}

// evalScore is the mean recall@evalK and reciprocal rank over queries.
type evalScore struct {
	recall, mrr float64
	n           int
}

func (s *evalScore) add(recall, rr float64) {
	s.recall += recall
	s.mrr += rr
	s.n++
}

func (s evalScore) mean() (recall, mrr float64) {
	if s.n == 0 {
		return 0, 0
	}
	return s.recall / float64(s.n), s.mrr / float64(s.n)
}

// evalHalfKey prefixes the half of a query among the kinds runEval
// scores.
const evalHalfKey = "half:"

var evalModes = []vaultgraph.SearchMode{vaultgraph.SearchKeyword, vaultgraph.SearchSemantic, vaultgraph.SearchHybrid}

// evalFloors are the scores each set must reach, a little below those
// measured when the sets were written (the runs are deterministic: a
// drop is a change in ranking, not noise).
var evalFloors = map[string]map[vaultgraph.SearchMode]struct{ recall, mrr float64 }{
	// measured: keyword 1.00/0.96, semantic 1.00/0.94, hybrid 1.00/0.97;
	// with fields, stems, anchor text and prior: keyword 1.00/0.94,
	// hybrid 1.00/1.00
	"testvault": {
		vaultgraph.SearchKeyword:  {0.95, 0.92},
		vaultgraph.SearchSemantic: {0.95, 0.90},
		vaultgraph.SearchHybrid:   {0.95, 0.92},
	},
	// measured: keyword 0.88/0.85, semantic 0.68/0.54, hybrid 0.90/0.83;
	// before the fields: keyword 0.95/0.94, hybrid 0.97/0.92; with them:
	// keyword 0.95/0.87, hybrid 0.97/0.92
	"vaultgen": {
		vaultgraph.SearchKeyword:  {0.85, 0.80},
		vaultgraph.SearchSemantic: {0.64, 0.50},
		vaultgraph.SearchHybrid:   {0.86, 0.78},
	},
	// measured before the fields, stems, anchor text and prior: keyword
	// 0.61/0.53, semantic 0.65/0.59, hybrid 0.68/0.62; after: keyword
	// 0.79/0.69, semantic 0.65/0.59, hybrid 0.88/0.71
	"kepano-obsidian": {
		vaultgraph.SearchKeyword:  {0.77, 0.67},
		vaultgraph.SearchSemantic: {0.64, 0.58},
		vaultgraph.SearchHybrid:   {0.86, 0.69},
	},
}

// TestSearchEval measures recall@5 and MRR of every search mode, with the
// builtin embedder, on the hand-written testvault set and on the set
// derived from a generated vault, logs them and fails below the floors.
// The generated set must be what deriveEvalQueries makes of the vault the
// generator writes today: after a change to the generator, rewrite it
// with -update-eval and review the diff.
func TestSearchEval(t *testing.T) {
	ctx := context.Background()

	tv := readEvalSet(t, "testvault.json")
	te := evalEngine(t, "testvault")
	checkEvalExpected(t, te, tv)

	dir := filepath.Join(t.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: evalGenNotes, Seed: evalGenSeed}); err != nil {
		t.Fatal(err)
	}
	ge := evalEngine(t, dir)
	derived := evalSet{Vault: "vaultgen", Notes: evalGenNotes, Seed: evalGenSeed,
		Queries: deriveEvalQueries(ctx, t, ge, 1)}
	if *updateEval {
		writeEvalSet(t, "vaultgen.json", derived)
	}
	gs := readEvalSet(t, "vaultgen.json")
	if gs.Notes != evalGenNotes || gs.Seed != evalGenSeed {
		t.Fatalf("vaultgen.json is for %d notes, seed %d; the test generates %d, seed %d", gs.Notes, gs.Seed, evalGenNotes, evalGenSeed)
	}
	checkEvalExpected(t, ge, gs)
	if len(gs.Queries) != len(derived.Queries) {
		t.Errorf("vaultgen.json has %d queries, the generated vault gives %d: run go test -run TestSearchEval -update-eval and review the diff", len(gs.Queries), len(derived.Queries))
	}
	for i := range min(len(gs.Queries), len(derived.Queries)) {
		if got, want := gs.Queries[i], derived.Queries[i]; got.Query != want.Query || !slices.Equal(got.Expected, want.Expected) {
			t.Errorf("vaultgen.json query %d = %q -> %q, the generated vault gives %q -> %q: run go test -run TestSearchEval -update-eval and review the diff",
				i, got.Query, got.Expected, want.Query, want.Expected)
		}
	}

	ks := readEvalSet(t, "kepano.json")
	ke := evalEngine(t, filepath.Join(evalDir, ks.Vault))
	checkEvalExpected(t, ke, ks)

	for _, run := range []struct {
		set evalSet
		e   *vaultgraph.Engine
	}{{tv, te}, {gs, ge}, {ks, ke}} {
		total, kinds, misses := runEval(ctx, t, run.e, run.set)
		for _, m := range evalModes {
			recall, mrr := total[m].mean()
			t.Logf("eval vault=%s mode=%s recall@%d=%.2f mrr=%.2f queries=%d", run.set.Vault, m, evalK, recall, mrr, total[m].n)
			if f := evalFloors[run.set.Vault][m]; recall < f.recall || mrr < f.mrr {
				t.Errorf("eval vault=%s mode=%s: recall@%d %.3f, MRR %.3f; want at least %.2f, %.2f",
					run.set.Vault, m, evalK, recall, mrr, f.recall, f.mrr)
			}
		}
		for _, half := range []string{"tune", "test"} {
			var b strings.Builder
			for _, m := range evalModes {
				recall, mrr := kinds[evalHalfKey+half][m].mean()
				fmt.Fprintf(&b, " %s=%.2f/%.2f", m, recall, mrr)
			}
			t.Logf("eval vault=%s half=%s queries=%d recall@%d/mrr:%s", run.set.Vault, half, kinds[evalHalfKey+half][vaultgraph.SearchHybrid].n, evalK, b.String())
		}
		for _, kind := range slices.Sorted(maps.Keys(kinds)) {
			if strings.HasPrefix(kind, evalHalfKey) {
				continue
			}
			var b strings.Builder
			for _, m := range evalModes {
				recall, mrr := kinds[kind][m].mean()
				fmt.Fprintf(&b, " %s=%.2f/%.2f", m, recall, mrr)
			}
			t.Logf("  kind=%-14s queries=%-2d recall@%d/mrr:%s", kind, kinds[kind][vaultgraph.SearchHybrid].n, evalK, b.String())
		}
		for _, m := range misses {
			t.Logf("  missed by every mode: %s", m)
		}
	}
}

// runEval runs every query of set in every mode and returns the scores,
// overall and per kind, and the queries no mode put in the top evalK.
func runEval(ctx context.Context, t *testing.T, e *vaultgraph.Engine, set evalSet) (map[vaultgraph.SearchMode]evalScore, map[string]map[vaultgraph.SearchMode]evalScore, []string) {
	t.Helper()
	total := map[vaultgraph.SearchMode]evalScore{}
	kinds := map[string]map[vaultgraph.SearchMode]evalScore{}
	var misses []string
	if *evalDetail {
		t.Logf("%s: the rank of the first expected note in each mode (0: not in the first %d)", set.Vault, evalLimit)
	}
	for i, q := range set.Queries {
		half := q.Half
		if half == "" {
			half = []string{"tune", "test"}[i%2]
		}
		for _, k := range []string{q.Kind, evalHalfKey + half} {
			if kinds[k] == nil {
				kinds[k] = map[vaultgraph.SearchMode]evalScore{}
			}
		}
		found := false
		var top []string
		var ranks []string
		for _, m := range evalModes {
			hits, _, err := e.Search(ctx, vaultgraph.SearchQuery{Query: q.Query, Mode: m, Limit: evalLimit})
			if err != nil {
				t.Fatalf("Search(%q, %s) = %v", q.Query, m, err)
			}
			recall, rr := evalMetrics(hits, q.Expected)
			found = found || recall > 0
			rank := 0
			if rr > 0 {
				rank = int(1/rr + 0.5)
			}
			ranks = append(ranks, fmt.Sprintf("%s=%d", m, rank))
			if m == vaultgraph.SearchHybrid {
				for _, h := range hits[:min(3, len(hits))] {
					top = append(top, h.ID)
				}
			}
			s := total[m]
			s.add(recall, rr)
			total[m] = s
			for _, k := range []string{q.Kind, evalHalfKey + half} {
				s = kinds[k][m]
				s.add(recall, rr)
				kinds[k][m] = s
			}
		}
		if *evalDetail {
			t.Logf("  %-12s %-45q rank %s want %q", q.Kind, q.Query, strings.Join(ranks, " "), q.Expected)
		}
		if !found {
			misses = append(misses, fmt.Sprintf("%s %q want %q, hybrid top 3 %q", q.Kind, q.Query, q.Expected, top))
		}
	}
	return total, kinds, misses
}

// evalMetrics is the share of want in the first evalK hits and the
// reciprocal rank of the first hit in want (0 when none is).
func evalMetrics(hits []vaultgraph.SearchHit, want []string) (recall, rr float64) {
	got := 0
	for i, h := range hits {
		if !slices.Contains(want, h.ID) {
			continue
		}
		if rr == 0 {
			rr = 1 / float64(i+1)
		}
		if i < evalK {
			got++
		}
	}
	return float64(got) / float64(min(len(want), evalK)), rr
}

// evalEngine opens dir with its index in a temporary folder and the
// builtin embedder (and the options set changes), and waits for every
// vector.
func evalEngine(t testing.TB, dir string, set ...func(*vaultgraph.Options)) *vaultgraph.Engine {
	t.Helper()
	em, err := embed.New("builtin", embed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db"), Embedder: em}
	for _, f := range set {
		f(&opts)
	}
	e := vaultgraph.New(opts)
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	t.Cleanup(func() { e.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := e.WaitEmbeddings(ctx); err != nil {
		t.Fatalf("WaitEmbeddings(%s) = %v", dir, err)
	}
	return e
}

func readEvalSet(t *testing.T, name string) evalSet {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(evalDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var s evalSet
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(s.Queries) == 0 {
		t.Fatalf("%s has no queries", name)
	}
	return s
}

func writeEvalSet(t *testing.T, name string, s evalSet) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(evalDir, name), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkEvalExpected fails when an expected note of set is not in e's vault.
func checkEvalExpected(t *testing.T, e *vaultgraph.Engine, set evalSet) {
	t.Helper()
	for _, q := range set.Queries {
		if q.Query == "" || len(q.Expected) == 0 || q.Kind == "" {
			t.Errorf("%s: query %+v needs a kind, the query and expected notes", set.Vault, q)
		}
		for _, id := range q.Expected {
			if n, err := e.GetNode(context.Background(), id, false); err != nil || n == nil || n.ID != id {
				t.Errorf("%s: query %q expects %s, which is not a note of the vault", set.Vault, q.Query, id)
			}
		}
	}
}

// The derivation of queries with known answers from a generated vault.
// Every word the generator writes comes from small lists, so a body word
// is in many notes; what singles a note out is its title (1-4 title
// words), a title with one of its headings, two to four of its rarer
// words, a run of words of its prose, its non-ASCII title, or an acronym
// alias.

// evalNote is a note of the generated vault as the derivation sees it.
type evalNote struct {
	id, title string
	titleKey  string     // folded title words, sorted, space-separated
	aliases   []string   // as written
	headings  []string   // ## and ### headings outside code
	words     []string   // folded words of the body, in order
	prose     [][]string // runs of plain words, lower case (proseRuns)
}

// evalFold lower-cases s and removes diacritics, as the builtin embedder
// does (FTS5's unicode61 tokenizer, remove_diacritics 2, does it for Latin
// letters only: see typed).
func evalFold(s string) string {
	d := norm.NFD.String(strings.ToLower(s))
	d = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, d)
	return norm.NFC.String(d)
}

// evalWords splits text into folded words: runs of letters and digits.
func evalWords(s string) []string {
	return strings.FieldsFunc(evalFold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

// typed is a word as a user types it in a query: Latin letters without
// their accents ("cafe"), other scripts as written ("αλφάβητο").
func typed(w string) string {
	w = strings.ToLower(w)
	if f := evalFold(w); strings.IndexFunc(f, func(r rune) bool { return r > unicode.MaxASCII }) < 0 {
		return f
	}
	return w
}

func titleKey(title string) string {
	w := evalWords(title)
	slices.Sort(w)
	return strings.Join(w, " ")
}

// evalCorpus is the vault's notes with a word index.
type evalCorpus struct {
	notes []evalNote
	vocab []string         // every folded word, sorted
	posts map[string][]int // word -> notes that have it (title or body), ascending
	match map[string][]int // memo of matching
	used  map[string]bool  // words a body-words query has used
}

func newEvalCorpus(ctx context.Context, t testing.TB, e *vaultgraph.Engine) *evalCorpus {
	t.Helper()
	c := &evalCorpus{posts: map[string][]int{}, match: map[string][]int{}, used: map[string]bool{}}
	for i, id := range e.Graph().IDs() {
		n, err := e.GetNode(ctx, id, true)
		if err != nil || n == nil {
			t.Fatalf("GetNode(%s) = %v, %v", id, n, err)
		}
		en := evalNote{id: id, title: n.Title, titleKey: titleKey(n.Title), aliases: n.Aliases, words: evalWords(n.Content)}
		inCode := false
		for line := range strings.Lines(n.Content) {
			line = strings.TrimRight(line, "\n")
			switch {
			case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
				inCode = !inCode
			case inCode:
			case strings.HasPrefix(line, "## "), strings.HasPrefix(line, "### "):
				en.headings = append(en.headings, strings.TrimSpace(strings.TrimLeft(line, "#")))
			default:
				en.prose = append(en.prose, proseRuns(line)...)
			}
		}
		seen := map[string]bool{}
		for _, w := range append(evalWords(n.Title), en.words...) {
			if !seen[w] {
				seen[w] = true
				c.posts[w] = append(c.posts[w], i)
			}
		}
		c.notes = append(c.notes, en)
	}
	for w := range c.posts {
		c.vocab = append(c.vocab, w)
	}
	slices.Sort(c.vocab)
	return c
}

// markup is what breaks a run of prose words: links with their display
// text, embeds, tags.
var markup = regexp.MustCompile(`!?\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)|#\S+`)

// proseRuns returns the runs of plain words of a paragraph line, lower
// case: words of letters only, with at most a trailing . , ? or !, which
// ends a run. Links, tags, markup and list markers break runs.
func proseRuns(line string) [][]string {
	if line == "" || strings.ContainsAny(line[:1], "#|>-*0123456789!`") {
		return nil
	}
	line = markup.ReplaceAllString(line, " | ")
	var runs [][]string
	var run []string
	flush := func() {
		if len(run) > 0 {
			runs = append(runs, run)
		}
		run = nil
	}
	for _, f := range strings.Fields(line) {
		w := strings.TrimRight(f, ".,?!")
		plain := w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
		if !plain {
			flush()
			continue
		}
		run = append(run, strings.ToLower(w))
		if w != f {
			flush()
		}
	}
	flush()
	return runs
}

// matching returns the notes that have word w as FTS5 matches a query
// word: a word of the note starting with w (w itself, or a prefix of it).
func (c *evalCorpus) matching(w string) []int {
	if m, ok := c.match[w]; ok {
		return m
	}
	var out []int
	i, _ := slices.BinarySearch(c.vocab, w)
	for ; i < len(c.vocab) && strings.HasPrefix(c.vocab[i], w); i++ {
		out = append(out, c.posts[c.vocab[i]]...)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	c.match[w] = out
	return out
}

// matchingAll returns the notes that have every word of words.
func (c *evalCorpus) matchingAll(words []string) []int {
	var out []int
	for i, w := range words {
		m := c.matching(w)
		if i == 0 {
			out = m
			continue
		}
		out = slices.DeleteFunc(slices.Clone(out), func(n int) bool { _, ok := slices.BinarySearch(m, n); return !ok })
	}
	return out
}

func (c *evalCorpus) ids(notes []int) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = c.notes[n].id
	}
	slices.Sort(out)
	return out
}

// withTitle returns the notes whose title has the same words as key.
func (c *evalCorpus) withTitle(key string) []string {
	var out []string
	for _, n := range c.notes {
		if n.titleKey == key {
			out = append(out, n.id)
		}
	}
	slices.Sort(out)
	return out
}

func asciiLetters(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r > unicode.MaxASCII || !(unicode.IsLetter(r) || r == ' ') }) < 0
}

// evalQuestions turn title words into a question.
var evalQuestions = []string{"where did I write about %s?", "what do I know about %s", "what was the %s about"}

// evalKinds are the kinds of derived queries and how many of each one
// scale of deriveEvalQueries makes, in the order they are derived.
var evalKinds = []struct {
	kind   string
	n      int
	derive func(c *evalCorpus, r *rand.Rand, i int, k int) (string, []string)
}{
	// The title's words, lower case, in reverse order.
	{"title", 8, func(c *evalCorpus, _ *rand.Rand, i, _ int) (string, []string) {
		n := c.notes[i]
		if !asciiLetters(n.title) {
			return "", nil
		}
		w := strings.Fields(strings.ToLower(n.title))
		slices.Reverse(w)
		return strings.Join(w, " "), c.withTitle(n.titleKey)
	}},
	// A question around the title's words (two or more).
	{"question", 6, func(c *evalCorpus, _ *rand.Rand, i, k int) (string, []string) {
		n := c.notes[i]
		if !asciiLetters(n.title) || len(strings.Fields(n.title)) < 2 {
			return "", nil
		}
		return fmt.Sprintf(evalQuestions[k%len(evalQuestions)], strings.ToLower(n.title)), c.withTitle(n.titleKey)
	}},
	// One of the note's headings and its title: "risks of budget plan".
	{"heading", 6, func(c *evalCorpus, r *rand.Rand, i, k int) (string, []string) {
		n := c.notes[i]
		if !asciiLetters(n.title) || len(n.headings) == 0 {
			return "", nil
		}
		h := n.headings[r.IntN(len(n.headings))]
		if !asciiLetters(h) {
			return "", nil
		}
		var want []string
		for _, id := range c.withTitle(n.titleKey) {
			o := c.notes[slices.IndexFunc(c.notes, func(x evalNote) bool { return x.id == id })]
			if slices.Contains(o.headings, h) {
				want = append(want, id)
			}
		}
		return fmt.Sprintf([]string{"%s of %s", "%s in %s"}[k%2], strings.ToLower(h), strings.ToLower(n.title)), want
	}},
	// Two to four of the rarer words of the body's prose that no other
	// note has together.
	{"body-words", 8, func(c *evalCorpus, _ *rand.Rand, i, _ int) (string, []string) {
		n := c.notes[i]
		title := evalWords(n.title)
		var cand []string
		for _, run := range n.prose {
			for _, w := range run {
				w = evalFold(w)
				if len([]rune(w)) >= 4 && !slices.Contains(title, w) && !slices.Contains(cand, w) && len(c.posts[w]) >= 2 && !c.used[w] {
					cand = append(cand, w)
				}
			}
		}
		as := map[string]string{} // folded -> as typed
		for _, run := range n.prose {
			for _, w := range run {
				as[evalFold(w)] = typed(w)
			}
		}
		df := map[string]int{}
		for _, w := range cand {
			df[w] = len(c.matching(w))
		}
		slices.SortStableFunc(cand, func(a, b string) int {
			if df[a] != df[b] {
				return df[a] - df[b]
			}
			return strings.Compare(a, b)
		})
		// Greedily, rarest first, the words (of the 12 rarest) that narrow
		// the notes having them all down to this one, at most four.
		var words []string
		var m []int
		for _, w := range cand[:min(12, len(cand))] {
			next := c.matching(w)
			if words != nil {
				next = slices.DeleteFunc(slices.Clone(m), func(n int) bool { _, ok := slices.BinarySearch(next, n); return !ok })
			}
			if words != nil && len(next) == len(m) {
				continue // no narrower
			}
			words, m = append(words, w), next
			if len(m) == 1 && m[0] == i {
				c.used[words[0]] = true // another rarest word next time: variety
				for j, w := range words {
					words[j] = as[w]
				}
				return strings.Join(words, " "), []string{n.id}
			}
			if len(words) == 4 {
				break
			}
		}
		return "", nil
	}},
	// Six words in a row from the note's prose, as remembered: the run of
	// six with the most words found in less than a third of the notes (at
	// least three).
	{"passage", 6, func(c *evalCorpus, _ *rand.Rand, i, _ int) (string, []string) {
		const size = 6
		n := c.notes[i]
		var best []string
		most := 2
		for _, run := range n.prose {
			for at := 0; at+size <= len(run); at++ {
				k := 0
				for _, w := range run[at : at+size] {
					if 3*len(c.posts[evalFold(w)]) < len(c.notes) {
						k++
					}
				}
				if k > most {
					best, most = run[at:at+size], k
				}
			}
		}
		if best == nil {
			return "", nil
		}
		best = slices.Clone(best)
		folded := make([]string, size)
		for j, w := range best {
			folded[j] = evalFold(w)
			best[j] = typed(w)
		}
		var want []string
		for _, k := range c.matchingAll(folded) { // only these can have the run
			o := c.notes[k]
			for j := 0; j+size <= len(o.words); j++ {
				if slices.Equal(o.words[j:j+size], folded) {
					want = append(want, o.id)
					break
				}
			}
		}
		return strings.Join(best, " "), want
	}},
	// A non-ASCII title typed lower case, Latin letters without their
	// accents: "cafe notes", "東京 trip".
	{"folded-title", 4, func(c *evalCorpus, _ *rand.Rand, i, _ int) (string, []string) {
		n := c.notes[i]
		if asciiLetters(n.title) || strings.IndexFunc(n.title, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsSpace(r) && !unicode.IsDigit(r)
		}) >= 0 {
			return "", nil // ASCII, or an emoji
		}
		w := strings.Fields(n.title)
		for j := range w {
			w[j] = typed(w[j])
		}
		return strings.Join(w, " "), c.withTitle(n.titleKey)
	}},
	// An acronym alias from the frontmatter: "BCP" for "Budget Coffee
	// Plan".
	{"alias", 3, func(c *evalCorpus, _ *rand.Rand, i, _ int) (string, []string) {
		n := c.notes[i]
		for _, a := range n.aliases {
			if len(a) >= 2 && a == strings.ToUpper(a) && asciiLetters(a) {
				var want []string
				for _, o := range c.notes {
					if slices.ContainsFunc(o.aliases, func(b string) bool { return strings.EqualFold(a, b) }) {
						want = append(want, o.id)
					}
				}
				slices.Sort(want)
				return a, want
			}
		}
		return "", nil
	}},
}

// deriveEvalQueries derives queries with known answers from the notes of
// e's vault (a generated one): scale times the evalKinds counts, each
// from another note, the notes taken in a fixed pseudo-random order, so
// the same vault always gives the same queries.
func deriveEvalQueries(ctx context.Context, t testing.TB, e *vaultgraph.Engine, scale int) []evalQuery {
	t.Helper()
	c := newEvalCorpus(ctx, t, e)
	r := rand.New(rand.NewPCG(evalGenSeed, 1))
	order := r.Perm(len(c.notes))
	used := map[int]bool{}
	var out []evalQuery
	for _, k := range evalKinds {
		made := 0
		for _, i := range order {
			if made == k.n*scale {
				break
			}
			if used[i] {
				continue
			}
			q, want := k.derive(c, r, i, made)
			if q == "" || len(want) == 0 || len(want) > 3 {
				continue
			}
			used[i] = true
			out = append(out, evalQuery{Kind: k.kind, Query: q, Expected: want})
			made++
		}
	}
	return out
}

// searchBench is the engine and queries of BenchmarkSearch10k, made once.
var searchBench struct {
	once    sync.Once
	err     error
	engine  *vaultgraph.Engine
	queries []string
}

// BenchmarkSearch10k times one query in each mode on the 10,000-note
// benchmark vault with builtin vectors, cycling through ~200 queries
// derived from the vault as for TestSearchEval.
func BenchmarkSearch10k(b *testing.B) {
	e, queries := searchBenchEngine(b)
	for _, m := range evalModes {
		b.Run(string(m), func(b *testing.B) {
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if _, _, err := e.Search(ctx, vaultgraph.SearchQuery{Query: queries[i%len(queries)], Mode: m}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// searchBenchEngine opens the benchmark vault with builtin vectors on
// first use and derives its queries.
func searchBenchEngine(b *testing.B) (*vaultgraph.Engine, []string) {
	b.Helper()
	dir := benchVault(b)
	searchBench.once.Do(func() {
		em, err := embed.New("builtin", embed.Options{})
		if err != nil {
			searchBench.err = err
			return
		}
		e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(bench.tmp, "search-index.db"), Embedder: em})
		if searchBench.err = e.Open(context.Background()); searchBench.err != nil {
			return
		}
		start := time.Now()
		if searchBench.err = e.WaitEmbeddings(context.Background()); searchBench.err != nil {
			return
		}
		b.Logf("embedded %d notes in %s", e.Graph().Len(), time.Since(start).Round(time.Millisecond))
		for _, q := range deriveEvalQueries(context.Background(), b, e, 5) {
			searchBench.queries = append(searchBench.queries, q.Query)
		}
		searchBench.engine = e
	})
	if searchBench.err != nil {
		b.Fatalf("open the search benchmark vault: %v", searchBench.err)
	}
	return searchBench.engine, searchBench.queries
}

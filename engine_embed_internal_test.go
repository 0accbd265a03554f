package vaultgraph

// Tests of the background embedder that need the engine's insides: the
// index's vector rows (e.store) and a shorter testOptions.embedRetry.
// Providers are the builtin embedder, a counting wrapper around it, and
// httptest servers speaking the Ollama and OpenAI wire formats over real
// HTTP.

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// embedWait bounds every wait for the background embedder.
const embedWait = 20 * time.Second

// copyVaultForEmbed copies testvault into a temporary folder.
func copyVaultForEmbed(t *testing.T) string { return testutil.CopyTestVault(t) }

// openEmbedding opens an engine on dir with its index at index and p as
// its embedder, its options changed by set; it is closed when the test
// ends.
func openEmbedding(t *testing.T, dir, index string, p embed.Embedder, set ...func(*Options)) *Engine {
	t.Helper()
	opts := Options{Vault: dir, Index: index, Embedder: p}
	for _, f := range set {
		f(&opts)
	}
	e := New(opts)
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// waitEmbeddings is WaitEmbeddings bounded by embedWait, failing the test
// on an error.
func waitEmbeddings(t *testing.T, e *Engine) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), embedWait)
	defer cancel()
	if err := e.WaitEmbeddings(ctx); err != nil {
		st, _ := e.Status(context.Background())
		t.Fatalf("WaitEmbeddings = %v (embedding %q)", err, st.Embedding)
	}
}

// waitStatus polls Status until ok accepts it.
func waitStatus(t *testing.T, e *Engine, what string, ok func(*Status) bool) *Status {
	t.Helper()
	deadline := time.Now().Add(embedWait)
	for {
		st, err := e.Status(context.Background())
		if err != nil {
			t.Fatalf("Status = %v", err)
		}
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("Status after %v: embedding %q, model %q, coverage %v; want %s", embedWait, st.Embedding, st.EmbeddingModel, st.Embeddings, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// vectorModels is the index's "model/dim" -> notes.
func vectorModels(t *testing.T, e *Engine) map[string]int {
	t.Helper()
	m, err := e.store.VectorModels(context.Background())
	if err != nil {
		t.Fatalf("VectorModels = %v", err)
	}
	return m
}

// waitVectorModels polls the index until its vector models are want: the
// old model's rows are dropped just after the state turns ready.
func waitVectorModels(t *testing.T, e *Engine, want map[string]int) {
	t.Helper()
	deadline := time.Now().Add(embedWait)
	for {
		got := vectorModels(t, e)
		if maps.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("VectorModels = %v, want %v", got, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// storedVectors is the index's vectors of model, by note.
func storedVectors(t *testing.T, e *Engine, model string, dim int) map[string]store.NoteVectors {
	t.Helper()
	out := map[string]store.NoteVectors{}
	err := e.store.Vectors(context.Background(), model, dim, func(nv store.NoteVectors) error {
		out[nv.Note] = nv
		return nil
	})
	if err != nil {
		t.Fatalf("Vectors(%s) = %v", model, err)
	}
	return out
}

func mustSearch(t *testing.T, e *Engine, q SearchQuery) ([]SearchHit, []string) {
	t.Helper()
	hits, warnings, err := e.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%+v) = %v", q, err)
	}
	return hits, warnings
}

// checkScores checks that hits are scored 0-1, best first.
func checkScores(t *testing.T, q SearchQuery, hits []SearchHit) {
	t.Helper()
	for i, h := range hits {
		if h.Score < 0 || h.Score > 1 || math.IsNaN(h.Score) {
			t.Errorf("Search(%q, %s)[%d].Score = %v, want 0-1", q.Query, q.Mode, i, h.Score)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("Search(%q, %s) not sorted: %v after %v", q.Query, q.Mode, h.Score, hits[i-1].Score)
		}
	}
}

// TestEmbedBuiltin: the builtin embedder covers testvault, and semantic
// search finds notes by their words.
func TestEmbedBuiltin(t *testing.T) {
	e := openEmbedding(t, "testvault", filepath.Join(t.TempDir(), "index.db"), embed.NewBuiltin())
	waitEmbeddings(t, e)
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Embeddings != 1 || st.EmbeddingModel != "builtin-hash-v1-512" || st.Embedding != "ready" {
		t.Errorf("Status embedding = coverage %v, model %q, state %q; want 1, builtin-hash-v1-512, ready", st.Embeddings, st.EmbeddingModel, st.Embedding)
	}
	if got := vectorModels(t, e); !maps.Equal(got, map[string]int{"builtin-hash-v1-512/512": st.Notes}) {
		t.Errorf("VectorModels = %v, want every one of the %d notes under builtin-hash-v1-512/512", got, st.Notes)
	}

	tests := []struct {
		give SearchQuery
		top  []string
	}{
		{SearchQuery{Query: "budget risk tracking"}, []string{"Projects/Alpha Plan.md"}},
		{SearchQuery{Query: "ship the beta"}, []string{"Projects/Beta.md"}},
		{SearchQuery{Query: "archived first draft"}, []string{"Archive/Alpha Plan.md"}},
		{SearchQuery{Query: "welcome to the hub"}, []string{"Home.md"}},
		{SearchQuery{Query: "no links in or out"}, []string{"Orphan.md"}},
		{SearchQuery{Query: "malformed frontmatter"}, []string{"Notes/Broken YAML.md"}},
		{SearchQuery{Query: "東京の旅行"}, []string{"Notes/東京 Trip.md"}},
		{SearchQuery{Query: "alpha", Folder: "Archive"}, []string{"Archive/Alpha Plan.md", "Archive/Old Ideas.md"}},
	}
	for _, tt := range tests {
		for _, mode := range []SearchMode{SearchSemantic, SearchHybrid} {
			q := tt.give
			q.Mode = mode
			hits, warnings := mustSearch(t, e, q)
			got := searchIDs(hits)
			if len(got) < len(tt.top) || !slices.Equal(got[:len(tt.top)], tt.top) {
				t.Errorf("Search(%q, %s, folder %q) = %q, want %q first", q.Query, mode, q.Folder, got, tt.top)
			}
			for _, w := range warnings {
				if strings.Contains(w, "vector") || strings.Contains(w, "embedding") {
					t.Errorf("Search(%q, %s) warnings = %q, want none about vectors", q.Query, mode, warnings)
				}
			}
			checkScores(t, q, hits)
			for i, h := range hits {
				if h.Snippet == "" {
					t.Errorf("Search(%q, %s)[%d] %s has no snippet", q.Query, mode, i, h.ID)
				}
				if mode == SearchSemantic && (h.VectorRank != i+1 || h.KeywordRank != 0) {
					t.Errorf("Search(%q, semantic)[%d] ranks vector %d, keyword %d; want %d, 0", q.Query, i, h.VectorRank, h.KeywordRank, i+1)
				}
			}
			if mode == SearchSemantic && q.Folder != "" {
				for _, id := range got {
					if !strings.HasPrefix(id, q.Folder+"/") {
						t.Errorf("Search(%q, semantic, folder %s) found %s", q.Query, q.Folder, id)
					}
				}
			}
		}
	}
	// A note found by both searches and ranked first by both scores 1.
	hits, _ := mustSearch(t, e, SearchQuery{Query: "budget risk"})
	if len(hits) == 0 || hits[0].KeywordRank != 1 || hits[0].VectorRank != 1 || hits[0].Score != 1 {
		t.Errorf("Search(budget risk, hybrid) = %+v, want Projects/Alpha Plan.md first in both, score 1", hits)
	}
}

// noteIDsForTest returns every note's ID, sorted.
func (e *Engine) noteIDsForTest() []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return slices.Sorted(maps.Keys(e.notes))
}

// chunkTexts is what the embedder must embed for note id: the texts of
// its chunks, sorted.
func chunkTexts(t *testing.T, e *Engine, id string) []string {
	t.Helper()
	n, err := e.GetNode(context.Background(), id, true)
	if err != nil || n == nil {
		t.Fatalf("GetNode(%s) = %v, %v", id, n, err)
	}
	var out []string
	for _, c := range embed.Chunks(n.Title, n.Content, embed.DefaultChunkChars) {
		out = append(out, c.Text)
	}
	slices.Sort(out)
	return out
}

// TestEmbedOnlyChanged: stored vectors of unchanged notes are reused on
// the next Open; an edit re-embeds that note only; a delete, a create and
// a rename keep the vectors in step.
func TestEmbedOnlyChanged(t *testing.T) {
	ctx := context.Background()
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")

	first := newCountingEmbedder()
	e := openEmbedding(t, dir, index, first)
	waitEmbeddings(t, e)
	st, _ := e.Status(ctx)
	var all []string
	for _, id := range e.noteIDsForTest() {
		all = append(all, chunkTexts(t, e, id)...)
	}
	slices.Sort(all)
	if got := first.embedded(); !slices.Equal(got, all) {
		t.Errorf("first Open embedded %d texts, want the %d chunks of the %d notes:\n%q\nwant\n%q", len(got), len(all), st.Notes, got, all)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	again := newCountingEmbedder()
	e = openEmbedding(t, dir, index, again)
	waitEmbeddings(t, e)
	if got := again.embedded(); len(got) != 0 {
		t.Errorf("reopen with the same index embedded %q, want nothing", got)
	}
	if st, _ := e.Status(ctx); st.Embeddings != 1 || st.Embedding != "ready" {
		t.Errorf("reopen: coverage %v, state %q; want 1, ready", st.Embeddings, st.Embedding)
	}
	semantic := SearchQuery{Query: "quokka zanzibar", Mode: SearchSemantic}
	if hits, _ := mustSearch(t, e, semantic); len(hits) > 0 && hits[0].ID == "Projects/Beta.md" {
		t.Fatalf("Search(%q) = %q before the edit: pick other words", semantic.Query, searchIDs(hits))
	}
	again.embedded() // the query's text

	// Edit one note on disk.
	beta := filepath.Join(dir, "Projects", "Beta.md")
	f, err := os.OpenFile(beta, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n## Mascot\n\nA quokka named Zanzibar.\n")
	f.Close()
	if err := e.Sync(ctx, "Projects/Beta.md"); err != nil {
		t.Fatalf("Sync = %v", err)
	}
	waitEmbeddings(t, e)
	if got, want := again.embedded(), chunkTexts(t, e, "Projects/Beta.md"); !slices.Equal(got, want) {
		t.Errorf("after editing Beta embedded %q, want its chunks %q", got, want)
	}
	if hits, _ := mustSearch(t, e, semantic); len(hits) == 0 || hits[0].ID != "Projects/Beta.md" || !strings.Contains(hits[0].Snippet, "Zanzibar") {
		t.Errorf("Search(%q) after the edit = %+v, want Projects/Beta.md first with the new passage", semantic.Query, hits)
	}
	n, _ := e.GetNode(ctx, "Projects/Beta.md", false)
	if nv := storedVectors(t, e, embed.BuiltinModel, embed.BuiltinDim)["Projects/Beta.md"]; nv.Hash != n.Hash || len(nv.Vecs) != len(chunkTexts(t, e, "Projects/Beta.md")) {
		t.Errorf("stored vectors of Beta: hash %q, %d chunks; want hash %q, one per chunk", nv.Hash, len(nv.Vecs), n.Hash)
	}

	// Delete one.
	orphan := SearchQuery{Query: "no links in or out", Mode: SearchSemantic}
	if hits, _ := mustSearch(t, e, orphan); len(hits) == 0 || hits[0].ID != "Orphan.md" {
		t.Fatalf("Search(%q) = %q, want Orphan.md first", orphan.Query, searchIDs(hits))
	}
	again.embedded() // the queries' texts
	if err := os.Remove(filepath.Join(dir, "Orphan.md")); err != nil {
		t.Fatal(err)
	}
	if err := e.Sync(ctx, "Orphan.md"); err != nil {
		t.Fatalf("Sync = %v", err)
	}
	waitEmbeddings(t, e)
	if got := again.embedded(); len(got) != 0 {
		t.Errorf("after deleting Orphan embedded %q, want nothing", got)
	}
	if _, ok := storedVectors(t, e, embed.BuiltinModel, embed.BuiltinDim)["Orphan.md"]; ok {
		t.Errorf("Orphan.md's vectors are still in the index after its delete")
	}
	if hits, _ := mustSearch(t, e, orphan); slices.Contains(searchIDs(hits), "Orphan.md") {
		t.Errorf("Search(%q) after the delete = %q, want no Orphan.md", orphan.Query, searchIDs(hits))
	}
	again.embedded() // the query's text
	st, _ = e.Status(ctx)
	if st.Embeddings != 1 || vectorModels(t, e)[embed.BuiltinModel+"/512"] != st.Notes {
		t.Errorf("after the delete: coverage %v, vectors %v; want 1, %d notes", st.Embeddings, vectorModels(t, e), st.Notes)
	}
	e.emb.mu.Lock()
	inMemory := e.emb.index.Notes()
	_, have := e.emb.have["Orphan.md"]
	e.emb.mu.Unlock()
	if have || !slices.Equal(inMemory, e.noteIDsForTest()) {
		t.Errorf("after the delete the embedder counts Orphan.md: %v; its vectors are of %q; want false, %q", have, inMemory, e.noteIDsForTest())
	}

	// The engine's own writes: a create and a rename.
	if _, err := e.CreateNode(ctx, NewNote{Title: "Wombat", Content: "Wombats dig burrows in the outback.\n"}); err != nil {
		t.Fatalf("CreateNode = %v", err)
	}
	waitEmbeddings(t, e)
	if got, want := again.embedded(), chunkTexts(t, e, "Wombat.md"); !slices.Equal(got, want) {
		t.Errorf("after creating Wombat embedded %q, want %q", got, want)
	}
	burrow := SearchQuery{Query: "wombats dig burrows", Mode: SearchSemantic}
	if hits, _ := mustSearch(t, e, burrow); len(hits) == 0 || hits[0].ID != "Wombat.md" {
		t.Errorf("Search(%q) = %q, want Wombat.md first", burrow.Query, searchIDs(hits))
	}
	marsupial := "Marsupial"
	if _, err := e.UpdateNode(ctx, NoteUpdate{ID: "Wombat.md", Title: &marsupial}); err != nil {
		t.Fatalf("UpdateNode(rename) = %v", err)
	}
	waitEmbeddings(t, e)
	again.embedded()
	if hits, _ := mustSearch(t, e, burrow); len(hits) == 0 || hits[0].ID != "Marsupial.md" || slices.Contains(searchIDs(hits), "Wombat.md") {
		t.Errorf("Search(%q) after the rename = %q, want Marsupial.md first and no Wombat.md", burrow.Query, searchIDs(hits))
	}
	stored := storedVectors(t, e, embed.BuiltinModel, embed.BuiltinDim)
	if _, ok := stored["Wombat.md"]; ok || stored["Marsupial.md"].Hash == "" {
		t.Errorf("stored vectors after the rename: Wombat.md %v, Marsupial.md %v; want only Marsupial.md", ok, stored["Marsupial.md"].Hash != "")
	}
	if st, _ := e.Status(ctx); st.Embeddings != 1 {
		t.Errorf("coverage after the rename = %v, want 1", st.Embeddings)
	}
}

// TestEmbedEditWhileEmbedding: a note edited while its batch is being
// embedded gets vectors of its new text in the end.
func TestEmbedEditWhileEmbedding(t *testing.T) {
	ctx := context.Background()
	dir := copyVaultForEmbed(t)
	p := newCountingEmbedder()
	p.gate, p.started = make(chan struct{}), make(chan struct{}, 1)
	e := openEmbedding(t, dir, filepath.Join(t.TempDir(), "index.db"), p)
	select {
	case <-p.started:
	case <-time.After(embedWait):
		t.Fatal("the embedder never started a batch")
	}
	// The first batch (every note) is in Embed: edit a note in it.
	if err := os.WriteFile(filepath.Join(dir, "Orphan.md"), []byte("# Orphan\n\nA quokka named Zanzibar.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.Sync(ctx, "Orphan.md"); err != nil {
		t.Fatalf("Sync = %v", err)
	}
	close(p.gate)
	waitEmbeddings(t, e)

	n, _ := e.GetNode(ctx, "Orphan.md", false)
	if nv := storedVectors(t, e, embed.BuiltinModel, embed.BuiltinDim)["Orphan.md"]; nv.Hash != n.Hash {
		t.Errorf("stored vectors of Orphan.md are of version %q, want the edited %q", nv.Hash, n.Hash)
	}
	q := SearchQuery{Query: "quokka zanzibar", Mode: SearchSemantic}
	if hits, _ := mustSearch(t, e, q); len(hits) == 0 || hits[0].ID != "Orphan.md" {
		t.Errorf("Search(%q) = %q, want Orphan.md (edited during the embedding) first", q.Query, searchIDs(hits))
	}
}

// TestEmbedDeleteWhileEmbedding: a note deleted while its batch is being
// embedded does not come back into the embedder's vectors.
func TestEmbedDeleteWhileEmbedding(t *testing.T) {
	ctx := context.Background()
	dir := copyVaultForEmbed(t)
	p := newCountingEmbedder()
	p.gate, p.started = make(chan struct{}), make(chan struct{}, 1)
	e := openEmbedding(t, dir, filepath.Join(t.TempDir(), "index.db"), p)
	select {
	case <-p.started:
	case <-time.After(embedWait):
		t.Fatal("the embedder never started a batch")
	}
	if err := os.Remove(filepath.Join(dir, "Orphan.md")); err != nil {
		t.Fatal(err)
	}
	if err := e.Sync(ctx, "Orphan.md"); err != nil {
		t.Fatalf("Sync = %v", err)
	}
	close(p.gate)
	waitEmbeddings(t, e)

	e.emb.mu.Lock()
	inMemory := e.emb.index.Notes()
	have := len(e.emb.have)
	e.emb.mu.Unlock()
	if ids := e.noteIDsForTest(); !slices.Equal(inMemory, ids) || have != len(ids) {
		t.Errorf("after a delete during the embedding the embedder has vectors of %q (%d counted); want %q", inMemory, have, ids)
	}
	if _, ok := storedVectors(t, e, embed.BuiltinModel, embed.BuiltinDim)["Orphan.md"]; ok {
		t.Errorf("Orphan.md's vectors were stored after its delete")
	}
}

// TestEmbedModelSwitch: with builtin vectors in the index, an engine on
// another model answers semantic queries from the builtin vectors (and
// says so) until the new model's are complete, then drops the old ones.
func TestEmbedModelSwitch(t *testing.T) {
	for _, openai := range []bool{false, true} {
		name := "ollama"
		if openai {
			name = "openai"
		}
		t.Run(name, func(t *testing.T) { testEmbedModelSwitch(t, openai) })
	}
}

func testEmbedModelSwitch(t *testing.T, openai bool) {
	ctx := context.Background()
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	queries := []SearchQuery{
		{Query: "budget risk tracking", Mode: SearchSemantic},
		{Query: "archived first draft", Mode: SearchSemantic},
		{Query: "budget risk", Mode: SearchHybrid},
	}

	a := openEmbedding(t, dir, index, embed.NewBuiltin())
	waitEmbeddings(t, a)
	st, _ := a.Status(ctx)
	notes := st.Notes
	builtinAnswers := make([][]SearchHit, len(queries))
	for i, q := range queries {
		builtinAnswers[i], _ = mustSearch(t, a, q)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	srv := newFakeEmbedServer(t, openai, "")
	srv.hold()
	p := srv.embedder(t, "fake-embed")
	b := openEmbedding(t, dir, index, p)
	select {
	case <-srv.held:
	case <-time.After(embedWait):
		t.Fatal("the new model's first batch never reached the server")
	}
	st = waitStatus(t, b, "embedding: 0 of N", func(s *Status) bool { return strings.HasPrefix(s.Embedding, "embedding: ") })
	if st.EmbeddingModel != p.Model() || st.Embeddings != 0 || st.Embedding != fmt.Sprintf("embedding: 0 of %d notes", notes) {
		t.Errorf("Status while %s embeds = model %q, coverage %v, %q; want %s, 0, embedding: 0 of %d notes", p.Model(), st.EmbeddingModel, st.Embeddings, st.Embedding, p.Model(), notes)
	}
	for i, q := range queries {
		hits, warnings := mustSearch(t, b, q)
		if !slices.Equal(hits, builtinAnswers[i]) {
			t.Errorf("Search(%q, %s) during the switch = %+v, want the builtin answer %+v", q.Query, q.Mode, hits, builtinAnswers[i])
		}
		want := fmt.Sprintf("vectors of %s are being made (0 of %d notes): semantic results come from %s meanwhile", p.Model(), notes, embed.BuiltinModel)
		if !slices.Contains(warnings, want) {
			t.Errorf("Search(%q, %s) during the switch warnings = %q, want %q", q.Query, q.Mode, warnings, want)
		}
	}
	if req, _ := srv.counts(); req != 1 {
		t.Errorf("the server answered %d requests during the switch, want 1 (the dimension probe; queries go to the builtin model)", req)
	}
	if got, want := vectorModels(t, b), map[string]int{embed.BuiltinModel + "/512": notes}; !maps.Equal(got, want) {
		t.Errorf("VectorModels during the switch = %v, want %v", got, want)
	}

	srv.release()
	waitEmbeddings(t, b)
	st, _ = b.Status(ctx)
	if st.EmbeddingModel != p.Model() || st.Embeddings != 1 || st.Embedding != "ready" {
		t.Errorf("Status after the switch = model %q, coverage %v, %q; want %s, 1, ready", st.EmbeddingModel, st.Embeddings, st.Embedding, p.Model())
	}
	waitVectorModels(t, b, map[string]int{fmt.Sprintf("%s/%d", p.Model(), fakeDim): notes})
	models := slices.Compact(srv.Models())
	if !slices.Equal(models, []string{"fake-embed"}) {
		t.Errorf("requests named models %q, want fake-embed", models)
	}
	reqBefore, _ := srv.counts()
	for _, q := range queries {
		hits, warnings := mustSearch(t, b, q)
		for _, w := range warnings {
			if strings.Contains(w, "vector") || strings.Contains(w, "embedding") {
				t.Errorf("Search(%q, %s) after the switch warnings = %q, want none about vectors", q.Query, q.Mode, warnings)
			}
		}
		if len(hits) == 0 || !slices.ContainsFunc(hits, func(h SearchHit) bool { return h.VectorRank > 0 }) {
			t.Errorf("Search(%q, %s) after the switch = %+v, want vector hits", q.Query, q.Mode, hits)
		}
		checkScores(t, q, hits)
	}
	if req, _ := srv.counts(); req != reqBefore+len(queries) {
		t.Errorf("the server answered %d query requests, want %d: queries go to the new model", req-reqBefore, len(queries))
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopened on the same model: only the dimension probe is sent.
	_, textsBefore := srv.counts()
	c := openEmbedding(t, dir, index, srv.embedder(t, "fake-embed"))
	waitEmbeddings(t, c)
	if _, texts := srv.counts(); texts != textsBefore+1 {
		t.Errorf("reopening on %s embedded %d texts, want 1 (the dimension probe)", p.Model(), texts-textsBefore)
	}
	if st, _ := c.Status(ctx); st.Embeddings != 1 || st.EmbeddingModel != p.Model() {
		t.Errorf("reopened: coverage %v, model %q; want 1, %s", st.Embeddings, st.EmbeddingModel, p.Model())
	}
}

// TestEmbedStoreVectorsOnly: with StoreVectorsOnly the embedder writes
// the vectors of the notes that lack them, keeps none in memory, and a
// later Open (with or without it) finds them all stored.
func TestEmbedStoreVectorsOnly(t *testing.T) {
	ctx := context.Background()
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	open := func(p embed.Embedder, only bool) *Engine {
		t.Helper()
		e := New(Options{Vault: dir, Index: index, Embedder: p, StoreVectorsOnly: only})
		if err := e.Open(ctx); err != nil {
			t.Fatalf("Open = %v", err)
		}
		return e
	}

	first := newCountingEmbedder()
	e := open(first, true)
	waitEmbeddings(t, e)
	if e.emb.index != nil {
		t.Errorf("StoreVectorsOnly: the engine holds %d vectors in memory", e.emb.index.Len())
	}
	if st, _ := e.Status(ctx); st.Embeddings != 1 {
		t.Errorf("coverage %v, want 1", st.Embeddings)
	}
	want := len(first.embedded())
	if want == 0 {
		t.Fatal("nothing was embedded")
	}
	if got := len(storedVectors(t, e, embed.BuiltinModel, embed.BuiltinDim)); got != len(e.noteIDsForTest()) {
		t.Errorf("%d notes have stored vectors, want all %d", got, len(e.noteIDsForTest()))
	}
	e.Close()

	// Again: nothing to embed, then only the edited note.
	again := newCountingEmbedder()
	e = open(again, true)
	waitEmbeddings(t, e)
	if got := again.embedded(); len(got) != 0 {
		t.Errorf("second StoreVectorsOnly Open embedded %d texts, want none", len(got))
	}
	e.Close()
	beta := filepath.Join(dir, "Projects", "Beta.md")
	f, err := os.OpenFile(beta, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n## Mascot\n\nA quokka named Zanzibar.\n")
	f.Close()
	e = open(again, true)
	waitEmbeddings(t, e)
	if got, want := again.embedded(), chunkTexts(t, e, "Projects/Beta.md"); !slices.Equal(got, want) {
		t.Errorf("after editing Beta embedded %q, want its chunks %q", got, want)
	}
	e.Close()

	// A searching engine loads them all and embeds nothing.
	last := newCountingEmbedder()
	e = open(last, false)
	defer e.Close()
	waitEmbeddings(t, e)
	if got := last.embedded(); len(got) != 0 {
		t.Errorf("a searching Open after StoreVectorsOnly runs embedded %d texts, want none", len(got))
	}
	hits, _ := mustSearch(t, e, SearchQuery{Query: "quokka zanzibar", Mode: SearchSemantic})
	if len(hits) == 0 || hits[0].ID != "Projects/Beta.md" {
		t.Errorf("semantic search = %q, want Projects/Beta.md first", searchIDs(hits))
	}
}

// TestEmbedQuantizedLoad: stored vectors of a model other than builtin
// past testOptions.quantizeAbove load as int8 and still rank the right
// note first.
func TestEmbedQuantizedLoad(t *testing.T) {
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	e := openEmbedding(t, dir, index, renamedEmbedder{newCountingEmbedder()})
	waitEmbeddings(t, e)
	if e.emb.index.Quantized() {
		t.Fatal("a fresh index is quantized")
	}
	e.Close()

	e = openEmbedding(t, dir, index, renamedEmbedder{newCountingEmbedder()}, func(o *Options) {
		test := defaultTestOptions()
		test.quantizeAbove = 0
		o.test = &test
	})
	waitEmbeddings(t, e)
	if !e.emb.index.Quantized() || e.emb.index.Len() == 0 {
		t.Fatalf("reloaded index: quantized %v, %d notes; want int8 and every note", e.emb.index.Quantized(), e.emb.index.Len())
	}
	hits, _ := mustSearch(t, e, SearchQuery{Query: "no links in or out", Mode: SearchSemantic})
	if len(hits) == 0 || hits[0].ID != "Orphan.md" {
		t.Errorf("semantic search on the int8 index = %q, want Orphan.md first", searchIDs(hits))
	}
}

// renamedEmbedder is the builtin embedder under another model's name,
// whose vectors are stored and searched as any model's but builtin's.
type renamedEmbedder struct{ embed.Embedder }

func (renamedEmbedder) Model() string { return "renamed-" + embed.BuiltinModel }

// TestEmbedKeepOtherVectors: an engine with KeepOtherVectors (a one-shot
// CLI search) on another model leaves the index's vectors of the vault's
// model alone, and its searches name that model and the flag to use it;
// an engine without it (serve, index) drops them.
func TestEmbedKeepOtherVectors(t *testing.T) {
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	srv := newFakeEmbedServer(t, false, "")
	a := openEmbedding(t, dir, index, srv.embedder(t, "fake-embed"))
	waitEmbeddings(t, a)
	notes := a.noteCountForTest()
	a.Close()
	fake := fmt.Sprintf("ollama:fake-embed/%d", fakeDim)
	builtin := fmt.Sprintf("%s/%d", embed.BuiltinModel, embed.BuiltinDim)

	b := New(Options{Vault: dir, Index: index, Embedder: embed.NewBuiltin(), KeepOtherVectors: true})
	if err := b.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitEmbeddings(t, b)
	if got, want := vectorModels(t, b), map[string]int{fake: notes, builtin: notes}; !maps.Equal(got, want) {
		t.Errorf("VectorModels after a KeepOtherVectors engine made its vectors = %v, want %v", got, want)
	}
	_, warnings := mustSearch(t, b, SearchQuery{Query: "budget risk"})
	want := fmt.Sprintf("the index also holds vectors of ollama:fake-embed (%d notes), which this search does not use (it uses %s): pass --embed ollama:fake-embed to search with them", notes, embed.BuiltinModel)
	if !slices.Contains(warnings, want) {
		t.Errorf("Search(budget risk) warnings = %q, want %q", warnings, want)
	}
	b.Close()

	c := openEmbedding(t, dir, index, embed.NewBuiltin())
	waitEmbeddings(t, c)
	waitVectorModels(t, c, map[string]int{builtin: notes})
	if _, warnings := mustSearch(t, c, SearchQuery{Query: "budget risk"}); len(warnings) != 0 {
		t.Errorf("Search(budget risk) once the other vectors are dropped: warnings %q, want none", warnings)
	}
}

// TestEmbedCopiedVault: a vault copied elsewhere with its index (or an
// index opened for another vault path) parses every note again but keeps
// the vectors of notes whose content is unchanged: nothing is embedded
// again, and a note that differs in the copy is.
func TestEmbedCopiedVault(t *testing.T) {
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	e := openEmbedding(t, dir, index, newCountingEmbedder())
	waitEmbeddings(t, e)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	copied := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(copied, os.DirFS(dir)); err != nil {
		t.Fatalf("copy vault: %v", err)
	}
	beta := filepath.Join(copied, "Projects", "Beta.md")
	f, err := os.OpenFile(beta, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\nOnly in the copy: quokka zanzibar.\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()

	again := newCountingEmbedder()
	e = openEmbedding(t, copied, index, again)
	waitEmbeddings(t, e)
	r := e.Report()
	if !strings.Contains(r.Rebuilt, "belonged") {
		t.Errorf("Open on the copy: Report().Rebuilt = %q, want it to name the other vault path", r.Rebuilt)
	}
	want := chunkTexts(t, e, "Projects/Beta.md")
	if got := again.embedded(); !slices.Equal(got, want) {
		t.Errorf("Open on the copy embedded %q, want only the changed note's chunks %q", got, want)
	}
	if st, _ := e.Status(context.Background()); st.Embeddings != 1 {
		t.Errorf("Open on the copy: coverage %v, want 1", st.Embeddings)
	}
}

// TestEmbedNoneNamesStoredVectors: a search without an embedding model
// on an index that holds vectors says which --embed would use them.
func TestEmbedNoneNamesStoredVectors(t *testing.T) {
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	e := openEmbedding(t, dir, index, embed.NewBuiltin())
	waitEmbeddings(t, e)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = New(Options{Vault: dir, Index: index})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, warnings := mustSearch(t, e, SearchQuery{Query: "alpha plan"})
	want := "pass --embed builtin to use the vectors of " + embed.BuiltinModel + " stored in the index"
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("Search without a model: warnings %q, want one containing %q", warnings, want)
	}
}

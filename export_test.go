package vaultgraph

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/store"
)

// Test-only accessors for the external tests (package vaultgraph_test).

// Hubs returns the limit most central notes by metric (all notes when
// limit is 0, those scoring 0 too): in_degree (most linked to),
// out_degree (most links) or pagerank.
func (e *Engine) Hubs(ctx context.Context, metric graph.Metric, limit int) ([]Hub, error) {
	metric, err := Metrics.Parse("metric", metric)
	if err != nil {
		return nil, err
	}
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	return e.hubs(e.graph.Hubs(metric, limit)), nil
}

// GraphFromCache reports whether Open took the graph from the graph cache
// instead of building it.
func (e *Engine) GraphFromCache() bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.graphCached
}

// DumpState returns the engine's whole state as sorted lines of text:
// every note with its file identity (size, modification time, hash), title,
// tags, properties and each link with its resolution; the attachments; the
// problems; the graph's edges; and the reverse-link bookkeeping. Two engines
// over the same files must dump the same text however they got there. It
// waits for a sync in progress to finish.
func (e *Engine) DumpState() string {
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	e.mu.RLock()
	defer e.mu.RUnlock()
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	for _, ns := range e.notes {
		r := e.record(ns, "")
		n := r.Note
		props, _ := json.Marshal(n.Properties)
		add("note %q path=%q title=%q aliases=%q tags=%q size=%d mtime=%d hash=%s body=%d warnings=%q props=%s",
			n.ID, r.Path, n.Title, n.Aliases, n.Tags, n.Size, n.ModTime.UnixNano(), n.Hash, n.BodyStart, n.Warnings, props)
		for i, l := range n.Links {
			add("link %q #%03d %s %q#%q|%q prop=%q [%d,%d) target=[%d,%d) line=%d -> %q %s",
				n.ID, i, l.Kind, l.Target, l.Fragment, l.Alias, l.Property, l.Start, l.End,
				l.TargetStart, l.TargetEnd, l.Line, r.Resolved[i], r.Status[i])
		}
		add("anchors %q headings=%+v blocks=%q", n.ID, n.Headings, n.BlockIDs)
		if len(ns.resolved) != len(n.Links) || len(ns.status) != len(n.Links) {
			add("note %q has %d links, %d resolutions, %d statuses", n.ID, len(n.Links), len(ns.resolved), len(ns.status))
		}
	}
	for _, f := range e.index.Files() {
		add("attachment %q", f)
	}
	for _, p := range e.problemList() {
		add("problem %q: %s", p.Path, p.Reason)
	}
	for _, id := range e.graph.IDs() {
		out := append([]string(nil), e.graph.Out(id)...)
		sort.Strings(out)
		add("graph %q -> %q", id, out)
	}
	for key, ids := range e.refIndex() { // built from the notes if not yet built
		if len(ids) == 0 {
			continue
		}
		list := slices.Clone(ids)
		sort.Strings(list)
		add("refs %q <- %q", key, list)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Since schema 8 the full-text table keeps no text: a dump compares what
// it indexes, each note's tokens with their column and offset (fts5vocab
// 'instance' reads them from the index).
const ftsInstances = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, fts, 'instance')"

// FTSInstances creates the table FTSTokensByDoc reads, on one connection.
const FTSInstances = ftsInstances

// FTSTokensByDoc reads temp.fts_instances (FTSInstances) and gives, per
// full-text row, its tokens as "col:term@offset" joined by spaces, ordered
// by column, offset and term. The grouping is done here, not in SQL: a
// GROUP BY with an ordered group_concat over every token of the index is
// most of an index dump's time, and many times more under -race.
func FTSTokensByDoc(q interface {
	Query(string, ...any) (*sql.Rows, error)
}) (map[int64]string, error) {
	rows, err := q.Query("SELECT doc, col, term, offset FROM temp.fts_instances")
	if err != nil {
		return nil, fmt.Errorf("fts instances: %w", err)
	}
	defer rows.Close()
	type instance struct {
		col, term string
		offset    int64
	}
	byDoc := map[int64][]instance{}
	for rows.Next() {
		var doc int64
		var in instance
		if err := rows.Scan(&doc, &in.col, &in.term, &in.offset); err != nil {
			return nil, fmt.Errorf("fts instances: %w", err)
		}
		byDoc[doc] = append(byDoc[doc], in)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("fts instances: %w", err)
	}
	out := make(map[int64]string, len(byDoc))
	for doc, ins := range byDoc {
		slices.SortFunc(ins, func(a, b instance) int {
			return cmp.Or(strings.Compare(a.col, b.col), cmp.Compare(a.offset, b.offset), strings.Compare(a.term, b.term))
		})
		var b strings.Builder
		for i, in := range ins {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s:%s@%d", in.col, in.term, in.offset)
		}
		out[doc] = b.String()
	}
	return out, nil
}

// DumpIndexFile reads the SQLite index at path over a connection of its
// own and returns every table as sorted lines of text: rowids are replaced
// by note IDs and full-text bodies by their hash, so that two indexes of
// the same files dump the same text.
func DumpIndexFile(path string) (string, error) {
	q := url.Values{}
	q.Add("mode", "ro")
	q.Add("_pragma", "busy_timeout(10000)")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?"+q.Encode())
	if err != nil {
		return "", err
	}
	defer db.Close()
	tx, err := db.Begin() // one read transaction: a consistent view
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(ftsInstances); err != nil {
		return "", err
	}
	tokens, err := FTSTokensByDoc(tx)
	if err != nil {
		return "", err
	}
	var lines []string
	queries := []struct{ name, query string }{
		{"meta", `SELECT key, value FROM meta WHERE key IN ('consistent', 'vault')`},
		{"note", `SELECT id, path, title, hash, size, mtime, body_start, aliases, tags, properties, warnings, anchors FROM notes`},
		{"link", `SELECT source, printf('%03d', seq), kind, target, fragment, alias, property, start, end,
			target_start, target_end, line, COALESCE(resolved, '<null>'), COALESCE(status, '<null>') FROM link_rows`},
		{"attachment", `SELECT path FROM attachments`},
		{"problem", `SELECT path, reason FROM problems`},
		{"fts", `SELECT COALESCE(n.id, '<no note>'), n.title, f.rowid FROM fts f LEFT JOIN notes n ON n.rowid = f.rowid`},
		{"fts-missing", `SELECT n.id FROM notes n WHERE n.rowid NOT IN (SELECT rowid FROM fts)`},
		{"vector", `SELECT note, chunk, model, dim, hash FROM vector_rows`},
	}
	for _, tq := range queries {
		rows, err := tx.Query(tq.query)
		if err != nil {
			return "", fmt.Errorf("%s: %w", tq.name, err)
		}
		cols, _ := rows.Columns()
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return "", fmt.Errorf("%s: %w", tq.name, err)
			}
			parts := []string{tq.name}
			for i, v := range vals {
				s := v.String
				if tq.name == "fts" && i == 2 {
					doc, _ := strconv.ParseInt(s, 10, 64)
					s = fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(tokens[doc])))
				}
				parts = append(parts, fmt.Sprintf("%q", s))
			}
			lines = append(lines, strings.Join(parts, " "))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return "", fmt.Errorf("%s: %w", tq.name, err)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}

// the store package registers the "sqlite" driver DumpIndexFile uses.
var _ = store.SchemaVersion

// SearchTuning holds the field weights and the graph prior of keyword
// ranking (for the tuning of search_eval_tune_test.go).
type SearchTuning = searchTuning

// DefaultSearchTuning returns the weights searches use by default.
func DefaultSearchTuning() *SearchTuning {
	return &SearchTuning{Weights: store.DefaultFieldWeights, Prior: defaultGraphPrior}
}

// WithSearchTuning makes o's searches rank with t, read at each search,
// so that a test may change it between searches.
func WithSearchTuning(o *Options, t *SearchTuning) {
	test := o.testOptions()
	test.tuning = t
	o.test = &test
}

// OutOfStep is outOfStep: the paths a Sync still has work for.
func (e *Engine) OutOfStep(paths ...string) []string { return e.outOfStep(paths) }

// LazyLinkNotes counts the notes whose links Open left undecoded in the
// snapshot cache's bytes.
func (e *Engine) LazyLinkNotes() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	n := 0
	for _, ns := range e.notes {
		if ns.lazy != nil {
			n++
		}
	}
	return n
}

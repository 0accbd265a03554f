package store

import (
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Anchor text: the words other notes use for a note when they link to it
// ("[[Callouts|callout]] blocks", "the [[Backlinks]] pane shows notes that
// link to the current one") are often the words a question uses. Each
// link row keeps its context (links.context): the link's display text, a
// tab, and the words after it in its sentence (linkContext). A
// frontmatter link has none (its display text is the target's name; the
// linking note's title as its context made the rankings worse). A note's
// row in fts_anchor (same columns as fts) holds the display texts of up
// to MaxAnchorLinks links to it in title, the words around them in body,
// the hidden forms of both in cjktitle and cjk, their stems in stems:
// each with its own weight (FieldWeights.AnchorText, AnchorContext). A
// write refreshes the rows of every note whose incoming links it changed
// (Apply), so an edit of one note updates the notes it links to.

// Bounds of the anchor text.
const (
	// AnchorContextBytes is how far after a link its context reaches
	// (linkContext).
	AnchorContextBytes = 40
	// MaxAnchorLinks is how many incoming links give a note anchor text
	// (the first by source and position): a hub's anchor text stays
	// small, and bm25 would gain little from more.
	MaxAnchorLinks = 32
)

// linkContext is the context of link l of a note whose file text from
// byte bodyStart on is body: its display text, a tab, and the words after
// it (up to AnchorContextBytes, cut to whole words) to the end of its
// sentence, its line or the next link, whichever comes first. The words
// before a link, and past a sentence or another link, measured worse:
// they are as often about something else ("Budget risk is tracked in
// [[Beta]]", "[[Tokyo Trip]] and [[Café Menu]]"). A frontmatter link has
// no context.
func linkContext(l vault.Link, body string, bodyStart int) string {
	start, end := l.Start-bodyStart, l.End-bodyStart
	if l.Property != "" || start < 0 || end > len(body) || start > end {
		return ""
	}
	display := l.Alias
	if display == "" {
		display, _, _ = strings.Cut(l.Target, "#")
		display = display[strings.LastIndex(display, "/")+1:]
	}
	after := body[end:min(len(body), end+AnchorContextBytes)]
	if end+AnchorContextBytes < len(body) {
		after = dropPartialWord(after)
	}
	if i := strings.IndexAny(after, "\n[!.?;|"); i >= 0 {
		after = after[:i]
	}
	clean := func(s string) string { return strings.ToValidUTF8(strings.ReplaceAll(s, "\t", " "), " ") }
	return clean(display) + "\t" + clean(contentWords(after))
}

// contentWords is s without its English stop words ("is", "the", "of"):
// in a context they match a question's stop words, nothing it means.
func contentWords(s string) string {
	f := strings.Fields(s)
	kept := f[:0]
	for _, w := range f {
		if !english.IsStopWord(strings.ToLower(strings.Trim(w, ",:()\"'"))) {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// dropPartialWord drops the word cut at the end of s.
func dropPartialWord(s string) string {
	for s != "" {
		r, n := utf8.DecodeLastRuneInString(s)
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != utf8.RuneError {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// anchorLinks are the contexts that one note's links give the notes they
// resolve to as anchor text: for each target other than the note itself,
// the non-empty contexts of the links to it in link order. They are all
// refreshAnchor reads of that note, so a target whose list is the same
// before and after a write keeps its anchor text.
type anchorLinks map[string][]string

// anchorLinksOf reads the anchorLinks of the note doc as stored now (none
// in a batch that defers the anchor text).
func (w *writer) anchorLinksOf(doc int64) (anchorLinks, error) {
	if w.deferAnchors {
		return nil, nil
	}
	st, err := w.prepare(`SELECT r.id, l.context FROM links l JOIN notes r ON r.doc = l.resolved
		WHERE l.source = ?1 AND l.resolved <> ?1 AND l.context <> '' ORDER BY l.seq`)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(w.ctx, doc)
	out := anchorLinks{}
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var target, c string
		if err := rows.Scan(&target, &c); err != nil {
			return err
		}
		out[target] = append(out[target], c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index anchor text: %w", err)
	}
	return out, nil
}

// touchAnchors records that the anchor text of ids may have changed.
func (w *writer) touchAnchors(ids ...string) {
	if w.anchors == nil {
		w.anchors = map[string]bool{}
	}
	for _, id := range ids {
		if id != "" {
			w.anchors[id] = true
		}
	}
}

// touchChangedAnchors records the notes whose anchor text the links of
// the note doc changed: those whose anchorLinks differ from before, read
// before the links were rewritten (nil for a note that had none). An edit
// that leaves every link and the words after it as they were refreshes
// nothing, however many notes link to its targets.
func (w *writer) touchChangedAnchors(doc int64, before anchorLinks) error {
	after, err := w.anchorLinksOf(doc)
	if err != nil {
		return err
	}
	for _, links := range []anchorLinks{before, after} {
		for target := range links {
			if !slices.Equal(before[target], after[target]) {
				w.touchAnchors(target)
			}
		}
	}
	return nil
}

// refreshAnchors rewrites the fts_anchor rows of the notes touched.
func (w *writer) refreshAnchors() error {
	for _, id := range slices.Sorted(maps.Keys(w.anchors)) {
		if err := w.refreshAnchor(id); err != nil {
			return err
		}
	}
	w.anchors = nil
	return nil
}

// refreshAnchor rewrites the fts_anchor row of the note id from the
// contexts of the links to it.
func (w *writer) refreshAnchor(id string) error {
	w.anchorRows++
	st, err := w.prepare("SELECT doc FROM notes WHERE id = ?")
	if err != nil {
		return err
	}
	var rowid int64
	if err := st.QueryRowContext(w.ctx, id).Scan(&rowid); err != nil {
		return nil // gone: its row went with it (delete)
	}
	if _, err := w.exec("DELETE FROM fts_anchor WHERE rowid = ?", rowid); err != nil {
		return err
	}
	st, err = w.prepare(`SELECT l.context FROM links l JOIN notes s ON s.doc = l.source
		WHERE l.resolved = ?1 AND l.source <> ?1 AND l.context <> '' ORDER BY s.id, l.seq LIMIT ?2`)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(w.ctx, rowid, MaxAnchorLinks)
	var a anchorText
	if err := eachString(rows, err, a.add); err != nil {
		return err
	}
	if r, ok := a.row(rowid); ok {
		return w.insertAnchorRow(&r)
	}
	return nil
}

// anchorText is the anchor text of one note, gathered from the contexts
// of the links to it, in order (refreshAnchor, refreshAllAnchors).
type anchorText struct {
	display, around strings.Builder
	links           int
}

// add adds the context c of one more link, unless MaxAnchorLinks are
// there already.
func (a *anchorText) add(c string) {
	if a.links >= MaxAnchorLinks {
		return
	}
	a.links++
	d, around, _ := strings.Cut(c, "\t")
	a.display.WriteString(d)
	a.display.WriteByte('\n')
	a.around.WriteString(around)
	a.around.WriteByte('\n')
}

// anchorRow is one row of fts_anchor: the note's rowid and the columns
// title, body, cjktitle, cjk and stems.
type anchorRow struct {
	rowid int64
	cols  [5]string
}

// row returns the fts_anchor row of the note rowid, whose anchor text a
// holds; false when a has none.
func (a *anchorText) row(rowid int64) (anchorRow, bool) {
	if a.display.Len() == 0 {
		return anchorRow{}, false
	}
	d, around := a.display.String(), a.around.String()
	return anchorRow{rowid, [5]string{d, around, hiddenText(d), hiddenText(around), stemText(d, around)}}, true
}

// insertAnchorRow inserts r into fts_anchor.
func (w *writer) insertAnchorRow(r *anchorRow) error {
	w.args = append(w.args[:0], r.rowid, r.cols[0], r.cols[1], r.cols[2], r.cols[3], r.cols[4])
	return w.execRaw("INSERT INTO fts_anchor(rowid, title, body, cjktitle, cjk, stems) VALUES (?, ?, ?, ?, ?, ?)", w.args)
}

// metaAnchorsStale is the meta key that, while present, says fts_anchor
// is out of date: a batch left it so (Batch.DeferAnchors), and the next
// batch that does not rebuilds it whole (refreshAllAnchors).
const metaAnchorsStale = "anchors_stale"

// refreshAnchorsAfter brings the anchor text up to date at the end of a
// batch: with deferred set it only marks it stale (the notes touched are
// not refreshed); otherwise it refreshes the notes touched, or every note
// when an earlier batch left it stale. all reports the latter: the end of
// a bulk pass.
func (w *writer) refreshAnchorsAfter(deferred bool) (all bool, err error) {
	if deferred {
		w.anchors = nil
		_, err := w.exec("INSERT OR IGNORE INTO meta(key, value) VALUES (?, '1')", metaAnchorsStale)
		return false, err
	}
	var stale int
	if err := w.queryRow("SELECT count(*) FROM meta WHERE key = ?", metaAnchorsStale).Scan(&stale); err != nil {
		return false, fmt.Errorf("index anchor text: %w", err)
	}
	if stale == 0 {
		return false, w.refreshAnchors()
	}
	w.anchors = nil
	if err := w.bulkFTS("fts_anchor", w.refreshAllAnchors); err != nil {
		return false, err
	}
	if _, err := w.exec("DELETE FROM meta WHERE key = ?", metaAnchorsStale); err != nil {
		return false, err
	}
	// What follows (the merges) writes only full-text tables: the caches
	// are kept meanwhile (Batch.Keep), not while the anchor text was
	// rewritten, which would raise a cold index's peak RSS.
	w.ahead.start(w)
	return true, nil
}

package mcp

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// TokenEncoding is the tokenizer maxTokens counts with: o200k_base, the
// encoding of current OpenAI models, which is close to what other
// providers' tokenizers count for English and code. It is built into the
// binary and works offline.
const TokenEncoding = tokenizer.O200kBase

var codec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(TokenEncoding) })

// CountTokens returns how many o200k_base tokens s is.
func CountTokens(s string) (int, error) {
	c, err := codec()
	if err != nil {
		return 0, fmt.Errorf("tokenizer: %w", err)
	}
	n, err := c.Count(s)
	if err != nil {
		return 0, fmt.Errorf("count tokens: %w", err)
	}
	return n, nil
}

// fit renders the answer and, with a token budget, trims it until it
// fits (trim); one line (omitted) says what was left out and how to get it.
func (a *answer) fit(p Presentation) (string, error) {
	s, err := a.render(p.Format, uncut)
	if err != nil || p.MaxTokens == 0 {
		return s, err
	}
	n, err := CountTokens(s)
	if err != nil || n <= p.MaxTokens {
		return s, err
	}
	f := fitter{a: a, p: p, full: n}
	return f.trim()
}

// fitter searches for the largest answer within the budget.
type fitter struct {
	a    *answer
	p    Presentation
	full int // tokens of the whole answer
	err  error
}

// try renders the answer cut as c, with its omitted line, and reports
// whether it fits.
func (f *fitter) try(c cut) (string, bool) {
	if f.err != nil {
		return "", false
	}
	f.a.omitted = f.a.omittedLine(c, f.p.MaxTokens, f.full)
	s, err := f.a.render(f.p.Format, c)
	if err != nil {
		f.err = err
		return "", false
	}
	n, err := CountTokens(s)
	if err != nil {
		f.err = err
		return "", false
	}
	return s, n <= f.p.MaxTokens
}

// trim cuts the answer until it fits, in the steps below.
func (f *fitter) trim() (string, error) {
	a := f.a
	c := uncut
	// shrink finds by binary search the largest limit *field of c in
	// [lo, hi] that fits, assuming that fitting is monotonic in it; when
	// none does, the limit is lo, or 0 tried last when zero is set.
	shrink := func(field *int, lo, hi int, zero bool) (string, bool) {
		best, found, least := "", false, lo
		for lo <= hi {
			mid := lo + (hi-lo)/2
			*field = mid
			if s, ok := f.try(c); ok {
				best, found, lo = s, true, mid+1
			} else {
				hi = mid - 1
			}
		}
		if found {
			return best, true
		}
		if *field = least; zero {
			*field = 0
			return f.try(c)
		}
		return "", false
	}
	// 1. Fewer warnings; the omitted line counts those left out.
	if n := min(len(a.warnings), MaxWarnings); n > 0 {
		if s, ok := shrink(&c.warnings, 0, n-1, false); ok {
			return s, f.err
		}
	}
	// 2. Fewer rows, keeping at least one.
	if n := len(a.rows); n > 1 {
		if s, ok := shrink(&c.rows, 1, n-1, false); ok {
			return s, f.err
		}
	}
	// 3. Shorter content: the note's, then the rows'.
	if a.content != nil {
		if s, ok := shrink(&c.content, 1, utf8.RuneCountInString(*a.content)-1, true); ok {
			return s, f.err
		}
	}
	if chars := a.rowContentChars(); chars > 0 {
		if s, ok := shrink(&c.rowContent, 1, chars-1, true); ok {
			return s, f.err
		}
	}
	// 4. Only the identifying fields, with as many rows as fit.
	c.minimal, c.content, c.rowContent = true, 0, -1
	if n := len(a.rows); n > 0 {
		if s, ok := shrink(&c.rows, 0, n, false); ok {
			return s, f.err
		}
	} else if s, ok := f.try(c); ok {
		return s, f.err
	}
	// 5. Only the id, the totals and the page.
	if rowID(a.head) != "" || len(a.foot) > 0 {
		c.rows, c.idOnly = 0, true
		if s, ok := f.try(c); ok {
			return s, f.err
		}
	}
	// 6. Nothing but the line that says so.
	if f.err != nil {
		return "", f.err
	}
	b := answer{kind: a.kind, relevance: a.relevance}
	b.omitted = fmt.Sprintf("the answer (%d tokens) does not fit {maxTokens} %d, not even its identifying fields: raise {maxTokens}", f.full, f.p.MaxTokens)
	return b.render(f.p.Format, uncut)
}

// rowContentChars is the longest row content, in characters.
func (a *answer) rowContentChars() int {
	longest := 0
	for _, r := range a.rows {
		for _, fl := range r {
			if s, ok := fl.Value.(string); ok && fl.Key == "content" {
				longest = max(longest, utf8.RuneCountInString(s))
			}
		}
	}
	return longest
}

// maxNamedFields is how many left-out fields the omitted line names; it
// counts more.
const maxNamedFields = 3

// omittedLine says, briefly, what cut c leaves out of the answer and how
// to get it (the line itself counts against the budget). The advice fits
// the tool: paging only where the answer has pages, the note's resource
// only for a note's content.
func (a *answer) omittedLine(c cut, budget, full int) string {
	if c.idOnly { // as short as can be: the budget is nearly spent
		kept := mapped(append(keepFields(a.head, true, []string{"id"}), a.foot...), func(f toon.Field) string { return f.Key })
		return fmt.Sprintf("all but %s left out ({maxTokens} %d, answer %d): raise {maxTokens}", strings.Join(kept, ", "), budget, full)
	}
	var left []string
	kept := upTo(len(a.rows), c.rows)
	rowsCut := kept < len(a.rows)
	switch {
	case rowsCut && kept == 0:
		left = append(left, fmt.Sprintf("all %d %s", len(a.rows), a.rowsKey))
	case rowsCut:
		left = append(left, fmt.Sprintf("%d of %d %s", len(a.rows)-kept, len(a.rows), a.rowsKey))
	}
	contentCut := false
	dropped := a.droppedFields(c, kept)
	if a.content != nil && (c.minimal || c.content == 0) {
		dropped, contentCut = append([]string{"content"}, dropped...), true
	} else if a.content != nil && c.content > 0 {
		left, contentCut = append(left, fmt.Sprintf("content past %d characters", c.content)), true
	}
	if kept > 0 && !c.minimal {
		switch {
		case c.rowContent == 0:
			left = append(left, "rows' content")
		case c.rowContent > 0:
			left = append(left, fmt.Sprintf("rows' content past %d characters", c.rowContent))
		}
	}
	switch n := len(dropped); {
	case n == 0:
	case n == 1:
		left = append(left, "field "+dropped[0])
	case n <= maxNamedFields:
		left = append(left, "fields "+strings.Join(dropped, ", "))
	default: // a long list would cost what the cut saved
		left = append(left, fmt.Sprintf("%d fields", n))
	}
	if shown := min(len(a.warnings), MaxWarnings); c.warnings >= 0 && c.warnings < shown {
		n := len(a.warnings) - c.warnings
		w := fmt.Sprintf("%d warnings", n)
		if n == 1 {
			w = "1 warning"
		}
		left = append(left, w)
	}
	how := "raise {maxTokens}"
	_, hasPage := a.foot.Get("page")
	switch {
	case rowsCut && hasPage:
		how += " or page with a smaller {limit}"
	case rowsCut && a.rowsKey == "neighbors":
		how += " or page through {get_neighbors}"
	}
	if id := rowID(a.head); contentCut && id != "" {
		how += " or read " + NoteURI(id)
	}
	what := strings.Join(left, "; ")
	if what == "" {
		what = "parts"
	}
	return fmt.Sprintf("%s left out ({maxTokens} %d, answer %d): %s", what, budget, full, how)
}

// droppedFields are the fields of the answer that a minimal cut (not an
// id-only one, which omittedLine words itself) leaves out, besides the
// note's content; kept is how many rows the cut keeps.
func (a *answer) droppedFields(c cut, kept int) []string {
	if !c.minimal {
		return nil
	}
	var out []string
	add := func(name string, keep []string) {
		if !slices.Contains(keep, name) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	keep := a.keep
	if keep == nil {
		keep = identifying
	}
	for _, f := range a.head {
		add(f.Key, keep)
	}
	for _, r := range a.rows[:kept] {
		for _, f := range r {
			add(f.Key, identifying)
		}
	}
	if slices.ContainsFunc(a.props[:kept], func(p toon.Object) bool { return p != nil }) {
		add(a.propsKey(), nil)
	}
	return out
}

package mcp

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
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
// fits: fewer rows first, then shorter content, then only identifying
// fields; one line (omitted) says what was left out and how to get it.
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

// largest finds the largest v in [lo, hi] for which set(v) fits, assuming
// that fitting is monotonic in v; ok is false when not even lo fits.
func (f *fitter) largest(lo, hi int, set func(int) cut) (string, bool) {
	var best string
	found := false
	for lo <= hi {
		mid := lo + (hi-lo)/2
		if s, ok := f.try(set(mid)); ok {
			best, found = s, true
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	return best, found
}

func (f *fitter) trim() (string, error) {
	a := f.a
	c := uncut
	// 1. Fewer rows, keeping at least one.
	if n := len(a.rows); n > 1 {
		if s, ok := f.largest(1, n-1, func(k int) cut { c := c; c.rows = k; return c }); ok {
			return s, f.err
		}
		c.rows = 1
	}
	// 2. Shorter content: the note's, then the rows'.
	if a.content != nil {
		chars := utf8.RuneCountInString(*a.content)
		if s, ok := f.largest(1, chars-1, func(k int) cut { c := c; c.content = k; return c }); ok {
			return s, f.err
		}
		c.content = 0
		if s, ok := f.try(c); ok {
			return s, f.err
		}
	}
	if chars := a.rowContentChars(); chars > 0 {
		if s, ok := f.largest(1, chars-1, func(k int) cut { c := c; c.rowContent = k; return c }); ok {
			return s, f.err
		}
		c.rowContent = 0
		if s, ok := f.try(c); ok {
			return s, f.err
		}
	}
	// 3. Only the identifying fields, then no rows.
	c.minimal = true
	if s, ok := f.try(c); ok {
		return s, f.err
	}
	if len(a.rows) > 0 {
		c.rows = 0
		if s, ok := f.try(c); ok {
			return s, f.err
		}
	}
	// 4. Nothing but the line that says so.
	if f.err != nil {
		return "", f.err
	}
	b := answer{tool: a.tool, kind: a.kind}
	b.omitted = fmt.Sprintf("the answer (%d tokens) does not fit maxTokens %d, not even its identifying fields: raise maxTokens", f.full, f.p.MaxTokens)
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

// omittedLine says, briefly, what cut c leaves out of the answer and how
// to get it (the line itself counts against the budget).
func (a *answer) omittedLine(c cut, budget, full int) string {
	var left []string
	if c.rows >= 0 && c.rows < len(a.rows) {
		left = append(left, fmt.Sprintf("%d of %d %s", len(a.rows)-c.rows, len(a.rows), a.rowsKey))
	}
	if c.content >= 0 && a.content != nil && !c.minimal {
		if c.content == 0 {
			left = append(left, "content")
		} else {
			left = append(left, "end of content")
		}
	}
	if c.rowContent >= 0 && !c.minimal {
		left = append(left, "end of each content")
	}
	if c.minimal {
		left = append(left, "all but id fields")
	}
	how := "raise maxTokens"
	switch {
	case a.rowsKey == "nodes" || a.rowsKey == "tags":
		how += " or page with a smaller limit"
	case a.content != nil && rowID(a.head) != "":
		how += " or read " + NoteURI(rowID(a.head))
	}
	return fmt.Sprintf("%s (maxTokens %d, answer %d); %s", strings.Join(left, ", "), budget, full, how)
}

package vaultgraph

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// ContextChars bounds a backlink's or a mention's context, marks aside.
const ContextChars = vault.DefaultContextChars

// linkSpot is where a link is written: its note's file, the file's hash
// when it was parsed, and the link's byte range.
type linkSpot struct {
	path       string
	hash       string
	start, end int
	lineNo     int    // the line the link starts on
	line       bool   // a frontmatter link: its line is the context
	property   string // the frontmatter property holding it
}

// LinkContexts returns, for each of sources that links to target (exact
// IDs), the sentence or list item holding its first link to target (a
// frontmatter link's line when the body has none), the link marked
// (vault.LinkContext), at most about ContextChars characters. It reads the
// sources' files but parses nothing: the links' byte ranges come from the
// index. A source that does not link to target, or whose file changed
// since it was indexed, has no entry.
func (e *Engine) LinkContexts(ctx context.Context, target string, sources []string) (map[string]string, error) {
	if err := e.readLock(); err != nil {
		return nil, err
	}
	spots := e.linkSpots(target, sources)
	e.mu.RUnlock()
	return spotContexts(ctx, spots)
}

// spotContexts reads the context of each link spot, by source; a source
// whose file is gone or changed since it was indexed has no entry.
func spotContexts(ctx context.Context, spots map[string]linkSpot) (map[string]string, error) {
	out := make(map[string]string, len(spots))
	for src, s := range spots {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, ok, err := readFile(s.path)
		if err != nil {
			return nil, fmt.Errorf("context of a link in %s: %w", src, err)
		}
		if !ok || vault.Hash(data) != s.hash {
			continue // gone, or changed since it was indexed: the ranges are stale
		}
		if s.line {
			c := vault.LineContext(data, s.start, s.end, ContextChars)
			if s.property != "" && !strings.HasPrefix(c, s.property) {
				c = s.property + ": " + c // a list item of the property
			}
			out[src] = c
		} else {
			out[src] = vault.LinkContext(data, s.start, s.end, ContextChars)
		}
	}
	return out, nil
}

// linkSpots finds the first link to target in each of sources: in the
// body when there is one there, else in the frontmatter. The caller holds
// the read lock.
func (e *Engine) linkSpots(target string, sources []string) map[string]linkSpot {
	spots := map[string]linkSpot{}
	for _, src := range sources {
		ns, ok := e.notes[src]
		if !ok || src == target {
			continue
		}
		for i, l := range ns.eachLink() {
			if i >= len(ns.resolved) || ns.resolved[i] != target {
				continue
			}
			fm := l.Kind == vault.KindFrontmatter
			if _, seen := spots[src]; !seen || !fm {
				spots[src] = linkSpot{path: ns.path, hash: ns.note.Hash, start: l.Start, end: l.End,
					lineNo: l.Line, line: fm, property: l.Property}
			}
			if !fm {
				break // a sentence says more than a property
			}
		}
	}
	return spots
}

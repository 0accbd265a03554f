package vaultgraph

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph/internal/first"
	"github.com/vaultgraph/vaultgraph/vault"
)

// TagMode says how a list of tags filters notes.
type TagMode string

// The tag filter modes.
const (
	TagsAny  TagMode = "any"
	TagsAll  TagMode = "all"
	TagsNone TagMode = "none"
)

// TagModes are the tag modes ListQuery and SearchQuery take; "" is
// TagsAny.
var TagModes = Choice[TagMode]{Values: []TagMode{TagsAny, TagsAll, TagsNone}, Default: TagsAny}

// ListQuery filters, sorts and pages ListNodes. Zero values mean "no
// filter".
type ListQuery struct {
	// Folder keeps notes in this folder or below it (any letter case).
	Folder string
	// Tags with TagMode: notes having any, all or none of them.
	Tags    []string
	TagMode TagMode
	// Properties keeps notes whose frontmatter property equals the value
	// (compared as text, ignoring case; a list matches if any item does).
	Properties map[string]string
	// Created and modified ranges, inclusive; zero is open.
	CreatedAfter, CreatedBefore   time.Time
	ModifiedAfter, ModifiedBefore time.Time
	// Orphans keeps notes with no links in or out.
	Orphans bool
	// BrokenLinks keeps notes with at least one broken link.
	BrokenLinks bool
	// BrokenAnchors keeps notes with at least one link to a heading or
	// block that its note does not have.
	BrokenAnchors bool
	// SortBy lists sort keys of SortFields, read as PageQuery.SortBy.
	// The default is path.
	SortBy []string
	// Page (1-based) and Limit (NoteList: default 20, max 100).
	Page, Limit int
	// Brief is PageQuery.Brief.
	Brief bool
}

// ListResult is one page of ListNodes.
type ListResult struct {
	Nodes []*Node `json:"nodes"`
	Pages
}

// ListNodes browses the vault: filter, sort, page.
func (e *Engine) ListNodes(ctx context.Context, q ListQuery) (*ListResult, error) {
	limit, err := NoteList.limit(q.Limit)
	if err != nil {
		return nil, err
	}
	keys, page, err := PageQuery{SortBy: q.SortBy, Page: q.Page, Limit: limit}.check(NoteList)
	if err != nil {
		return nil, err
	}
	compare := e.sorter(keys)
	if q.TagMode, err = checkFilter(q.TagMode, q.Folder); err != nil {
		return nil, err
	}
	// Not a heavy read: a page costs one pass over the notes, not a sort
	// (first.Keeper), and waiting in line behind searches took longer.
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	if res, ok := e.listRecent(q, keys, page, limit); ok {
		return res, nil
	}

	// Filter light rows and keep the first pages' in order; build full
	// Nodes for the page only.
	f := e.filter(q)
	kept := first.New(page*limit, compare)
	needs := rowNeedsOf(keys)
	total := 0
	for i := range e.rows {
		r := &e.rows[i]
		if !e.keep(f, r) {
			continue
		}
		total++
		kept.Offer(e.rowOf(r, needs))
	}
	rows := kept.Sorted()
	from, to, pages := pageOf(total, page, limit)
	res := &ListResult{Nodes: []*Node{}, Pages: pages}
	for _, r := range rows[min(from, len(rows)):min(to, len(rows))] {
		res.Nodes = append(res.Nodes, e.nodeAs(r.id, q.Brief))
	}
	return res, nil
}

// NoteIDs returns the IDs of up to limit notes that sort after after (by
// bytes; "" starts at the first), in order, and whether more follow: a
// page of every note, as resources/list serves them, for one pass over
// the notes and no sort of them all.
func (e *Engine) NoteIDs(after string, limit int) ([]string, bool, error) {
	if limit < 1 {
		return nil, false, fmt.Errorf("%w: limit %d: use 1 or more", ErrInvalid, limit)
	}
	if err := e.readLock(); err != nil {
		return nil, false, err
	}
	defer e.mu.RUnlock()
	kept := first.New(limit+1, strings.Compare)
	for id := range e.notes {
		if id > after {
			kept.Offer(id)
		}
	}
	ids := kept.Sorted()
	if len(ids) > limit {
		return ids[:limit], true, nil
	}
	return ids, false, nil
}

// checkFilter checks the tag mode and folder filters that ListQuery and
// SearchQuery share, and returns the mode ("" read as TagsAny). A folder
// with a ".." part, a NUL or a backslash names no folder of the vault;
// "", "/" and "." are the vault root.
func checkFilter(mode TagMode, folder string) (TagMode, error) {
	mode, err := TagModes.Parse("tagMode", mode)
	switch {
	case err != nil:
		return "", err
	case strings.ContainsAny(folder, "\x00\\"):
		return "", fmt.Errorf("%w: folder %q: use a vault folder with '/' between names, e.g. Projects/Alpha", ErrInvalid, folder)
	case slices.Contains(strings.Split(folder, "/"), ".."):
		return "", fmt.Errorf("%w: folder %q: \"..\" leaves the vault; give a folder inside it, e.g. Projects", ErrInvalid, folder)
	}
	return mode, nil
}

// noteFilter is the filters of a ListQuery, worked out once for a pass
// over the notes (keep).
type noteFilter struct {
	q ListQuery
	// folder is the folded folder with a trailing "/", "" for the vault
	// root ("", "/" and "."), which every note is in.
	folder string
	// tagged are the notes with the tags, nil when q names none.
	tagged map[string]bool
}

// filter works out the filters of q (caller holds e.mu).
func (e *Engine) filter(q ListQuery) *noteFilter {
	f := &noteFilter{q: q}
	if folder := strings.Trim(path.Clean("/"+q.Folder), "/"); folder != "" {
		f.folder = vault.Fold(folder) + "/"
	}
	if len(q.Tags) > 0 {
		f.tagged = map[string]bool{}
		for _, id := range e.graph.WithTags(q.Tags, q.TagMode == TagsAll) {
			f.tagged[id] = true
		}
	}
	return f
}

// keep reports whether the note of r passes the filters f (caller holds
// e.mu).
func (e *Engine) keep(f *noteFilter, r *noteRow) bool {
	q, id, ns := &f.q, r.id, r.ns
	if f.folder != "" && !strings.HasPrefix(vault.Fold(id), f.folder) {
		return false
	}
	if f.tagged != nil && q.TagMode == TagsNone == f.tagged[id] {
		return false
	}
	for k, want := range q.Properties {
		if v, ok := ns.note.Property(k); !ok || !valueMatches(v, want) {
			return false
		}
	}
	return inRange(r.created, q.CreatedAfter, q.CreatedBefore) &&
		inRange(r.modified, q.ModifiedAfter, q.ModifiedBefore) &&
		(!q.Orphans || e.graph.InDegree(id) == 0 && e.graph.OutDegree(id) == 0) &&
		(!q.BrokenLinks || slices.Contains(ns.status, vault.Broken)) &&
		(!q.BrokenAnchors || len(e.brokenAnchors(ns)) > 0)
}

// inRange reports whether t is within [after, before]; a zero bound is
// open.
func inRange(t, after, before time.Time) bool {
	return (after.IsZero() || !t.Before(after)) && (before.IsZero() || !t.After(before))
}

// valueMatches compares a property value with the text a caller gave.
func valueMatches(v any, want string) bool {
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			if valueMatches(item, want) {
				return true
			}
		}
		return false
	case time.Time:
		return x.Format(time.DateOnly) == want || x.Format(time.RFC3339) == want
	case nil:
		return want == "" || want == "null"
	}
	return strings.EqualFold(fmt.Sprint(v), want)
}

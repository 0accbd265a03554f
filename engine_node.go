package vaultgraph

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Node is a note as the Engine reports it: metadata, resolved links and
// graph degrees. Content is filled only by the calls that say so.
type Node struct {
	ID         string           `json:"id"`
	Title      string           `json:"title"`
	Aliases    []string         `json:"aliases,omitempty"`
	Tags       []string         `json:"tags"`
	Properties []vault.Property `json:"properties,omitempty"`
	// Links are the distinct notes this note links to, in file order.
	Links []LinkInfo `json:"links"`
	// Broken lists the link targets that match no note.
	Broken []string `json:"brokenLinks,omitempty"`
	// Attachments lists the attachment targets (images, PDFs, bases).
	Attachments []string  `json:"attachments,omitempty"`
	InDegree    int       `json:"inDegree"`
	OutDegree   int       `json:"outDegree"`
	Created     time.Time `json:"created"`
	Modified    time.Time `json:"modified"`
	Size        int64     `json:"size"`
	Hash        string    `json:"hash"`
	// Content is the body of the note without its frontmatter.
	Content string `json:"content,omitempty"`
	// Warnings are non-fatal problems: broken links, broken anchors,
	// duplicate tags, parse warnings.
	Warnings []string `json:"warnings,omitempty"`
}

// LinkInfo is a linked note's ID and title.
type LinkInfo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Lookup resolves any ID form SPEC.md allows to a note ID: the exact ID,
// any letter case, the path without ".md", or a bare note name resolved as
// a wikilink written at the vault root; when none matches, a frontmatter
// title, then an alias, then a pasted link ([[X]], [[X#h]], [[X|a]]), each
// with a warning that says which rule matched (lookupFallback). It returns
// "" when no note matches, and a warning when a bare name is shared by
// several notes. IDs that would leave the vault are ErrOutsideVault.
func (e *Engine) Lookup(id string) (string, []string, error) {
	if err := e.readLock(); err != nil {
		return "", nil, err
	}
	defer e.mu.RUnlock()
	return e.lookup(id)
}

// lookup is Lookup with e.mu held: the path and name rules, then the
// fallbacks for lookups by id (lookupFallback).
func (e *Engine) lookup(raw string) (string, []string, error) {
	found, warnings, err := e.lookupExact(raw)
	if err != nil || found != "" {
		return found, warnings, err
	}
	id, _ := CleanID(raw) // checked by lookupExact
	return e.lookupFallback(raw, id)
}

// lookupExact resolves raw by the path and name rules only, as writes do:
// a write never picks its note by a title, an alias or a pasted link.
func (e *Engine) lookupExact(raw string) (string, []string, error) {
	id, err := CleanID(raw)
	if err != nil {
		return "", nil, err
	}
	if _, ok := e.notes[id]; ok {
		return id, nil, nil
	}
	if found, ok := e.index.Note(id); ok {
		return found, nil, nil
	}
	found, st := e.index.ResolveName("", id)
	if st != vault.Resolved {
		return "", nil, nil
	}
	var warnings []string
	if !strings.Contains(id, "/") {
		if same := e.index.Named(id); len(same) > 1 {
			warnings = append(warnings, fmt.Sprintf("%d notes are named %q (%s); using %s: pass the full path to choose another",
				len(same), id, strings.Join(same, ", "), found))
		}
	}
	return found, warnings, nil
}

// GetNode returns the note with the given ID (any form Lookup accepts),
// with its content when withContent is set, or nil when there is none.
func (e *Engine) GetNode(ctx context.Context, id string, withContent bool) (*Node, error) {
	return e.getNode(id, withContent, false)
}

// GetNodeBrief is GetNode for a list row: the Node without its links,
// broken links, attachments and warnings (PageQuery.Brief).
func (e *Engine) GetNodeBrief(ctx context.Context, id string, withContent bool) (*Node, error) {
	return e.getNode(id, withContent, true)
}

// getNode is GetNode, brief as nodeAs says.
func (e *Engine) getNode(id string, withContent, brief bool) (*Node, error) {
	n, file, err := e.nodeSnapshot(id, brief)
	if err != nil || n == nil {
		return nil, err
	}
	if withContent {
		var ok bool
		if n.Content, ok, err = readBody(file.path, file.bodyStart); err != nil {
			return nil, fmt.Errorf("get node %s: %w", n.ID, err)
		}
		if !ok {
			return nil, nil // deleted since it was indexed
		}
	}
	return n, nil
}

// noteFile is where a note's body is on disk.
type noteFile struct {
	path      string
	bodyStart int
}

// nodeSnapshot looks id up and builds its Node (brief as nodeAs says)
// under the read lock; the file is read after the lock is released.
func (e *Engine) nodeSnapshot(id string, brief bool) (*Node, noteFile, error) {
	if err := e.readLock(); err != nil {
		return nil, noteFile{}, err
	}
	defer e.mu.RUnlock()
	found, warnings, err := e.lookup(id)
	if err != nil || found == "" {
		return nil, noteFile{}, err
	}
	n := e.nodeAs(found, brief)
	n.Warnings = append(warnings, n.Warnings...)
	ns := e.notes[found]
	return n, noteFile{path: ns.path, bodyStart: ns.note.BodyStart}, nil
}

// Content returns the body of the note id (an exact ID) without its
// frontmatter, read from the file.
func (e *Engine) Content(ctx context.Context, id string) (string, error) {
	file, err := e.fileOf(id)
	if err != nil {
		return "", err
	}
	body, ok, err := readBody(file.path, file.bodyStart)
	if err == nil && !ok {
		return "", fmt.Errorf("content of %s: %w", id, ErrNotFound)
	}
	return body, err
}

func (e *Engine) fileOf(id string) (noteFile, error) {
	if err := e.readLock(); err != nil {
		return noteFile{}, err
	}
	defer e.mu.RUnlock()
	ns, ok := e.notes[id]
	if !ok {
		return noteFile{}, fmt.Errorf("content of %s: %w", id, ErrNotFound)
	}
	return noteFile{path: ns.path, bodyStart: ns.note.BodyStart}, nil
}

// pathOf returns the file of note id (an exact ID) and whether there is
// such a note, under a read lock of its own.
func (e *Engine) pathOf(id string) (string, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	ns, ok := e.notes[id]
	if !ok {
		return "", false
	}
	return ns.path, true
}

// readBody reads a note file and returns it from bodyStart on; ok is
// false when the file is gone (readFile). If the file got shorter since
// it was parsed, the whole file is returned.
func readBody(p string, bodyStart int) (body string, ok bool, err error) {
	src, ok, err := readFile(p)
	if err != nil {
		return "", false, fmt.Errorf("read note: %w", err)
	}
	return bodyOf(src, bodyStart), ok, nil
}

// bodyOf is the body of a note whose file holds src, as readBody reads
// it.
func bodyOf(src []byte, bodyStart int) string {
	if bodyStart > len(src) {
		bodyStart = 0
	}
	body := bytes.TrimLeft(src[bodyStart:], "\r\n")
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// nodeAs builds the Node for an existing ID (the caller holds e.mu), with
// brief without its links, broken links, attachments and warnings: what a
// list row shows of a note (PageQuery.Brief). Those are most of a Node's cost: the title of every
// linked note, one map look-up and a few cache misses each, and the
// anchors of every link; a brief Node does not decode the links a note
// loaded from the snapshot cache holds back (noteState.full) either.
func (e *Engine) nodeAs(id string, brief bool) *Node {
	ns := e.notes[id]
	n := ns.note
	if !brief {
		n = ns.full()
	}
	out := &Node{
		ID:         id,
		Title:      n.Title,
		Aliases:    n.Aliases,
		Tags:       nonNil(n.Tags),
		Properties: n.Properties,
		InDegree:   e.graph.InDegree(id),
		OutDegree:  e.graph.OutDegree(id),
		Created:    e.rows.of(ns).created,
		Modified:   n.ModTime,
		Size:       n.Size,
		Hash:       n.Hash,
	}
	if !brief {
		e.addLinks(out, ns, n)
	}
	return out
}

// addLinks sets out's links, broken links, attachments and warnings from
// the note n of ns.
func (e *Engine) addLinks(out *Node, ns *noteState, n *vault.Note) {
	out.Links = make([]LinkInfo, 0, len(n.Links)) // one allocation, not one per doubling
	out.Warnings = append([]string(nil), n.Warnings...)
	var seen linkSet
	for i, l := range n.Links {
		switch ns.status[i] {
		case vault.Resolved:
			target := ns.resolved[i]
			if target == out.ID || !seen.add(target) {
				continue
			}
			out.Links = append(out.Links, LinkInfo{ID: target, Title: e.notes[target].note.Title})
		case vault.Broken:
			if seen.add("broken:" + l.Target) {
				out.Broken = append(out.Broken, l.Target)
				out.Warnings = append(out.Warnings, fmt.Sprintf("broken link: [[%s]] (line %d) matches no note", l.Target, l.Line))
			}
		case vault.Attachment:
			if seen.add("file:" + l.Target) {
				out.Attachments = append(out.Attachments, l.Target)
			}
		}
	}
	for _, b := range e.brokenAnchors(ns) {
		out.Warnings = append(out.Warnings, b.warning())
	}
}

// linkSet is the set of links node has listed, by target (a broken
// link's as "broken:" and an attachment's as "file:" before it): a
// search of a few keys in place while it holds at most linkSetFew, a map
// beyond: reads build thousands of Nodes a second, and a map each was a
// large share of their cost.
type linkSet struct {
	few  [linkSetFew]string
	n    int // keys in few
	many map[string]bool
}

// linkSetFew is how many keys a linkSet searches in place.
const linkSetFew = 16

// add adds key and reports whether it was not in the set.
func (s *linkSet) add(key string) bool {
	if s.many != nil {
		if s.many[key] {
			return false
		}
		s.many[key] = true
		return true
	}
	if slices.Contains(s.few[:s.n], key) {
		return false
	}
	if s.n < linkSetFew {
		s.few[s.n] = key
		s.n++
		return true
	}
	s.many = make(map[string]bool, 2*linkSetFew)
	for _, k := range s.few {
		s.many[k] = true
	}
	s.many[key] = true
	return true
}

// created is the note's creation date: the frontmatter "created" (or
// "date created", "date") property when it is a date, else the file's
// modification time.
func created(n *vault.Note) time.Time {
	for _, key := range []string{"created", "date created", "date"} {
		v, ok := n.Property(key)
		if !ok {
			continue
		}
		switch x := v.(type) {
		case time.Time:
			return x
		case string:
			for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04", time.DateOnly} {
				if t, err := time.Parse(layout, strings.TrimSpace(x)); err == nil {
					return t
				}
			}
		}
	}
	return n.ModTime
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ReadNote returns the whole file of the note id (any form Lookup
// accepts), frontmatter included, and its exact ID; found is "" when no
// note matches.
func (e *Engine) ReadNote(ctx context.Context, id string) (text, found string, err error) {
	n, file, err := e.nodeSnapshot(id, true) // only its ID and file are read
	if err != nil || n == nil {
		return "", "", err
	}
	text, ok, err := readBody(file.path, 0)
	if err == nil && !ok {
		return "", "", nil
	}
	return text, n.ID, err
}

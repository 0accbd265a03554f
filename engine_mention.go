package vaultgraph

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
)

// Bounds of Mentions.
const (
	// MaxMentionNotes is how many notes the full-text index may offer as
	// candidates for each name of a note; the best matches are read.
	MaxMentionNotes = 200
	// MaxMentions is how many mentions Mentions returns.
	MaxMentions = 500
)

// Mention is a place where a note's title or one of its aliases is
// written as plain text in another note, without a link.
type Mention struct {
	// Source is the note that holds the text.
	Source string `json:"source"`
	// Line is the 1-based line of the text in Source's file.
	Line int `json:"line"`
	// Text is the text as written.
	Text string `json:"text"`
	// Context is the sentence or list item holding it, the text in
	// **bold** (vault.LinkContext).
	Context string `json:"context"`

	start, end int
}

// mentionSource is a note the full-text index offers as holding one of
// the names, with its file as read.
type mentionSource struct {
	id, path string
	data     []byte
	mentions []Mention
}

// Mentions returns the unlinked mentions of the note id (any form Lookup
// accepts): the places where other notes write its title, its file's
// base name or one of its aliases as plain text, as whole words in any
// letter case, not inside code, links, tags, HTML, URLs or frontmatter.
// The full-text index offers the candidate notes (at most
// MaxMentionNotes a name); their files are then read and parsed. found
// is "" when no note matches id. Warnings say when the lists were cut.
func (e *Engine) Mentions(ctx context.Context, id string) (mentions []Mention, found string, warnings []string, err error) {
	srcs, found, warnings, err := e.mentionSources(ctx, id)
	if err != nil || found == "" {
		return nil, found, warnings, err
	}
	mentions = []Mention{}
	for _, s := range srcs {
		mentions = append(mentions, s.mentions...)
	}
	if len(mentions) > MaxMentions {
		warnings = append(warnings, fmt.Sprintf("%d unlinked mentions; the first %d are listed", len(mentions), MaxMentions))
		mentions = mentions[:MaxMentions]
	}
	return mentions, found, warnings, nil
}

// mentionSources finds the notes mentioning the note raw names, and the
// mentions in each, by source ID.
func (e *Engine) mentionSources(ctx context.Context, raw string) ([]*mentionSource, string, []string, error) {
	id, warnings, names, st, err := e.mentionNames(raw)
	if err != nil || id == "" {
		return nil, "", warnings, err
	}
	if st == nil {
		return nil, "", nil, fmt.Errorf("mentions: finding them needs the full-text index, and this engine was opened without one (NoIndex)")
	}
	cands := map[string]bool{}
	for _, name := range names {
		ids, err := st.NotesWithPhrase(ctx, name, MaxMentionNotes, id)
		if err != nil {
			return nil, "", nil, fmt.Errorf("mentions of %s: %w", id, err)
		}
		if len(ids) == MaxMentionNotes {
			warnings = append(warnings, fmt.Sprintf("mentions: %q is in many notes; only %d of them are read", name, MaxMentionNotes))
		}
		for _, c := range ids {
			cands[c] = true
		}
	}
	var out []*mentionSource
	for _, c := range slices.Sorted(maps.Keys(cands)) {
		if err := ctx.Err(); err != nil {
			return nil, "", nil, err
		}
		s, err := e.readMentions(c, names)
		if err != nil {
			return nil, "", nil, err
		}
		if s != nil && len(s.mentions) > 0 {
			out = append(out, s)
		}
	}
	return out, id, warnings, nil
}

// mentionNames looks the note raw up and returns its ID, the lookup's
// warnings, the names it is mentioned by (title, base name, aliases)
// and the index.
func (e *Engine) mentionNames(raw string) (string, []string, []string, *store.Store, error) {
	if err := e.readLock(); err != nil {
		return "", nil, nil, nil, err
	}
	defer e.mu.RUnlock()
	id, warnings, err := e.lookup(raw)
	if err != nil || id == "" {
		return "", warnings, nil, nil, err
	}
	n := e.notes[id].full()
	var names []string
	for _, name := range slices.Concat([]string{n.Title, vault.BaseName(id)}, n.Aliases) {
		name = strings.Join(strings.Fields(name), " ")
		if name != "" && !slices.ContainsFunc(names, func(o string) bool { return strings.EqualFold(o, name) }) {
			names = append(names, name)
		}
	}
	return id, warnings, names, e.store, nil
}

// readMentions reads the note c and finds names in it; nil when it is
// gone.
func (e *Engine) readMentions(c string, names []string) (*mentionSource, error) {
	p, ok := e.pathOf(c)
	if !ok {
		return nil, nil
	}
	data, ok, err := readFile(p)
	if err != nil {
		return nil, fmt.Errorf("mentions: read %s: %w", c, err)
	}
	if !ok {
		return nil, nil
	}
	s := &mentionSource{id: c, path: p, data: data}
	for _, m := range e.parser.FindMentions(data, names) {
		s.mentions = append(s.mentions, Mention{
			Source: c, Line: m.Line, Text: m.Text,
			Context: vault.LinkContext(data, m.Start, m.End, ContextChars),
			start:   m.Start, end: m.End,
		})
	}
	return s, nil
}

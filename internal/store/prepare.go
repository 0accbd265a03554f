package store

import (
	"encoding/json"
	"fmt"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Record is one note as the index keeps it.
type Record struct {
	Note *vault.Note
	// Path is the file's path relative to the vault, as the OS spells it
	// (it may differ from Note.ID in Unicode normalisation).
	Path string
	// Resolved and Status give, per link, the target note ID ("" when
	// none) and the outcome of resolution.
	Resolved []string
	Status   []vault.Status
	// LazyLinks, when not nil, holds the note's links, and Note.Links is
	// nil: a load from the snapshot cache leaves them undecoded until
	// asked for (LinkText.Links). Writes need Note.Links.
	LazyLinks *LinkText
	// Body is the note's text for the full-text index. Only writes use it.
	Body string
	// Prepared, when not nil, is Prepare(Note, Body), made by the caller
	// (an index pass makes it on its parse workers, off the writer's
	// path); nil means Apply makes it.
	Prepared *Prepared
}

// Prepared is what the index stores of a note that can be made without
// the index: the encoded columns of its row, its full-text columns
// (ftsColumns) and the context of each link. The body kept for snippets
// when the store has no vault (note_body) is deflated by the writer:
// an index pass's store reads the bodies from the files.
type Prepared struct {
	aliases, tags, props, warnings string
	anchors                        any
	cols                           [len(ftsColumns)]string
	contexts                       []string
}

// Prepare returns the stored form of note n whose body is body
// (Record.Prepared): the words of its title and aliases, body, headings,
// tags and properties, their hidden forms and stems, its encoded
// properties and its links' contexts. It is pure CPU work with no access
// to the index, so that many notes can be prepared at once while one
// writer stores them.
func Prepare(n *vault.Note, body string) (*Prepared, error) {
	aliases, _ := json.Marshal(n.Aliases)
	tags, _ := json.Marshal(n.Tags)
	warnings, _ := json.Marshal(n.Warnings)
	props, err := encodeProperties(n.Properties)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", n.ID, err)
	}
	p := &Prepared{aliases: string(aliases), tags: string(tags), props: props, warnings: string(warnings),
		anchors: encodeAnchors(n), cols: ftsCols(n, body)}
	p.contexts = make([]string, len(n.Links))
	for i, l := range n.Links {
		p.contexts[i] = linkContext(l, body, n.BodyStart)
	}
	return p, nil
}

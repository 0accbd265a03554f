package vaultgraph

import "github.com/vaultgraph/vaultgraph/vault"

// lookahead returns an index of the notes and attachments the engine
// knows plus the notes p parses, for resolving links while a big index
// pass is under way (caller holds e.mu).
//
// When the engine holds no note yet (a cold index), that is e.index
// itself with the notes added, rather than a copy held until the last
// chunk. It ends as the copy's way
// would: putParsed adds each note it installs (a no-op by then) and
// takes out each that could not be parsed, in the order the notes were
// added, so of notes whose paths fold alike the first installed holds
// the path. Until a note cannot be parsed, the index is then the one the
// pass ends with (p.exactLook): a link resolved against it stays so.
func (e *Engine) lookahead(p *pass) *vault.Index {
	x := e.index
	p.exactLook = len(e.notes) == 0
	if !p.exactLook {
		x = vault.NewIndex()
		for id := range e.notes {
			x.AddNote(id)
		}
		for _, a := range e.index.Files() {
			x.AddFile(a)
		}
	}
	for _, f := range p.d.parse {
		x.AddNote(f.ID)
	}
	return x
}

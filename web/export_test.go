package web

import "github.com/vaultgraph/vaultgraph"

// RenderNote renders the markdown body of note id to sanitised HTML, its
// links resolved by links (from Engine.NoteLinks) and its tags (the
// note's) linked to their pages. An embed of a note is a link to it here;
// the note page shows it in a frame. Only tests use it; renderPage (embed.go)
// is the same with embeds of notes shown in frames.
func RenderNote(id, body string, links []vaultgraph.NoteLink, tags []string) (string, error) {
	return render(newLinkTable(id, links, tags), body)
}

package web

import (
	"fmt"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph"
)

// imageTypes are the attachments the app shows, by extension; any other
// file is refused, so that no page of the vault is served as HTML.
var imageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".bmp": "image/bmp", ".avif": "image/avif", ".svg": "image/svg+xml",
}

// fileCSP keeps a served image inert even when opened on its own (an SVG
// with a script runs nothing).
const fileCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// file serves an image that a note links to: ?note=ID&path=FILE, where
// FILE must be the attachment one of the note's links resolves to.
func (s *Server) file(w http.ResponseWriter, r *http.Request) (any, error) {
	q := r.URL.Query()
	links, id, err := s.e.NoteLinks(r.Context(), q.Get("note"))
	if err != nil {
		return nil, err
	}
	want := q.Get("path")
	if id == "" || !slices.ContainsFunc(links, func(l vaultgraph.NoteLink) bool { return l.File != "" && l.File == want }) {
		return nil, fmt.Errorf("file %q: %w: no link of note %q finds it", want, errNotFound, q.Get("note"))
	}
	ctype, ok := imageTypes[strings.ToLower(path.Ext(want))]
	if !ok {
		return nil, fmt.Errorf("file %q: %w: only images are shown", want, errNotFound)
	}
	root, err := os.OpenRoot(s.e.Root())
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", want, err)
	}
	defer root.Close()
	f, err := root.Open(want)
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", want, errNotFound)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("file %q: %w", want, errNotFound)
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Security-Policy", fileCSP)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", fi.ModTime(), f)
	return nil, nil
}

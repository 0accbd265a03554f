package mcp

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/vaultgraph/vaultgraph"
)

// NoteURIPrefix starts the URI of every note resource; the rest is the
// note ID, percent-encoded ("vaultgraph://note/Projects%2FAlpha%20Plan.md").
const NoteURIPrefix = "vaultgraph://note/"

// NoteURI returns the resource URI of a note ID.
func NoteURI(id string) string { return NoteURIPrefix + url.PathEscape(id) }

func noteTemplate() mcpgo.ResourceTemplate {
	return mcpgo.NewResourceTemplate(NoteURIPrefix+"{id}", "note",
		mcpgo.WithTemplateDescription("A note's markdown, frontmatter included. id is the note path (or name), percent-encoded."),
		mcpgo.WithTemplateMIMEType("text/markdown"),
	)
}

// noteResources returns the resources of the notes ids.
func (t *Tools) noteResources(ids []string) []server.ServerResource {
	out := make([]server.ServerResource, len(ids))
	for i, id := range ids {
		out[i] = server.ServerResource{
			Resource: mcpgo.NewResource(NoteURI(id), id, mcpgo.WithMIMEType("text/markdown")),
			Handler:  t.readNoteResource,
		}
	}
	return out
}

// readNoteResource answers resources/read for a note URI with the whole
// file as it is on disk.
func (t *Tools) readNoteResource(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
	raw := strings.TrimPrefix(req.Params.URI, NoteURIPrefix)
	id, err := url.PathUnescape(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: resource %q: bad percent-encoding", vaultgraph.ErrInvalid, req.Params.URI)
	}
	text, found, err := t.Engine.ReadNote(ctx, id)
	if err != nil {
		return nil, err
	}
	if found == "" {
		return nil, fmt.Errorf("%w: no note %q", vaultgraph.ErrNotFound, id)
	}
	return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: NoteURI(found), MIMEType: "text/markdown", Text: text}}, nil
}

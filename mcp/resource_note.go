package mcp

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

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

// listNotes fills a resources/list answer with a page of notes, in the
// order and with the cursor mcp-go gives its own resources: by name (the
// note ID), ResourcePageSize a page, the cursor the base64 of the page's
// last name. mcp-go has already refused a cursor that is not base64.
func (t *Tools) listNotes(_ context.Context, _ any, req *mcpgo.ListResourcesRequest, res *mcpgo.ListResourcesResult) {
	after, err := base64.StdEncoding.DecodeString(string(req.Params.Cursor))
	if err != nil {
		return
	}
	ids, more, err := t.Engine.NoteIDs(string(after), ResourcePageSize)
	if err != nil {
		return // the engine is closed: an empty page
	}
	res.Resources = make([]mcpgo.Resource, len(ids))
	for i, id := range ids {
		res.Resources[i] = mcpgo.NewResource(NoteURI(id), id, mcpgo.WithMIMEType("text/markdown"))
	}
	res.NextCursor = ""
	if more {
		res.NextCursor = mcpgo.Cursor(base64.StdEncoding.EncodeToString([]byte(ids[len(ids)-1])))
	}
}

// readNoteResource answers resources/read for a note URI with the whole
// file as it is on disk.
func (t *Tools) readNoteResource(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
	id, err := url.PathUnescape(strings.TrimPrefix(req.Params.URI, NoteURIPrefix))
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

package mcp

import (
	"cmp"
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

var pathFields = &fieldSet{
	all:      []string{"path", "length", "titles"},
	minimal:  []string{"path", "length"},
	standard: []string{"path", "length"},
}

func findPathTool() *toolDef {
	return def((*Tools).FindPath, FormatMarkdown, pathFields,
		readTool("find_path",
			mcpgo.WithDescription("Shortest chain of links between two notes; null when none."),
			mcpgo.WithString("source", mcpgo.Required(), mcpgo.Description("Start note")),
			mcpgo.WithString("target", mcpgo.Required(), mcpgo.Description("End note")),
			mcpgo.WithBoolean("directed", mcpgo.Description("Follow links one way only")),
		))
}

// FindPathParams are find_path's parameters.
type FindPathParams struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	Directed bool   `json:"directed"`
	Presentation
}

// PathResponse is find_path's answer: the path, its length in links, and
// warnings such as a note name shared by several notes.
type PathResponse struct {
	Path   []string `json:"path"`
	Length int      `json:"length"`
	// Titles are the titles of the path's notes, in order.
	Titles   []string `json:"titles"`
	Warnings []string `json:"warnings,omitempty"`
}

// FindPath returns the shortest path between two notes, or nil.
func (t *Tools) FindPath(ctx context.Context, p FindPathParams) (any, error) {
	if err := cmp.Or(required("source", p.Source, ""), required("target", p.Target, "")); err != nil {
		return nil, err
	}
	path, warnings, err := t.Engine.FindPath(ctx, p.Source, p.Target, p.Directed)
	if err != nil {
		return nil, err
	}
	if path == nil {
		// null is "no path"; an end that is no note is a warning.
		var gone []string
		for _, id := range []string{p.Source, p.Target} {
			if found, _, err := t.Engine.Lookup(id); err == nil && found == "" {
				gone = append(gone, id)
			}
		}
		if len(gone) > 0 {
			return missing(gone...), nil
		}
		return nil, nil
	}
	r := &PathResponse{Path: path.Path, Length: path.Length, Warnings: warnings}
	for _, id := range path.Path {
		r.Titles = append(r.Titles, t.title(ctx, id))
	}
	return r, nil
}

package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func randomNodeTool() *toolDef {
	return def((*Tools).RandomNode, FormatMarkdown, noteFields,
		readTool("random_node",
			mcpgo.WithDescription("A random note, as get_node reads it, for discovery."),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Only notes with any of these")),
		))
}

// RandomNodeParams are random_node's parameters.
type RandomNodeParams struct {
	Tags []string `json:"tags"`
	Presentation
}

// RandomNode returns one random note (with any of the tags), or nil.
func (t *Tools) RandomNode(ctx context.Context, p RandomNodeParams) (any, error) {
	n, err := t.Engine.RandomNode(ctx, t.Rand, p.Tags)
	if err != nil || n == nil {
		return nil, err
	}
	if err := t.readContent(ctx, n, p.wants(noteFields, "content")); err != nil {
		return nil, err
	}
	return t.note(ctx, n, p.wants(noteFields, "mentions"))
}

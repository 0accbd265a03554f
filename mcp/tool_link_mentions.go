package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

func linkMentionsTool() *toolDef {
	return def((*Tools).LinkMentions, FormatTOON, nil,
		writeTool("link_mentions", false, false,
			mcpgo.WithDescription("Link a note's unlinked mentions (get_node mentions) as [[Title]] or [[Title|text]], all or nothing."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithArray("sources", mcpgo.WithStringItems(), mcpgo.Description(`"ID" or "ID:LINE" to link in; none = all`)),
			mcpgo.WithBoolean("dryRun", mcpgo.Description("List the changes, write nothing")),
		))
}

// LinkMentionsParams are link_mentions' parameters.
type LinkMentionsParams struct {
	ID      string   `json:"id"`
	Sources []string `json:"sources"`
	DryRun  bool     `json:"dryRun"`
	Presentation
}

// LinkMentions links the chosen unlinked mentions of a note.
func (t *Tools) LinkMentions(ctx context.Context, p LinkMentionsParams) (any, error) {
	if err := required("id", p.ID, "the note whose mentions to link"); err != nil {
		return nil, err
	}
	return written(t.Engine.LinkMentions(ctx, vaultgraph.MentionLinks{ID: p.ID, Sources: nonBlank(p.Sources), DryRun: p.DryRun}))
}

package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// getNodeFields are get_node's fields: a note's, and with depth 1 rows
// of neighbours with get_neighbors' fields.
var getNodeFields = noteFields.withRows(getNeighborsFields)

func getNodeTool() *toolDef {
	return &toolDef{
		Tool: readTool("get_node",
			mcpgo.WithDescription("Read one note: title, tags, properties, outgoing links with titles, broken links, content (up to 10,000 chars) and a content hash. depth 1 adds incoming/outgoing link counts and up to 20 neighbours (200 chars each, direction in|out|both). Returns null when no note matches."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(`Note path ("Projects/Alpha Plan.md"), path without .md, any case, or a bare note name`)),
			mcpgo.WithInteger("depth", mcpgo.Min(0), mcpgo.Max(1), mcpgo.DefaultNumber(0), mcpgo.Description("0 = the note, 1 = also its neighbours")),
		),
		run:    bind((*Tools).GetNode),
		format: FormatMarkdown,
		fields: getNodeFields,
	}
}

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
			mcpgo.WithDescription("Read a note: content, tags, hash (for ifMatch); depth 1 adds linked notes."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithInteger("depth", mcpgo.Min(0), mcpgo.Max(1), mcpgo.Description("1 adds linked notes")),
		),
		run:    bind((*Tools).GetNode),
		format: FormatMarkdown,
		fields: getNodeFields,
	}
}

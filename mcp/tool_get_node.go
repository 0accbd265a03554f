package mcp

import (
	"slices"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// getNodeFields are get_node's fields: a note's, and with depth 1 its
// link counts (in every preset; fields can pick them) and rows of
// neighbours with get_neighbors' fields.
var getNodeFields = func() *fieldSet {
	s := noteFields.withRows(getNeighborsFields)
	counts := []string{"incomingCount", "outgoingCount"}
	s.all = slices.Concat(s.all, counts)
	s.minimal = slices.Concat(s.minimal, counts)
	s.standard = slices.Concat(s.standard, counts)
	return s
}()

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

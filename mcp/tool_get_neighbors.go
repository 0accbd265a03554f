package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// getNeighborsFields are the fields of get_neighbors' rows, and of
// get_node's neighbour rows: context is the sentence holding an incoming
// link ("" for an outgoing neighbour).
var getNeighborsFields = rowFields("direction", "context").withStandard("id", "title", "tags", "context", "content")

func getNeighborsTool() *toolDef {
	return &toolDef{
		Tool: readTool("get_neighbors",
			append([]mcpgo.ToolOption{
				mcpgo.WithDescription("Notes linked with a note: out = it links to them, in = they link to it."),
				mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
				mcpgo.WithString("direction", enum(vaultgraph.Directions, vaultgraph.DefaultDirection, "Which links")...),
			}, pagedOptions(vaultgraph.NeighborList)...)...,
		),
		run:    bind((*Tools).GetNeighbors),
		format: FormatTOON,
		fields: getNeighborsFields,
	}
}

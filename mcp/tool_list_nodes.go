package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// listNodesFields are the fields of list_nodes' rows.
var listNodesFields = rowFields()

func listNodesTool() *toolDef {
	date := "Date YYYY-MM-DD or RFC 3339, inclusive"
	return &toolDef{
		Tool: readTool("list_nodes", append([]mcpgo.ToolOption{
			mcpgo.WithDescription("Browse notes with filters, sorting and pages; returns nodes, total, page, totalPages and a hint when more pages exist."),
			mcpgo.WithString("folder", mcpgo.Description("Only notes in this folder or below")),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Filter by tags, see tagMode")),
			mcpgo.WithString("tagMode", enum(vaultgraph.TagModes, vaultgraph.TagsAny, descTagMode)...),
			mcpgo.WithObject("properties", mcpgo.AdditionalProperties(map[string]any{"type": "string"}), mcpgo.Description(`Frontmatter properties that must equal these values, e.g. {"status":"active"}`)),
			mcpgo.WithString("createdAfter", mcpgo.Description(date)),
			mcpgo.WithString("createdBefore", mcpgo.Description(date)),
			mcpgo.WithString("modifiedAfter", mcpgo.Description(date)),
			mcpgo.WithString("modifiedBefore", mcpgo.Description(date)),
			mcpgo.WithBoolean("orphans", mcpgo.Description("Only notes with no links in or out")),
			mcpgo.WithBoolean("brokenLinks", mcpgo.Description("Only notes with a link to no note")),
			mcpgo.WithBoolean("brokenAnchors", mcpgo.Description("Only notes with a link to a heading or ^block its note lacks")),
		}, pagedOptions(vaultgraph.NoteList)...)...),
		run:    bind((*Tools).ListNodes),
		format: FormatTOON,
		fields: listNodesFields,
	}
}

package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// listNodesFields are the fields of list_nodes' rows.
var listNodesFields = rowFields()

func listNodesTool() *toolDef {
	date := "Date, YYYY-MM-DD"
	return &toolDef{
		Tool: readTool("list_nodes", append([]mcpgo.ToolOption{
			mcpgo.WithDescription("Browse notes by folder, tags, properties, dates, link problems."),
			mcpgo.WithString("folder", mcpgo.Description(descFolder)),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description(descTags)),
			mcpgo.WithString("tagMode", enum(vaultgraph.TagModes, vaultgraph.TagsAny, descTagMode)...),
			mcpgo.WithObject("properties", mcpgo.Description("Frontmatter values to equal"), noProperties),
			mcpgo.WithString("createdAfter", mcpgo.Description(date)),
			mcpgo.WithString("createdBefore", mcpgo.Description(date)),
			mcpgo.WithString("modifiedAfter", mcpgo.Description(date)),
			mcpgo.WithString("modifiedBefore", mcpgo.Description(date)),
			mcpgo.WithBoolean("orphans", mcpgo.Description("No links in or out")),
			mcpgo.WithBoolean("brokenLinks", mcpgo.Description("Links to no note")),
			mcpgo.WithBoolean("brokenAnchors", mcpgo.Description("Links to a missing heading or ^block")),
		}, pagedOptions(vaultgraph.NoteList)...)...),
		run:    bind((*Tools).ListNodes),
		format: FormatTOON,
		fields: listNodesFields,
	}
}

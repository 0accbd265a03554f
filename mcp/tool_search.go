package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// searchFields are the fields of search's rows: snippets instead of
// content at standard detail.
var searchFields = rowFields([]string{"id", "title", "tags", "snippet"}, "score", "snippet")

func searchTool() *toolDef {
	d := def((*Tools).Search, FormatTOON, searchFields,
		pagedTool("search", vaultgraph.SearchList,
			mcpgo.WithDescription("Find notes on a topic by words and meaning, best first. Start here."),
			mcpgo.WithString("query", mcpgo.Required(), mcpgo.Description(`Words, "phrases" or a question`)),
			mcpgo.WithString("mode", enum(vaultgraph.SearchModes, "Text, vectors or both")...),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description(descTags)),
			mcpgo.WithString("tagMode", enum(vaultgraph.TagModes, descTagMode)...),
			mcpgo.WithString("folder", mcpgo.Description(descFolder)),
		))
	d.relevance, d.embeds = true, true
	return d
}

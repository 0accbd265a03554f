package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// searchFields are the fields of search's rows: snippets instead of
// content at standard detail.
var searchFields = rowFields("score", "snippet").withStandard("id", "title", "tags", "snippet")

func searchTool() *toolDef {
	return &toolDef{
		Tool: readTool("search", append([]mcpgo.ToolOption{
			mcpgo.WithDescription(`Find notes by words and meaning; best first, with score (0-1) and a snippet of the matching text, a page at a time (sortBy reorders a page). Start here to find notes on a topic. Words match as prefixes, ignoring case and accents; "quoted phrases" match as written.`),
			mcpgo.WithString("query", mcpgo.Required(), mcpgo.Description("Words, \"phrases\" or a question")),
			mcpgo.WithString("mode", enum(vaultgraph.SearchModes, vaultgraph.SearchHybrid, "hybrid: full text and vectors fused; keyword: full text; semantic: vectors")...),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Only notes with these tags, see tagMode")),
			mcpgo.WithString("tagMode", enum(vaultgraph.TagModes, vaultgraph.TagsAny, descTagMode)...),
			mcpgo.WithString("folder", mcpgo.Description("Only notes in this folder or below")),
		}, pagedOptions(vaultgraph.SearchList)...)...),
		run:       bind((*Tools).Search),
		format:    FormatTOON,
		fields:    searchFields,
		relevance: true,
	}
}

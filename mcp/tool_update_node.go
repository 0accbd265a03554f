package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func updateNodeTool() *toolDef {
	return def((*Tools).UpdateNode, FormatTOON, nil,
		writeTool("update_node", true, false,
			mcpgo.WithDescription("Change a note, giving only what changes; a rename or move rewrites every link to it."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithString("title", mcpgo.Description("Rename")),
			mcpgo.WithString("directory", mcpgo.Description("Move to folder; \"/\" = root")),
			mcpgo.WithString("content", mcpgo.Description(descContent)),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Replace the tags")),
			mcpgo.WithObject("properties", mcpgo.Description("Merge; null removes one"), noProperties),
			mcpgo.WithObject("renameHeading", mcpgo.Description(renameHeadingDescription), noProperties),
			mcpgo.WithString("ifMatch", mcpgo.Description(descIfMatch)),
			mcpgo.WithBoolean("dryRun", mcpgo.Description("Only list the changes")),
		))
}

// renameHeadingDescription says what update_node's renameHeading does.
// (README "Writing notes" says how links to it are rewritten.)
const renameHeadingDescription = "{from, to}: rename a heading and its links; alone"

package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func updateNodeTool() *toolDef {
	return &toolDef{
		Tool: writeTool("update_node", true, false,
			mcpgo.WithDescription("Change a note; give only what changes. title renames and directory moves the file, and every link to it (in notes, excluded folders and canvases) is rewritten in its own style. content replaces the body (frontmatter kept), or the whole file if it starts with a --- frontmatter block (tags/properties apply on top, warnings name values they replace). tags replace frontmatter tags (inline #tags stay, named in warnings), properties are merged (null removes one); warnings name links of other notes left pointing at a heading or block the new content drops. renameHeading renames a heading and rewrites the links to it. ifMatch: the hash a read returned (CONFLICT if the file changed since). dryRun lists the files and links that would change, writing nothing."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithString("title", mcpgo.Description("New title: renames the file")),
			mcpgo.WithString("directory", mcpgo.Description(`Move to this vault folder; "/" = the root`)),
			mcpgo.WithString("content", mcpgo.Description("New body")),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("New tags; [] removes all")),
			mcpgo.WithObject("properties", mcpgo.Description("Properties to merge; null removes one")),
			mcpgo.WithObject("renameHeading", mcpgo.Description(renameHeadingDescription),
				mcpgo.Properties(map[string]any{
					"from": map[string]any{"type": "string", "description": "The heading's text (case, punctuation and spacing aside), or Parent#Child"},
					"to":   map[string]any{"type": "string", "description": "Its new text, one line"},
				})),
			mcpgo.WithString("ifMatch", mcpgo.Description(descIfMatch)),
			mcpgo.WithBoolean("dryRun", mcpgo.Description("List the changes, write nothing")),
		),
		run:    bind((*Tools).UpdateNode),
		format: FormatTOON,
	}
}

// renameHeadingDescription says what update_node's renameHeading does.
const renameHeadingDescription = "Rename a heading of the note, {from, to}: its line changes (level kept) and every link to it in the vault is rewritten ([[Note#Old|alias]], [[#Old]], Note.md#Old), all or nothing; the links get the text as Obsidian writes it (: # | ^ \\ [[ ]] %% become spaces). Not combined with other changes."

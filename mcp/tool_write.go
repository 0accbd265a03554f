package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// writeTool declares a write tool with its annotations and the format
// parameter.
func writeTool(name string, destructive, idempotent bool, opts ...mcpgo.ToolOption) mcpgo.Tool {
	opts = append([]mcpgo.ToolOption{
		mcpgo.WithReadOnlyHintAnnotation(false), mcpgo.WithDestructiveHintAnnotation(destructive),
		mcpgo.WithIdempotentHintAnnotation(idempotent), mcpgo.WithOpenWorldHintAnnotation(false),
	}, opts...)
	opts = append(opts, mcpgo.WithString("format", mcpgo.Enum(Formats...), mcpgo.Description(descFormat)))
	return mcpgo.NewTool(name, opts...)
}

func createNodeTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: writeTool("create_node", false, false,
			mcpgo.WithDescription("Create a note: file directory/Title.md (characters Obsidian forbids in file names removed; missing folders created), tags and properties in its frontmatter. content starting with a --- frontmatter block is the whole file; tags/properties apply on top, warnings name values they replace. NODE_EXISTS if the file exists. Returns the note's id and hash."),
			mcpgo.WithString("title", mcpgo.Required(), mcpgo.Description("Note title; names the file")),
			mcpgo.WithString("content", mcpgo.Description("Markdown body")),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Frontmatter tags")),
			mcpgo.WithString("directory", mcpgo.Description(descDirectory)),
			mcpgo.WithObject("properties", mcpgo.Description(`Frontmatter properties, e.g. {"status":"draft"}`)),
		),
		Handler: handler("create_node", log, t.CreateNode),
	}
}

func updateNodeTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
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
		Handler: handler("update_node", log, t.UpdateNode),
	}
}

// renameHeadingDescription says what update_node's renameHeading does.
const renameHeadingDescription = "Rename a heading of the note, {from, to}: its line changes (level kept) and every link to it in the vault is rewritten ([[Note#Old|alias]], [[#Old]], Note.md#Old), all or nothing; the links get the text as Obsidian writes it (: # | ^ \\ [[ ]] %% become spaces). Not combined with other changes."

func deleteNodeTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: writeTool("delete_node", true, true,
			mcpgo.WithDescription("Delete a note's file. deleted: false when there was none. Links to it (notes, canvases) become broken, listed in warnings, never rewritten."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithString("ifMatch", mcpgo.Description(descIfMatch)),
		),
		Handler: handler("delete_node", log, t.DeleteNode),
	}
}

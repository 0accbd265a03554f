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
	opts = append(opts, mcpgo.WithString("format", mcpgo.Enum(Formats...)))
	return mcpgo.NewTool(name, opts...)
}

func createNodeTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: writeTool("create_node", false, false,
			mcpgo.WithDescription("Create a note: file directory/Title.md (characters Obsidian forbids in file names removed; missing folders created), tags and properties in its frontmatter. NODE_EXISTS if the file exists. Returns the note's id and hash."),
			mcpgo.WithString("title", mcpgo.Required()),
			mcpgo.WithString("content", mcpgo.Description("Markdown body")),
			mcpgo.WithArray("tags", mcpgo.WithStringItems()),
			mcpgo.WithString("directory", mcpgo.Description("Vault folder, default the root")),
			mcpgo.WithObject("properties", mcpgo.Description(`Frontmatter properties, e.g. {"status":"draft"}`)),
		),
		Handler: handler("create_node", log, t.CreateNode),
	}
}

func updateNodeTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: writeTool("update_node", true, false,
			mcpgo.WithDescription("Change a note; give only what changes. title renames and directory moves the file, and every link to it in other notes is rewritten in its own style. content replaces the body (frontmatter kept), tags replace the tags, properties are merged (null removes one); warnings name the links of other notes left pointing at a heading or block the new content drops. renameHeading renames a heading and rewrites the links to it. ifMatch: the hash a read returned (CONFLICT if the file changed since). dryRun lists the files and links that would change, writing nothing."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description("Note path, path without .md, or note name")),
			mcpgo.WithString("title"),
			mcpgo.WithString("directory"),
			mcpgo.WithString("content"),
			mcpgo.WithArray("tags", mcpgo.WithStringItems()),
			mcpgo.WithObject("properties"),
			mcpgo.WithObject("renameHeading", mcpgo.Description(renameHeadingDescription),
				mcpgo.Properties(map[string]any{
					"from": map[string]any{"type": "string", "description": "The heading's text (case, punctuation and spacing aside), or Parent#Child"},
					"to":   map[string]any{"type": "string", "description": "Its new text, one line"},
				})),
			mcpgo.WithString("ifMatch"),
			mcpgo.WithBoolean("dryRun"),
		),
		Handler: handler("update_node", log, t.UpdateNode),
	}
}

// renameHeadingDescription says what update_node's renameHeading does.
const renameHeadingDescription = "Rename a heading of the note, {from, to}: its line changes (level kept) and every link to it in the vault is rewritten ([[Note#Old|alias]], [[#Old]], Note.md#Old), all or nothing; the links get the text as Obsidian writes it (: # | ^ \\ [[ ]] %% become spaces). Not combined with other changes."

func deleteNodeTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: writeTool("delete_node", true, true,
			mcpgo.WithDescription("Delete a note's file. deleted: false when there was none. Links to it become broken links, listed in warnings, never rewritten."),
			mcpgo.WithString("id", mcpgo.Required()),
			mcpgo.WithString("ifMatch", mcpgo.Description("The hash a read returned: CONFLICT if the file changed since")),
		),
		Handler: handler("delete_node", log, t.DeleteNode),
	}
}

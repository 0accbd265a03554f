package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/vaultgraph/vaultgraph"
)

// ServerName is the name the server gives in the MCP handshake.
const ServerName = "vaultgraph"

// ResourcePageSize is how many items one page of resources/list (and the
// other MCP list methods) holds.
const ResourcePageSize = 200

// ServerOptions configure NewServer.
type ServerOptions struct {
	// Version is reported in the MCP handshake.
	Version string
	// ReadOnly leaves the write tools out: tools/list does not show them,
	// and a call to one gets mcp-go's "tool not found" error (JSON-RPC
	// -32602), not READ_ONLY, since it never reaches the Engine. serve
	// --read-only sets this and also opens the Engine read-only, which
	// refuses every write with ErrReadOnly (READ_ONLY).
	ReadOnly bool
	// Logger receives handler panics; nil discards them.
	Logger *slog.Logger
}

// instructions tell an agent how the tools fit together, and describe
// the response parameters every tool takes (see readTool).
const instructions = `vaultgraph serves an Obsidian vault (a folder of markdown notes) as a link graph.
Note IDs are vault paths like "Projects/Alpha Plan.md"; a tool's id also takes the path without
.md, any letter case, a note name, a frontmatter title, an alias or a pasted [[link]].
Start with search (a question or keywords), or search_by_tags, list_nodes or get_hubs to find
notes; get_node to read one; get_neighbors / find_path to follow links; create_node /
update_node (renames rewrite every link) to write.
Every tool also takes these response parameters (the write tools only format):
- format: toon | markdown | json (default: TOON for lists, Markdown for a note or a path).
- detail: minimal | standard (default) | full, a preset of fields.
- fields: a list of field names to show instead of the preset.
- maxTokens: 50 to 1000000; trims the answer to fit and says what was left out.
An enum's default is its first value unless its schema says otherwise. An optional parameter
set to "" is the same as leaving it out ({} too); directory "/" is the vault root. null means
no result; a warning says when an id matched no note.`

// NewServer returns an MCP server exposing t's tools, and notes as
// resources (vaultgraph://note/{id}). It tells clients when notes are
// added or removed (notifications/resources/list_changed).
func NewServer(t *Tools, opts ServerOptions) *server.MCPServer {
	log := cmp.Or(opts.Logger, slog.New(slog.DiscardHandler))
	hooks := &server.Hooks{}
	// Notes are listed from the Engine, a page at a time (listNotes),
	// not registered one by one: mcp-go would keep a copy of every note
	// and sort them all for each page. Its own list stays empty, so it
	// only checks the cursor; resources/read goes through the template.
	hooks.AddAfterListResources(t.listNotes)
	s := server.NewMCPServer(ServerName, cmp.Or(opts.Version, "dev"),
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, true),
		server.WithInstructions(instructions),
		server.WithResourceRecovery(),
		server.WithPaginationLimit(ResourcePageSize),
		server.WithHooks(hooks),
	)
	tools := t.ServerTools(log)
	if !opts.ReadOnly {
		tools = append(tools, t.WriteTools(log)...)
	}
	for _, st := range tools {
		s.AddTool(rawSchema(st.Tool), st.Handler)
	}
	s.AddResourceTemplate(noteTemplate(), t.readNoteResource)
	t.Engine.OnChange(func(c vaultgraph.Change) {
		if len(c.Added)+len(c.Removed) > 0 {
			s.SendNotificationToAllClients(mcpgo.MethodNotificationResourcesListChanged, nil)
		}
	})
	return s
}

// rawSchema returns tool with its input schema as JSON bytes
// (RawInputSchema) instead of a structure: the same bytes in tools/list,
// but mcp-go looks for header-bound parameters in the schema of the tool
// at every tools/call over HTTP, and a structure it encodes to JSON again
// each time.
func rawSchema(tool mcpgo.Tool) mcpgo.Tool {
	raw, err := json.Marshal(tool.InputSchema)
	if err != nil {
		return tool // mcp-go encodes the structure as before, and fails as before
	}
	tool.RawInputSchema, tool.InputSchema = raw, mcpgo.ToolInputSchema{}
	return tool
}

// checkBounds wraps h so that an integer argument outside the minimum and
// maximum of its schema is INVALID_PARAMS naming it, before h runs. The
// typed handlers cannot tell an explicit 0 from a missing argument (both
// mean the default), so this is what refuses "limit": 0 or "page": 0.
func checkBounds(tool mcpgo.Tool, h server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		args := req.GetArguments()
		for _, name := range slices.Sorted(maps.Keys(args)) {
			prop, _ := tool.InputSchema.Properties[name].(map[string]any)
			n, ok := number(args[name]) // not a number: binding reports the type
			if !ok || prop["type"] != "integer" {
				continue
			}
			if err := vaultgraph.InRange(name, n, bound(prop["minimum"]), bound(prop["maximum"])); err != nil {
				return toolError(err), nil
			}
		}
		return h(ctx, req)
	}
}

// number reads a JSON-decoded or Go number.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// bound is a schema's minimum or maximum, nil when it has none.
func bound(v any) *float64 {
	if n, ok := number(v); ok {
		return &n
	}
	return nil
}

// readTool declares a read tool: its own options and the read-only
// annotation. The response parameters every tool takes (format, detail,
// fields, maxTokens) are described once, in the server instructions, not
// in each schema: listed in each they cost more than half of tools/list
// (README "Tools"), and a new tool gets them, and their wording, for free.
func readTool(name string, opts ...mcpgo.ToolOption) mcpgo.Tool {
	return annotated(name, mcpgo.ToolAnnotation{ReadOnlyHint: mcpgo.ToBoolPtr(true)}, opts)
}

// writeTool declares a write tool with its annotations.
func writeTool(name string, destructive, idempotent bool, opts ...mcpgo.ToolOption) mcpgo.Tool {
	var a mcpgo.ToolAnnotation
	if !destructive {
		a.DestructiveHint = mcpgo.ToBoolPtr(false)
	}
	if idempotent {
		a.IdempotentHint = mcpgo.ToBoolPtr(true)
	}
	return annotated(name, a, opts)
}

// annotated is the tool name with annotations a, which hold only the
// hints that differ from the MCP defaults (readOnlyHint false,
// destructiveHint true, idempotentHint false), so that tools/list stays
// short: destructiveHint and idempotentHint mean something only for a
// tool that is not read-only, and openWorldHint is left out (no client
// acts on it; every tool works on the vault alone).
func annotated(name string, a mcpgo.ToolAnnotation, opts []mcpgo.ToolOption) mcpgo.Tool {
	return mcpgo.NewTool(name, append([]mcpgo.ToolOption{mcpgo.WithToolAnnotation(a)}, opts...)...)
}

// pagedTool is readTool for a tool that pages list k: its options, then
// sortBy, page and limit.
func pagedTool(name string, k vaultgraph.ListKind, opts ...mcpgo.ToolOption) mcpgo.Tool {
	return readTool(name, append(opts,
		mcpgo.WithAny("sortBy", mcpgo.Description(strings.Join(k.SortFields, ", ")+descSortBy)),
		mcpgo.WithInteger("page", mcpgo.Min(1), mcpgo.Description(descPage)),
		mcpgo.WithInteger("limit", mcpgo.Min(1), mcpgo.Max(float64(k.MaxLimit)), mcpgo.DefaultNumber(float64(k.DefaultLimit)), mcpgo.Description(descLimit)),
	)...)
}

// enum describes a string parameter that takes one of the Engine's
// values c, its default when not given.
func enum[T ~string](c vaultgraph.Choice[T], desc string) []mcpgo.PropertyOption {
	opts := []mcpgo.PropertyOption{mcpgo.Enum(c.Words()...), mcpgo.Description(desc)}
	if c.Default != c.Values[0] { // the first value is the default unless said
		opts = append(opts, mcpgo.DefaultString(string(c.Default)))
	}
	return opts
}

// bindArguments decodes the call's arguments into p. Unknown arguments
// are ignored, and so are those that were not given ("" or {}: see
// params_given.go).
func bindArguments(req mcpgo.CallToolRequest, p any) error {
	args := withoutNotGiven(req.GetArguments())
	if len(args) == 0 {
		return nil
	}
	raw, err := json.Marshal(args)
	if err == nil {
		err = json.Unmarshal(raw, p)
	}
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te):
		// Field is the Go path ("Presentation.maxTokens" for an
		// embedded struct): name the parameter as the schema does.
		name := te.Field[strings.LastIndex(te.Field, ".")+1:]
		return invalid(name, "expected %s, got a JSON %s", jsonType(te.Type.Kind().String()), te.Value)
	case err != nil:
		return invalid("arguments", "%v", err)
	}
	return nil
}

func jsonType(goKind string) string {
	switch {
	case strings.HasPrefix(goKind, "int"), strings.HasPrefix(goKind, "uint"):
		return "an integer"
	case strings.HasPrefix(goKind, "float"):
		return "a number"
	case goKind == "bool":
		return "true or false"
	case goKind == "slice":
		return "a list"
	case goKind == "map", goKind == "struct":
		return "an object"
	}
	return "a string"
}

// toolError turns an error into an isError result with its SPEC code.
func toolError(err error) *mcpgo.CallToolResult {
	return mcpgo.NewToolResultError(Code(err) + ": " + Message(err))
}

// noProperties leaves out the empty "properties" that mcp-go gives an
// object parameter: any keys are allowed, and saying so costs tokens.
func noProperties(schema map[string]any) {
	if p, ok := schema["properties"].(map[string]any); ok && len(p) == 0 {
		delete(schema, "properties")
	}
}

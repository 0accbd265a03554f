package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/vaultgraph/vaultgraph"
)

// toolDef describes one tool: all that differs between tools (see the
// package documentation).
type toolDef struct {
	// Tool is the name, description, parameters and annotations that
	// tools/list shows.
	Tool mcpgo.Tool
	// run binds a call's arguments, checks the presentation parameters
	// (the tool's default format is format) and calls the tool's Tools
	// method over t; it returns the answer and how to present it.
	run func(ctx context.Context, t *Tools, req mcpgo.CallToolRequest, format string) (any, Presentation, error)
	// call decodes the JSON of the tool's parameter struct and calls the
	// method (ReadCall).
	call JSONCall
	// format is the default format: the form with the fewest o200k tokens
	// for typical answers (README "Response formats",
	// TestDefaultFormatsMeasure).
	format string
	// fields are a read tool's fields and detail presets; nil for a
	// write tool.
	fields *fieldSet
	// relevance is set when the rows' scores are search relevance (0-1),
	// which Markdown gives a word for its strength.
	relevance bool
	// deleted is set when the answer says whether a file was deleted.
	deleted bool
	// embeds is set when the answer depends on the embedding model (the
	// tool runs a search): only a server of the same model may give it.
	embeds bool
}

// readDefs are the read tools, in the order ServerTools returns them
// (tools/list sorts them by name); writeDefs are the write tools.
var (
	readDefs = []*toolDef{
		getNodeTool(), getNeighborsTool(), findPathTool(), getHubsTool(), searchTool(),
		searchByTagsTool(), listNodesTool(), listTagsTool(), randomNodeTool(), vaultStatusTool(),
		getRelatedTool(),
	}
	writeDefs = []*toolDef{createNodeTool(), updateNodeTool(), deleteNodeTool(), repairLinksTool(), linkMentionsTool()}
)

// lookup is the descriptor of the tool named name, or nil.
func lookup(name string) *toolDef {
	for _, d := range slices.Concat(readDefs, writeDefs) {
		if d.Tool.Name == name {
			return d
		}
	}
	return nil
}

// DefaultFormat is the format tool answers in when none is asked for
// ("" for no such tool).
func DefaultFormat(tool string) string {
	if d := lookup(tool); d != nil {
		return d.format
	}
	return ""
}

// ServerTools returns every read tool with its handler (tools/list
// shows them sorted by name).
func (t *Tools) ServerTools(log *slog.Logger) []server.ServerTool {
	return t.serverTools(readDefs, log)
}

// WriteTools returns the write tools with their handlers (see
// ServerOptions.ReadOnly).
func (t *Tools) WriteTools(log *slog.Logger) []server.ServerTool {
	return t.serverTools(writeDefs, log)
}

func (t *Tools) serverTools(defs []*toolDef, log *slog.Logger) []server.ServerTool {
	tools := make([]server.ServerTool, len(defs))
	for i, d := range defs {
		tools[i] = d.serverTool(t, log)
	}
	return tools
}

// def is the descriptor of tool t, which method answers, in format by
// default; fields are a read tool's fields and presets (nil for a write
// tool). Its run reports a wrong argument type as INVALID_PARAMS
// naming the parameter.
func def[P any](method func(*Tools, context.Context, P) (any, error), format string, fields *fieldSet, t mcpgo.Tool) *toolDef {
	call := func(ctx context.Context, tools *Tools, params json.RawMessage) (any, error) {
		var p P
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, fmt.Errorf("%w: parameters: %v", vaultgraph.ErrInvalid, err)
		}
		return method(tools, ctx, p)
	}
	run := func(ctx context.Context, t *Tools, req mcpgo.CallToolRequest, format string) (any, Presentation, error) {
		var p P
		if err := bindArguments(req, &p); err != nil {
			return nil, Presentation{}, err
		}
		var pres Presentation
		if pr, ok := any(p).(presenter); ok {
			pres = pr.presentation()
			if _, err := pres.check(format); err != nil {
				return nil, pres, err
			}
		}
		v, err := method(t, ctx, p)
		return v, pres, err
	}
	return &toolDef{Tool: t, run: run, call: call, format: format, fields: fields}
}

// JSONCall runs a tool over t with params, the JSON of the tool's
// parameter struct.
type JSONCall func(ctx context.Context, t *Tools, params json.RawMessage) (any, error)

// ReadCall is the read tool name as a JSONCall (a running server answers
// a CLI command's read with it), or nil when name is no read tool; embeds
// says that its answer depends on the embedding model.
func ReadCall(name string) (call JSONCall, embeds bool) {
	if d := lookup(name); d != nil && d.fields != nil {
		return d.call, d.embeds
	}
	return nil, false
}

// serverTool adapts the tool to mcp-go over t: a panic in its handler is
// PROVIDER_ERROR, never a dead server.
func (d *toolDef) serverTool(t *Tools, log *slog.Logger) server.ServerTool {
	name := d.Tool.Name
	return server.ServerTool{Tool: d.Tool, Handler: checkBounds(d.Tool, func(ctx context.Context, req mcpgo.CallToolRequest) (res *mcpgo.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				log.Error("tool panicked", "tool", name, "panic", r, "stack", string(debug.Stack()))
				res = mcpgo.NewToolResultError(fmt.Sprintf("%s: %s failed unexpectedly (%v); the server is still running, try again or report this", CodeProviderError, name, r))
				err = nil
			}
		}()
		v, pres, err := d.run(ctx, t, req, d.format)
		if err != nil {
			return toolError(err), nil
		}
		text, err := d.render(v, pres)
		if err != nil {
			return toolError(err), nil
		}
		return mcpgo.NewToolResultText(text), nil
	})}
}

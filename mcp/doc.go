// Package mcp holds vaultgraph's tools: one handler per tool over the
// Engine, parameter validation, response shaping, content truncation and
// the mapping of Engine errors to the error codes of SPEC.md. The CLI calls
// these same handlers, so the command line and MCP cannot drift apart.
// An optional parameter set to "" (or {}) is not given, in every tool
// (params_given.go).
//
// Each tool is one file, tool_x.go, whose descriptor holds its schema,
// handler, default format, fields and detail presets; tool.go lists the
// descriptors and adapts them to mcp-go. A tool's answer is shaped with
// its fields (fields.go picks them, shape.go and shape_note.go fill
// them in) into an answer (answer.go), written as TOON, JSON or
// Markdown (present.go, markdown.go) and trimmed to maxTokens (tokens.go).
package mcp

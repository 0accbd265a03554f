// Package mcp holds vaultgraph's tools: one handler per tool over the
// Engine, parameter validation, response shaping, content truncation and
// the mapping of Engine errors to the error codes of SPEC.md. The CLI calls
// these same handlers, so the command line and MCP cannot drift apart.
// An optional parameter set to "" (or {}) is not given, in every tool
// (params_given.go).
package mcp

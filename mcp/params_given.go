package mcp

import (
	"maps"
	"slices"
	"strings"
)

// Many MCP clients send "" for every optional parameter they do not use,
// and {} for objects. This file is the one home of the rule that such a
// value means "not given": every tool's arguments pass through
// withoutNotGiven before they are bound to its parameters, and the CLI's
// optional string flags through NotGiven, so no handler checks for ""
// itself, and a call with "" answers and writes exactly as the call
// without that parameter. update_node's directory "" therefore never moves
// a note: "/" names the vault root (vaultgraph.RootDirectory). An empty
// list is kept: tags [] in update_node is a real request (remove every
// tag), and in the read tools' filters it filters nothing, as absent does.

// NotGiven reports whether v, an argument's JSON value or a flag's
// value, means that the parameter was not given: "" (whatever the
// parameter's type) or an empty object.
func NotGiven(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// withoutNotGiven returns args without the arguments that NotGiven says
// were not given; args itself is not changed.
func withoutNotGiven(args map[string]any) map[string]any {
	out := maps.Clone(args)
	maps.DeleteFunc(out, func(_ string, v any) bool { return NotGiven(v) })
	return out
}

// nonBlank returns the items of list that are not blank (white space
// only): a blank item of a list parameter names nothing.
func nonBlank(list []string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return strings.TrimSpace(s) == "" })
}

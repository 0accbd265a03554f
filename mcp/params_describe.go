package mcp

// Descriptions of the parameters several tools share, written once so
// that every tool says the same and tools/list stays short (every
// parameter has a description: TestToolParamsDescribed). The server
// instructions explain the presentation parameters at more length.
const (
	descID        = "Note path, path without .md, or note name"
	descFormat    = "Answer format"
	descDetail    = "Field preset"
	descFields    = "Overrides detail"
	descMaxTokens = "Token budget"
	descPage      = "Page, from 1"
	descLimit     = "Page size"
	descTagMode   = "How tags combine"
	descIfMatch   = "The hash a read returned: CONFLICT if the file changed since"
	// descDirectory is create_node's folder: "" is not given
	// (params_given.go), so "/" names the root, as in update_node.
	descDirectory = `Vault folder; "/" = the root`
)

package mcp

import "github.com/vaultgraph/vaultgraph"

// Descriptions of the parameters several tools share, written once so
// that every tool says the same and tools/list stays short (every
// parameter has a description: TestToolParamsDescribed; the whole list
// has a token budget: TestToolsListSize).
const (
	descID      = "Note path, name, title or alias"
	descSortBy  = `; "-key" descends`
	descPage    = "Page number"
	descLimit   = "Page size"
	descTags    = "Only notes with these tags"
	descTagMode = "How tags combine"
	descFolder  = "Only this folder and below"
	descIfMatch = "Hash a read gave: CONFLICT if changed since"
	// descDirectory is a write tool's folder: "" is not given
	// (params_given.go), so "/" names the root.
	descDirectory = `Folder; "/" = vault root`
)

// descContent is a write tool's content.
const descContent = "Markdown body; from --- on, the whole file"

// Paging is the sortBy, page and limit parameters of every list tool.
type Paging struct {
	SortBy SortKeys `json:"sortBy"`
	Page   int      `json:"page"`
	Limit  int      `json:"limit"`
}

// query checks the paging against list k's sort keys and limits.
func (p Paging) query(k vaultgraph.ListKind) (vaultgraph.PageQuery, error) {
	return k.Query(p.SortBy, p.Page, p.Limit)
}

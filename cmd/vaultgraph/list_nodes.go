package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

func newListNodesCmd(g *globals) *cobra.Command {
	var p mcp.ListNodesParams
	var props []string
	c := &cobra.Command{
		Use:   "list-nodes",
		Short: "Browse notes with filters, sorting and pages",
		Long: `Browse notes: filter by folder, tags, properties, dates, orphans, broken
links or broken anchors; sort by one or more of ` + strings.Join(vaultgraph.NoteList.SortFields, ", ") + `
(prefix '-' for descending); page through the result.`,
		Example: `  vaultgraph list-nodes --folder Projects --sort-by -modified,title
  vaultgraph list-nodes --tags draft --tag-mode none --limit 50 --page 2
  vaultgraph list-nodes --property status=active --created-after 2025-01-01
  vaultgraph list-nodes --orphans`,
		Args: args(),
	}
	f := c.Flags()
	f.StringVar(&p.Folder, "folder", "", "only notes in this folder or below it")
	f.StringSliceVar(&p.Tags, "tags", nil, "filter by these tags (comma-separated or repeated)")
	f.StringVar(&p.TagMode, "tag-mode", string(vaultgraph.TagsAny), "how --tags filters: "+oneOf(vaultgraph.TagModes))
	f.StringArrayVar(&props, "property", nil, "key=value: only notes whose property equals value (repeatable)")
	f.StringVar(&p.CreatedAfter, "created-after", "", "only notes created on or after this date (YYYY-MM-DD or RFC 3339)")
	f.StringVar(&p.CreatedBefore, "created-before", "", "only notes created on or before this date")
	f.StringVar(&p.ModifiedAfter, "modified-after", "", "only notes modified on or after this date")
	f.StringVar(&p.ModifiedBefore, "modified-before", "", "only notes modified on or before this date")
	f.BoolVar(&p.Orphans, "orphans", false, "only notes with no links in or out")
	f.BoolVar(&p.BrokenLinks, "broken-links", false, "only notes with at least one broken link")
	f.BoolVar(&p.BrokenAnchors, "broken-anchors", false, "only notes with a link to a heading or ^block its note lacks")
	pageFlags(c, vaultgraph.NoteList, &p.Paging, " (default path)")
	return readTool(g, c, "list_nodes", &p, &p.Presentation, (*mcp.Tools).ListNodes, func(_ []string) error {
		for _, kv := range props {
			if mcp.NotGiven(kv) {
				continue
			}
			k, v, ok := strings.Cut(kv, "=")
			if !ok || strings.TrimSpace(k) == "" {
				return fmt.Errorf("%w: --property %q: use key=value", vaultgraph.ErrInvalid, kv)
			}
			if p.Properties == nil {
				p.Properties = map[string]string{}
			}
			p.Properties[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
		return nil
	})
}

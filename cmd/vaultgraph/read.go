package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

// The read commands: each runs its MCP tool's mcp.Tools method through
// toolCmd, so a command and its tool answer alike.

// oneShotEmbedWait bounds how long search makes missing vectors before it
// answers (a first search of a large vault would wait minutes); the
// vectors made are kept. It is the default of runOptions.embedWait.
const oneShotEmbedWait = 10 * time.Second

func newGetNodeCmd(g *globals) *cobra.Command {
	var p mcp.GetNodeParams
	c := command("get-node", args("ID"))
	c.Flags().IntVar(&p.Depth, "depth", 0, "0 = the note only, 1 = also its neighbours and link counts")
	return toolCmd(g, c, "get_node", &p, &p.Presentation, (*mcp.Tools).GetNode, firstArg(&p.ID), reads)
}

func newGetNeighborsCmd(g *globals) *cobra.Command {
	var p mcp.GetNeighborsParams
	c := command("get-neighbors", args("ID"))
	c.Flags().StringVar(&p.Direction, "direction", string(vaultgraph.Directions.Default), vaultgraph.Directions.String())
	pageFlags(c, vaultgraph.NeighborList, &p.Paging, "")
	return toolCmd(g, c, "get_neighbors", &p, &p.Presentation, (*mcp.Tools).GetNeighbors, firstArg(&p.ID), reads)
}

func newFindPathCmd(g *globals) *cobra.Command {
	var p mcp.FindPathParams
	c := command("find-path", args("SOURCE", "TARGET"))
	c.Flags().BoolVar(&p.Directed, "directed", false, "follow links only from the linking note to the linked one")
	return toolCmd(g, c, "find_path", &p, &p.Presentation, (*mcp.Tools).FindPath, func(a []string) error {
		p.Source, p.Target = a[0], a[1]
		return nil
	}, reads)
}

func newGetHubsCmd(g *globals) *cobra.Command {
	var p mcp.GetHubsParams
	c := command("get-hubs", args())
	c.Flags().StringVar(&p.Metric, "metric", string(vaultgraph.Metrics.Default), vaultgraph.Metrics.String())
	pageFlags(c, vaultgraph.HubList, &p.Paging, " (reorders the page; default: the metric's ranking)")
	return toolCmd(g, c, "get_hubs", &p, &p.Presentation, (*mcp.Tools).GetHubs, nil, reads)
}

func newSearchByTagsCmd(g *globals) *cobra.Command {
	var p mcp.SearchByTagsParams
	c := command("search-by-tags", func(c *cobra.Command, a []string) error {
		if len(a) == 0 {
			return fmt.Errorf("%w: %s takes at least one TAG", vaultgraph.ErrInvalid, c.Name())
		}
		return nil
	})
	c.Flags().StringVar(&p.Mode, "mode", string(vaultgraph.TagsAny), "any (a note has at least one tag) or all (every tag)")
	pageFlags(c, vaultgraph.TaggedList, &p.Paging, "")
	return toolCmd(g, c, "search_by_tags", &p, &p.Presentation, (*mcp.Tools).SearchByTags, allArgs(&p.Tags), reads)
}

func newListNodesCmd(g *globals) *cobra.Command {
	var p mcp.ListNodesParams
	var props []string
	c := command("list-nodes", args())
	f := c.Flags()
	f.StringVar(&p.Folder, "folder", "", "only notes in this folder or below it")
	f.StringSliceVar(&p.Tags, "tags", nil, "filter by these tags (comma-separated or repeated)")
	f.StringVar(&p.TagMode, "tag-mode", string(vaultgraph.TagModes.Default), "how --tags filters: "+vaultgraph.TagModes.String())
	f.StringArrayVar(&props, "property", nil, "key=value: only notes whose property equals value (repeatable)")
	f.StringVar(&p.CreatedAfter, "created-after", "", "only notes created on or after this date (YYYY-MM-DD or RFC 3339)")
	f.StringVar(&p.CreatedBefore, "created-before", "", "only notes created on or before this date")
	f.StringVar(&p.ModifiedAfter, "modified-after", "", "only notes modified on or after this date")
	f.StringVar(&p.ModifiedBefore, "modified-before", "", "only notes modified on or before this date")
	f.BoolVar(&p.Orphans, "orphans", false, "only notes with no links in or out")
	f.BoolVar(&p.BrokenLinks, "broken-links", false, "only notes with at least one broken link")
	f.BoolVar(&p.BrokenAnchors, "broken-anchors", false, "only notes with a link to a heading or ^block its note lacks")
	pageFlags(c, vaultgraph.NoteList, &p.Paging, " (default path)")
	return toolCmd(g, c, "list_nodes", &p, &p.Presentation, (*mcp.Tools).ListNodes, func(_ []string) error {
		for _, kv := range props {
			if mcp.NotGiven(kv) {
				continue
			}
			k, v, err := keyValue(kv)
			if err != nil {
				return err
			}
			if p.Properties == nil {
				p.Properties = map[string]string{}
			}
			p.Properties[k] = v
		}
		return nil
	}, reads)
}

func newListTagsCmd(g *globals) *cobra.Command {
	var p mcp.ListTagsParams
	c := command("list-tags", args())
	pageFlags(c, vaultgraph.TagList, &p.Paging, "")
	return toolCmd(g, c, "list_tags", &p, &p.Presentation, (*mcp.Tools).ListTags, nil, reads)
}

func newRandomNodeCmd(g *globals) *cobra.Command {
	var p mcp.RandomNodeParams
	c := command("random-node", args())
	c.Flags().StringSliceVar(&p.Tags, "tags", nil, "only notes with any of these tags")
	return toolCmd(g, c, "random_node", &p, &p.Presentation, (*mcp.Tools).RandomNode, nil, reads)
}

func newVaultStatusCmd(g *globals) *cobra.Command {
	var p mcp.VaultStatusParams
	return toolCmd(g, command("vault-status", args()), "vault_status", &p, &p.Presentation, (*mcp.Tools).VaultStatus, nil, reads)
}

func newGetRelatedCmd(g *globals) *cobra.Command {
	var p mcp.GetRelatedParams
	c := command("get-related", cobra.ArbitraryArgs)
	c.Flags().StringVar(&p.Query, "query", "", "search words whose best hits are the start")
	c.Flags().BoolVar(&p.ExcludeLinked, "exclude-linked", false, "leave out notes already linked with a given note")
	pageFlags(c, vaultgraph.RelatedList, &p.Paging, " (reorders the page; default: closest first)")
	return toolCmd(g, c, "get_related", &p, &p.Presentation, (*mcp.Tools).GetRelated, allArgs(&p.IDs), reads)
}

func newSearchCmd(g *globals) *cobra.Command {
	var p mcp.SearchParams
	c := command("search", func(c *cobra.Command, a []string) error {
		if strings.TrimSpace(strings.Join(a, "")) == "" {
			return fmt.Errorf("%w: %s takes a QUERY", vaultgraph.ErrInvalid, c.Name())
		}
		return nil
	})
	f := c.Flags()
	f.StringVar(&p.Mode, "mode", string(vaultgraph.SearchModes.Default), "hybrid (full text and vectors), keyword or semantic")
	pageFlags(c, vaultgraph.SearchList, &p.Paging, " (reorders the page; the ranking picks its notes)")
	f.StringSliceVar(&p.Tags, "tags", nil, "only notes with these tags (comma-separated or repeated), see --tag-mode")
	f.StringVar(&p.TagMode, "tag-mode", string(vaultgraph.TagModes.Default), "how --tags filters: "+vaultgraph.TagModes.String())
	f.StringVar(&p.Folder, "folder", "", "only notes in this folder or below it")
	toolCmd(g, c, "search", &p, &p.Presentation, (*mcp.Tools).Search, func(a []string) error {
		p.Query = strings.Join(a, " ")
		return nil
	}, reads)
	g.embedFlags(c) // after RunE is set: it wraps it
	return c
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

// contentText returns --content, reading standard input for "-".
func (g *globals) contentText(s string) (string, error) {
	if s != "-" {
		return s, nil
	}
	b, err := io.ReadAll(g.stdin)
	if err != nil {
		return "", fmt.Errorf("read content from stdin: %w", err)
	}
	return string(b), nil
}

// propertiesJSON turns key=value flags into the JSON object the tools
// take. A value is JSON when it parses as JSON (numbers, true, null,
// ["a","b"]), else text. A flag set to "" is not given (mcp.NotGiven).
func propertiesJSON(kvs []string) (json.RawMessage, error) {
	kvs = slices.DeleteFunc(slices.Clone(kvs), func(kv string) bool { return mcp.NotGiven(kv) })
	if len(kvs) == 0 {
		return nil, nil
	}
	out := []byte{'{'}
	for i, kv := range kvs {
		k, v, err := keyValue(kv)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, ',')
		}
		key, _ := json.Marshal(k)
		val := []byte(v)
		if !json.Valid(val) {
			val, _ = json.Marshal(v)
		}
		out = append(append(append(out, key...), ':'), val...)
	}
	return append(out, '}'), nil
}

// keyValue splits a --property key=value, both trimmed (INVALID_PARAMS
// for a blank key or no '=').
func keyValue(kv string) (key, value string, err error) {
	k, v, ok := strings.Cut(kv, "=")
	if k = strings.TrimSpace(k); !ok || k == "" {
		return "", "", fmt.Errorf("%w: --property %q: use key=value", vaultgraph.ErrInvalid, kv)
	}
	return k, strings.TrimSpace(v), nil
}

// optional is a string flag as an optional parameter: nil when not given
// (mcp.NotGiven), as over MCP.
func optional(s string) *string {
	if mcp.NotGiven(s) {
		return nil
	}
	return &s
}

func newCreateNodeCmd(g *globals) *cobra.Command {
	var p mcp.CreateNodeParams
	var content string
	var props []string
	c := command("create-node", maxArgs(1))
	f := c.Flags()
	f.StringVar(&p.Title, "title", "", "the note's title (or give it as the argument)")
	f.StringVar(&content, "content", "", "the body; - reads it from standard input")
	f.StringSliceVar(&p.Tags, "tags", nil, "tags, comma-separated")
	f.StringVar(&p.Directory, "directory", "", "vault folder (default the root, also /)")
	f.StringArrayVar(&props, "property", nil, "key=value frontmatter property (repeatable; JSON values such as 3, true, [\"a\"] keep their type)")
	return toolCmd(g, c, "create_node", &p, &p.Presentation, (*mcp.Tools).CreateNode, func(a []string) error {
		if len(a) == 1 {
			if p.Title != "" {
				return fmt.Errorf("%w: give the title once: as the argument or as --title", vaultgraph.ErrInvalid)
			}
			p.Title = a[0]
		}
		var err error
		if p.Content, err = g.contentText(content); err != nil {
			return err
		}
		p.Properties, err = propertiesJSON(props)
		return err
	}, writes)
}

func newUpdateNodeCmd(g *globals) *cobra.Command {
	var p mcp.UpdateNodeParams
	var title, dir, heading, content string
	var tags, props []string
	c := command("update-node", args("ID"))
	f := c.Flags()
	f.StringVar(&title, "title", "", "rename: the new title (file name)")
	f.StringVar(&dir, "directory", "", "move: the vault folder to move the note to (/ = the root)")
	f.StringVar(&content, "content", "", "replace the body; - reads it from standard input")
	f.StringSliceVar(&tags, "tags", nil, "replace the tags, comma-separated")
	f.StringArrayVar(&props, "property", nil, "key=value property to set, key=null to remove (repeatable)")
	f.StringVar(&heading, "rename-heading", "", "OLD=NEW: rename the heading OLD (split at the first '=') and rewrite the links to it")
	f.StringVar(&p.IfMatch, "if-match", "", "refuse (CONFLICT) unless the file's hash is still this")
	f.BoolVar(&p.DryRun, "dry-run", false, "list the files and links that would change, write nothing")
	return toolCmd(g, c, "update_node", &p, &p.Presentation, (*mcp.Tools).UpdateNode, func(a []string) error {
		p.ID = a[0]
		p.Title, p.Directory = optional(title), optional(dir)
		if f.Changed("tags") { // --tags "" is [], removing every tag
			p.Tags = &tags
		}
		if content := optional(content); content != nil {
			text, err := g.contentText(*content)
			if err != nil {
				return err
			}
			p.Content = &text
		}
		if heading != "" { // "" is not given
			// Split at the first '=': a heading whose text holds '=' is
			// named without it (headings match as links do, punctuation aside).
			from, to, ok := strings.Cut(heading, "=")
			if !ok || strings.TrimSpace(from) == "" {
				return fmt.Errorf("%w: --rename-heading %q: use OLD=NEW, the heading's text and its new text", vaultgraph.ErrInvalid, heading)
			}
			p.RenameHeading = &vaultgraph.HeadingRename{From: from, To: to}
		}
		var err error
		p.Properties, err = propertiesJSON(props)
		return err
	}, writes)
}

func newDeleteNodeCmd(g *globals) *cobra.Command {
	var p mcp.DeleteNodeParams
	c := command("delete-node", args("ID"))
	c.Flags().StringVar(&p.IfMatch, "if-match", "", "refuse (CONFLICT) unless the file's hash is still this")
	return toolCmd(g, c, "delete_node", &p, &p.Presentation, (*mcp.Tools).DeleteNode, firstArg(&p.ID), writes)
}

func newLinkMentionsCmd(g *globals) *cobra.Command {
	var p mcp.LinkMentionsParams
	c := command("link-mentions", cobra.MinimumNArgs(1))
	c.Flags().BoolVar(&p.DryRun, "dry-run", false, "list the changes, write nothing")
	return toolCmd(g, c, "link_mentions", &p, &p.Presentation, (*mcp.Tools).LinkMentions, func(a []string) error {
		p.ID, p.Sources = a[0], a[1:]
		return nil
	}, writes)
}

func newRepairLinksCmd(g *globals) *cobra.Command {
	var p mcp.RepairLinksParams
	c := command("repair-links", maxArgs(1))
	f := c.Flags()
	f.StringVar(&p.To, "to", "", "the note's new path, to pick one candidate of an ambiguous repair")
	f.BoolVar(&p.Apply, "apply", false, "rewrite the links (default: a dry run listing them)")
	return toolCmd(g, c, "repair_links", &p, &p.Presentation, (*mcp.Tools).RepairLinks, func(a []string) error {
		if len(a) == 1 {
			p.From = a[0]
		}
		return nil
	}, writes)
}

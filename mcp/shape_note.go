package mcp

import (
	"fmt"
	"slices"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// MaxListedItems is how many items of a single note's list fields
// (links, brokenLinks, attachments, aliases, tags) an answer shows; a
// warning gives the total of a longer list.
const MaxListedItems = 200

// moreListedHint says where to find the rest of a cut list field.
var moreListedHint = map[string]string{
	"links": "; {get_neighbors} with {direction: out}, {page} and {limit} lists them all",
}

// shapeNote shapes one note, and its neighbours when it has them.
func shapeNote(d *toolDef, n *NodeResponse, p Presentation) *answer {
	names, warnings := d.fields.pick(d.Tool.Name, p)
	a := &answer{kind: kindNote, warnings: append(warnings, n.Warnings...), hint: n.Hint}
	for _, name := range names {
		if name == "content" {
			a.content = n.Content
			continue
		}
		if v, ok := noteField(n, name); ok {
			if list, isList := v.([]any); isList && len(list) > MaxListedItems {
				a.warnings = slices.Insert(a.warnings, 0, fmt.Sprintf("%s: the first %d of %d are shown%s",
					name, MaxListedItems, len(list), say(moreListedHint[name], p.Flags)))
				v = list[:MaxListedItems]
			}
			if name == "mentions" { // after the content, which they quote
				a.more = append(a.more, toon.Field{Key: name, Value: v})
				continue
			}
			a.head = append(a.head, toon.Field{Key: name, Value: v})
		}
	}
	if n.IncomingCount != nil && slices.Contains(names, "incomingCount") {
		a.more = append(a.more, toon.Field{Key: "incomingCount", Value: *n.IncomingCount})
	}
	if n.OutgoingCount != nil && slices.Contains(names, "outgoingCount") {
		a.more = append(a.more, toon.Field{Key: "outgoingCount", Value: *n.OutgoingCount})
	}
	if n.Neighbors != nil && d.fields.rows != nil {
		rowNames := d.fields.neighborFields(p)
		a.rowsKey, a.rows = "neighbors", []toon.Object{}
		for _, nb := range n.Neighbors {
			row, props := nodeRow(&nb, rowNames, NeighborContentChars)
			a.rows = append(a.rows, row)
			a.props = append(a.props, props)
		}
	}
	return a
}

// noteField is one field of a single note; ok is false for an empty
// optional field, which is left out.
func noteField(n *NodeResponse, name string) (any, bool) {
	switch name {
	case "id":
		return n.ID, true
	case "title":
		return n.Title, true
	case "aliases":
		return strings2any(n.Aliases), len(n.Aliases) > 0
	case "tags":
		return strings2any(n.Tags), true
	case "properties":
		return propertiesObject(n.Properties), len(n.Properties) > 0
	case "created":
		return n.Created, n.Created != ""
	case "modified":
		return n.Modified, n.Modified != ""
	case "size":
		return n.Size, true
	case "hash":
		return n.Hash, n.Hash != ""
	case "inDegree":
		return n.InDegree, true
	case "outDegree":
		return n.OutDegree, true
	case "links":
		return mapped(n.Links, noteLinkRow), true
	case "brokenLinks":
		return strings2any(n.BrokenLinks), len(n.BrokenLinks) > 0
	case "attachments":
		return strings2any(n.Attachments), len(n.Attachments) > 0
	case "mentions":
		return mapped(n.Mentions, mentionRow), len(n.Mentions) > 0
	}
	return nil, false
}

// nodeRow is a note as a row plus its properties, written after the
// table; its tags and aliases stay lists (see rowSeparators).
func nodeRow(n *NodeResponse, names []string, contentChars int) (toon.Object, toon.Object) {
	row := make(toon.Object, 0, len(names))
	var props toon.Object
	for _, name := range names {
		var v any
		switch name {
		case "direction":
			v = n.Direction
		case "score":
			if n.Score == nil {
				continue
			}
			v = roundScore(*n.Score)
		case "distance", "shared":
			p := n.Distance
			if name == "shared" {
				p = n.Shared
			}
			if p == nil {
				continue
			}
			v = *p
		case "via":
			v = n.Via
		case "snippet":
			v = n.Snippet
		case "context":
			v = n.Context
		case "content":
			v = ""
			if n.Content != nil {
				v = preview(*n.Content, n.Title, contentChars)
			}
		case "properties":
			if len(n.Properties) > 0 {
				props = propertiesObject(n.Properties)
			}
			continue
		default: // as a single note has it, empty or not
			if v, _ = noteField(n, name); v == nil {
				continue
			}
		}
		row = append(row, toon.Field{Key: name, Value: v})
	}
	return row, props
}

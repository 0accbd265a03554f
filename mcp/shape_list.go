package mcp

import (
	"fmt"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// shapeList shapes a page of notes.
func shapeList(d *toolDef, l *ListResponse, p Presentation) *answer {
	names, warnings := d.fields.pick(d.Tool.Name, p)
	chars := ShortContentChars
	if p.Detail == DetailFull {
		chars = ListContentChars
	}
	a := &answer{relevance: d.relevance, kind: kindRows, rowsKey: "nodes", rows: []toon.Object{}, warnings: append(warnings, l.Warnings...), hint: l.Hint}
	if l.Metric != "" {
		a.head = toon.Object{{Key: "metric", Value: l.Metric}}
		a.label = "hubs by " + l.Metric
	}
	for i := range l.Nodes {
		row, props := nodeRow(&l.Nodes[i], names, chars)
		a.rows = append(a.rows, row)
		a.props = append(a.props, props)
	}
	a.foot = paging(l.Total, l.Page, l.TotalPages)
	if w := pastLastPage(l.Page, l.TotalPages); w != "" {
		a.warnings = append(a.warnings, w)
	}
	return a
}

// pastLastPage is the warning for a page past the end of a list, or "".
func pastLastPage(page, totalPages int) string {
	switch {
	case page <= totalPages || page <= 1:
		return ""
	case totalPages == 0:
		return fmt.Sprintf("page %d is past the end: the list is empty", page)
	}
	return fmt.Sprintf("page %d is past the last page (%d)", page, totalPages)
}

// paging is the foot of a paged list: total, and page and totalPages when
// the list is paged.
func paging(total, page, totalPages int) toon.Object {
	foot := toon.Object{{Key: "total", Value: total}}
	if page > 0 {
		foot = append(foot, toon.Field{Key: "page", Value: page}, toon.Field{Key: "totalPages", Value: totalPages})
	}
	return foot
}

// shapeTags shapes a page of tags.
func shapeTags(d *toolDef, l *TagsResponse, p Presentation) *answer {
	names, warnings := d.fields.pick(d.Tool.Name, p)
	a := &answer{kind: kindRows, rowsKey: "tags", rows: []toon.Object{}, warnings: warnings, hint: l.Hint}
	for _, t := range l.Tags {
		row := make(toon.Object, 0, len(names))
		for _, name := range names {
			switch name {
			case "tag":
				row = append(row, toon.Field{Key: name, Value: t.Tag})
			case "count":
				row = append(row, toon.Field{Key: name, Value: t.Count})
			}
		}
		a.rows = append(a.rows, row)
		a.props = append(a.props, nil)
	}
	a.foot = paging(l.Total, l.Page, l.TotalPages)
	if w := pastLastPage(l.Page, l.TotalPages); w != "" {
		a.warnings = append(a.warnings, w)
	}
	return a
}

package mcp

import (
	"fmt"
	"math"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/toon"
	"github.com/vaultgraph/vaultgraph/vault"
)

// shape turns a Tools answer into an answer with the fields of tool d.
func shape(d *toolDef, v any, p Presentation) (*answer, error) {
	switch x := v.(type) {
	case *WriteResponse:
		return shapeWrite(d, x, p), nil
	case *MissingResponse:
		return &answer{kind: kindStatus, warnings: x.Warnings}, nil
	case *RepairResponse:
		return shapeRepair(d, x, p), nil
	}
	if d.fields == nil {
		return nil, fmt.Errorf("%s: no presentation for %T", d.Tool.Name, v)
	}
	switch x := v.(type) {
	case *NodeResponse:
		return shapeNote(d, x, p), nil
	case *ListResponse:
		return shapeList(d, x, p), nil
	case *TagsResponse:
		return shapeTags(d, x, p), nil
	case *PathResponse:
		return shapePath(d, x, p), nil
	case *vaultgraph.Status:
		return shapeStatus(d, x, p), nil
	}
	return nil, fmt.Errorf("%s: no presentation for %T", d.Tool.Name, v)
}

// roundScore keeps four significant digits: more only costs tokens.
func roundScore(f float64) float64 {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 4, 64), 64)
	return r
}

func shapePath(d *toolDef, r *PathResponse, p Presentation) *answer {
	names, warnings := d.fields.pick(d.Tool.Name, p)
	all := toon.Object{{Key: "path", Value: strings2any(r.Path)}, {Key: "length", Value: r.Length}, {Key: "titles", Value: strings2any(r.Titles)}}
	return &answer{kind: kindPath, warnings: append(warnings, r.Warnings...), head: only(names, all)}
}

func shapeStatus(d *toolDef, s *vaultgraph.Status, p Presentation) *answer {
	names, warnings := d.fields.pick(d.Tool.Name, p)
	a := &answer{kind: kindStatus, warnings: warnings, keep: d.fields.minimal}
	status := reflect.ValueOf(s).Elem()
	for _, name := range names {
		if value, ok := statusValues[name]; ok {
			a.head = append(a.head, toon.Field{Key: name, Value: value(s)})
		} else if index, ok := statusIndex[name]; ok {
			a.head = append(a.head, toon.Field{Key: name, Value: status.FieldByIndex(index).Interface()})
		}
	}
	return a
}

// statusIndex maps the JSON name of each field of vaultgraph.Status to
// its index: a field of vault_status is the Status field of its name, as
// it is, unless statusValues gives it another value.
var statusIndex = func() map[string][]int {
	fields := reflect.VisibleFields(reflect.TypeFor[vaultgraph.Status]())
	m := make(map[string][]int, len(fields))
	for _, f := range fields {
		m[strings.Split(f.Tag.Get("json"), ",")[0]] = f.Index
	}
	return m
}()

// statusValues give the fields of vault_status that are not a Status
// field as it is their value.
var statusValues = map[string]func(s *vaultgraph.Status) any{
	"embeddingCoverage":  func(s *vaultgraph.Status) any { return roundScore(s.Embeddings) },
	"problemCount":       func(s *vaultgraph.Status) any { return len(s.Problems) },
	"duplicateNameCount": func(s *vaultgraph.Status) any { return len(s.DuplicateNames) },
	"lastSync": func(s *vaultgraph.Status) any {
		if s.LastSync.IsZero() {
			return ""
		}
		return s.LastSync.UTC().Format("2006-01-02T15:04:05Z")
	},
	"problems": func(s *vaultgraph.Status) any {
		return mapped(s.Problems, func(p vault.Problem) any {
			return toon.Object{{Key: "path", Value: p.Path}, {Key: "reason", Value: p.Reason}}
		})
	},
	"duplicateNames": func(s *vaultgraph.Status) any {
		return mapped(s.DuplicateNames, func(d vaultgraph.DuplicateName) any {
			return toon.Object{{Key: "name", Value: d.Name}, {Key: "ids", Value: strings.Join(d.IDs, "; ")}}
		})
	},
}

func shapeList(d *toolDef, l *ListResponse, p Presentation) *answer {
	names, warnings := d.fields.pick(d.Tool.Name, p)
	if d.fields.titleIfNew && len(p.Fields) == 0 && p.Detail != DetailFull && titlesAreNames(l.Nodes) {
		names = slices.DeleteFunc(slices.Clone(names), func(f string) bool { return f == "title" })
	}
	chars := ShortContentChars
	if p.Detail == DetailFull {
		chars = ListContentChars
	}
	a := &answer{relevance: d.relevance, kind: kindRows, rowsKey: "nodes", rows: []toon.Object{}, warnings: append(warnings, l.Warnings...), hint: l.Hint}
	if l.Metric != "" {
		a.head = toon.Object{{Key: "metric", Value: l.Metric}}
		a.label = "hubs by " + l.Metric
	}
	if len(l.Seeds) > 0 {
		a.head = append(a.head, toon.Field{Key: "seeds", Value: strings2any(l.Seeds)})
		a.label = "related notes"
	}
	for i := range l.Nodes {
		row, props := nodeRow(&l.Nodes[i], names, chars)
		a.rows = append(a.rows, row)
		a.props = append(a.props, props)
	}
	a.paged(l.PageInfo)
	return a
}

// paged sets the foot of a paged list (see paging) and warns of a page
// past its end.
func (a *answer) paged(p PageInfo) {
	a.foot = paging(p.Total, p.Page, p.TotalPages)
	if w := pastLastPage(p.Page, p.TotalPages); w != "" {
		a.warnings = append(a.warnings, w)
	}
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

func shapeTags(d *toolDef, l *TagsResponse, p Presentation) *answer {
	names, warnings := d.fields.pick(d.Tool.Name, p)
	a := &answer{kind: kindRows, rowsKey: "tags", rows: []toon.Object{}, warnings: warnings, hint: l.Hint}
	for _, t := range l.Tags {
		a.rows = append(a.rows, only(names, toon.Object{{Key: "tag", Value: t.Tag}, {Key: "count", Value: t.Count}}))
		a.props = append(a.props, nil)
	}
	a.paged(l.PageInfo)
	return a
}

// only is the fields of all named in names, in the order of names.
func only(names []string, all toon.Object) toon.Object {
	out := make(toon.Object, 0, len(names))
	for _, name := range names {
		if v, ok := all.Get(name); ok {
			out = append(out, toon.Field{Key: name, Value: v})
		}
	}
	return out
}

// titlesAreNames reports whether every note's title is its file name
// (the id's last element without .md), so a title column adds nothing.
func titlesAreNames(nodes []NodeResponse) bool {
	for _, n := range nodes {
		if n.Title != strings.TrimSuffix(path.Base(n.ID), ".md") {
			return false
		}
	}
	return true
}

// shapeWrite shapes a write tool's answer: the note, the files changed
// (with the links rewritten in each) and warnings.
func shapeWrite(d *toolDef, w *WriteResponse, p Presentation) *answer {
	a := &answer{kind: kindStatus, warnings: w.Warnings, keep: []string{"id", "deleted", "dryRun"}}
	if w.Node != nil {
		a.head = append(a.head, toon.Field{Key: "id", Value: w.Node.ID}, toon.Field{Key: "title", Value: w.Node.Title},
			toon.Field{Key: "hash", Value: w.Node.Hash})
	}
	if d.deleted {
		a.head = append(a.head, toon.Field{Key: "deleted", Value: w.Deleted})
	}
	if w.DryRun {
		a.head = append(a.head, toon.Field{Key: "dryRun", Value: true})
	}
	files := make([]any, 0, min(len(w.Files), MaxListedItems))
	var links []any
	totalLinks := 0
	for i, f := range w.Files {
		totalLinks += len(f.Links)
		if i < MaxListedItems {
			files = append(files, toon.Object{{Key: "path", Value: f.Path}, {Key: "action", Value: f.Action},
				{Key: "from", Value: f.From}, {Key: "links", Value: len(f.Links)}})
		}
		for _, l := range f.Links {
			if len(links) == MaxListedItems {
				break
			}
			links = append(links, toon.Object{{Key: "path", Value: f.Path}, {Key: "line", Value: l.Line},
				{Key: "old", Value: l.Old}, {Key: "new", Value: l.New}})
		}
	}
	a.head = append(a.head, toon.Field{Key: "files", Value: files})
	if len(links) > 0 {
		a.head = append(a.head, toon.Field{Key: "links", Value: links})
	}
	if len(w.Files) > len(files) || totalLinks > len(links) {
		a.head = append(a.head, toon.Field{Key: "totalFiles", Value: len(w.Files)}, toon.Field{Key: "totalLinks", Value: totalLinks})
		a.warnings = slices.Insert(slices.Clone(a.warnings), 0, fmt.Sprintf("%d of %d files and %d of %d rewritten links are listed", len(files), len(w.Files), len(links), totalLinks))
	}
	return a
}

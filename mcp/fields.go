package mcp

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// ShortContentChars is a list row's content at standard detail; full
// detail gives ListContentChars.
const ShortContentChars = 200

// catalog is the fields one kind of answer can carry, in the order they
// are written, and the detail presets.
type catalog struct {
	fields                  []string
	minimal, standard, full []string
}

// The field catalogs (README "Detail presets and fields" documents them).
var (
	noteCatalog = catalog{
		fields:   []string{"id", "title", "aliases", "tags", "properties", "created", "modified", "size", "hash", "inDegree", "outDegree", "links", "brokenLinks", "attachments", "content"},
		minimal:  []string{"id", "title"},
		standard: []string{"id", "title", "tags", "content"},
	}
	rowCatalog = catalog{
		fields:   []string{"id", "title", "direction", "score", "tags", "aliases", "created", "modified", "size", "hash", "inDegree", "outDegree", "snippet", "content", "properties"},
		minimal:  []string{"id", "title"},
		standard: []string{"id", "title", "tags", "content"},
	}
	tagCatalog = catalog{
		fields:   []string{"tag", "count"},
		minimal:  []string{"tag", "count"},
		standard: []string{"tag", "count"},
	}
	pathCatalog = catalog{
		fields:   []string{"path", "length", "titles"},
		minimal:  []string{"path", "length"},
		standard: []string{"path", "length"},
	}
	statusCatalog = catalog{
		fields: []string{"vault", "notes", "links", "brokenLinks", "brokenAnchors", "attachmentLinks", "attachments", "tags", "edges",
			"embeddingCoverage", "embeddingModel", "embedding", "index", "indexBytes", "watcher", "lastSync", "loadTimeMs", "notesWithWarnings",
			"problemCount", "problems", "duplicateNameCount", "duplicateNames"},
		minimal: []string{"notes", "links", "brokenLinks", "tags"},
		standard: []string{"vault", "notes", "links", "brokenLinks", "brokenAnchors", "attachments", "tags", "embeddingCoverage", "embedding",
			"watcher", "lastSync", "problemCount", "duplicateNameCount"},
	}
)

// rowExtra are row fields that only some tools have: they are always
// written where they exist and unknown elsewhere.
var rowExtra = map[string]string{"direction": "get_neighbors get_node", "score": "get_hubs search"}

// rowOnly are row fields that only some tools have, chosen by the presets
// and fields like any other.
var rowOnly = map[string]string{"snippet": "search"}

// rowStandard are the standard row fields of tools whose rows differ
// from rowCatalog.standard: search shows snippets instead of content.
var rowStandard = map[string][]string{"search": {"id", "title", "tags", "snippet"}}

// catalogs maps each read tool to its main catalog and, for tools whose
// answer holds rows of notes, true.
var catalogs = map[string]struct {
	main *catalog
	rows bool
}{
	"get_node":       {&noteCatalog, true}, // depth 1 neighbours are rows
	"random_node":    {&noteCatalog, false},
	"get_neighbors":  {&rowCatalog, true},
	"get_hubs":       {&rowCatalog, true},
	"search_by_tags": {&rowCatalog, true},
	"list_nodes":     {&rowCatalog, true},
	"search":         {&rowCatalog, true},
	"list_tags":      {&tagCatalog, false},
	"find_path":      {&pathCatalog, false},
	"vault_status":   {&statusCatalog, false},
}

// FieldTable returns, for a read tool, every field it can return in order
// and the fields of each detail preset (for the README and help text).
func FieldTable(tool string) (fields, minimal, standard, full []string) {
	c, ok := catalogs[tool]
	if !ok {
		return nil, nil, nil, nil
	}
	all := c.main.available(tool)
	return all, c.main.preset(DetailMinimal, tool), c.main.preset(DetailStandard, tool), c.main.preset(DetailFull, tool)
}

// available is the catalog's fields that tool has.
func (c *catalog) available(tool string) []string {
	var out []string
	for _, f := range c.fields {
		if tools, extra := rowExtra[f]; extra && c == &rowCatalog && !strings.Contains(tools, tool) {
			continue
		}
		if tools, only := rowOnly[f]; only && c == &rowCatalog && !strings.Contains(tools, tool) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// preset is the field set of a detail preset for tool.
func (c *catalog) preset(detail, tool string) []string {
	var base []string
	switch detail {
	case DetailMinimal:
		base = c.minimal
	case DetailFull:
		return c.available(tool)
	default:
		base = c.standard
		if s, ok := rowStandard[tool]; ok && c == &rowCatalog {
			base = s
		}
	}
	return c.withExtras(base, tool)
}

// withExtras adds the tool's always-written row fields to names, in
// catalog order.
func (c *catalog) withExtras(names []string, tool string) []string {
	var out []string
	for _, f := range c.available(tool) {
		_, extra := rowExtra[f]
		if slices.Contains(names, f) || (extra && c == &rowCatalog) {
			out = append(out, f)
		}
	}
	return out
}

// pick resolves the presentation to the catalog's fields for tool, in
// catalog order, with warnings for unknown names. also lists names that
// are valid elsewhere in the same answer (get_node's neighbour rows) and so
// are not warned about.
func (c *catalog) pick(tool string, p Presentation, also *catalog) ([]string, []string) {
	if len(p.Fields) == 0 {
		return c.preset(p.Detail, tool), nil
	}
	avail := c.available(tool)
	var chosen, unknown []string
	for _, f := range p.Fields {
		name, ok := findField(avail, f)
		switch {
		case ok:
			chosen = append(chosen, name)
		case also != nil:
			if _, ok := findField(also.available(tool), f); !ok {
				unknown = append(unknown, f)
			}
		default:
			unknown = append(unknown, f)
		}
	}
	var warnings []string
	if len(unknown) > 0 {
		warnings = append(warnings, fmt.Sprintf("fields: %s ignored: %s has %s", quoteList(unknown), tool, strings.Join(avail, ", ")))
	}
	if len(chosen) == 0 && also == nil {
		warnings = append(warnings, "fields: none known, so the "+p.Detail+" preset is used")
		return c.preset(p.Detail, tool), warnings
	}
	if c == &rowCatalog {
		return c.withExtras(chosen, tool), warnings
	}
	var out []string
	for _, f := range avail {
		if slices.Contains(chosen, f) {
			out = append(out, f)
		}
	}
	return out, warnings
}

// findField matches a requested field name, ignoring case.
func findField(avail []string, name string) (string, bool) {
	for _, f := range avail {
		if strings.EqualFold(f, strings.TrimSpace(name)) {
			return f, true
		}
	}
	return "", false
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// shape turns a Tools answer into an answer with the chosen fields.
func shape(tool string, v any, p Presentation) (*answer, error) {
	a, err := shapeAny(tool, v, p)
	if err == nil {
		a.allFields = p.Detail == DetailFull && len(p.Fields) == 0
	}
	return a, err
}

func shapeAny(tool string, v any, p Presentation) (*answer, error) {
	switch x := v.(type) {
	case *NodeResponse:
		return shapeNote(tool, x, p), nil
	case NodeResponse:
		return shapeNote(tool, &x, p), nil
	case *ListResponse:
		return shapeList(tool, x, p), nil
	case ListResponse:
		return shapeList(tool, &x, p), nil
	case *TagsResponse:
		return shapeTags(tool, x, p), nil
	case *PathResponse:
		return shapePath(tool, x, p), nil
	case *vaultgraph.Status:
		return shapeStatus(tool, x, p), nil
	case *WriteResponse:
		return shapeWrite(tool, x, p), nil
	}
	return nil, fmt.Errorf("%s: no presentation for %T", tool, v)
}

// MaxListedItems is how many items of a single note's list fields
// (links, brokenLinks, attachments, aliases, tags) an answer shows; a
// warning gives the total of a longer list.
const MaxListedItems = 200

// moreListedHint says where to find the rest of a cut list field.
var moreListedHint = map[string]string{
	"links": "; get_neighbors with direction out, page and limit lists them all",
}

// shapeNote shapes one note, and its neighbours when it has them.
func shapeNote(tool string, n *NodeResponse, p Presentation) *answer {
	var also *catalog
	if catalogs[tool].rows {
		also = &rowCatalog
	}
	names, warnings := noteCatalog.pick(tool, p, also)
	a := &answer{tool: tool, kind: kindNote, warnings: append(warnings, n.Warnings...)}
	for _, name := range names {
		if name == "content" {
			if n.Content != nil {
				c := *n.Content
				a.content = &c
			}
			continue
		}
		if v, ok := noteField(n, name); ok {
			if list, isList := v.([]any); isList && len(list) > MaxListedItems {
				a.warnings = slices.Insert(a.warnings, 0, fmt.Sprintf("%s: the first %d of %d are shown%s",
					name, MaxListedItems, len(list), moreListedHint[name]))
				v = list[:MaxListedItems]
			}
			a.head = append(a.head, toon.Field{Key: name, Value: v})
		}
	}
	if n.IncomingCount != nil {
		a.more = toon.Object{{Key: "incomingCount", Value: *n.IncomingCount}, {Key: "outgoingCount", Value: *n.OutgoingCount}}
	}
	if n.Neighbors != nil {
		rowNames := neighborFields(p)
		a.rowsKey = "neighbors"
		for _, nb := range n.Neighbors {
			row, props := nodeRow(&nb, rowNames, NeighborContentChars)
			a.rows = append(a.rows, row)
			a.props = append(a.props, props)
		}
		if a.rows == nil {
			a.rows = []toon.Object{}
		}
	}
	return a
}

// neighborFields are the fields of get_node's neighbour rows: the
// requested fields that rows have, else the detail preset's.
func neighborFields(p Presentation) []string {
	names, _ := rowCatalog.pick("get_neighbors", p, &noteCatalog)
	if len(p.Fields) > 0 && len(names) <= 1 { // only direction: use the preset
		names = rowCatalog.preset(p.Detail, "get_neighbors")
	}
	return names
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
		return linksRows(n.Links), true
	case "brokenLinks":
		return strings2any(n.BrokenLinks), len(n.BrokenLinks) > 0
	case "attachments":
		return strings2any(n.Attachments), len(n.Attachments) > 0
	}
	return nil, false
}

// nodeRow is a note as a uniform row of primitives (tags as one
// space-separated string) plus its properties, written after the table.
func nodeRow(n *NodeResponse, names []string, contentChars int) (toon.Object, toon.Object) {
	row := make(toon.Object, 0, len(names))
	var props toon.Object
	for _, name := range names {
		var v any
		switch name {
		case "id":
			v = n.ID
		case "title":
			v = n.Title
		case "direction":
			v = n.Direction
		case "score":
			if n.Score == nil {
				continue
			}
			v = roundScore(*n.Score)
		case "tags":
			v = strings.Join(n.Tags, " ")
		case "aliases":
			v = strings.Join(n.Aliases, "; ")
		case "created":
			v = n.Created
		case "modified":
			v = n.Modified
		case "size":
			v = n.Size
		case "hash":
			v = n.Hash
		case "inDegree":
			v = n.InDegree
		case "outDegree":
			v = n.OutDegree
		case "snippet":
			v = n.Snippet
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
		default:
			continue
		}
		row = append(row, toon.Field{Key: name, Value: v})
	}
	return row, props
}

// roundScore keeps four significant digits: more only costs tokens.
func roundScore(f float64) float64 {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 4, 64), 64)
	return r
}

// shapeList shapes a page of notes.
func shapeList(tool string, l *ListResponse, p Presentation) *answer {
	names, warnings := rowCatalog.pick(tool, p, nil)
	chars := ShortContentChars
	if p.Detail == DetailFull {
		chars = ListContentChars
	}
	a := &answer{tool: tool, kind: kindRows, rowsKey: "nodes", rows: []toon.Object{}, warnings: append(warnings, l.Warnings...), hint: l.Hint}
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
func shapeTags(tool string, l *TagsResponse, p Presentation) *answer {
	names, warnings := tagCatalog.pick(tool, p, nil)
	a := &answer{tool: tool, kind: kindRows, rowsKey: "tags", rows: []toon.Object{}, warnings: warnings, hint: l.Hint}
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

// shapePath shapes find_path's answer.
func shapePath(tool string, r *PathResponse, p Presentation) *answer {
	names, warnings := pathCatalog.pick(tool, p, nil)
	a := &answer{tool: tool, kind: kindPath, warnings: append(warnings, r.Warnings...)}
	for _, name := range names {
		switch name {
		case "path":
			a.head = append(a.head, toon.Field{Key: "path", Value: strings2any(r.Path)})
		case "length":
			a.head = append(a.head, toon.Field{Key: "length", Value: r.Length})
		case "titles":
			a.head = append(a.head, toon.Field{Key: "titles", Value: strings2any(r.Titles)})
		}
	}
	return a
}

// shapeStatus shapes vault_status's answer.
func shapeStatus(tool string, s *vaultgraph.Status, p Presentation) *answer {
	names, warnings := statusCatalog.pick(tool, p, nil)
	a := &answer{tool: tool, kind: kindStatus, warnings: warnings, keep: statusCatalog.minimal}
	for _, name := range names {
		var v any
		switch name {
		case "vault":
			v = s.Vault
		case "notes":
			v = s.Notes
		case "links":
			v = s.Links
		case "brokenLinks":
			v = s.BrokenLinks
		case "brokenAnchors":
			v = s.BrokenAnchors
		case "attachmentLinks":
			v = s.AttachmentLinks
		case "attachments":
			v = s.Attachments
		case "tags":
			v = s.Tags
		case "edges":
			v = s.Edges
		case "embeddingCoverage":
			v = roundScore(s.Embeddings)
		case "embeddingModel":
			v = s.EmbeddingModel
		case "embedding":
			v = s.Embedding
		case "index":
			v = s.Index
		case "indexBytes":
			v = s.IndexBytes
		case "watcher":
			v = s.Watcher
		case "lastSync":
			v = ""
			if !s.LastSync.IsZero() {
				v = s.LastSync.UTC().Format("2006-01-02T15:04:05Z")
			}
		case "loadTimeMs":
			v = s.LoadTimeMs
		case "notesWithWarnings":
			v = s.NotesWithWarnings
		case "problemCount":
			v = len(s.Problems)
		case "problems":
			rows := make([]any, len(s.Problems))
			for i, pr := range s.Problems {
				rows[i] = toon.Object{{Key: "path", Value: pr.Path}, {Key: "reason", Value: pr.Reason}}
			}
			v = rows
		case "duplicateNameCount":
			v = len(s.DuplicateNames)
		case "duplicateNames":
			rows := make([]any, len(s.DuplicateNames))
			for i, d := range s.DuplicateNames {
				rows[i] = toon.Object{{Key: "name", Value: d.Name}, {Key: "ids", Value: strings.Join(d.IDs, "; ")}}
			}
			v = rows
		default:
			continue
		}
		a.head = append(a.head, toon.Field{Key: name, Value: v})
	}
	return a
}

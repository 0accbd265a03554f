package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/toon"
)

var listNodesFields = rowFields(nil)

func listNodesTool() *toolDef {
	date := "Date, YYYY-MM-DD"
	return def((*Tools).ListNodes, FormatTOON, listNodesFields,
		pagedTool("list_nodes", vaultgraph.NoteList,
			mcpgo.WithDescription("Browse notes by folder, tags, properties, dates, link problems."),
			mcpgo.WithString("folder", mcpgo.Description(descFolder)),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description(descTags)),
			mcpgo.WithString("tagMode", enum(vaultgraph.TagModes, descTagMode)...),
			mcpgo.WithObject("properties", mcpgo.Description("Frontmatter values to equal"), noProperties),
			mcpgo.WithString("createdAfter", mcpgo.Description(date)),
			mcpgo.WithString("createdBefore", mcpgo.Description(date)),
			mcpgo.WithString("modifiedAfter", mcpgo.Description(date)),
			mcpgo.WithString("modifiedBefore", mcpgo.Description(date)),
			mcpgo.WithBoolean("orphans", mcpgo.Description("No links in or out")),
			mcpgo.WithBoolean("brokenLinks", mcpgo.Description("Links to no note")),
			mcpgo.WithBoolean("brokenAnchors", mcpgo.Description("Links to a missing heading or ^block")),
		))
}

// ListNodesParams are list_nodes' parameters.
type ListNodesParams struct {
	Folder         string         `json:"folder"`
	Tags           []string       `json:"tags"`
	TagMode        string         `json:"tagMode"`
	Properties     PropertyFilter `json:"properties"`
	CreatedAfter   string         `json:"createdAfter"`
	CreatedBefore  string         `json:"createdBefore"`
	ModifiedAfter  string         `json:"modifiedAfter"`
	ModifiedBefore string         `json:"modifiedBefore"`
	Orphans        bool           `json:"orphans"`
	BrokenLinks    bool           `json:"brokenLinks"`
	BrokenAnchors  bool           `json:"brokenAnchors"`
	Paging
	Presentation
}

// ListNodes browses notes with filters, sorting and pages.
func (t *Tools) ListNodes(ctx context.Context, p ListNodesParams) (any, error) {
	q := vaultgraph.ListQuery{
		Folder: p.Folder, Tags: p.Tags, TagMode: vaultgraph.TagMode(p.TagMode),
		Properties: p.Properties, Orphans: p.Orphans, BrokenLinks: p.BrokenLinks, BrokenAnchors: p.BrokenAnchors,
		SortBy: p.SortBy, Page: p.Page, Limit: p.Limit,
		Brief: true, // rows: listItem (listPage)
	}
	var err error
	for _, d := range []struct {
		name     string
		in       string
		out      *time.Time
		endOfDay bool
	}{
		{"createdAfter", p.CreatedAfter, &q.CreatedAfter, false},
		{"createdBefore", p.CreatedBefore, &q.CreatedBefore, true},
		{"modifiedAfter", p.ModifiedAfter, &q.ModifiedAfter, false},
		{"modifiedBefore", p.ModifiedBefore, &q.ModifiedBefore, true},
	} {
		if *d.out, err = parseDate(d.name, d.in, d.endOfDay); err != nil {
			return nil, err
		}
	}
	res, err := t.Engine.ListNodes(ctx, q)
	if err != nil {
		return nil, err
	}
	return t.listPage(ctx, listNodesFields, res, p.Presentation)
}

// parseDate reads a date or date-time parameter; "" is the zero time. A
// date without a time is an upper bound's last instant when endOfDay is
// set, so that "before 2024-06-01" includes that whole day.
func parseDate(name, s string, endOfDay bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			if endOfDay && layout == time.DateOnly {
				t = t.AddDate(0, 0, 1).Add(-time.Nanosecond)
			}
			return t, nil
		}
	}
	return time.Time{}, invalid(name, "%q is not a date: use YYYY-MM-DD or RFC 3339", s)
}

// PropertyFilter is list_nodes' properties: each key's value must equal
// the note's. A value may be given typed, as JSON has it (2, true) or as
// text ("2", "true"): both match the same notes.
type PropertyFilter map[string]string

// UnmarshalJSON reads an object of strings, numbers and booleans.
func (f *PropertyFilter) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return invalid("properties", `use an object of values, e.g. {"status":"active","priority":2}`)
	}
	out := make(PropertyFilter, len(raw))
	for k, v := range raw {
		x, err := toon.FromJSON(v) // v is valid JSON: an error is in a nested value
		switch x := x.(type) {
		case string:
			out[k] = x
		case json.Number:
			out[k] = x.String()
		case bool:
			out[k] = strconv.FormatBool(x)
		default:
			if x != nil || err != nil {
				return invalid("properties", "%s: use a string, number or boolean", k)
			}
			out[k] = "" // null
		}
	}
	*f = out
	return nil
}

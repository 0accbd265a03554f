package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/toon"
	"github.com/vaultgraph/vaultgraph/vault"
)

// CreateNodeParams are create_node's parameters.
type CreateNodeParams struct {
	Title     string   `json:"title"`
	Content   string   `json:"content"`
	Tags      []string `json:"tags"`
	Directory string   `json:"directory"`
	// Properties is a JSON object of frontmatter properties, kept in order.
	Properties json.RawMessage `json:"properties"`
	Presentation
}

// UpdateNodeParams are update_node's parameters; absent ones leave the
// note as it is.
type UpdateNodeParams struct {
	ID         string          `json:"id"`
	Title      *string         `json:"title"`
	Directory  *string         `json:"directory"`
	Content    *string         `json:"content"`
	Tags       *[]string       `json:"tags"`
	Properties json.RawMessage `json:"properties"`
	IfMatch    string          `json:"ifMatch"`
	DryRun     bool            `json:"dryRun"`

	// RenameHeading renames a heading and rewrites the links to it.
	RenameHeading *vaultgraph.HeadingRename `json:"renameHeading"`
	Presentation
}

// DeleteNodeParams are delete_node's parameters.
type DeleteNodeParams struct {
	ID      string `json:"id"`
	IfMatch string `json:"ifMatch"`
	Presentation
}

// WriteResponse is the answer of a write tool.
type WriteResponse struct {
	vaultgraph.WriteResult
}

// CreateNode writes a new note.
func (t *Tools) CreateNode(ctx context.Context, p CreateNodeParams) (any, error) {
	props, err := properties(p.Properties)
	if err = cmp.Or(required("title", p.Title, "the note's title, which names its file"), err); err != nil {
		return nil, err
	}
	return written(t.Engine.CreateNode(ctx, vaultgraph.NewNote{
		Title: p.Title, Content: p.Content, Tags: p.Tags, Directory: p.Directory, Properties: props,
	}))
}

// UpdateNode changes, renames or moves a note, rewriting links to it.
func (t *Tools) UpdateNode(ctx context.Context, p UpdateNodeParams) (any, error) {
	props, err := properties(p.Properties)
	if err = cmp.Or(required("id", p.ID, "the note to update"), err); err != nil {
		return nil, err
	}
	if r := p.RenameHeading; r != nil && strings.TrimSpace(r.From) == "" && strings.TrimSpace(r.To) == "" {
		p.RenameHeading = nil // {} or empty strings: not given
	}
	return written(t.Engine.UpdateNode(ctx, vaultgraph.NoteUpdate{
		ID: p.ID, Title: p.Title, Directory: p.Directory, Content: p.Content, Tags: p.Tags,
		Properties: props, RenameHeading: p.RenameHeading, IfMatch: p.IfMatch, DryRun: p.DryRun,
	}))
}

// DeleteNode removes a note; a missing one is not an error.
func (t *Tools) DeleteNode(ctx context.Context, p DeleteNodeParams) (any, error) {
	if err := required("id", p.ID, "the note to delete"); err != nil {
		return nil, err
	}
	res, err := t.Engine.DeleteNode(ctx, p.ID, p.IfMatch)
	if err == nil && !res.Deleted {
		res.Warnings = append(res.Warnings, missing(p.ID).Warnings...)
	}
	return written(res, err)
}

// written is a write's answer: res, or the error err.
func written(res *vaultgraph.WriteResult, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return &WriteResponse{*res}, nil
}

// properties reads a JSON object of properties in its key order. A value
// written as a date (YYYY-MM-DD) becomes a date; null removes the key.
func properties(raw json.RawMessage) ([]vault.Property, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	v, err := toon.FromJSON(raw)
	if err != nil {
		return nil, invalid("properties", "%v", err)
	}
	obj, ok := v.(toon.Object)
	if !ok {
		return nil, invalid("properties", "use an object of key: value, e.g. {\"status\":\"done\"}")
	}
	out := make([]vault.Property, 0, len(obj))
	for _, f := range obj {
		val, err := propertyFromJSON(f.Value)
		if err != nil {
			return nil, invalid("properties", "%s: %v", f.Key, err)
		}
		out = append(out, vault.Property{Key: f.Key, Value: val})
	}
	return out, nil
}

func propertyFromJSON(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, fmt.Errorf("number %s: %w", x, err)
		}
		return f, nil
	case string:
		if d, err := time.Parse(time.DateOnly, x); err == nil {
			return d, nil
		}
		return x, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			val, err := propertyFromJSON(e)
			if err != nil {
				return nil, err
			}
			out[i] = val
		}
		return out, nil
	case toon.Object:
		return nil, fmt.Errorf("nested objects are not supported in properties")
	}
	return v, nil // nil, bool
}

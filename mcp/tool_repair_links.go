package mcp

import (
	"context"
	"slices"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/toon"
)

func repairLinksTool() *toolDef {
	return def((*Tools).RepairLinks, FormatTOON, nil,
		writeTool("repair_links", true, false,
			mcpgo.WithDescription("Fix links left at a note's old path by a rename made outside vaultgraph (mv, git mv, sync): lists the repairs and link changes, or applies them as update_node renames. An ambiguous repair needs from and to."),
			mcpgo.WithString("from", mcpgo.Description("Old path or name; none = all")),
			mcpgo.WithString("to", mcpgo.Description("New path")),
			mcpgo.WithBoolean("apply", mcpgo.Description("Write; else a dry run")),
		))
}

// RepairLinksParams are repair_links' parameters.
type RepairLinksParams struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Apply bool   `json:"apply"`
	Presentation
}

// RepairResponse is repair_links' answer.
type RepairResponse struct {
	vaultgraph.RepairResult
}

// RepairLinks lists or applies the repairs of renames made outside
// vaultgraph.
func (t *Tools) RepairLinks(ctx context.Context, p RepairLinksParams) (any, error) {
	res, err := t.Engine.RepairLinks(ctx, vaultgraph.RepairRequest{From: p.From, To: p.To, Apply: p.Apply})
	if err != nil {
		return nil, err
	}
	return &RepairResponse{*res}, nil
}

// shapeRepair shapes repair_links' answer: the repairs, then the files
// and links as a write lists them.
func shapeRepair(d *toolDef, r *RepairResponse, p Presentation) *answer {
	a := shapeWrite(d, &WriteResponse{vaultgraph.WriteResult{Files: r.Files, DryRun: r.DryRun, Warnings: r.Warnings}}, p)
	rows := make([]any, 0, len(r.Repairs))
	for _, x := range r.Repairs {
		state := "ready"
		switch {
		case x.Ambiguous:
			state = "ambiguous"
		case x.Similar:
			state = "similar content"
		}
		rows = append(rows, toon.Object{{Key: "from", Value: x.From}, {Key: "to", Value: x.To},
			{Key: "links", Value: x.Links}, {Key: "state", Value: state}})
	}
	a.head = slices.Insert(a.head, 0, toon.Field{Key: "repairs", Value: rows})
	return a
}

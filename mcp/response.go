package mcp

import (
	"fmt"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// NodeResponse is a note as tools return it (seed 004's NodeResponse and
// its extensions). Empty optional fields are left out.
type NodeResponse struct {
	ID          string                `json:"id"`
	Title       string                `json:"title"`
	Direction   string                `json:"direction,omitempty"`
	Content     *string               `json:"content,omitempty"`
	Tags        []string              `json:"tags"`
	Links       []vaultgraph.LinkInfo `json:"links"`
	Aliases     []string              `json:"aliases,omitempty"`
	Properties  Properties            `json:"properties,omitempty"`
	BrokenLinks []string              `json:"brokenLinks,omitempty"`
	Attachments []string              `json:"attachments,omitempty"`
	Created     string                `json:"created,omitempty"`
	Modified    string                `json:"modified,omitempty"`
	Hash        string                `json:"hash,omitempty"`
	Size        int64                 `json:"size"`
	InDegree    int                   `json:"inDegree"`
	OutDegree   int                   `json:"outDegree"`
	// Score is a hub's metric value or a search score.
	Score *float64 `json:"score,omitempty"`
	// Snippet is the text around a search hit's matching words.
	Snippet string `json:"snippet,omitempty"`
	// Distance, Shared and Via say why a note is related (get_related):
	// the fewest links from a seed, how many of the seeds' neighbours it
	// is linked with, and the titles of some of them.
	Distance *int   `json:"distance,omitempty"`
	Shared   *int   `json:"shared,omitempty"`
	Via      string `json:"via,omitempty"`
	// Context is the sentence holding a neighbour's link to the note
	// asked about, the link in **bold** (incoming neighbours).
	Context string `json:"context,omitempty"`

	// Mentions are the unlinked mentions of the note in other notes
	// (get_node at full detail, or the mentions field).
	Mentions []vaultgraph.Mention `json:"mentions,omitempty"`

	IncomingCount *int           `json:"incomingCount,omitempty"`
	OutgoingCount *int           `json:"outgoingCount,omitempty"`
	Neighbors     []NodeResponse `json:"neighbors,omitempty"`
	Warnings      []string       `json:"warnings,omitempty"`
	// Hint says which call gives more (the neighbours a depth-1 answer
	// leaves out).
	Hint string `json:"hint,omitempty"`
}

// ListResponse is a page of notes.
type ListResponse struct {
	// Metric is the hub metric the nodes' scores are (get_hubs).
	Metric string `json:"metric,omitempty"`
	// Seeds are the notes get_related started from.
	Seeds []string       `json:"seeds,omitempty"`
	Nodes []NodeResponse `json:"nodes"`
	PageInfo
	Warnings []string `json:"warnings,omitempty"`
}

// PageInfo is where a page of a list stands: the list's total, the page
// (from 1) of how many, and the hint that says how to see more.
type PageInfo struct {
	Total      int    `json:"total"`
	Page       int    `json:"page,omitempty"`
	TotalPages int    `json:"totalPages,omitempty"`
	Hint       string `json:"hint,omitempty"`
}

// pageInfo is the place of the Engine's page p, with its hint.
func pageInfo(p vaultgraph.Pages) PageInfo {
	return PageInfo{Total: p.Total, Page: p.Page, TotalPages: p.TotalPages, Hint: pageHint(p.Page, p.TotalPages)}
}

// nodeResponse shapes an Engine node, with its content cut to limit
// characters (content left out when limit is 0).
func nodeResponse(n *vaultgraph.Node, limit int) NodeResponse {
	r := NodeResponse{
		ID:          n.ID,
		Title:       n.Title,
		Tags:        n.Tags,
		Links:       n.Links,
		Aliases:     n.Aliases,
		Properties:  Properties(n.Properties),
		BrokenLinks: n.Broken,
		Attachments: n.Attachments,
		Created:     formatTime(n.Created),
		Modified:    formatTime(n.Modified),
		Hash:        n.Hash,
		Size:        n.Size,
		InDegree:    n.InDegree,
		OutDegree:   n.OutDegree,
		Warnings:    n.Warnings,
	}
	if limit > 0 {
		c := Truncate(n.Content, limit)
		r.Content = &c
	}
	return r
}

// formatTime writes a date without a time when it has none.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// Properties are frontmatter properties; they marshal to a JSON object
// that keeps the file's key order.
type Properties []vault.Property

// MarshalJSON writes the properties as an object in file order, their
// values as the answers give them (see value).
func (p Properties) MarshalJSON() ([]byte, error) {
	b, err := propertiesObject(p).MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("properties: %w", err)
	}
	return b, nil
}

// TagsResponse is a page of tags with their note counts.
type TagsResponse struct {
	Tags []vaultgraph.TagCount `json:"tags"`
	PageInfo
}

// MissingResponse is the answer of a tool whose id matches no note:
// warnings that name it. A plain null answer means "no result" (no path,
// no note with the tags), never a mistyped id.
type MissingResponse struct {
	Warnings []string `json:"warnings"`
}

// missing is the answer for ids that match no note.
func missing(ids ...string) *MissingResponse {
	r := &MissingResponse{}
	for _, id := range ids {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no note matches %q", id))
	}
	return r
}

// pageHint is the one line that tells the caller how to get more.
func pageHint(page, totalPages int) string {
	if page < totalPages {
		return fmt.Sprintf("page %d of %d: pass {page: %d} for more", page, totalPages, page+1)
	}
	return ""
}

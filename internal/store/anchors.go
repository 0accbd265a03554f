package store

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// A note's headings and block ids are kept in one text column, notes.
// anchors, one per line, so that they cost a few bytes per heading:
//
//	LEVEL LINE START END TEXT   a heading
//	^ID                          a block id
//
// with '\' and newlines in TEXT or ID escaped as \\ and \n. NULL means
// the row was written before schema 4 and its anchors are not known.

var (
	anchorEscaper   = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	anchorUnescaper = strings.NewReplacer(`\\`, `\`, `\n`, "\n")
)

// encodeAnchors is the anchors column of n.
func encodeAnchors(n *vault.Note) string {
	var b strings.Builder
	for _, h := range n.Headings {
		fmt.Fprintf(&b, "%d %d %d %d %s\n", h.Level, h.Line, h.Start, h.End, anchorEscaper.Replace(h.Text))
	}
	for _, id := range n.BlockIDs {
		b.WriteString("^" + anchorEscaper.Replace(id) + "\n")
	}
	return b.String()
}

// decodeAnchors sets n's Headings and BlockIDs from its anchors column.
func decodeAnchors(s string, n *vault.Note) error {
	for line := range strings.Lines(s) {
		line = strings.TrimSuffix(line, "\n")
		if id, ok := strings.CutPrefix(line, "^"); ok {
			n.BlockIDs = append(n.BlockIDs, anchorUnescaper.Replace(id))
			continue
		}
		f := strings.SplitN(line, " ", 5)
		if len(f) != 5 {
			return fmt.Errorf("index anchors of %s: bad line %q", n.ID, line)
		}
		var nums [4]int
		for i := range nums {
			v, err := strconv.Atoi(f[i])
			if err != nil {
				return fmt.Errorf("index anchors of %s: %w", n.ID, err)
			}
			nums[i] = v
		}
		n.Headings = append(n.Headings, vault.Heading{
			Level: nums[0], Line: nums[1], Start: nums[2], End: nums[3], Text: anchorUnescaper.Replace(f[4]),
		})
	}
	return nil
}

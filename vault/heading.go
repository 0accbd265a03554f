package vault

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Heading is one heading of a note, ATX ("## Text") or setext.
type Heading struct {
	// Level is 1 to 6.
	Level int `json:"level"`
	// Text is the heading's text as written (markup kept), without the
	// '#' markers, the closing '#' sequence and surrounding spaces: what
	// Obsidian puts after '#' in a link to it.
	Text string `json:"text"`
	// Line is the 1-based line of the heading.
	Line int `json:"line"`
	// Start and End are the byte range of Text in the file (for a setext
	// heading of several lines, from the first line's text to the last's).
	Start int `json:"start"`
	End   int `json:"end"`
}

// heading records an ATX or setext heading.
func (c *collector) heading(h *ast.Heading) {
	lines := h.Lines()
	if lines.Len() == 0 {
		return
	}
	body := c.src[c.off:]
	first, last := lines.At(0), lines.At(lines.Len()-1)
	parts := make([]string, 0, lines.Len())
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		parts = append(parts, strings.TrimSpace(string(seg.Value(body))))
	}
	text := strings.TrimSpace(strings.Join(parts, " "))
	if text == "" {
		return
	}
	start := c.off + first.Start
	for start < c.off+last.Stop && isSpaceByte(c.src[start]) {
		start++
	}
	end := c.off + last.Stop
	for end > start && isSpaceByte(c.src[end-1]) {
		end--
	}
	c.note.Headings = append(c.note.Headings, Heading{
		Level: h.Level,
		Text:  validUTF8(text),
		Line:  c.lines.line(start),
		Start: start,
		End:   end,
	})
}

// blockID records the "^id" that ends a paragraph or list item's text,
// Obsidian's block identifier ("text ^id", or "^id" on its own line after
// the block).
func (c *collector) blockID(n ast.Node) {
	if id, ok := blockIDOf(n, c.src[c.off:]); ok {
		c.note.BlockIDs = append(c.note.BlockIDs, id)
	}
}

// blockIDOf returns the "^id" that ends the last line of the block n of
// the parsed body.
func blockIDOf(n ast.Node, body []byte) (string, bool) {
	lines := n.Lines()
	if lines.Len() == 0 {
		return "", false
	}
	last := lines.At(lines.Len() - 1)
	return trailingBlockID(bytes.TrimRight(last.Value(body), " \t\r\n"))
}

// trailingBlockID returns the id of a "^id" at the end of line, preceded
// by a space or at the line's start. An id is ASCII letters, digits and
// '-', as Obsidian writes and accepts them.
func trailingBlockID(line []byte) (string, bool) {
	i := len(line)
	for i > 0 && isBlockIDByte(line[i-1]) {
		i--
	}
	if i == len(line) || i == 0 || line[i-1] != '^' {
		return "", false
	}
	if caret := i - 1; caret > 0 && line[caret-1] != ' ' && line[caret-1] != '\t' {
		return "", false
	}
	return string(line[i:]), true
}

func isBlockIDByte(b byte) bool {
	return b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

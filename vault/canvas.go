package vault

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrBadCanvas is a .canvas file that is not a JSON Canvas document (not
// valid JSON, or not an object): it is left as it is.
var ErrBadCanvas = errors.New("not a valid JSON canvas")

// CanvasExt is the extension of Obsidian's canvas files (JSON Canvas).
const CanvasExt = ".canvas"

// IsCanvas reports whether the vault path p names a canvas file.
func IsCanvas(p string) bool {
	return len(p) >= len(CanvasExt) && strings.EqualFold(p[len(p)-len(CanvasExt):], CanvasExt)
}

// Canvas is what a rename needs of a JSON Canvas document: its "file"
// nodes, which show a note or an attachment by vault path, and its "text"
// nodes, whose markdown can hold links.
type Canvas struct {
	Files []CanvasString
	Texts []CanvasString
}

// CanvasString is one JSON string value of a canvas: Value as decoded,
// and where the string (quotes included) sits in the file's bytes.
type CanvasString struct {
	Value      string
	Start, End int
	Line       int
	// Subpath is, for a file node, its "subpath" member ("#Heading",
	// "#^block"), or nil.
	Subpath *CanvasString
}

// ParseCanvas reads a JSON Canvas document: {"nodes":[{"type":"file",
// "file":"Note.md",...},{"type":"text","text":"...",...}],"edges":[...]}.
// Only the nodes' "type", "file" and "text" members are read. Data that
// is not valid JSON, or not an object, is ErrBadCanvas.
func ParseCanvas(data []byte) (*Canvas, error) {
	if !json.Valid(data) {
		return nil, fmt.Errorf("%w: not valid JSON", ErrBadCanvas)
	}
	cr := &canvasReader{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	cr.dec.UseNumber()
	if cr.token() != json.Delim('{') && cr.err == nil {
		return nil, fmt.Errorf("%w: not a JSON object", ErrBadCanvas)
	}
	c := &Canvas{}
	for cr.err == nil && cr.dec.More() {
		key := cr.token()
		if tok := cr.token(); key == "nodes" && tok == json.Delim('[') {
			cr.nodes(c)
		} else {
			cr.skip(tok)
		}
	}
	if cr.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadCanvas, cr.err)
	}
	return c, nil
}

// canvasReader walks a canvas's JSON tokens. Its first error stops the
// walk: err holds it, and every token read after it is nil.
type canvasReader struct {
	data []byte
	dec  *json.Decoder
	err  error
}

// token reads the next token.
func (cr *canvasReader) token() json.Token {
	if cr.err != nil {
		return nil
	}
	tok, err := cr.dec.Token()
	cr.err = err
	return tok
}

// skip reads the rest of the value that begins with tok.
func (cr *canvasReader) skip(tok json.Token) {
	for depth := 0; cr.err == nil; tok = cr.token() {
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return
		}
	}
}

// nodes reads the elements of the "nodes" array and its closing bracket.
func (cr *canvasReader) nodes(c *Canvas) {
	for cr.err == nil && cr.dec.More() {
		if tok := cr.token(); tok == json.Delim('{') {
			cr.node(c)
		} else {
			cr.skip(tok)
		}
	}
	cr.token() // ']'
}

// node reads the members of one node and its closing brace. With
// repeated members, the last counts, as in JSON.parse.
func (cr *canvasReader) node(c *Canvas) {
	var typ string
	var file, text, subpath *CanvasString
	for cr.err == nil && cr.dec.More() {
		key := cr.token()
		from := int(cr.dec.InputOffset())
		tok := cr.token()
		s, ok := tok.(string)
		if !ok {
			cr.skip(tok)
			continue
		}
		switch key {
		case "type":
			typ = s
		case "file", "text", "subpath":
			// Between the key and its value come only blanks and ':'.
			start := from + bytes.IndexByte(cr.data[from:], '"')
			v := &CanvasString{Value: s, Start: start, End: int(cr.dec.InputOffset())}
			v.Line = 1 + bytes.Count(cr.data[:start], []byte("\n"))
			switch key {
			case "file":
				file = v
			case "text":
				text = v
			default:
				subpath = v
			}
		}
	}
	cr.token() // '}'
	switch {
	case cr.err != nil:
	case typ == "file" && file != nil:
		file.Subpath = subpath
		c.Files = append(c.Files, *file)
	case typ == "text" && text != nil:
		c.Texts = append(c.Texts, *text)
	}
}

// QuoteJSON returns s as a JSON string, quotes included, escaping only
// what JSON requires (as JavaScript's JSON.stringify, which Obsidian
// uses, does; also U+2028 and U+2029).
func QuoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// RetargetCanvasFiles returns the edits that make every file node of c
// showing the vault path oldPath (compared exactly, after JSON decoding,
// as Obsidian does) show newPath. Each edit replaces the JSON string and
// nothing else.
func RetargetCanvasFiles(c *Canvas, oldPath, newPath string) []Edit {
	var out []Edit
	for _, f := range c.Files {
		if f.Names(oldPath) {
			out = append(out, Edit{Start: f.Start, End: f.End, Text: QuoteJSON(newPath)})
		}
	}
	return out
}

// CanvasShows reports whether a file node of c shows the vault path p.
func CanvasShows(c *Canvas, p string) bool {
	return slices.ContainsFunc(c.Files, func(f CanvasString) bool { return f.Names(p) })
}

// Names reports whether the string is the vault path p: exactly, as
// Obsidian compares, or spelled in another Unicode normal form (vault
// paths are NFC).
func (s CanvasString) Names(p string) bool { return s.Value == p || NFC(s.Value) == p }

package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// Response formats.
const (
	FormatTOON     = "toon"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Detail presets.
const (
	DetailMinimal  = "minimal"
	DetailStandard = "standard"
	DetailFull     = "full"
)

// Formats are the response formats, JSON for a tool that names no
// default; Details the detail presets.
var (
	Formats = vaultgraph.Choice[string]{Values: []string{FormatTOON, FormatMarkdown, FormatJSON}, Default: FormatJSON}
	Details = vaultgraph.Choice[string]{Values: []string{DetailMinimal, DetailStandard, DetailFull}, Default: DetailStandard}
)

// Bounds of maxTokens.
const (
	MinMaxTokens = 50
	MaxMaxTokens = 1_000_000
)

// Presentation holds the parameters every read tool takes to shape its
// answer: format, detail preset, explicit fields and a token budget. Tool
// parameter structs embed it.
type Presentation struct {
	// Format is toon, markdown or json; "" picks the tool's default.
	Format string `json:"format"`
	// Detail is minimal, standard (default) or full.
	Detail string `json:"detail"`
	// Fields, when not empty, replaces the detail preset's field set.
	Fields []string `json:"fields"`
	// MaxTokens, when set, trims the answer to at most this many o200k
	// tokens.
	MaxTokens int `json:"maxTokens"`
	// Flags is set by the command line: hints then name its flags and
	// sub-commands (--page 2, get-neighbors), not MCP parameters and tools.
	Flags bool `json:"-"`
}

// presentation lets a handler find the Presentation embedded in any tool's
// parameters.
func (p Presentation) presentation() Presentation { return p }

type presenter interface{ presentation() Presentation }

// check validates the presentation parameters and fills in defaults: a
// tool's default format is def ("" for JSON).
func (p Presentation) check(def string) (Presentation, error) {
	var err error
	switch p.Format = strings.ToLower(strings.TrimSpace(p.Format)); p.Format {
	case "":
		p.Format = def
	case "md":
		p.Format = FormatMarkdown
	}
	if p.Format, err = Formats.Parse("format", p.Format); err != nil {
		return p, err
	}
	if p.Detail, err = Details.Parse("detail", strings.ToLower(strings.TrimSpace(p.Detail))); err != nil {
		return p, err
	}
	if p.MaxTokens != 0 {
		if err := vaultgraph.InRange("maxTokens", p.MaxTokens, new(MinMaxTokens), new(MaxMaxTokens)); err != nil {
			return p, err
		}
	}
	// "a,b" in one entry is two fields (the CLI flag and lazy callers).
	p.Fields = vaultgraph.SplitList(p.Fields)
	return p, nil
}

// Render shapes the answer v of tool (a value a Tools method returned;
// nil for a not-found read) as text in the chosen format, with the chosen
// fields, within the token budget.
func Render(tool string, v any, p Presentation) (string, error) {
	d := lookup(tool)
	if d == nil {
		return "", fmt.Errorf("render: no tool %q", tool)
	}
	return d.render(v, p)
}

// render shapes the answer v of tool d as Render does.
func (d *toolDef) render(v any, p Presentation) (string, error) {
	p, err := p.check(d.format)
	if err != nil {
		return "", err
	}
	if isNil(v) {
		return "null", nil
	}
	a, err := shape(d, v, p)
	if err != nil {
		return "", err
	}
	a.allFields, a.flags = p.Detail == DetailFull && len(p.Fields) == 0, p.Flags
	return a.fit(p)
}

// render writes the answer, cut as c says, in format. A TOON encoding
// failure falls back to JSON with a warning: never an empty answer.
func (a *answer) render(format string, c cut) (string, error) {
	switch format {
	case FormatMarkdown:
		return a.markdown(c), nil
	case FormatTOON:
		s, err := toon.Encode(flatRows(a.tree(c), a.rowsKey), toon.Options{})
		if err == nil {
			return s, nil
		}
		b := *a
		b.warnings = append(slices.Clone(a.warnings), fmt.Sprintf("TOON encoding failed (%v); this answer is JSON", err))
		return b.render(FormatJSON, c)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a.tree(c)); err != nil {
		return "", fmt.Errorf("encode answer: %w", err)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// isNil reports a not-found read: nil or a nil pointer.
func isNil(v any) bool {
	rv := reflect.ValueOf(v)
	return v == nil || rv.Kind() == reflect.Pointer && rv.IsNil()
}

// wants reports whether an answer with the fields s shows field (so
// that a tool reads note content only when it is shown).
func (p Presentation) wants(s *fieldSet, field string) bool {
	c, err := p.check("")
	if err != nil {
		return true // the error is reported when rendering
	}
	names, _ := s.pick("", c)
	return slices.Contains(names, field)
}

// wantsRow reports whether the neighbour rows of an answer with the
// fields s (get_node's) show field.
func (p Presentation) wantsRow(s *fieldSet, field string) bool {
	c, err := p.check("")
	return err != nil || slices.Contains(s.neighborFields(c), field)
}

// SortKeys are sort keys: a JSON list of strings or one string of
// comma-separated keys, each optionally prefixed with '-' (descending).
type SortKeys []string

// UnmarshalJSON accepts "key", "-a,b" or ["-a","b"].
func (s *SortKeys) UnmarshalJSON(b []byte) error {
	var one string
	var list []string
	if err := json.Unmarshal(b, &one); err == nil {
		list = []string{one}
	} else if err := json.Unmarshal(b, &list); err != nil {
		return invalid("sortBy", "use a string or a list of strings, e.g. [\"-modified\",\"title\"]")
	}
	*s = vaultgraph.SplitList(list)
	return nil
}

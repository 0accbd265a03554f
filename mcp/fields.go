package mcp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ShortContentChars is a list row's content at standard detail; full
// detail gives ListContentChars.
const ShortContentChars = 200

// fieldSet is the fields one tool's answer can carry, in the order they
// are written, and its detail presets (full is every field). Each read
// tool's descriptor holds its own (README "Detail presets and fields"
// documents them).
type fieldSet struct {
	all               []string
	minimal, standard []string
	// always are written whatever the preset or fields (a row's direction
	// or score).
	always []string
	// rows are the fields of the answer's rows of neighbours (get_node
	// with depth 1); nil when it has none. A field of theirs is not
	// warned about as unknown.
	rows *fieldSet
	// titleIfNew leaves the title out of a preset's rows when every
	// row's title is its file name, which the id already shows.
	titleIfNew bool
}

// The fields of a single note (get_node, random_node). Standard detail
// has the hash, so that an agent can pass ifMatch without another read.
var noteFields = &fieldSet{
	all:      []string{"id", "title", "aliases", "tags", "properties", "created", "modified", "size", "hash", "inDegree", "outDegree", "links", "brokenLinks", "attachments", "content", "mentions"},
	minimal:  []string{"id", "title"},
	standard: []string{"id", "title", "tags", "hash", "content"},
}

// noteRowOrder is the order of the fields of a row of notes; of
// rowOwnFields, a row has only those its tool names.
var (
	noteRowOrder = []string{"id", "title", "direction", "score", "distance", "shared", "via", "tags", "aliases", "created", "modified", "size", "hash", "inDegree", "outDegree", "snippet", "context", "content", "properties"}
	rowOwnFields = []string{"direction", "score", "distance", "shared", "via", "snippet", "context"}
	// rowAlways are the own fields written whatever is chosen.
	rowAlways = []string{"direction", "score"}
)

// rowFields are the fields of a list of notes whose rows also have own
// (some of rowOwnFields), with the standard preset standard (nil: id,
// title, tags and content).
func rowFields(standard []string, own ...string) *fieldSet {
	if standard == nil {
		standard = []string{"id", "title", "tags", "content"}
	}
	s := &fieldSet{minimal: []string{"id", "title"}, standard: standard}
	for _, f := range noteRowOrder {
		if slices.Contains(rowOwnFields, f) && !slices.Contains(own, f) {
			continue
		}
		s.all = append(s.all, f)
		if slices.Contains(rowAlways, f) {
			s.always = append(s.always, f)
		}
	}
	return s
}

// preset is the field set of a detail preset.
func (s *fieldSet) preset(detail string) []string {
	switch detail {
	case DetailMinimal:
		return s.withAlways(s.minimal)
	case DetailFull:
		return s.all
	}
	return s.withAlways(s.standard)
}

// withAlways is names with the always-written fields added, in the
// order of s.
func (s *fieldSet) withAlways(names []string) []string {
	var out []string
	for _, f := range s.all {
		if slices.Contains(names, f) || slices.Contains(s.always, f) {
			out = append(out, f)
		}
	}
	return out
}

// pick resolves the presentation to the fields of s, in order, with
// warnings for unknown names (tool names the tool in them). A name that
// the rows of the answer have is not unknown.
func (s *fieldSet) pick(tool string, p Presentation) ([]string, []string) {
	if len(p.Fields) == 0 {
		return s.preset(p.Detail), nil
	}
	var chosen, unknown []string
	for _, f := range p.Fields {
		if name, ok := s.find(f); ok {
			chosen = append(chosen, name)
		} else if _, ok := s.rows.find(f); !ok {
			unknown = append(unknown, f)
		}
	}
	var warnings []string
	if len(unknown) > 0 {
		warnings = append(warnings, fmt.Sprintf("fields: %s ignored: %s has %s", quoteList(unknown), tool, strings.Join(s.all, ", ")))
	}
	if len(chosen) == 0 && s.rows == nil {
		warnings = append(warnings, "fields: none known, so the "+p.Detail+" preset is used")
		return s.preset(p.Detail), warnings
	}
	return s.withAlways(chosen), warnings
}

// neighborFields are the fields of the answer's neighbour rows (get_node
// with depth 1): the requested fields that rows have, else the detail
// preset's.
func (s *fieldSet) neighborFields(p Presentation) []string {
	names, _ := s.rows.pick("", p)
	if len(p.Fields) > 0 && len(names) <= 1 { // only direction: use the preset
		names = s.rows.preset(p.Detail)
	}
	return names
}

// find matches a requested field name to one of s (nil: none), ignoring
// case.
func (s *fieldSet) find(name string) (string, bool) {
	if s == nil {
		return "", false
	}
	for _, f := range s.all {
		if strings.EqualFold(f, strings.TrimSpace(name)) {
			return f, true
		}
	}
	return "", false
}

func quoteList(ss []string) string { return strings.Join(mapped(ss, strconv.Quote), ", ") }

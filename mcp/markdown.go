package mcp

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// Markdown answers that summarise data end with a line that says where the
// other fields are: detail full gives every field, format json the same
// fields as data.
const (
	markdownFooter     = "_{detail: full} gives every field; {format: json} gives them as data._"
	markdownFooterFull = "_{format: json} gives these fields as data._"
)

// markdown writes the answer for reading (SPEC "Responses", seed 001): a
// note as a short metadata header and its content as it is; lists as
// numbered lines; a path as arrows; status as key: value lines. The same
// cut applies as for the other formats. It never starts with a blank line.
// Values from the notes are written as safeTree makes them.
func (a *answer) markdown(c cut) string {
	var b strings.Builder
	raw := flatRows(a.tree(c), a.rowsKey)
	t := safeTree(raw)
	rest := t
	switch a.kind {
	case kindNote:
		rest = a.markdownNote(&b, t, raw)
	case kindRows:
		rest = a.markdownRows(&b, t)
	case kindPath:
		rest = markdownPath(&b, t)
	}
	// What is left: status fields, totals, warnings, hint, omitted; set
	// apart from a list or a note's text by a blank line.
	if a.kind != kindStatus && len(rest) > 0 {
		blankLine(&b)
	}
	for _, f := range rest {
		switch f.Key {
		case "warnings":
			for _, w := range f.Value.([]any) {
				fmt.Fprintf(&b, "warning: %s\n", w)
			}
		case "hint":
			fmt.Fprintf(&b, "%s\n", f.Value)
		case "omitted":
			fmt.Fprintf(&b, "_%s_\n", f.Value)
		default:
			if rows, ok := f.Value.([]any); ok && len(rows) > 0 {
				if _, isObj := rows[0].(toon.Object); isObj {
					fmt.Fprintf(&b, "%s:\n", f.Key)
					for _, r := range rows {
						fmt.Fprintf(&b, "- %s\n", inline(r))
					}
					continue
				}
			}
			fmt.Fprintf(&b, "%s: %s\n", f.Key, inline(f.Value))
		}
	}
	// A trimmed answer's omitted line already says how to get the rest.
	if (a.kind == kindNote || a.kind == kindRows) && a.omitted == "" {
		blankLine(&b)
		footer := markdownFooter
		if a.allFields {
			footer = markdownFooterFull
		}
		b.WriteString(say(footer, a.flags))
	}
	return strings.TrimRight(b.String(), "\n")
}

// blankLine ends what b holds with an empty line, unless b is empty or
// already ends with one.
func blankLine(b *strings.Builder) {
	s := b.String()
	switch {
	case s == "", strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		b.WriteString("\n")
	default:
		b.WriteString("\n\n")
	}
}

// markdownNote writes a note: "# Title", one metadata line, the content,
// then its neighbours. t is the answer made safe, raw as it was (the
// title as the note's text has it). It returns the fields left for the
// footer.
func (a *answer) markdownNote(b *strings.Builder, t, raw toon.Object) toon.Object {
	heading, idHeading, meta, rest := noteHead(t)
	// The title as a heading; when the text opens with that heading
	// already, its own line is the heading and the text goes on after the
	// metadata.
	v, hasBody := rest.Get("content")
	body, _ := v.(string)
	if heading != "" {
		rawHeading := fieldString(raw, "title")
		if idHeading {
			rawHeading = fieldString(raw, "id")
		}
		if rest := textfold.DropTitleHeading(body, rawHeading); hasBody && rest != body {
			line, _, _ := strings.Cut(strings.TrimLeft(body, " \t\r\n"), "\n")
			fmt.Fprintf(b, "%s\n", strings.TrimRight(line, "\r"))
			body = rest
		} else {
			fmt.Fprintf(b, "# %s\n", heading)
		}
	}
	if len(meta) > 0 {
		fmt.Fprintf(b, "%s\n", strings.Join(meta, " · "))
	}
	var footer toon.Object
	for _, f := range rest {
		switch f.Key {
		case "properties":
			fmt.Fprintf(b, "properties: %s\n", inline(f.Value))
		case "links":
			if ids := mapped(f.Value.([]any), func(l any) string { return rowID(l.(toon.Object)) }); len(ids) > 0 {
				fmt.Fprintf(b, "links: %s\n", strings.Join(ids, ", "))
			}
		case "content":
			blankLine(b)
			fmt.Fprintf(b, "%s\n", strings.TrimRight(body, "\r\n"))
		case "neighbors":
			rows := f.Value.([]any)
			if len(rows) == 0 && a.omitted != "" {
				continue // all cut: the omitted line says so
			}
			blankLine(b)
			fmt.Fprintf(b, "## Neighbours (%d)\n", len(rows))
			writeRows(b, rows, false)
		case "mentions":
			rows := f.Value.([]any)
			blankLine(b)
			fmt.Fprintf(b, "## Unlinked mentions (%d)\n", len(rows))
			for i, r := range rows {
				m := r.(toon.Object)
				line, _ := m.Get("line")
				fmt.Fprintf(b, "%d. %s line %v: %s\n", i+1, fieldString(m, "source"), line, fieldString(m, "context"))
			}
		case "neighborProperties":
			for _, p := range f.Value.(toon.Object) {
				fmt.Fprintf(b, "properties of %s: %s\n", p.Key, inline(p.Value))
			}
		default:
			footer = append(footer, f)
		}
	}
	return footer
}

// noteHead sorts a note's fields: the heading (the title, else the id,
// then not repeated below it), the metadata line's parts, and the rest.
func noteHead(t toon.Object) (heading string, idHeading bool, meta []string, rest toon.Object) {
	_, hasTitle := t.Get("title")
	idHeading = !hasTitle
	for _, f := range t {
		switch f.Key {
		case "title":
			heading = f.Value.(string)
		case "content", "neighbors", "properties", "neighborProperties", "links", "mentions", "warnings", "hint", "omitted":
			rest = append(rest, f)
		case "incomingCount", "outgoingCount":
			meta = append(meta, fmt.Sprintf("%s: %v", strings.TrimSuffix(f.Key, "Count"), f.Value))
		case "id":
			if idHeading {
				heading = f.Value.(string)
				continue
			}
			meta = append(meta, "id: "+f.Value.(string))
		default:
			if v := inline(f.Value); v != "" {
				meta = append(meta, f.Key+": "+v)
			}
		}
	}
	return heading, idHeading, meta, rest
}

func fieldString(o toon.Object, key string) string {
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}

// markdownRows writes a list: a count line, then one numbered line per
// row; it returns the fields left for the footer.
func (a *answer) markdownRows(b *strings.Builder, t toon.Object) toon.Object {
	v, rest := take(t, a.rowsKey, "properties", "metric", "total", "page", "totalPages")
	rows, _ := v[a.rowsKey].([]any)
	props, _ := v["properties"].(toon.Object)
	total, ok := v["total"].(int)
	if !ok {
		total = -1
	}
	page, _ := v["page"].(int)
	pages, _ := v["totalPages"].(int)
	what := cmp.Or(a.label, a.rowsKey)
	head := fmt.Sprintf("%d %s", len(rows), what)
	if total > len(rows) {
		head = fmt.Sprintf("%d of %d %s", len(rows), total, what)
	}
	if pages > 1 {
		head += fmt.Sprintf(" (page %d of %d)", page, pages)
	}
	fmt.Fprintf(b, "%s\n", head)
	if a.rowsKey == "tags" {
		for _, r := range rows {
			fmt.Fprintf(b, "- %s\n", strings.Join(mapped(r.(toon.Object), func(f toon.Field) string { return inline(f.Value) }), ": "))
		}
	} else {
		writeRows(b, rows, a.relevance)
	}
	for _, p := range props {
		fmt.Fprintf(b, "properties of %s: %s\n", p.Key, inline(p.Value))
	}
	return rest
}

// writeRows writes note rows as numbered lines: title in bold, then the
// other short fields, then the content on its own indented line. Scores
// get a word for their strength only when they are search scores (0-1
// relevance); hub metrics are written as they are.
func writeRows(b *strings.Builder, rows []any, searchScores bool) {
	for i, r := range rows {
		o := r.(toon.Object)
		var title string
		var parts, texts []string // texts: the content, on its own line
		for _, f := range o {
			switch f.Key {
			case "title":
				title = f.Value.(string)
			case "content":
				if s := f.Value.(string); s != "" {
					texts = append(texts, s)
				}
			case "id":
				parts = append([]string{f.Value.(string)}, parts...)
			case "direction":
				parts = append(parts, f.Value.(string))
			case "score":
				s := inline(f.Value)
				if searchScores {
					s = interpretScore(f.Value)
				}
				parts = append(parts, "score "+s)
			default:
				if s := inline(f.Value); s != "" {
					parts = append(parts, f.Key+": "+s)
				}
			}
		}
		line := strconv.Itoa(i+1) + "."
		if title != "" {
			line += " **" + title + "**"
		}
		if len(parts) > 0 {
			line += " " + strings.Join(parts, " · ")
		}
		fmt.Fprintf(b, "%s\n", line)
		for _, s := range texts {
			fmt.Fprintf(b, "   %s\n", s)
		}
	}
}

// interpretScore writes a search score (0-1) with a word for how strong
// it is; a value outside 0-1 is written as it is.
func interpretScore(v any) string {
	f, ok := v.(float64)
	if !ok || f < 0 || f > 1 {
		return inline(v)
	}
	word := "weak"
	switch {
	case f >= 0.75:
		word = "strong"
	case f >= 0.5:
		word = "good"
	case f >= 0.25:
		word = "fair"
	}
	return fmt.Sprintf("%.2f %s", f, word)
}

// markdownPath writes a path as "A → B → C"; it returns the other fields.
func markdownPath(b *strings.Builder, t toon.Object) toon.Object {
	v, rest := take(t, "path", "titles", "length")
	path, _ := v["path"].([]any)
	titles, _ := v["titles"].([]any)
	length, ok := v["length"].(int)
	if !ok {
		length = -1
	}
	steps := make([]string, len(path))
	for i, p := range path {
		steps[i] = p.(string)
		if i < len(titles) {
			steps[i] = fmt.Sprintf("%s (%s)", titles[i], p)
		}
	}
	switch {
	case length == 1:
		b.WriteString("1 link: ")
	case length >= 0:
		fmt.Fprintf(b, "%d links: ", length)
	}
	fmt.Fprintf(b, "%s\n", strings.Join(steps, " → "))
	return rest
}

// take returns the values of o's fields named keys, and o without them.
func take(o toon.Object, keys ...string) (map[string]any, toon.Object) {
	vals := make(map[string]any, len(keys))
	var rest toon.Object
	for _, f := range o {
		if slices.Contains(keys, f.Key) {
			vals[f.Key] = f.Value
		} else {
			rest = append(rest, f)
		}
	}
	return vals, rest
}

// inline writes a value on one line: lists joined with ", ", objects as
// "key: value; ...", other values as JSON would (without quotes).
func inline(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case []any:
		return strings.Join(mapped(x, inline), ", ")
	case toon.Object:
		parts := make([]string, 0, len(x))
		for _, f := range x {
			if s, ok := f.Value.(string); ok && s == "" {
				continue // an empty cell of a uniform row
			}
			parts = append(parts, f.Key+": "+inline(f.Value))
		}
		return strings.Join(parts, "; ")
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(out)
}

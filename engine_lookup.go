package vaultgraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// lookupFallback finds the note a caller means by id (raw as given) when
// no path or file name matches: a note whose frontmatter title is id, then
// one with id among its aliases (both ignoring case), then the target of a
// link pasted as id ("[[Alpha#Goals|AP]]" is "Alpha"). A warning says
// which rule matched, and names the other notes when several match. This
// is only for lookups by id: links never resolve through titles or
// aliases, as in Obsidian. No match is "" and no warning.
func (e *Engine) lookupFallback(raw, id string) (string, []string, error) {
	key := vault.Fold(id)
	for _, rule := range []struct {
		what  string
		match func(n *vault.Note) bool
	}{
		{"the frontmatter title", func(n *vault.Note) bool { return vault.Fold(n.Title) == key }},
		{"an alias", func(n *vault.Note) bool {
			return slices.ContainsFunc(n.Aliases, func(a string) bool { return vault.Fold(a) == key })
		}},
	} {
		var ids []string
		for nid, ns := range e.notes {
			if rule.match(ns.note) {
				ids = append(ids, nid)
			}
		}
		if len(ids) == 0 {
			continue
		}
		slices.SortFunc(ids, func(a, b string) int { // shortest path first, as names resolve
			return cmpPathLen(a, b)
		})
		w := fmt.Sprintf("no note has the path or name %q; %s of %s matches", raw, rule.what, ids[0])
		if len(ids) > 1 {
			w += fmt.Sprintf(" (also of %s: pass the path to choose)", strings.Join(ids[1:], ", "))
		}
		return ids[0], []string{w}, nil
	}
	if target, ok := pastedLink(id); ok {
		found, warnings, err := e.lookup(target)
		if err != nil || found == "" {
			return "", nil, err
		}
		w := fmt.Sprintf("%q is read as a link to %q", raw, target)
		return found, append([]string{w}, warnings...), nil
	}
	return "", nil, nil
}

// cmpPathLen orders IDs shortest first, then by ID.
func cmpPathLen(a, b string) int {
	if la, lb := strings.Count(a, "/"), strings.Count(b, "/"); la != lb {
		return la - lb
	}
	return strings.Compare(a, b)
}

// pastedLink returns the target of a wikilink pasted as an ID: "[[X]]",
// "![[X]]", "[[X#heading]]", "[[X|alias]]" are X. ok is false when s is
// not such a link or names no target.
func pastedLink(s string) (string, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "!")
	inner, ok := strings.CutPrefix(s, "[[")
	if !ok {
		return "", false
	}
	inner, ok = strings.CutSuffix(inner, "]]")
	if !ok {
		return "", false
	}
	inner, _, _ = strings.Cut(inner, "|")
	inner, _, _ = strings.Cut(inner, "#")
	inner = strings.TrimSpace(inner)
	return inner, inner != ""
}

package vaultgraph

import (
	"cmp"
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
	titles := e.titleIndexOf()
	for _, rule := range []struct {
		what string
		ids  []string
	}{
		{"the frontmatter title", titles.title[key]},
		{"an alias", titles.alias[key]},
	} {
		ids := slices.DeleteFunc(slices.Clone(rule.ids), func(id string) bool { return e.notes[id] == nil })
		if len(ids) == 0 {
			continue
		}
		slices.SortFunc(ids, func(a, b string) int { // shortest path first, as names resolve
			return cmp.Or(strings.Count(a, "/")-strings.Count(b, "/"), strings.Compare(a, b))
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

// titleIndex files the notes by folded frontmatter title and by folded
// alias, for lookupFallback: an ID that no note has (a client polling for
// a note not yet written) costs two map reads, not a pass over every
// note. It is built at the first lookup that needs it and kept up to date by putParsed and
// dropGone (under the write lock); its methods do nothing on a nil index.
type titleIndex struct {
	title, alias idLists // Fold(title), Fold(alias) -> note IDs
}

// titleIndexOf returns e.titles, building it the first time (caller holds
// e.mu, for reading or writing).
func (e *Engine) titleIndexOf() *titleIndex {
	e.titlesMu.Lock()
	defer e.titlesMu.Unlock()
	if e.titles == nil {
		x := &titleIndex{title: make(idLists, len(e.notes)), alias: idLists{}}
		for _, ns := range e.notes {
			x.add(ns)
		}
		e.titles = x
	}
	return e.titles
}

// add files a note under its title and each of its aliases.
func (x *titleIndex) add(ns *noteState) { x.each(ns, idLists.add) }

// drop removes what add filed of a note.
func (x *titleIndex) drop(ns *noteState) { x.each(ns, idLists.drop) }

// each calls do with the list and key of the note's title and of each of
// its aliases.
func (x *titleIndex) each(ns *noteState, do func(m idLists, k, id string)) {
	if x == nil {
		return
	}
	do(x.title, vault.Fold(ns.note.Title), ns.note.ID)
	for _, a := range ns.note.Aliases {
		do(x.alias, vault.Fold(a), ns.note.ID)
	}
}

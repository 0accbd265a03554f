package vaultgraph

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// MentionLinks is what LinkMentions turns into links.
type MentionLinks struct {
	// ID is the note mentioned, in any form Lookup accepts.
	ID string
	// Sources chooses the mentions: a note ("Notes/Log.md", any form
	// Lookup accepts) for every mention in it, or a note and a line
	// ("Notes/Log.md:12") for the mentions on that line. Empty means
	// every unlinked mention.
	Sources []string
	// DryRun works out every change without writing anything.
	DryRun bool
}

// LinkMentions turns unlinked mentions of a note (see Mentions) into
// links to it: [[Name]] when the text is the name a link uses, else
// [[Name|the text as written]] (with "\|" in a table row). Each changed
// file is parsed again and every new link checked to resolve to the note
// before anything is written; then all files are written, or none, each
// checked unchanged since it was read. A choice that matches no mention
// is ErrInvalid and nothing is written.
func (e *Engine) LinkMentions(ctx context.Context, m MentionLinks) (*WriteResult, error) {
	unlock, err := e.lockWrite(true)
	if err != nil {
		return nil, err
	}
	defer unlock()
	id, _, err := e.find(m.ID)
	if err != nil {
		return nil, err
	}
	srcs, _, warnings, err := e.mentionSources(ctx, id)
	if err != nil {
		return nil, err
	}
	srcs, err = e.chooseMentions(srcs, m.Sources)
	if err != nil {
		return nil, err
	}
	res := &WriteResult{Files: []FileChange{}, Warnings: warnings, DryRun: m.DryRun}
	var ops []commit.Op
	var paths []string
	for _, s := range srcs {
		out, changes, err := e.linkIn(s, id)
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, FileChange{Path: s.id, Action: ActionUpdate, Links: changes})
		ops = append(ops, commit.Op{Path: s.path, Data: out, CheckOld: true, Old: s.data})
		paths = append(paths, s.id)
	}
	if len(ops) == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("no unlinked mention of %s to link", id))
	}
	if m.DryRun || len(ops) == 0 {
		return res, nil
	}
	if err := e.applyOps(ops, "link mentions of "+id, "linking"); err != nil {
		return nil, err
	}
	return e.afterWrite(ctx, id, append(paths, e.linkTargets(ops)...), res)
}

// chooseMentions keeps the mentions that choices name (all of them when
// there is none); a choice naming none is ErrInvalid.
func (e *Engine) chooseMentions(srcs []*mentionSource, choices []string) ([]*mentionSource, error) {
	if len(choices) == 0 {
		return srcs, nil
	}
	keep := map[string]map[int]bool{} // source -> lines (0: all)
	for _, raw := range choices {
		note, line := splitLine(strings.TrimSpace(raw))
		src, _, err := e.Lookup(note)
		if err != nil {
			return nil, fmt.Errorf("sources: %q: %w", raw, err)
		}
		i := slices.IndexFunc(srcs, func(s *mentionSource) bool { return s.id == src })
		if src == "" || i < 0 || (line > 0 && !slices.ContainsFunc(srcs[i].mentions, func(m Mention) bool { return m.Line == line })) {
			return nil, fmt.Errorf("%w: sources: %q holds no unlinked mention of the note: list them with get_node (mentions field) and pass \"ID\" or \"ID:LINE\"; nothing was changed", ErrInvalid, raw)
		}
		if keep[src] == nil {
			keep[src] = map[int]bool{}
		}
		keep[src][line] = true
	}
	var out []*mentionSource
	for _, s := range srcs {
		lines, ok := keep[s.id]
		if !ok {
			continue
		}
		c := *s
		c.mentions = slices.DeleteFunc(slices.Clone(s.mentions), func(m Mention) bool { return !lines[0] && !lines[m.Line] })
		out = append(out, &c)
	}
	return out, nil
}

// splitLine splits "ID:LINE" into the ID and the line (0 without one).
func splitLine(s string) (string, int) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 1 {
		return s, 0
	}
	return s[:i], n
}

// linkIn returns the file of s with its mentions made links to id, and
// the changes; it parses the result and checks every new link.
func (e *Engine) linkIn(s *mentionSource, id string) ([]byte, []LinkChange, error) {
	name := e.linkName(s.id, id)
	out := slices.Clone(s.data)
	var changes []LinkChange
	var want []int // where each new link starts in out, in file order
	shift := 0
	for _, m := range s.mentions {
		link := "[[" + name + "]]"
		if m.Text != name {
			sep := "|"
			if inTableRow(s.data, m.start) {
				sep = `\|`
			}
			link = "[[" + name + sep + m.Text + "]]"
		}
		at := m.start + shift
		out = slices.Concat(out[:at], []byte(link), out[m.end+shift:])
		want = append(want, at)
		shift += len(link) - (m.end - m.start)
		changes = append(changes, LinkChange{Line: m.Line, Old: m.Text, New: link})
	}
	if err := e.checkLinked(s.id, out, want, id); err != nil {
		return nil, nil, err
	}
	return out, changes, nil
}

// linkName is how a link written in source names id: its base name when
// that resolves to id from source, else its path without ".md".
func (e *Engine) linkName(source, id string) string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	base := vault.BaseName(id)
	if got, st := e.index.ResolveName(source, base); st == vault.Resolved && got == id {
		return base
	}
	return vault.TrimMD(id)
}

// checkLinked parses out (the new text of source) and checks that a link
// starts at each of at and resolves to id.
func (e *Engine) checkLinked(source string, out []byte, at []int, id string) error {
	n, err := e.parser.Parse(source, out)
	if err != nil {
		return fmt.Errorf("link mentions in %s: %w", source, err)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, start := range at {
		i := slices.IndexFunc(n.Links, func(l vault.Link) bool { return l.Start == start })
		if i < 0 {
			return fmt.Errorf("%w: a mention in %s (byte %d) would not become a link as written there; link it by hand; nothing was changed", ErrInvalid, source, start)
		}
		if got, _ := e.index.Resolve(source, n.Links[i]); got != id {
			return fmt.Errorf("%w: the link %s in %s would lead to %q, not %s; nothing was changed", ErrInvalid, n.Links[i].Brief(), source, got, id)
		}
	}
	return nil
}

// inTableRow reports whether the line holding byte at starts with "|".
func inTableRow(src []byte, at int) bool {
	start := bytes.LastIndexByte(src[:at], '\n') + 1
	return bytes.HasPrefix(bytes.TrimLeft(src[start:], " \t"), []byte("|"))
}

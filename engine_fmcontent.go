package vaultgraph

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// noteText works out a note's new text: content written into src (nil
// for a new note) by vault.ReplaceContent, so that content beginning with
// a frontmatter block is the whole text, then tags (when not nil) and
// props set in its frontmatter. The warnings name each value of the
// content's own frontmatter that tags or props replaced: no value given
// in a call is dropped without a word.
func noteText(id string, src []byte, content *string, tags *[]string, props []vault.Property) ([]byte, []string, error) {
	out, whole := src, false
	if content != nil {
		var err error
		if out, whole, err = vault.ReplaceContent(src, *content); err != nil {
			return nil, nil, fmt.Errorf("%w: %s: the content starts with a frontmatter block that cannot be written (%v): fix it, or send the body alone; nothing was written", ErrInvalid, id, err)
		}
	}
	if tags == nil && len(props) == 0 {
		return out, nil, nil
	}
	var clean []string
	if tags != nil {
		clean = cleanTags(*tags)
	}
	out, replaced, err := vault.EditFrontmatter(out, clean, tags != nil, props)
	switch {
	case errors.Is(err, vault.ErrBadFrontmatter):
		return nil, nil, fmt.Errorf("%w: %s: %v: fix the frontmatter or replace only the content", ErrInvalid, id, err)
	case errors.Is(err, vault.ErrBadProperty), errors.Is(err, vault.ErrBinary):
		return nil, nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	case err != nil:
		return nil, nil, fmt.Errorf("write %s: %w", id, err)
	}
	if !whole {
		return out, nil, nil // replacing the note's own values is the request
	}
	var warnings []string
	for _, r := range replaced {
		if r.New == "" {
			warnings = append(warnings, fmt.Sprintf("%s %s from the content's frontmatter removed", r.Key, r.Old))
			continue
		}
		warnings = append(warnings, fmt.Sprintf("%s %s from the content's frontmatter replaced by %s %s", r.Key, r.Old, r.Key, r.New))
	}
	return out, warnings, nil
}

// inlineTagWarnings names each inline tag of text (a note's new text,
// whose frontmatter tags were just set to tags) that is not among tags: a
// tag change never edits the body, so those tags stay on the note.
func (e *Engine) inlineTagWarnings(id string, text []byte, tags []string) []string {
	bare, err := vault.SetFrontmatter(text, nil, true, nil)
	if err != nil {
		return nil
	}
	n, err := e.parser.Parse(id, bare)
	if err != nil {
		return nil
	}
	given := map[string]bool{}
	for _, t := range tags {
		given[strings.ToLower(vault.NormalizeTag(t))] = true
	}
	var out []string
	for _, t := range n.Tags {
		if !given[strings.ToLower(t)] {
			out = append(out, fmt.Sprintf("#%s is written in the body and stays", t))
		}
	}
	return out
}

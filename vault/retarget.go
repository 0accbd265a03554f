package vault

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// ErrCannotRetarget is returned by RetargetEdit when no target text in the
// link's style resolves to the wanted note, or when the link cannot be
// rewritten at all (a link without a target range, such as a
// reference-style markdown link as Parse gives it; a link to its own
// note).
var ErrCannotRetarget = errors.New("cannot point the link at the note")

// RetargetEdit is retarget for a link of the note source whose bytes are
// src: it reads raw from src, sees whether a markdown destination is
// written in angle brackets and which quotes hold a frontmatter link, and
// returns the Edit that rewrites the target. For a link from
// ParseForRewrite, a reference-style link's Edit rewrites the destination
// of its link reference definition, keeping its angle brackets, its title
// and the rest of the line.
func RetargetEdit(idx *Index, source string, src []byte, l Link, want string) (Edit, error) {
	return retargetEditCtx(idx, source, src, l, want, linkContext{})
}

// RetargetEditByName is RetargetEdit for a markdown link written as a bare
// file name that found its note by name (Obsidian's "shortest path" link
// style) rather than by its path: it stays a bare name while that name is
// unambiguous, like a wikilink.
func RetargetEditByName(idx *Index, source string, src []byte, l Link, want string) (Edit, error) {
	return retargetEditCtx(idx, source, src, l, want, linkContext{byName: true})
}

// RetargetFileEdit is RetargetEdit for a link to an attachment: it returns
// the Edit that makes link l of the note source (after any move) point at
// the file want (as ResolveFile gave it before the move) in the way the
// link was written. A link that named the file by a path keeps a path
// (relative links stay relative to source's folder, a leading "/" stays);
// one that found it by its name alone stays a bare name while that finds
// the same file, else becomes its vault path; a link to a missing file
// points at the same missing path. Markdown destinations are encoded as
// for notes.
func RetargetFileEdit(idx *Index, source string, src []byte, l Link, want FileTarget) (Edit, error) {
	return retargetEditCtx(idx, source, src, l, want.Path, linkContext{file: &want})
}

func retargetEditCtx(idx *Index, source string, src []byte, l Link, want string, ctx linkContext) (Edit, error) {
	if l.TargetStart < 0 || l.TargetStart > l.TargetEnd || l.TargetEnd > len(src) {
		return Edit{}, fmt.Errorf("retarget link at %d in %s to %s: no target range in the %d-byte note: %w",
			l.Start, source, want, len(src), ErrCannotRetarget)
	}
	raw := string(src[l.TargetStart:l.TargetEnd])
	switch l.Kind {
	case KindMarkdown, KindImage:
		ctx.angle = l.TargetStart > 0 && src[l.TargetStart-1] == '<'
		ctx.fragment, ctx.fragmentKnown = destinationRest(src, l.TargetEnd, ctx.angle), true
	case KindFrontmatter:
		if q, ok := frontmatterQuoteAt(src, l.Start, l.End); ok {
			ctx.quote, ctx.quoteKnown = q, true
		} else if l.Start >= 0 && l.Start <= len(src) {
			ctx.quote = yamlQuote(src, l.Start)
		}
		if ctx.quoteKnown && (ctx.quote == '"' || ctx.quote == '\'') {
			// The target as the parser reads it; written back escaped.
			dec, ok := unquoteFragment(raw, ctx.quote)
			if !ok {
				return Edit{}, fmt.Errorf("retarget link %q in %s to %s: the quoted frontmatter value around it cannot be read: %w",
					raw, source, want, ErrCannotRetarget)
			}
			raw = dec
		}
	default:
		// Only a target with a '`' needs the look back over the paragraph,
		// which would make a paragraph of many links quadratic.
		ctx.backtickSafe = !strings.Contains(want, "`") ||
			l.Start >= 0 && l.Start <= len(src) && !backtickBefore(src, l.Start)
	}
	text, err := retarget(idx, source, l, raw, want, ctx)
	if err != nil {
		return Edit{}, err
	}
	if ctx.quoteKnown {
		text = quoteYAML(text, ctx.quote)
	}
	return Edit{Start: l.TargetStart, End: l.TargetEnd, Text: text}, nil
}

// linkContext is what is known about the text around a link target.
type linkContext struct {
	angle        bool // a markdown destination inside <...>
	backtickSafe bool // no '`' before a wikilink in its paragraph
	// quote is how the frontmatter scalar holding a link is written: '"'
	// or '\'' (quoted), quoteBlock, or quotePlain (also when not known).
	quote         byte
	quoteKnown    bool   // quote was read from the parsed frontmatter
	fragment      string // the destination after the target ("#frag"), as written
	fragmentKnown bool
	byName        bool        // a bare markdown file name that found its note by name
	file          *FileTarget // the link is to this attachment, not to a note
}

// retarget returns the text to write in place of a link's target, the
// bytes [l.TargetStart, l.TargetEnd) of its note, so that the link
// resolves to the note want (a vault ID with .md) while keeping the way it
// was written. source is the ID of the note holding the link (after any
// move), idx the vault index after the rename or move, raw the target text
// as written. Whitespace around raw is kept, and so are the fragment and
// alias, which lie outside the target's bytes.
//
// Wikilinks, embeds and frontmatter links:
//   - a bare name stays the bare name of want if that is unambiguous (no
//     other note has that name, or want is the note at that vault path)
//     and resolves to want from source; otherwise it becomes the shortest
//     unambiguous path suffix of want ("Sub/Name"), at worst the full
//     vault path;
//   - a path-qualified target keeps a path: the suffix with as many folders
//     as raw had, else the shortest suffix holding a '/', that is
//     unambiguous and resolves to want (a note at the vault root: its bare
//     name);
//   - a target starting with "/" stays a full vault path with a leading "/";
//   - a relative target ("./x", "../x") stays relative to source's folder,
//     with "./" when want is in or under that folder;
//   - ".md" is written only if raw had it (or, last, if only that
//     resolves); the names take want's letter case;
//   - text that could break the link is refused: '|', "[[", ']', '#', a
//     line break, NUL, a final backslash. In the body also '<' and '>'
//     (HTML) and '`', which could close a code span opened before the
//     link (RetargetEdit allows it when no '`' comes before the link in
//     its paragraph). In frontmatter also what the YAML scalar around the link
//     cannot hold: control characters; when the scalar is quoted and
//     RetargetEdit read its quotes from the parsed frontmatter, raw is
//     decoded first and the text is written escaped (an apostrophe doubled in single
//     quotes, '"' and backslash escaped in double quotes), so nothing more is refused, nor in a
//     block scalar; in a plain scalar, or when the quotes are not known
//     (Retarget never knows them), all of '"', backslash, ": ", " #", ',',
//     '{', '}', and the apostrophe unless raw had one not doubled.
//
// Markdown links and images:
//   - a target starting with "/" stays a vault path with a leading "/";
//     one starting with "./" or "../" stays a path relative to source's
//     folder ("./" kept when raw had it and want is at or below it);
//   - a bare file name stays bare if want is in source's folder (or, for
//     RetargetEditByName, if no other note has want's name), else
//     becomes the path relative to that folder (then want's vault path);
//   - any other path is relative to source's folder if it was written so
//     (it still resolves that way, its tail names want, or the folder it
//     starts with exists in source's folder), else want's vault path;
//   - ".md" is kept if raw had it;
//   - inside angle brackets the path is written as is, with only '<', '>',
//     '|', backslash, '`' and control characters percent-encoded.
//     Retarget takes raw to be in angle brackets when it holds a space or
//     tab (a plain destination cannot); RetargetEdit looks at the note;
//   - otherwise spaces, control characters, '(', ')', '<', '>', '|',
//     backslash and '`' are percent-encoded, so a name with spaces gets
//     %20 even if raw had none; non-ASCII bytes are encoded only if raw
//     had percent-encoded non-ASCII;
//   - in both, '%' becomes %25 whenever the text holds other escapes or
//     would decode otherwise, '&' becomes %26 when it would read as an
//     entity, and hex digits take raw's case. A '#' cannot be written.
//
// Every candidate is checked by decoding it as the parser does (with the
// destination's fragment: RetargetEdit reads it from the note, the
// tests' Retarget takes l.Fragment) and resolving it with idx; the first in the order
// above that resolves to want is returned. If none does, the error wraps
// ErrCannotRetarget and names source, raw and want. ctx says how the link is written around its target.
func retarget(idx *Index, source string, l Link, raw, want string, ctx linkContext) (string, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("retarget link %q in %s to %s: %s: %w", raw, source, want, fmt.Sprintf(format, args...), ErrCannotRetarget)
	}
	if l.TargetStart < 0 || l.TargetEnd < l.TargetStart {
		return "", fail("a reference-style link has no target to rewrite")
	}
	if l.IsSelf() {
		return "", fail("a link to its own note has no target to rewrite")
	}
	if ctx.file == nil {
		if id, ok := idx.Note(want); !ok || id != want {
			return "", fail("no such note in the index")
		}
	}
	afterLead := strings.TrimLeftFunc(raw, unicode.IsSpace)
	core := strings.TrimRightFunc(afterLead, unicode.IsSpace)
	lead, trail := raw[:len(raw)-len(afterLead)], afterLead[len(core):]

	markdown := l.Kind.Markdown()
	var cands []string
	switch {
	case ctx.file != nil:
		cands = fileCandidates(source, l, core, *ctx.file)
	case markdown:
		cands = markdownCandidates(idx, source, l, core, want, ctx.byName)
	default:
		cands = wikiCandidates(idx, source, core, want)
	}
	var reasons []string
	for _, c := range cands {
		text := c
		if markdown {
			text = encodeDestination(c, core, ctx.angle)
			if isExternal(unescapeDestination(text)) {
				// "A0:" would read as a URL scheme: "./A0:" is a path.
				text = "./" + text
			}
		}
		if reason := unwritable(l.Kind, text, raw, ctx); reason != "" {
			if !slices.Contains(reasons, reason) {
				reasons = append(reasons, reason)
			}
			continue
		}
		text = lead + text + trail
		if resolvesTo(idx, source, l, text, want, ctx) {
			return text, nil
		}
	}
	if len(reasons) > 0 {
		return "", fail("%s", strings.Join(reasons, "; "))
	}
	return "", fail("no target text resolves to it")
}

// unwritable says why text cannot stand as the target of a link of kind
// in the context ctx, or "" if it can.
func unwritable(kind LinkKind, text, raw string, ctx linkContext) string {
	if strings.ContainsAny(text, "\r\n\x00") {
		return "a line break or NUL cannot be written in a link"
	}
	if kind.Markdown() {
		if strings.Contains(text, "#") {
			return "'#' cannot be written in a markdown link target"
		}
		return ""
	}
	switch {
	case strings.ContainsAny(text, "|]#"):
		return fmt.Sprintf("%q holds '|', ']' or '#', which end a wikilink target", text)
	case strings.Contains(text, "[["):
		return fmt.Sprintf("%q holds \"[[\"", text)
	case strings.HasSuffix(text, `\`):
		return fmt.Sprintf("%q ends in '\\', which escapes what follows", text)
	}
	if kind != KindFrontmatter {
		switch {
		case strings.ContainsAny(text, "<>"):
			return fmt.Sprintf("%q holds '<' or '>', which could open HTML around the link", text)
		case !ctx.backtickSafe && strings.Contains(text, "`"):
			return fmt.Sprintf("%q holds '`', which could close a code span opened before the link", text)
		}
		return ""
	}
	if strings.IndexFunc(text, yamlUnprintable) >= 0 {
		return fmt.Sprintf("%q holds a control character, which a frontmatter value cannot hold as is", text)
	}
	var bad []string
	switch {
	case ctx.quoteKnown && ctx.quote != quotePlain:
		// Quoted (the text is written escaped) or a block scalar.
	case ctx.quote == '"':
		bad = []string{`"`, `\`}
	case ctx.quote == '\'':
		bad = []string{`'`}
	default:
		// A plain scalar, in a flow list or not, or a quoted one that
		// began on an earlier line. An apostrophe is safe where raw has
		// one that is not doubled: raw is then not in single quotes.
		bad = []string{`"`, `\`, ": ", " #", ",", "{", "}"}
		if !strings.Contains(strings.ReplaceAll(raw, "''", ""), "'") {
			bad = append(bad, "'")
		}
	}
	for _, b := range bad {
		if strings.Contains(text, b) {
			return fmt.Sprintf("%q holds %q, which the frontmatter value around the link cannot hold", text, b)
		}
	}
	return ""
}

// resolvesTo reports whether text, written as the target of l, makes the
// link resolve to want (or to the attachment ctx.file), decoding it as the
// parser would.
func resolvesTo(idx *Index, source string, l Link, text, want string, ctx linkContext) bool {
	nl := Link{Kind: l.Kind}
	switch l.Kind {
	case KindMarkdown, KindImage:
		frag := ctx.fragment
		if !ctx.fragmentKnown && l.Fragment != "" {
			frag = "#" + l.Fragment
		}
		nl.Target, _ = splitDestination(text + frag)
	default:
		nl.Target = cleanTarget(text)
	}
	if ctx.file != nil {
		got, ok := idx.ResolveFile(source, nl)
		return ok && got.Same(*ctx.file) && (ctx.file.ByName || !got.ByName)
	}
	id, st := idx.Resolve(source, nl)
	return st == Resolved && id == want
}

package vault

import "time"

// LinkKind says which syntax a link was written in.
type LinkKind string

// The link syntaxes vaultgraph understands.
const (
	// KindWiki is a wikilink: [[Target]], [[Target|alias]], [[Target#Heading]].
	KindWiki LinkKind = "wikilink"
	// KindEmbed is an embedded wikilink: ![[Target]].
	KindEmbed LinkKind = "embed"
	// KindMarkdown is a markdown link: [text](Target.md).
	KindMarkdown LinkKind = "markdown"
	// KindImage is a markdown image: ![text](image.png).
	KindImage LinkKind = "image"
	// KindFrontmatter is a wikilink inside a frontmatter value: related: "[[Other]]".
	KindFrontmatter LinkKind = "frontmatter"
)

// Markdown reports whether k is one of the markdown syntaxes (a link or an
// image), whose target is a path rather than a note name.
func (k LinkKind) Markdown() bool { return k == KindMarkdown || k == KindImage }

// Link is one link written in a note, with the exact bytes it occupies in
// the file so that a rename can rewrite those bytes and nothing else.
type Link struct {
	// Kind is the syntax the link was written in.
	Kind LinkKind `json:"kind"`
	// Target is the link target as the user meant it: NFC-normalised,
	// percent-decoded for markdown links, without fragment or alias.
	// It is empty for a link to a heading of the same note ([[#Heading]]).
	Target string `json:"target"`
	// Fragment is the heading or block reference after the first '#',
	// without the '#' (a block reference keeps its '^').
	Fragment string `json:"fragment,omitempty"`
	// Alias is the display text: the part after '|' of a wikilink, or the
	// text of a markdown link.
	Alias string `json:"alias,omitempty"`
	// Property is the frontmatter key holding the link (KindFrontmatter only).
	Property string `json:"property,omitempty"`
	// Start and End are the byte range [Start, End) of the whole link in the
	// file, brackets included.
	Start int `json:"start"`
	End   int `json:"end"`
	// TargetStart and TargetEnd are the byte range of the target text alone
	// (without fragment or alias, still encoded as written). For a link with
	// an empty target both equal the position where a target would go.
	TargetStart int `json:"targetStart"`
	TargetEnd   int `json:"targetEnd"`
	// Line is the 1-based line of Start.
	Line int `json:"line"`
}

// IsSelf reports whether the link points at a heading or block of the note
// that holds it ([[#Heading]]); such a link is not an edge.
func (l Link) IsSelf() bool { return l.Target == "" }

// Property is one frontmatter property, in the order the file gives it.
// Value is a string, int64, float64, bool, time.Time, []any, map[string]any
// or nil.
type Property struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

// Note is everything vaultgraph learns from one markdown file. It does not
// hold the body text; read it from the file when needed.
type Note struct {
	// ID is the vault-relative path with forward slashes, NFC-normalised,
	// original case, with extension: "Projects/Alpha Plan.md".
	ID string `json:"id"`
	// Title is the frontmatter title if present, else the file's base name
	// without ".md".
	Title string `json:"title"`
	// Aliases are the frontmatter aliases. They never resolve links.
	Aliases []string `json:"aliases,omitempty"`
	// Tags are the frontmatter and inline tags without '#', de-duplicated
	// case-insensitively, each in the case of its first occurrence.
	Tags []string `json:"tags,omitempty"`
	// Properties are the frontmatter properties other than tags and
	// aliases, in file order.
	Properties []Property `json:"properties,omitempty"`
	// Links are every link in the note, frontmatter links first, then body
	// links in file order.
	Links []Link `json:"links,omitempty"`
	// Headings are the note's headings in file order.
	Headings []Heading `json:"headings,omitempty"`
	// BlockIDs are the "^id" block identifiers of the note, without the
	// '^', in file order.
	BlockIDs []string `json:"blockIds,omitempty"`
	// BodyStart is the byte offset where the body starts (after the
	// frontmatter block, or 0).
	BodyStart int `json:"bodyStart"`
	// Size, ModTime and Hash identify the file version that was parsed.
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	Hash    string    `json:"hash"`
	// Warnings are non-fatal problems found while parsing (malformed YAML,
	// duplicate tags, invalid UTF-8, ...), each naming the reason.
	Warnings []string `json:"warnings,omitempty"`
}

// Property returns the value of the frontmatter property key (matched
// case-insensitively) and whether it is present.
func (n *Note) Property(key string) (any, bool) {
	for _, p := range n.Properties {
		if equalFold(p.Key, key) {
			return p.Value, true
		}
	}
	return nil, false
}

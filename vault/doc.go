// Package vault reads and writes an Obsidian vault as Obsidian sees it:
// which files are notes (Scan, Ignore), what a note holds (Parser turns
// its bytes into a Note with its frontmatter, tags, headings and Links),
// where each link points (Index resolves it the way Obsidian does), how a
// note's bytes change when a note is renamed or moved or a heading
// renamed (Edit, Move, the RetargetEdit functions), and when files change on
// disk (Watcher, Debouncer). It knows nothing of the graph, the SQLite
// index or MCP; the root package puts these pieces together.
//
// Links and tags come from goldmark's AST, never from regular
// expressions, so code spans and code blocks hold none; every Link keeps
// the exact byte range [Start, End) it occupies, so that a rewrite changes
// those bytes and nothing else.
//
// # Where things live
//
//	note.go            Note, Link, LinkKind, Property: what a parse gives
//	parse.go           Parser: goldmark with the wikilink, frontmatter and hashtag extensions
//	parse_inline.go    the inline parsers that record each link's byte range
//	collect.go         links and tags gathered from the AST and the frontmatter
//	frontmatter.go     the YAML block: title, tags, aliases, properties, links in values
//	refdef.go          ParseForRewrite: reference-style links with their definitions
//	heading.go, anchor.go  headings, block IDs and whether a link's #fragment exists
//	tags.go            the #tag inline parser, NormalizeTag
//	names.go           NFC, Fold, TrimMD, Dir, BaseName: one home for name rules
//	resolve.go         Index and Status: a link target resolved as Obsidian does
//	attach.go          ResolveFile: the attachment a link points at
//	scan.go, ignore.go Scan and ScanUnder (notes, attachments, problems), Ignore (app.json filters)
//	scan_walk.go       walkAhead: filepath.WalkDir with folders and file metadata read
//	                   ahead on several goroutines (scan_stat_*.go: fstatat per folder)
//	excluded.go        the excluded notes and canvases a rename still rewrites
//	watch.go           Watcher: the fsnotify backend, one goroutine; polling when it cannot watch
//	debounce.go        Debouncer: the pure per-path debounce policy the Watcher uses
//	edit.go            Edit and ApplyEdits: byte-range rewrites
//	retarget*.go       RetargetEdit, Move: a link pointed at a renamed or moved note
//	anchor_rename*.go  a renamed heading and the links to it
//	canvas*.go         JSON Canvas files: their links and rewrites
//	fm*.go, yaml*.go   writing frontmatter and content back: SetFrontmatter,
//	                   ReplaceContent, EditFrontmatter, with YAML bounds and quoting
//	filename.go, safepath.go  file names from titles; paths that stay in the vault
//	statedir.go        StateDir, the folder vaultgraph keeps in a vault; WritePrefix
//	context.go         LinkContext: the sentence or list item around a byte range
//	mention.go         FindMentions: names written as plain text (not code, links, URLs)
//
// The crash-safe commit of a set of file writes is the subpackage
// vault/commit.
package vault

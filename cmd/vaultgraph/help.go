package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
)

// help is what a command's --help prints about it: cobra's Use, Short,
// Long and Example.
type help struct {
	use, short, long, example string
}

// command makes the command named name (its path below the root, such as
// "model pull") with its help from helps and the argument check a; the
// constructors add flags and a run.
func command(name string, a cobra.PositionalArgs) *cobra.Command {
	h := helps[name]
	return &cobra.Command{Use: h.use, Short: h.short, Long: h.long, Example: h.example, Args: a}
}

// helps holds every command's help, keyed by its name, in one place: the
// README documents these texts and the CLI tests check them.
var helps = map[string]help{
	"bench": {
		use:   "bench",
		short: "Measure indexing and watcher latency on generated vaults",
		long: `Generate a vault (vaultgen, seed 1) for each --notes size and measure:

  cold_index       'vaultgraph index --embed none' with an empty index (wall time)
  warm_index       'vaultgraph index' again, nothing changed
  touch1pct_index  'vaultgraph index' after appending a line to 1% of the
                   notes (every 100th in path order; 'touched' says how many)
  index_size       the index file on disk (database and WAL)
  peak_rss_*       peak resident memory of each of those three runs; each
                   runs as a child process, so each has its own figure
                   ("n/a" where the OS does not report it)
  watch_p50/p99    latency of an external edit: from writing a file to
                   seeing it in a query (GetNode polled every 2 ms) on an
                   engine watching the vault, over --edits edits, half of
                   them new notes and half appends to existing notes
  read_oneshot     'vaultgraph get-node' with no server, median of 3 runs;
                   peak_rss_read the largest peak RSS of them (the first
                   reads the tables after 'index' and rewrites the caches)
  serve_init/ready 'serve --embed none --no-watch' started to 'initialize'
                   and to the first get_node answered; read_served
                   get-node while it runs; idle_rss_serve its RSS a
                   second later; idle_rss_watch the RSS of a server with
                   the watcher on, a second after the watcher runs

Each vault prints one line on stdout, in this form (seconds, milliseconds
and MiB, 2^20 bytes):

  bench notes=10000 cold_index=4.12s warm_index=0.35s touch1pct_index=0.61s touched=100 index_size=52.3MiB peak_rss_cold=180.2MiB peak_rss_warm=90.1MiB peak_rss_touch=95.0MiB watch_p50=112ms watch_p99=160ms edits=200

Then each vault prints a bench-graph line: an engine opened on the index
times, for 200 notes picked at random, get_related (one note, a page of 10)
and the lookup of its unlinked mentions, one call after another; p50 and
p99 in milliseconds, and the mentions found in all:

  bench-graph notes=10000 queries=200 related_p50=3.10ms related_p99=9.80ms mentions_p50=12.40ms mentions_p99=60.20ms mentions_found=1234

With --search, each vault also prints a bench-search line: the vault is
indexed again into a new index with the builtin embedder; embed_time is
the wall time of embedding every note (from the end of Open until
WaitEmbeddings returns), with notes and chunks per second; then 200
queries derived from the notes (title words, a question, body words, a
run of six words) are timed one after another in each mode:

  bench-search notes=10000 embedded=10101 chunks=36986 embed_time=6.77s embed_notes_per_s=1493 embed_chunks_per_s=5466 queries=200 keyword_p50=24.34ms keyword_p99=112.00ms semantic_p50=10.70ms semantic_p99=28.68ms hybrid_p50=65.29ms hybrid_p99=260.23ms

With --cold, each vault also prints a bench-cold line: the vault is
indexed again, cold, into a new index with the default (builtin)
embedder, as 'vaultgraph index' does: the markdown's size, the index
file's size and their ratio, the wall time, markdown megabytes (10^6
bytes) per second, peak RSS, the bytes of each part of the index
(SQLite dbstat: vectors, full-text, links, notes, tags, other), then
the RSS of 'vaultgraph serve' with its defaults (builtin embedder,
watcher) on that index: one second after its embeddings are ready, and
3 s after it answered 100 searches:

  bench-cold notes=10000 parsed=10101 embed=builtin markdown=17.1MiB index_size=29.9MiB index_ratio=1.75 cold_index=3.79s md_mb_per_s=4.73 peak_rss=263.6MiB vectors=3.0MiB fts=15.0MiB text=0.0MiB links=7.7MiB notes=4.1MiB other=0.0MiB idle_rss_serve=70.3MiB idle_rss_searched=100.4MiB

With --vault DIR --index FILE --search, only the bench-search line is
taken, on that vault and index (made and kept if missing, reused
otherwise: the embedding figures are then those of the vectors missing),
so that search can be measured again without indexing anew. With -v it
also prints the 20 slowest queries of each mode to stderr.

Progress goes to stderr. Vaults and indexes are written under --dir (default
a new temporary folder) and removed at the end unless --keep.`,
		example: `  vaultgraph bench
  vaultgraph bench --notes 1000 --edits 50
  vaultgraph bench --notes 100000 --dir /var/tmp/vgbench --keep`,
	},
	"create-node": {
		use:   "create-node [TITLE]",
		short: "Create a note",
		long: `Create a note: the file DIRECTORY/TITLE.md, with the characters Obsidian
forbids in file names removed (the full title is then kept in the
frontmatter), tags and properties in its frontmatter. Missing folders are
created. An existing file is NODE_EXISTS. The write is atomic. --content
that starts with a --- frontmatter block is the whole file; --tags and
--property go on top, and the warnings name each of its values they replace.`,
		example: `  vaultgraph create-node "Meeting 2026-11-22" --directory Meetings --tags meeting,draft
  echo "Body text" | vaultgraph create-node Idea --content - --property status=draft`,
	},
	"delete-node": {
		use:   "delete-node ID",
		short: "Delete a note",
		long: `Delete a note's file. A missing note is not an error (deleted: false).
Links to the note become broken links: they are listed as warnings and
never rewritten.`,
		example: `  vaultgraph delete-node "Old Draft"`,
	},
	"find-path": {
		use:   "find-path SOURCE TARGET",
		short: "Print a shortest chain of links between two notes",
		long: `Print a shortest path of links from SOURCE to TARGET as {path, length}.
Links are followed in both directions unless --directed. Prints null when no
path exists, and a warning naming SOURCE or TARGET when it matches no note.`,
		example: `  vaultgraph find-path "Alpha Plan" "Budget 2025"
  vaultgraph find-path Home Archive --directed`,
	},
	"gen": {
		use:   "gen DIR",
		short: "Generate a synthetic vault for benchmarks and demos",
		long: `Write a synthetic Obsidian vault into DIR (which must be empty or absent):
folders, frontmatter, tags, wikilinks in every form, embeds, markdown links,
duplicate names, non-ASCII titles and some broken links, with a power-law
link graph. The same --seed always writes the same bytes.`,
		example: `  vaultgraph gen /tmp/vault10k --notes 10000
  vaultgraph gen /tmp/big --notes 100000 --seed 7`,
	},
	"get-hubs": {
		use:   "get-hubs",
		short: "List the most central notes",
		long: `List the most central notes by a metric: in_degree (most linked to),
out_degree (most links out) or pagerank (linked to by other central notes),
a page at a time. The metric chooses which notes are on a page, most central
first; --sort-by only reorders the notes of that page. Notes scoring 0 (no
link in, or out) are not ranked: the last page says where the ranking ends.`,
		example: `  vaultgraph get-hubs --metric pagerank --limit 5
  vaultgraph get-hubs --limit 20 --page 2 --sort-by title`,
	},
	"get-neighbors": {
		use:   "get-neighbors ID",
		short: "List the notes linked to or from a note",
		long: `List the notes a note links to (out), the notes linking to it (in), or
both. Each neighbour is marked direction out, in, or both for a mutual link;
outgoing neighbours come first. An id that matches no note prints a warning
naming it.`,
		example: `  vaultgraph get-neighbors "Alpha Plan" --direction in --limit 5`,
	},
	"get-node": {
		use:   "get-node ID",
		short: "Print one note: metadata, links and content",
		long: `Print one note: title, tags, properties, outgoing links (with titles),
broken links and its content (up to 10,000 characters). With --depth 1 it
also prints incoming and outgoing link counts and up to 20 neighbours.

ID is the note's vault path ("Projects/Alpha Plan.md"), in any letter case,
with or without ".md", or a bare note name resolved as a wikilink would be;
failing those, a frontmatter title, an alias or a pasted [[link]] (a warning
says which rule matched). An id that matches no note prints a warning naming it and exits 0.`,
		example: `  vaultgraph get-node "Projects/Alpha Plan.md"
  vaultgraph get-node "alpha plan" --depth 1`,
	},
	"get-related": {
		use:   "get-related [ID...]",
		short: "List the notes closest to some notes in the link graph",
		long: `List the notes closest to one or more notes by personalized PageRank over
the links (followed in both directions, every walk restarting at the given
notes), best first. Each row says why: distance (the fewest links from a
given note), shared (how many of the given notes' neighbours it is linked
with) and via (some of them). With --query, the best search hits for it are
the start ("search, then expand"). The given notes are left out, and with
--exclude-linked so are the notes already linked with them. Notes given that
do not exist print null.`,
		example: `  vaultgraph get-related "Alpha Plan"
  vaultgraph get-related Beta Home --exclude-linked --limit 5
  vaultgraph get-related --query "budget risk"`,
	},
	"index": {
		use:   "index [VAULT]",
		short: "Bring the vault's SQLite index up to date",
		long: `Bring the index (<vault>/.vaultgraph/index.db, or --index) up to date with
the files: only notes whose size or modification time changed are parsed
again, notes that are gone are dropped, each batch is one transaction.
--full empties the index first and parses every note. A corrupt, truncated
or newer-schema index file is set aside and rebuilt, with a log line.

Shows a progress bar when stderr is a terminal; ends with a summary line.`,
		example: `  vaultgraph index --vault ~/Notes
  vaultgraph index ~/Notes --full`,
	},
	"link-mentions": {
		use:   "link-mentions ID [SOURCE...]",
		short: "Turn unlinked mentions of a note into links",
		long: `Turn the unlinked mentions of a note (get-node ID --fields mentions lists
them) into links: [[Name]] where the text is the name a link uses, else
[[Name|the text as written]]. Each SOURCE chooses mentions: a note for every
mention in it, or NOTE:LINE for those on that line; without one, every
mention is linked. Every file is checked before it is written, and all are
written or none. --dry-run lists the changes and writes nothing.`,
		example: `  vaultgraph link-mentions Beta --dry-run
  vaultgraph link-mentions "Alpha Plan" "Notes/Log.md" "Home.md:12"`,
	},
	"list-nodes": {
		use:   "list-nodes",
		short: "Browse notes with filters, sorting and pages",
		long: `Browse notes: filter by folder, tags, properties, dates, orphans, broken
links or broken anchors; sort by one or more of ` + strings.Join(vaultgraph.NoteList.SortFields, ", ") + `
(prefix '-' for descending); page through the result.`,
		example: `  vaultgraph list-nodes --folder Projects --sort-by -modified,title
  vaultgraph list-nodes --tags draft --tag-mode none --limit 50 --page 2
  vaultgraph list-nodes --property status=active --created-after 2025-01-01
  vaultgraph list-nodes --orphans`,
	},
	"list-tags": {
		use:   "list-tags",
		short: "List the tags with their note counts, most used first",
		long: `List the tags of the vault (frontmatter and inline #tags, lower case)
with the number of notes carrying each, most used first, a page at a time.`,
		example: `  vaultgraph list-tags --limit 20
  vaultgraph list-tags --sort-by tag --format json`,
	},
	"model": {
		use:   "model",
		short: "Manage local embedding models (model2vec)",
	},
	"model pull": {
		use:   "pull [NAME]",
		short: "Download a model2vec model into the local cache",
		long: `Download a static embedding model in the model2vec format (model.safetensors
and tokenizer.json) from Hugging Face into the user cache, so that
--embed model2vec:NAME works offline afterwards. NAME defaults to
` + embed.DefaultModel2Vec + ` (MIT licence). $HF_ENDPOINT names a mirror.`,
		example: `  vaultgraph model pull
  vaultgraph model pull minishlab/potion-base-8M
  vaultgraph serve ~/notes --embed model2vec:minishlab/potion-base-8M`,
	},
	"open": {
		use:   "open [VAULT]",
		short: "Explore the vault in the browser: search, notes, backlinks, local and global graph, paths, hubs, tags",
		long: `Index the vault, watch it, and serve the web app on a free loopback port
(read-only). Prints the app's address and, on a desktop, opens it in the
browser. The address carries a token made for this run after '#' (the
browser keeps it in the tab and never sends it in a URL); every API call
must present it, as with serve --http --token. Stops on Ctrl-C.`,
		example: `  vaultgraph open ~/Notes
  vaultgraph open ~/Notes --port 8766 --no-browser`,
	},
	"random-node": {
		use:   "random-node",
		short: "Print one random note, optionally among notes with some tags",
		long: `Print one note picked at random, for discovery. With --tags, only notes
carrying any of those tags are candidates. Prints null when none qualifies.`,
		example: `  vaultgraph random-node --tags idea,draft`,
	},
	"repair-links": {
		use:   "repair-links [FROM]",
		short: "Repair the links broken by renames made outside vaultgraph",
		long: `List, or with --apply rewrite, the links that still point at a note's old
path after it was renamed or moved outside vaultgraph (in a file manager,
with mv or git mv, by a sync client). A rename is a note that went and a note
that appeared with the same content (or nearly the same) while a server
watched, or between two runs. The links are rewritten as update-node's
rename rewrites them: in their own style, verified, all files or none.
Without --apply nothing is written and the answer lists every change. FROM
(the note's old path or name) picks one repair; an ambiguous one (two notes
could be the renamed one) is applied only with FROM and --to.`,
		example: `  vaultgraph repair-links
  vaultgraph repair-links --apply
  vaultgraph repair-links "Projects/Beta.md" --to "Projects/Beta Renamed.md" --apply`,
	},
	"search": {
		use:   "search QUERY...",
		short: "Find notes by words and meaning, best first",
		long: `Find notes matching QUERY (the arguments joined by spaces), best first, each
with a score from 0 to 1 and a snippet of the matching text.

Words match in titles and bodies, ignoring case and accents ("cafe" finds
"Café"), each also as the start of a longer word ("meet" finds "meeting");
every word must match, and only when no note has them all are notes with
some of them shown. Double quotes, escaped from the shell, keep a phrase:
'"budget risk"'. Other punctuation is plain text; put -- before a query
that starts with '-'.

--mode hybrid (default) fuses full-text and vector (embedding) results;
keyword is full text only; semantic is vectors only. Without embeddings,
hybrid and semantic give keyword results and say so in the warnings.

Results come a page at a time (--limit per page, --page); the answer gives
the total of matching notes (at most ` + fmt.Sprint(vaultgraph.MaxSearchTotal) + `, "at least" when more match)
and the number of pages. --sort-by reorders the notes of the page.

--embed (default builtin) is the model whose vectors answer. Missing
vectors are made before answering, for up to ` + oneShotEmbedWait.String() + `; on a vault too large for
that the search answers with the vectors made so far and says so (the
next search goes on; 'vaultgraph index' makes them all). A search keeps
the vectors of other models in the index, and says when they exist:
pass the --embed they were made with to use them.`,
		example: `  vaultgraph search meeting notes
  vaultgraph search '"budget risk"' --folder Projects
  vaultgraph search alpha --tags project,archive --tag-mode any --limit 5
  vaultgraph search cafe --mode keyword --format markdown
  vaultgraph search plan --limit 20 --page 2 --sort-by -modified`,
	},
	"search-by-tags": {
		use:   "search-by-tags TAG...",
		short: "List notes with any or all of the given tags",
		long: `List notes carrying any (or, with --mode all, every one) of the tags.
Tags match without '#' and ignoring case; a parent tag also matches its
nested tags ("project" matches "project/alpha").`,
		example: `  vaultgraph search-by-tags project idea
  vaultgraph search-by-tags project/alpha urgent --mode all`,
	},
	"serve": {
		use:   "serve [VAULT]",
		short: "Serve the vault over MCP (stdio or HTTP), keeping the index in step with its files",
		long: `Index the vault (incrementally), watch it, and serve its tools over MCP.

By default MCP speaks over stdin/stdout, for Claude Desktop, Claude Code or
Cursor; stdout carries only protocol messages and logs go to stderr. With
--http ADDR it serves streamable HTTP at http://ADDR/mcp instead, bound to
loopback unless ADDR names another host; --token (or $` + EnvToken + `)
then requires "Authorization: Bearer TOKEN". The same address serves the
web app at / (search, notes, graphs; read-only; --no-web leaves it out),
its API behind the same token.

Every edit, rename, move or delete made by Obsidian or any editor reaches
the graph and the SQLite index within a second. Commands run meanwhile read
the served index instead of scanning the vault. Stops cleanly on Ctrl-C /
SIGTERM (or when the stdio client goes away) with the index consistent.`,
		example: `  vaultgraph serve ~/Notes
  vaultgraph serve --vault ~/Notes --http 127.0.0.1:8765 --token s3cret`,
	},
	"update-node": {
		use:   "update-node ID",
		short: "Change, rename or move a note, rewriting every link to it",
		long: `Change a note; only the flags given change anything, and a flag set to
"" is not given (but --tags "" removes every tag). --title renames and
--directory moves the file (--directory / to the vault root), and every
link to it in other notes (wikilinks, embeds, markdown links, frontmatter
links) is rewritten in its own style,
changing no other byte. --content replaces the body and keeps the
frontmatter, or, when it starts with a --- frontmatter block, is the whole
file (--tags and --property go on top; the warnings name each of its values
they replace); --tags replaces the frontmatter tags (inline #tags stay in
the body, named in the warnings); --property merges properties
(key=null removes one); when the new content drops a heading or block that
other notes link to, the warnings name those links. --rename-heading
OLD=NEW renames a heading of the note and rewrites every link to it, all or
nothing (not with the other changes). --if-match HASH refuses the change
(CONFLICT) if the file changed since a read returned HASH. --dry-run lists
what would change.`,
		example: `  vaultgraph update-node "Alpha Plan" --title "Alpha Roadmap" --dry-run
  vaultgraph update-node Projects/Beta.md --directory Archive
  vaultgraph update-node Idea --property status=done --tags idea,done
  vaultgraph update-node Beta --rename-heading "Goals=Objectives 2026"`,
	},
	"vault-status": {
		use:   "vault-status",
		short: "Print counts, index state and problems of the vault",
		long: `Print the vault's notes, links, broken links, broken anchors (links to a
heading or ^block their note lacks), attachments and tags, the state of
index and watcher, the last sync time, files that could not be indexed
(with the reason) and note names shared by several notes.`,
	},
	"vaultgraph": {
		use:   "vaultgraph",
		short: "A live link graph of an Obsidian vault, for agents and scripts",
		long: `vaultgraph parses every note of an Obsidian vault (frontmatter, tags,
wikilinks, embeds, markdown links) into a graph and answers questions about
it: notes, neighbours, paths, hubs, tags. Every MCP tool is also a command.

The vault is --vault, else $` + EnvVault + `, else the current folder.`,
	},
}

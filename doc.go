// Package vaultgraph turns an Obsidian vault (a folder of markdown notes)
// into a live link graph. Its Engine is the one core API that both the
// command line and the MCP server call: it parses every note, resolves
// links as Obsidian does, keeps a SQLite index and the graph in step with
// the files, answers reads (search, nodes, neighbours, paths, hubs, tags,
// lists, status) and makes writes (create, update with link-rewriting
// rename and move, delete).
//
// New does no I/O; Open loads the index and brings it up to date with the
// files; Close releases it. All methods are safe for concurrent use.
//
// # Where things live
//
// The Engine's methods are spread over files by concern:
//
//	vaultgraph.go           Options, Engine, the Err* sentinels, New, Open, Close
//	engine_load.go          Open's load: the index opened, its snapshot taken, the vault compared
//	engine_scan.go          finding a set of changes (a diff): from a full scan, or from the paths Sync is given
//	                        (expand; expandExcluded for the paths the ignore rules skip)
//	engine_parse.go         reading and parsing the files of a diff on parallel workers, a chunk at a time
//	engine_read.go          the files of a parse read ahead of its workers, so a cold page cache leaves no core idle
//	engine_lookahead.go     what a big start-up pass resolves links against while its chunks come in
//	engine_apply.go         applying a diff, the one path start-up and the watcher share: notes,
//	                        attachments, problems, excluded files, link resolution, graph, index, subscribers
//	engine_links.go         link resolution of one note and the reverse-link bookkeeping (refs)
//	engine_refs.go          refs built in one pass over every note, in one slab (buildRefs)
//	engine_memory.go        ReleaseMemory: what a server's requests brought back, let go when they pause
//	engine_sync.go          Sync, Rescan and change subscriptions (OnChange)
//	engine_watch.go         Watch: the file watcher's changes applied with Sync and Rescan
//	engine_excluded.go      the user-excluded files whose links a rename still rewrites
//	engine_status.go        Status: counts, problems, duplicate names, index and watcher state
//	index_size.go           IndexTableBytes: the bytes each part of an index file takes
//	engine_node.go          GetNode, Lookup, Content, ReadNote: one note and its links
//	engine_lookup.go        Lookup's fallbacks when no path or name matches: title, alias, pasted link
//	engine_path.go          the paths callers give: note IDs (CleanID), absolute paths, the paths Sync is given
//	engine_graph.go         Neighbors, FindPath, HubsPage, SearchByTags, ListTags, RandomNode
//	engine_query.go         the one home of list questions: sort keys, pages (Pages), limits, directions, metrics;
//	                        a string parameter's values (Choice) and a number's bounds (InRange)
//	engine_sort.go          ordering notes, tags and search hits by parsed sort keys
//	engine_list.go          ListNodes: its filters
//	engine_list_rows.go     every note's ID and times in one slice, for passes over all notes
//	engine_list_recent.go   the notes by -modified, patched per change: list_nodes pages without a pass
//	engine_page.go          the paged forms of Neighbors, SearchByTags and ListTags
//	engine_view.go          for the web app: WholeGraph, NoteLinks (a note's links as resolved), Backlinks (with the sentence of each link, from engine_backlink.go)
//	engine_anchor.go        links to a heading or block that does not exist
//	engine_fmcontent.go     a written note's new text (content, tags, properties) and its tag warnings
//	engine_search.go        Search: full text and vectors, paging and scopes
//	engine_search_rank.go   ranking: keyword, vector or fused hits and similarity floors
//	engine_search_snippet.go  the snippets around matching words
//	engine_embed.go         vector search, embedding status and WaitEmbeddings
//	engine_embed_worker.go  the background embedder that keeps note vectors up to date
//	engine_embed_parse.go   the vectors a start-up pass makes as it parses, with a local model
//	engine_embed_rescore.go the builtin model's candidates scored again exactly (rescore)
//	engine_embed_cache.go   the chunk vectors searches scored again, kept by note version (rescore)
//	engine_write.go         CreateNode, DeleteNode and what every write shares
//	engine_update.go        UpdateNode: check, open (openForUpdate), prepare (new path, new text), commit
//	engine_group.go         the group commit: one-file writes queued, written and indexed together (batchQueue)
//	engine_rename.go        which files a rename or move rewrites (vault.Move rewrites them)
//	engine_plan.go          a write plan (every file a rename or move changes); readFile, the one read of a file that may be gone
//	engine_rename_outside.go  rewriting links in excluded notes and canvases on a rename
//	engine_renames.go       renames made outside vaultgraph, paired and kept as pending repairs
//	engine_renames_repair.go  RepairLinks: those repairs listed or applied
//	engine_heading.go       renaming a heading (NoteUpdate.RenameHeading) and planning its edits
//	engine_heading_links.go   links left pointing at a heading or block a content update removed
//	engine_heading_canvas.go  a heading rename in canvas text nodes
//	engine_backlink.go      LinkContexts (get_neighbors, Backlinks): the sentence of each incoming link, from stored byte ranges
//	engine_related.go       RelatedPage: notes near some notes by personalized PageRank, and why
//	engine_mention.go       Mentions: unlinked mentions, candidates from the full-text index
//	engine_mention_link.go  LinkMentions: chosen mentions made links, checked, all or nothing
//	engine_testopts.go      the settings only tests change (chunk size, retry wait, search tuning), per Engine
//
// What happens when a file changes: the watcher (vault.Watcher, run by
// Watch) reports the paths, Sync turns them into a diff (engine_scan.go),
// and applyDiff (engine_apply.go) parses the files and applies the result;
// Open and Rescan find their diff with a full scan and apply it the same
// way.
//
// Test files are named after the code they test (engine_load.go,
// engine_load_test.go); export_*_test.go export internals to the external
// tests.
package vaultgraph

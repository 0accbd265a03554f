// Package vaultgen generates deterministic, realistic synthetic Obsidian
// vaults for benchmarks, load tests and the `vaultgraph gen` command.
//
// A generated vault is a tree of folders (nested up to three levels deep)
// holding markdown notes plus a few PNG attachments in the vault root, which
// is where Obsidian puts attachments by default. The notes use Obsidian
// syntax in roughly the proportions found in real vaults:
//
//   - YAML frontmatter on most notes, with tags (as a block list, a flow
//     list or a plain string), aliases, a created date, a number, a bool,
//     a status and sometimes frontmatter links (related: "[[Other Note]]");
//   - headings, paragraphs, bullet, numbered and task lists, callouts,
//     block quotes and, occasionally, a table;
//   - inline #tags and #nested/tags;
//   - wikilinks in every form: [[Name]], [[Name|alias]], [[Name#Heading]],
//     [[Folder/Name]], ![[Name]] embeds and ![[image-12.png]] attachment
//     embeds, plus markdown links [text](Name%20Two.md) and
//     [text](Folder/Name.md#Heading), and [[Name\|alias]] inside tables;
//   - fenced and inline code holding [[not a link]] and #notatag, which a
//     correct parser must ignore;
//   - external links and markdown images of attachments, which are not
//     links between notes either.
//
// A few hub notes receive a large share of all backlinks, and a small
// fraction of links (Config.BrokenRate) point at notes that do not exist.
// Some notes share their base name with a note in another folder; every
// link to such a note spells its full path from the vault root, so each
// link's intended target is unambiguous. Links to headings always name a
// heading that exists in the target note. [Stats] says what counts as a
// link.
//
// Generation is deterministic: the same [Config] (including Seed) yields a
// byte-identical tree, independent of GOMAXPROCS and scheduling: planning
// uses one PCG stream, and each note is rendered from its own.
package vaultgen

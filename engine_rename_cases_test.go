package vaultgraph_test

// The case table of TestRenameLinkForms: every link form a rename must
// rewrite, and the ones it must leave alone.

// oldNote is the note most rename cases rename: a heading and a block to
// link to.
const oldNote = "# Old\n\n## Heading\n\nA paragraph. ^block\n"

// renameCase is a vault, a rename or move, and the whole text of every
// file that changes.
type renameCase struct {
	desc  string
	files map[string]string
	id    string  // the note to rename or move
	title *string // new title, or nil
	dir   *string // new folder, or nil
	// want holds the new text of every file that changes, under its new
	// path; the moved note's old path is gone, every other file unchanged.
	want map[string]string
	// links are the rewritten links listed per file, "old => new".
	links map[string][]string
}

func renameCases() []renameCase {
	src := func(text string) map[string]string {
		return map[string]string{"Old.md": oldNote, "Src.md": text}
	}
	return []renameCase{
		{
			desc: "wikilink", files: src("See [[Old]] here.\n"), id: "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "See [[New Name]] here.\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[[Old]] => [[New Name]]"}},
		},
		{
			desc: "wikilink with alias", files: src("See [[Old|the old one]].\n"), id: "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "See [[New Name|the old one]].\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[[Old|the old one]] => [[New Name|the old one]]"}},
		},
		{
			desc: "wikilink to a heading", files: src("See [[Old#Heading]].\n"), id: "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "See [[New Name#Heading]].\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[[Old#Heading]] => [[New Name#Heading]]"}},
		},
		{
			desc: "wikilink to a block, with alias", files: src("See [[Old#^block|that]].\n"), id: "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "See [[New Name#^block|that]].\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[[Old#^block|that]] => [[New Name#^block|that]]"}},
		},
		{
			desc: "embed", files: src("![[Old]]\n![[Old#Heading]]\n"), id: "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "![[New Name]]\n![[New Name#Heading]]\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"![[Old]] => ![[New Name]]", "![[Old#Heading]] => ![[New Name#Heading]]"}},
		},
		{
			desc:  "escaped pipe in a table",
			files: src("| Note | Link |\n| --- | --- |\n| a | [[Old\\|alias]] |\n| b | [[Old#Heading\\|h]] |\n"),
			id:    "Old.md", title: strp("New Name"),
			want: map[string]string{
				"Src.md":      "| Note | Link |\n| --- | --- |\n| a | [[New Name\\|alias]] |\n| b | [[New Name#Heading\\|h]] |\n",
				"New Name.md": oldNote,
			},
			links: map[string][]string{"Src.md": {"[[Old\\|alias]] => [[New Name\\|alias]]", "[[Old#Heading\\|h]] => [[New Name#Heading\\|h]]"}},
		},
		{
			desc: "other letter case and spacing", files: src("[[old]] and [[ OLD ]]\n"), id: "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "[[New Name]] and [[ New Name ]]\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[[old]] => [[New Name]]", "[[ OLD ]] => [[ New Name ]]"}},
		},
		{
			desc: "markdown link", files: src("[x](Old.md) and [y](Old.md#Heading)\n"), id: "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "[x](New%20Name.md) and [y](New%20Name.md#Heading)\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[x](Old.md) => [x](New%20Name.md)", "[y](Old.md#Heading) => [y](New%20Name.md#Heading)"}},
		},
		{
			desc:  "markdown link with an encoded space",
			files: map[string]string{"Old Name.md": oldNote, "Src.md": "[x](Old%20Name.md)\n"},
			id:    "Old Name.md", title: strp("Newer Name"),
			want:  map[string]string{"Src.md": "[x](Newer%20Name.md)\n", "Newer Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[x](Old%20Name.md) => [x](Newer%20Name.md)"}},
		},
		{
			desc:  "markdown link in angle brackets",
			files: map[string]string{"Old Name.md": oldNote, "Src.md": "[x](<Old Name.md>)\n"},
			id:    "Old Name.md", title: strp("Newer Name"),
			want:  map[string]string{"Src.md": "[x](<Newer Name.md>)\n", "Newer Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[x](<Old Name.md>) => [x](<Newer Name.md>)"}},
		},
		{
			desc:  "markdown link with encoded unicode keeps encoding",
			files: map[string]string{"Café.md": oldNote, "Src.md": "[x](Caf%C3%A9.md) [y](Café.md)\n"},
			id:    "Café.md", title: strp("Thé Room"),
			want:  map[string]string{"Src.md": "[x](Th%C3%A9%20Room.md) [y](Thé%20Room.md)\n", "Thé Room.md": oldNote},
			links: map[string][]string{"Src.md": {"[x](Caf%C3%A9.md) => [x](Th%C3%A9%20Room.md)", "[y](Café.md) => [y](Thé%20Room.md)"}},
		},
		{
			desc:  "relative markdown links",
			files: map[string]string{"Notes/Old.md": oldNote, "Sub/Src.md": "[x](../Notes/Old.md) [[../Notes/Old.md|rel]]\n", "Notes/Sib.md": "[s](./Old.md) [t](Old.md)\n"},
			id:    "Notes/Old.md", title: strp("New Name"),
			want: map[string]string{
				"Sub/Src.md":        "[x](../Notes/New%20Name.md) [[../Notes/New Name.md|rel]]\n",
				"Notes/Sib.md":      "[s](./New%20Name.md) [t](New%20Name.md)\n",
				"Notes/New Name.md": oldNote,
			},
			links: map[string][]string{
				"Sub/Src.md":   {"[x](../Notes/Old.md) => [x](../Notes/New%20Name.md)", "[[../Notes/Old.md|rel]] => [[../Notes/New Name.md|rel]]"},
				"Notes/Sib.md": {"[s](./Old.md) => [s](./New%20Name.md)", "[t](Old.md) => [t](New%20Name.md)"},
			},
		},
		{
			desc:  "relative markdown links, moved",
			files: map[string]string{"Notes/Old.md": oldNote, "Sub/Src.md": "[x](../Notes/Old.md)\n", "Notes/Sib.md": "[s](./Old.md)\n"},
			id:    "Notes/Old.md", dir: strp("Archive/2024"),
			want: map[string]string{
				"Sub/Src.md":          "[x](../Archive/2024/Old.md)\n",
				"Notes/Sib.md":        "[s](../Archive/2024/Old.md)\n",
				"Archive/2024/Old.md": oldNote,
			},
			links: map[string][]string{
				"Sub/Src.md":   {"[x](../Notes/Old.md) => [x](../Archive/2024/Old.md)"},
				"Notes/Sib.md": {"[s](./Old.md) => [s](../Archive/2024/Old.md)"},
			},
		},
		{
			desc:  "frontmatter links",
			files: src("---\nrelated: \"[[Old]]\"\nsingle: '[[Old|o]]'\nlist:\n  - \"[[Old#Heading]]\"\n  - \"[[Other]]\"\nflow: [\"[[Old]]\"]\n---\nBody [[Old]].\n"),
			id:    "Old.md", title: strp("New Name"),
			want: map[string]string{
				"Src.md":      "---\nrelated: \"[[New Name]]\"\nsingle: '[[New Name|o]]'\nlist:\n  - \"[[New Name#Heading]]\"\n  - \"[[Other]]\"\nflow: [\"[[New Name]]\"]\n---\nBody [[New Name]].\n",
				"New Name.md": oldNote,
			},
			links: map[string][]string{"Src.md": {
				"[[Old]] => [[New Name]]", "[[Old|o]] => [[New Name|o]]", "[[Old#Heading]] => [[New Name#Heading]]",
				"[[Old]] => [[New Name]]", "[[Old]] => [[New Name]]",
			}},
		},
		{
			desc: "bare name that would become ambiguous gets the shortest path",
			files: map[string]string{
				"Aa/Old.md": oldNote, "B/Dup.md": "# the other Dup\n",
				"Src.md":   "[[Old]] and [[Dup]]\n", // [[Dup]] means B/Dup.md
				"Aa/In.md": "[[Old]] [[Dup]]\n",     // from Aa/, the renamed note would win [[Dup]]
			},
			id: "Aa/Old.md", title: strp("Dup"),
			// Two notes now have the name: a bare name would find the
			// renamed note only by the tie-break (here, its folder), so it
			// becomes the shortest unambiguous path.
			want: map[string]string{
				"Src.md":    "[[Aa/Dup]] and [[Dup]]\n",
				"Aa/In.md":  "[[Aa/Dup]] [[B/Dup]]\n",
				"Aa/Dup.md": oldNote,
			},
			links: map[string][]string{
				"Src.md":   {"[[Old]] => [[Aa/Dup]]"},
				"Aa/In.md": {"[[Old]] => [[Aa/Dup]]", "[[Dup]] => [[B/Dup]]"},
			},
		},
		{
			// A/New.md would win a bare [[New]] from the root (same length,
			// A first): both links get paths.
			desc: "bare names of a renamed note and of the other note of that name",
			files: map[string]string{
				"A/Target.md": oldNote, "B/New.md": "# the other New\n",
				"Root.md": "[[Target]] [[New]] [t](Target.md) [n](New.md)\n",
			},
			id: "A/Target.md", title: strp("New"),
			want: map[string]string{
				"Root.md":  "[[A/New]] [[B/New]] [t](A/New.md) [n](B/New.md)\n",
				"A/New.md": oldNote,
			},
			links: map[string][]string{"Root.md": {
				"[[Target]] => [[A/New]]", "[[New]] => [[B/New]]", "[t](Target.md) => [t](A/New.md)", "[n](New.md) => [n](B/New.md)",
			}},
		},
		{
			desc: "a note at that vault path keeps bare links",
			files: map[string]string{
				"Deep/Er/Target.md": "[[Same]]\n", "Same.md": "# Same\n",
				"Deep/Er/Linker.md": "[[Target]] [[Same]]\n",
			},
			id: "Deep/Er/Target.md", title: strp("Same"),
			want: map[string]string{
				"Deep/Er/Linker.md": "[[Er/Same]] [[Same]]\n",
				"Deep/Er/Same.md":   "[[Same]]\n",
			},
			links: map[string][]string{"Deep/Er/Linker.md": {"[[Target]] => [[Er/Same]]"}},
		},
		{
			desc:  "path-qualified stays path-qualified, rename",
			files: map[string]string{"Folder/Old.md": oldNote, "Src.md": "[[Folder/Old]] [[/Folder/Old|abs]] [x](Folder/Old.md) [y](/Folder/Old.md)\n"},
			id:    "Folder/Old.md", title: strp("New Name"),
			want: map[string]string{
				"Src.md":             "[[Folder/New Name]] [[/Folder/New Name|abs]] [x](Folder/New%20Name.md) [y](/Folder/New%20Name.md)\n",
				"Folder/New Name.md": oldNote,
			},
			links: map[string][]string{"Src.md": {
				"[[Folder/Old]] => [[Folder/New Name]]", "[[/Folder/Old|abs]] => [[/Folder/New Name|abs]]",
				"[x](Folder/Old.md) => [x](Folder/New%20Name.md)", "[y](/Folder/Old.md) => [y](/Folder/New%20Name.md)",
			}},
		},
		{
			desc:  "path-qualified stays path-qualified, move",
			files: map[string]string{"A/Folder/Old.md": oldNote, "Src.md": "[[Folder/Old]] [[A/Folder/Old]] [[/A/Folder/Old]] [x](A/Folder/Old.md) [[Old]]\n"},
			id:    "A/Folder/Old.md", dir: strp("Other/Place"),
			want: map[string]string{
				// A path keeps as many folders as the user wrote.
				"Src.md":             "[[Place/Old]] [[Other/Place/Old]] [[/Other/Place/Old]] [x](Other/Place/Old.md) [[Old]]\n",
				"Other/Place/Old.md": oldNote,
			},
			links: map[string][]string{"Src.md": {
				"[[Folder/Old]] => [[Place/Old]]", "[[A/Folder/Old]] => [[Other/Place/Old]]",
				"[[/A/Folder/Old]] => [[/Other/Place/Old]]", "[x](A/Folder/Old.md) => [x](Other/Place/Old.md)",
			}},
		},
		{
			desc: "moved note's own relative links are fixed",
			files: map[string]string{
				"Home.md": "# Home\n", "Notes/Sib.md": "# Sib\n",
				"Notes/Old.md": "[h](../Home.md) [[../Home.md|home]] [s](./Sib.md) [t](Sib.md) [[Sib]] [[Home]] [[#Local]]\n\n## Local\n",
			},
			id: "Notes/Old.md", dir: strp("Deep/Er"),
			want: map[string]string{
				"Deep/Er/Old.md": "[h](../../Home.md) [[../../Home.md|home]] [s](../../Notes/Sib.md) [t](../../Notes/Sib.md) [[Sib]] [[Home]] [[#Local]]\n\n## Local\n",
			},
			links: map[string][]string{"Deep/Er/Old.md": {
				"[h](../Home.md) => [h](../../Home.md)", "[[../Home.md|home]] => [[../../Home.md|home]]",
				"[s](./Sib.md) => [s](../../Notes/Sib.md)", "[t](Sib.md) => [t](../../Notes/Sib.md)",
			}},
		},
		{
			desc: "moved note's own relative link that would now find another note",
			files: map[string]string{
				"Dup.md": "# root Dup\n", "Notes/Dup.md": "# Notes Dup\n",
				"Notes/Old.md": "[d](./Dup.md) [e](Dup.md) [[Dup]]\n",
			},
			id: "Notes/Old.md", dir: strp("Deep/Er"),
			want: map[string]string{
				// [[Dup]] is the root note from anywhere: a note at that vault
				// path wins. [e](Dup.md) was Notes/Dup.md, relative to the
				// note, and stays a relative path.
				"Deep/Er/Old.md": "[d](../../Notes/Dup.md) [e](../../Notes/Dup.md) [[Dup]]\n",
			},
			links: map[string][]string{"Deep/Er/Old.md": {
				"[d](./Dup.md) => [d](../../Notes/Dup.md)", "[e](Dup.md) => [e](../../Notes/Dup.md)",
			}},
		},
		{
			// Attachments stay where they are: the moved note's relative
			// links to them follow it; bare names, which find a file
			// anywhere, stay; a link to a missing file keeps its path.
			desc: "moved note's own links to attachments",
			files: map[string]string{
				"Diagram.png": "png", "Sub/pic.png": "png", "Assets/logo.svg": "svg",
				"Sub/N.md": "![d](../Diagram.png) [p](./pic.png) ![q](pic.png) ![[pic.png]] ![[./pic.png|w]] ![[Diagram.png]]\n" +
					"![r](Diagram.png) [m](../Missing.png) ![[../Gone.pdf]] ![l](Assets/logo.svg) [a](/Assets/logo.svg) ![[Assets/logo.svg]]\n",
			},
			id: "Sub/N.md", dir: strp("Deep/er"),
			want: map[string]string{
				"Deep/er/N.md": "![d](../../Diagram.png) [p](../../Sub/pic.png) ![q](../../Sub/pic.png) ![[pic.png]] ![[../../Sub/pic.png|w]] ![[Diagram.png]]\n" +
					"![r](Diagram.png) [m](../../Missing.png) ![[../../Gone.pdf]] ![l](Assets/logo.svg) [a](/Assets/logo.svg) ![[Assets/logo.svg]]\n",
			},
			links: map[string][]string{"Deep/er/N.md": {
				"![d](../Diagram.png) => ![d](../../Diagram.png)", "[p](./pic.png) => [p](../../Sub/pic.png)",
				"![q](pic.png) => ![q](../../Sub/pic.png)", "![[./pic.png|w]] => ![[../../Sub/pic.png|w]]",
				"[m](../Missing.png) => [m](../../Missing.png)", "![[../Gone.pdf]] => ![[../../Gone.pdf]]",
			}},
		},
		{
			desc: "moved note's own attachment links, moved deeper into their folder",
			files: map[string]string{
				"Sub/pic.png": "png", "Sub/N.md": "[p](./pic.png) ![q](pic.png) ![[./pic.png]]\n",
			},
			id: "Sub/N.md", dir: strp("Sub/In"),
			want: map[string]string{"Sub/In/N.md": "[p](../pic.png) ![q](../pic.png) ![[../pic.png]]\n"},
			links: map[string][]string{"Sub/In/N.md": {
				"[p](./pic.png) => [p](../pic.png)", "![q](pic.png) => ![q](../pic.png)", "![[./pic.png]] => ![[../pic.png]]",
			}},
		},
		{
			// From Sub/, ![[pic.png]] finds the file beside the note; from
			// Deep/, the one with the shorter path.
			desc: "bare attachment name that would find another file",
			files: map[string]string{
				"Sub/pic.png": "png", "Ab/pic.png": "png",
				"Sub/N.md": "![[pic.png]] [x](pic.png)\n",
			},
			id: "Sub/N.md", dir: strp("Deep"),
			want: map[string]string{"Deep/N.md": "![[Sub/pic.png]] [x](../Sub/pic.png)\n"},
			links: map[string][]string{"Deep/N.md": {
				"![[pic.png]] => ![[Sub/pic.png]]", "[x](pic.png) => [x](../Sub/pic.png)",
			}},
		},
		{
			// One definition serves every link that uses its label (any
			// letter case): it is rewritten once, its title and style kept.
			// A definition no link uses, a second one of a label and one
			// in code are no links.
			desc: "reference-style links: the definition is rewritten",
			files: map[string]string{
				"Old Name.md": oldNote,
				"Src.md": "[a][r], [B][], [c] and ![i][ R ].\n\n[r]: Old%20Name.md \"title\"\n[b]: <Old Name.md#Heading> 'single'\n" +
					"[c]:\n  Old%20Name.md\n[u]: Old%20Name.md\n[r]: Old%20Name.md\n\n```\n[x]: Old%20Name.md\n```\n",
			},
			id: "Old Name.md", title: strp("Newer Name"),
			want: map[string]string{
				"Src.md": "[a][r], [B][], [c] and ![i][ R ].\n\n[r]: Newer%20Name.md \"title\"\n[b]: <Newer Name.md#Heading> 'single'\n" +
					"[c]:\n  Newer%20Name.md\n[u]: Old%20Name.md\n[r]: Old%20Name.md\n\n```\n[x]: Old%20Name.md\n```\n",
				"Newer Name.md": oldNote,
			},
			links: map[string][]string{"Src.md": {
				"[r]: Old%20Name.md \"title\" => [r]: Newer%20Name.md \"title\"",
				"[b]: <Old Name.md#Heading> 'single' => [b]: <Newer Name.md#Heading> 'single'",
				"  Old%20Name.md =>   Newer%20Name.md",
			}},
		},
		{
			desc: "reference-style links, moved: the note's own and others'",
			files: map[string]string{
				"Home.md": "# Home\n", "Notes/Old.md": "[home][h]\n\n[h]: ../Home.md\n",
				"Src.md": "[x][o]\n\n[o]: Notes/Old.md\n",
			},
			id: "Notes/Old.md", dir: strp("Deep/Er"),
			want: map[string]string{
				"Deep/Er/Old.md": "[home][h]\n\n[h]: ../../Home.md\n",
				"Src.md":         "[x][o]\n\n[o]: Deep/Er/Old.md\n",
			},
			links: map[string][]string{
				"Deep/Er/Old.md": {"[h]: ../Home.md => [h]: ../../Home.md"},
				"Src.md":         {"[o]: Notes/Old.md => [o]: Deep/Er/Old.md"},
			},
		},
		{
			// Escapes in quoted YAML: the link is found where it is written,
			// and the new name is written escaped for its quotes.
			desc: "frontmatter links in quoted values with escapes",
			files: map[string]string{
				"Café.md": oldNote,
				"Src.md": "---\nrel: '[[Café|it''s]]'\nq: \"[[Caf\\u00e9|say \\\"hi\\\"]]\"\nlist: ['[[Café]]', \"[[Café#Heading]]\"]\n" +
					"multi: \"one\n  [[Café]] two\"\n---\n",
			},
			id: "Café.md", title: strp("Bob's Café"),
			want: map[string]string{
				"Src.md": "---\nrel: '[[Bob''s Café|it''s]]'\nq: \"[[Bob's Café|say \\\"hi\\\"]]\"\nlist: ['[[Bob''s Café]]', \"[[Bob's Café#Heading]]\"]\n" +
					"multi: \"one\n  [[Bob's Café]] two\"\n---\n",
				"Bob's Café.md": oldNote,
			},
			links: map[string][]string{"Src.md": {
				"[[Café|it''s]] => [[Bob''s Café|it''s]]", `[[Caf\u00e9|say \"hi\"]] => [[Bob's Café|say \"hi\"]]`,
				"[[Café]] => [[Bob''s Café]]", "[[Café#Heading]] => [[Bob's Café#Heading]]", "[[Café]] => [[Bob's Café]]",
			}},
		},
		{
			desc: "links to another note with the same name are not touched",
			files: map[string]string{
				"A/Old.md": oldNote, "B/Old.md": "# the other Old\n",
				"Src.md":   "[[B/Old]] [y](B/Old.md) [[A/Old]] [[Old]]\n", // [[Old]]: A/Old.md (same length, A first)
				"B/Src.md": "[[Old]] [z](Old.md)\n",                       // B/Old.md, in the same folder
			},
			id: "A/Old.md", title: strp("New Name"),
			want: map[string]string{
				"Src.md":        "[[B/Old]] [y](B/Old.md) [[A/New Name]] [[New Name]]\n",
				"A/New Name.md": oldNote,
			},
			links: map[string][]string{"Src.md": {"[[A/Old]] => [[A/New Name]]", "[[Old]] => [[New Name]]"}},
		},
		{
			// A bare wikilink names the note by name and stays; a bare
			// markdown file name is a path relative to its note, so it
			// follows the move (other markdown tools read it as a path).
			desc:  "move only: bare wikilinks stay, markdown file names follow",
			files: map[string]string{"Old.md": oldNote, "Src.md": "[[Old]] [x](Old.md) [[Old#Heading|h]]\n", "Archive/In.md": "[y](../Old.md) [z](<../Old.md>)\n"},
			id:    "Old.md", dir: strp("Archive"),
			want: map[string]string{
				"Archive/Old.md": oldNote,
				"Src.md":         "[[Old]] [x](Archive/Old.md) [[Old#Heading|h]]\n",
				"Archive/In.md":  "[y](Old.md) [z](<Old.md>)\n",
			},
			links: map[string][]string{
				"Src.md":        {"[x](Old.md) => [x](Archive/Old.md)"},
				"Archive/In.md": {"[y](../Old.md) => [y](Old.md)", "[z](<../Old.md>) => [z](<Old.md>)"},
			},
		},
		{
			desc:  "rename and move at once",
			files: map[string]string{"Notes/Old.md": oldNote, "Src.md": "[[Old]] [x](Notes/Old.md) [[Notes/Old#Heading]]\n"},
			id:    "Notes/Old.md", title: strp("Fresh"), dir: strp("Archive/Sub"),
			want: map[string]string{
				"Src.md":               "[[Fresh]] [x](Archive/Sub/Fresh.md) [[Sub/Fresh#Heading]]\n",
				"Archive/Sub/Fresh.md": oldNote,
			},
			links: map[string][]string{"Src.md": {
				"[[Old]] => [[Fresh]]", "[x](Notes/Old.md) => [x](Archive/Sub/Fresh.md)", "[[Notes/Old#Heading]] => [[Sub/Fresh#Heading]]",
			}},
		},
		{
			desc:  "title with forbidden characters: kept in the frontmatter",
			files: src("[[Old]]\n"),
			id:    "Old.md", title: strp(`Why? "Because"`),
			want: map[string]string{
				"Src.md":         "[[Why Because]]\n",
				"Why Because.md": "---\ntitle: Why? \"Because\"\n---\n" + oldNote,
			},
			links: map[string][]string{"Src.md": {"[[Old]] => [[Why Because]]"}},
		},
		{
			desc:  "title property is updated on rename",
			files: map[string]string{"Old.md": "---\ntitle: Old Title # shown\ntags: [x]\n---\n" + oldNote, "Src.md": "[[Old]]\n"},
			id:    "Old.md", title: strp("Renamed"),
			want:  map[string]string{"Src.md": "[[Renamed]]\n", "Renamed.md": "---\ntitle: Renamed # shown\ntags: [x]\n---\n" + oldNote},
			links: map[string][]string{"Src.md": {"[[Old]] => [[Renamed]]"}},
		},
		{
			// The links still resolve (names match in any letter case), so
			// they are left as written.
			desc:  "letter case only",
			files: src("[[Old]] [x](Old.md)\n"),
			id:    "Old.md", title: strp("OLD"),
			want:  map[string]string{"OLD.md": oldNote},
			links: map[string][]string{},
		},
		{
			desc:  "links in code are not links",
			files: src("`[[Old]]` and\n\n```\n[[Old]]\n```\n\n[[Old]]\n"),
			id:    "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "`[[Old]]` and\n\n```\n[[Old]]\n```\n\n[[New Name]]\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[[Old]] => [[New Name]]"}},
		},
		{
			desc:  "CRLF file",
			files: src("a\r\n[[Old]]\r\n[x](Old.md)\r\n"),
			id:    "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "a\r\n[[New Name]]\r\n[x](New%20Name.md)\r\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[[Old]] => [[New Name]]", "[x](Old.md) => [x](New%20Name.md)"}},
		},
		{
			desc:  "broken links with the new name are left alone",
			files: src("[[New Name]] [[Old]]\n"),
			id:    "Old.md", title: strp("New Name"),
			want:  map[string]string{"Src.md": "[[New Name]] [[New Name]]\n", "New Name.md": oldNote},
			links: map[string][]string{"Src.md": {"[[Old]] => [[New Name]]"}},
		},
		{
			desc:  "self links",
			files: map[string]string{"Old.md": "[[Old]] [[Old#Heading]] [[#Heading]] [me](Old.md)\n\n## Heading\n", "Src.md": "[[Old]]\n"},
			id:    "Old.md", title: strp("New Name"),
			want: map[string]string{
				"New Name.md": "[[New Name]] [[New Name#Heading]] [[#Heading]] [me](New%20Name.md)\n\n## Heading\n",
				"Src.md":      "[[New Name]]\n",
			},
			links: map[string][]string{
				"New Name.md": {"[[Old]] => [[New Name]]", "[[Old#Heading]] => [[New Name#Heading]]", "[me](Old.md) => [me](New%20Name.md)"},
				"Src.md":      {"[[Old]] => [[New Name]]"},
			},
		},
	}
}

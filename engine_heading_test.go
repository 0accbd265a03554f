package vaultgraph_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// headingVault is a vault whose note Beta has the heading "Goals", linked
// to in every form from Projects/Alpha.md and from Beta itself; Gamma has
// a heading "Goals" too.
func headingVault() map[string]string {
	return map[string]string{
		"Beta.md": "---\ntags: [x]\n---\n# Beta\n\n## Goals ##\n\nText ^blk\n\n### Sub\n\n## Next Steps\n\nSee [[#Goals]], [[Beta#Goals#Sub]] and [[#Next Steps]]. [here](#Goals)\n",
		"Projects/Alpha.md": "---\nrelated: \"[[Beta#Goals]]\"\nsingle: '[[Beta#goals|g]]'\nlist: [\"[[Beta#Goals]]\", \"[[Gamma#Goals]]\"]\n---\n" +
			"[[Beta#Goals]] [[Beta#Goals|alias]] ![[Beta#Goals]]\n" +
			"[[Beta#Goals#Sub]] [[Beta#Beta#Goals]] [[Beta#GOALS]]\n" +
			"[text](Beta.md#Goals) [t2](<Beta.md#Goals>) [t3](../Beta.md#goals \"title\")\n" +
			"[[Gamma#Goals]] [[Beta#Next Steps]] [[Beta]] [[Beta#^blk]]\n" +
			"| a | [[Beta#Goals\\|in table]] |\n|---|---|\n",
		"Gamma.md": "## Goals\n\n[[Beta#Next Steps]] [n](Beta.md#Next%20Steps) [m](<Beta.md#Next Steps>)\n",
	}
}

// applyWant returns files with the replacements of want applied to them
// (path -> old, new, old, new ...).
func applyWant(t *testing.T, files map[string]string, want map[string][]string) map[string]string {
	t.Helper()
	out := maps.Clone(files)
	for p, pairs := range want {
		s := out[p]
		for i := 0; i+1 < len(pairs); i += 2 {
			if !strings.Contains(s, pairs[i]) {
				t.Fatalf("bad test: %s has no %q", p, pairs[i])
			}
			s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
		}
		out[p] = s
	}
	return out
}

func TestRenameHeadingLinkForms(t *testing.T) {
	tests := []struct {
		desc     string
		files    map[string]string
		id       string
		from, to string
		want     map[string][]string // path -> old, new pairs
	}{
		{
			desc: "every link form", files: headingVault(), id: "Beta", from: "Goals", to: "Team Goals",
			want: map[string][]string{
				"Beta.md": {"## Goals ##", "## Team Goals ##", "[[#Goals]]", "[[#Team Goals]]", "[[Beta#Goals#Sub]]", "[[Beta#Team Goals#Sub]]", "(#Goals)", "(#Team%20Goals)"},
				"Projects/Alpha.md": {
					"\"[[Beta#Goals]]\"", "\"[[Beta#Team Goals]]\"", "'[[Beta#goals|g]]'", "'[[Beta#Team Goals|g]]'",
					"[[Beta#Goals]] [[Beta#Goals|alias]] ![[Beta#Goals]]", "[[Beta#Team Goals]] [[Beta#Team Goals|alias]] ![[Beta#Team Goals]]",
					"[[Beta#Goals#Sub]] [[Beta#Beta#Goals]] [[Beta#GOALS]]", "[[Beta#Team Goals#Sub]] [[Beta#Beta#Team Goals]] [[Beta#Team Goals]]",
					"(Beta.md#Goals)", "(Beta.md#Team%20Goals)", "(<Beta.md#Goals>)", "(<Beta.md#Team Goals>)",
					"(../Beta.md#goals \"title\")", "(../Beta.md#Team%20Goals \"title\")",
					"[[Beta#Goals\\|in table]]", "[[Beta#Team Goals\\|in table]]",
				},
			},
		},
		{
			desc: "%20 and <> kept, the words of the heading", files: headingVault(), id: "Beta.md", from: "next steps", to: "Later: Steps",
			want: map[string][]string{
				"Beta.md":           {"## Next Steps", "## Later: Steps", "[[#Next Steps]]", "[[#Later Steps]]"},
				"Projects/Alpha.md": {"[[Beta#Next Steps]]", "[[Beta#Later Steps]]"},
				"Gamma.md":          {"[[Beta#Next Steps]]", "[[Beta#Later Steps]]", "(Beta.md#Next%20Steps)", "(Beta.md#Later%20Steps)", "(<Beta.md#Next Steps>)", "(<Beta.md#Later Steps>)"},
			},
		},
		{
			desc: "a nested part only, under its parent", files: headingVault(), id: "Beta", from: "Goals#Sub", to: "Details",
			want: map[string][]string{
				"Beta.md":           {"### Sub", "### Details", "[[Beta#Goals#Sub]]", "[[Beta#Goals#Details]]"},
				"Projects/Alpha.md": {"[[Beta#Goals#Sub]]", "[[Beta#Goals#Details]]"},
			},
		},
		{
			desc: "quotes in frontmatter links are escaped, markdown encoded",
			files: map[string]string{
				"N.md": "# Plan\n",
				"M.md": "---\na: \"[[N#Plan]]\"\nb: '[[N#Plan]]'\n---\n[x](N.md#Plan) [[N#Plan]]\n",
			},
			id: "N", from: "Plan", to: `Bob's "plan" (v2)`,
			want: map[string][]string{
				"N.md": {"# Plan", `# Bob's "plan" (v2)`},
				"M.md": {`"[[N#Plan]]"`, `"[[N#Bob's \"plan\" (v2)]]"`, `'[[N#Plan]]'`, `'[[N#Bob''s "plan" (v2)]]'`,
					"(N.md#Plan)", "(N.md#Bob's%20\"plan\"%20%28v2%29)", "[[N#Plan]]\n", "[[N#Bob's \"plan\" (v2)]]\n"},
			},
		},
		{
			desc: "characters a link cannot hold become spaces, as Obsidian writes them",
			files: map[string]string{
				"N.md": "# Plan\n",
				"M.md": "[[N#Plan]] [x](N.md#Plan)\n",
			},
			id: "N", from: "Plan", to: "Q3: C# [[x]] a|b ^c",
			want: map[string][]string{
				"N.md": {"# Plan", "# Q3: C# [[x]] a|b ^c"},
				"M.md": {"[[N#Plan]]", "[[N#Q3 C x a b c]]", "(N.md#Plan)", "(N.md#Q3%20C%20x%20a%20b%20c)"},
			},
		},
		{
			desc: "reference-style links: the definition once",
			files: map[string]string{
				"N.md": "# Plan\n",
				"M.md": "[a][r] and [b][r] and [c][]\n\n[r]: <N.md#Plan> \"title\"\n[c]: ./N.md#plan\n",
			},
			id: "N", from: "Plan", to: "New Plan",
			want: map[string][]string{
				"N.md": {"# Plan", "# New Plan"},
				"M.md": {"<N.md#Plan>", "<N.md#New Plan>", "./N.md#plan", "./N.md#New%20Plan"},
			},
		},
		{
			desc: "notes the user's filters exclude are rewritten too",
			files: map[string]string{
				".obsidian/app.json": `{"userIgnoreFilters": ["Archive/"]}`,
				"N.md":               "# Plan\n",
				"Archive/Old.md":     "[[N#Plan]]\n",
			},
			id: "N", from: "Plan", to: "New Plan",
			want: map[string][]string{
				"N.md":           {"# Plan", "# New Plan"},
				"Archive/Old.md": {"[[N#Plan]]", "[[N#New Plan]]"},
			},
		},
		{
			desc: "canvas text nodes, their JSON escapes kept",
			files: map[string]string{
				"N.md":         "# Plan\n",
				"Board.canvas": `{"nodes":[{"id":"a","type":"text","text":"See [[N#Plan]]\n\u00e9 [x](N.md#Plan)","x":0},{"id":"b","type":"file","file":"N.md"}],"edges":[]}`,
				"Bad.canvas":   `{"nodes":[`,
			},
			id: "N", from: "Plan", to: "New \"Plan\"",
			want: map[string][]string{
				"N.md":         {"# Plan", `# New "Plan"`},
				"Board.canvas": {"[[N#Plan]]", `[[N#New \"Plan\"]]`, "(N.md#Plan)", `(N.md#New%20\"Plan\")`},
			},
		},
		{
			desc: "canvas file nodes' subpaths, escapes kept elsewhere",
			files: map[string]string{
				"N.md":     "# Plan\n\n## Sub\n",
				"Other.md": "# Plan\n",
				"Board.canvas": `{"nodes":[{"id":"a","type":"file","file":"N.md","subpath":"#Plan"},` +
					`{"id":"b","type":"file","file":"N.md","subpath":"#Plan#Sub","label":"caf\u00e9"},` +
					`{"id":"c","type":"file","file":"Other.md","subpath":"#Plan"},{"id":"d","type":"file","file":"N.md"}],"edges":[]}`,
			},
			id: "N", from: "Plan", to: "Road \"map\"",
			want: map[string][]string{
				"N.md":         {"# Plan", `# Road "map"`},
				"Board.canvas": {`"N.md","subpath":"#Plan"}`, `"N.md","subpath":"#Road \"map\""}`, `"#Plan#Sub"`, `"#Road \"map\"#Sub"`},
			},
		},
		{
			desc: "a heading whose text holds '#', named as written",
			files: map[string]string{
				"N.md": "# C# tips\n",
				"M.md": "[[N#C tips]] [[N#C# tips]]\n",
			},
			id: "N", from: "C# tips", to: "Go tips",
			want: map[string][]string{
				"N.md": {"# C# tips", "# Go tips"},
				"M.md": {"[[N#C tips]]", "[[N#Go tips]]"},
			},
		},
		{
			desc: "CRLF line endings, markup and a closing sequence",
			files: map[string]string{
				"N.md": "# **Plan**  ##  \r\nText\r\n",
				"M.md": "[[N#Plan]]\r\n",
			},
			id: "N", from: "plan", to: "New *Plan*",
			want: map[string][]string{
				"N.md": {"# **Plan**  ##  \r\n", "# New *Plan*  ##  \r\n"},
				"M.md": {"[[N#Plan]]\r\n", "[[N#New *Plan*]]\r\n"},
			},
		},
		{
			desc: "a setext heading; a link in the heading's text goes with it",
			files: map[string]string{
				"N.md": "Plan [[#Plan]]\n====\n\n[[#Plan]]\n",
			},
			id: "N", from: "Plan Plan", to: "Roadmap",
			want: map[string][]string{
				"N.md": {"Plan [[#Plan]]\n====\n\n[[#Plan]]", "Roadmap\n====\n\n[[#Plan]]"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			dir := makeVault(t, tt.files)
			e := openMemWriter(t, dir)
			res, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: tt.id, RenameHeading: &vaultgraph.HeadingRename{From: tt.from, To: tt.to}})
			if err != nil {
				t.Fatalf("UpdateNode(rename heading %q to %q) = %v", tt.from, tt.to, err)
			}
			want := applyWant(t, tt.files, tt.want)
			if d := treeDiff(noteFiles(t, dir), want); d != "" {
				t.Errorf("after renaming %q to %q:\n%s", tt.from, tt.to, d)
			}
			if _, ok := tt.files["Bad.canvas"]; ok && !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, "Bad.canvas was left as it is") }) {
				t.Errorf("warnings = %q, want one about Bad.canvas (not valid JSON)", res.Warnings)
			}
			var paths []string
			for _, f := range res.Files {
				paths = append(paths, f.Path)
			}
			if want := slices.Sorted(maps.Keys(tt.want)); !slices.Equal(slices.Sorted(slices.Values(paths)), want) {
				t.Errorf("answer files = %q, want %q", paths, want)
			}
		})
	}
}

func TestRenameHeadingDryRun(t *testing.T) {
	files := headingVault()
	dir := makeVault(t, files)
	e := openMemWriter(t, dir)
	before := fileTree(t, dir)
	res, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Beta", DryRun: true, RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "Aims"}})
	if err != nil {
		t.Fatalf("UpdateNode(dry run) = %v", err)
	}
	if d := treeDiff(fileTree(t, dir), before); d != "" {
		t.Errorf("a dry run changed the vault:\n%s", d)
	}
	if !res.DryRun || res.Node != nil {
		t.Errorf("answer DryRun %v, Node %v, want true and none", res.DryRun, res.Node)
	}
	var got []string
	for _, f := range res.Files {
		for _, l := range f.Links {
			got = append(got, fmt.Sprintf("%s %d: %s => %s", f.Path, l.Line, l.Old, l.New))
		}
	}
	for _, want := range []string{
		"Beta.md 14: [[#Goals]] => [[#Aims]]",
		"Projects/Alpha.md 2: [[Beta#Goals]] => [[Beta#Aims]]",
		"Projects/Alpha.md 6: [[Beta#Goals|alias]] => [[Beta#Aims|alias]]",
		"Projects/Alpha.md 8: [t2](<Beta.md#Goals>) => [t2](<Beta.md#Aims>)",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("dry run links = %q, want %q among them", got, want)
		}
	}
}

func TestRenameHeadingRefused(t *testing.T) {
	tests := []struct {
		desc string
		give vaultgraph.NoteUpdate
		want string // in the error
	}{
		{"no such heading", vaultgraph.NoteUpdate{RenameHeading: &vaultgraph.HeadingRename{From: "Nope", To: "X"}}, `Beta.md has no heading "Nope"; its headings are "Beta" (line 4)`},
		{"empty from", vaultgraph.NoteUpdate{RenameHeading: &vaultgraph.HeadingRename{From: " ", To: "X"}}, "renameHeading.from is empty"},
		{"a block", vaultgraph.NoteUpdate{RenameHeading: &vaultgraph.HeadingRename{From: "^blk", To: "X"}}, "names a block"},
		{"empty to", vaultgraph.NoteUpdate{RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "  "}}, "renameHeading.to is empty"},
		{"a line break", vaultgraph.NoteUpdate{RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "a\nb"}}, "line break"},
		{"no letter", vaultgraph.NoteUpdate{RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "#|^"}}, "no letter or digit"},
		{"another heading's text", vaultgraph.NoteUpdate{RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "next: steps"}}, `already has the heading "Next Steps" at line 12`},
		{"a closing #", vaultgraph.NoteUpdate{RenameHeading: &vaultgraph.HeadingRename{From: "Next Steps", To: "Aims #"}}, "cannot be written as the text of the heading at line 12"},
		{"with content", vaultgraph.NoteUpdate{Content: strp("x\n"), RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "X"}}, "cannot be combined"},
		{"with a title", vaultgraph.NoteUpdate{Title: strp("Zeta"), RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "X"}}, "cannot be combined"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			dir := makeVault(t, headingVault())
			e := openMemWriter(t, dir)
			before := fileTree(t, dir)
			u := tt.give
			u.ID = "Beta"
			_, err := e.UpdateNode(context.Background(), u)
			if !errors.Is(err, vaultgraph.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("UpdateNode(%s) = %v, want ErrInvalid saying %q", tt.desc, err, tt.want)
			}
			if d := treeDiff(fileTree(t, dir), before); d != "" {
				t.Errorf("a refused heading rename changed the vault:\n%s", d)
			}
		})
	}
	t.Run("ambiguous", func(t *testing.T) {
		dir := makeVault(t, map[string]string{"N.md": "# Mon\n## Notes\n# Tue\n## Notes\n", "M.md": "[[N#Notes]] [[N#Tue#Notes]]\n"})
		e := openMemWriter(t, dir)
		before := fileTree(t, dir)
		_, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "N", RenameHeading: &vaultgraph.HeadingRename{From: "notes", To: "Log"}})
		if want := `"notes" matches the headings at lines 2, 4 of N.md`; !errors.Is(err, vaultgraph.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("UpdateNode(ambiguous from) = %v, want ErrInvalid saying %q", err, want)
		}
		if d := treeDiff(fileTree(t, dir), before); d != "" {
			t.Errorf("a refused heading rename changed the vault:\n%s", d)
		}
		// Named under its parent, the second one is renamed; [[N#Notes]]
		// goes to the first and stays.
		if _, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "N", RenameHeading: &vaultgraph.HeadingRename{From: "Tue#Notes", To: "Log"}}); err != nil {
			t.Fatalf("UpdateNode(Tue#Notes) = %v", err)
		}
		want := map[string]string{"N.md": "# Mon\n## Notes\n# Tue\n## Log\n", "M.md": "[[N#Notes]] [[N#Tue#Log]]\n"}
		if d := treeDiff(noteFiles(t, dir), want); d != "" {
			t.Errorf("after renaming Tue#Notes:\n%s", d)
		}
	})
}

// TestRenameHeadingConflict edits a linking note while the heading rename
// is committed: CONFLICT, and no file changes but for the edit.
func TestRenameHeadingConflict(t *testing.T) {
	dir := makeVault(t, headingVault())
	e := openMemWriter(t, dir)
	edited := filepath.Join(dir, "Projects", "Alpha.md")
	var hookErr error
	e.SetCommitFailAt(func(step string, n int) error {
		if step == "journal" && n == 1 {
			hookErr = appendUserEdit(edited)
		}
		return nil
	})
	before := noteFiles(t, dir)
	_, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Beta", RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "Aims"}})
	if hookErr != nil {
		t.Fatal(hookErr)
	}
	if !errors.Is(err, vaultgraph.ErrConflict) || !strings.Contains(err.Error(), "Projects/Alpha.md changed on disk while the heading rename was prepared") {
		t.Fatalf("UpdateNode(rename heading) with Alpha edited meanwhile = %v, want ErrConflict naming it", err)
	}
	before["Projects/Alpha.md"] += "USER EDIT\n"
	if d := treeDiff(noteFiles(t, dir), before); d != "" {
		t.Errorf("after the refused heading rename the vault is not as before plus the edit:\n%s", d)
	}
	// ifMatch with a stale hash: CONFLICT too.
	_, err = e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Beta", IfMatch: "sha256:0000", RenameHeading: &vaultgraph.HeadingRename{From: "Goals", To: "Aims"}})
	if !errors.Is(err, vaultgraph.ErrConflict) {
		t.Errorf("UpdateNode(rename heading, stale ifMatch) = %v, want ErrConflict", err)
	}
}

// TestUpdateNodeContentLostAnchors replaces a note's body without the
// heading and the block other notes link to: the write goes ahead and
// the answer names each link left pointing at nothing.
func TestUpdateNodeContentLostAnchors(t *testing.T) {
	dir := makeVault(t, headingVault())
	e := openMemWriter(t, dir)
	for _, dry := range []bool{true, false} {
		res, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Beta", DryRun: dry, Content: strp("# Beta\n\n## Aims\n\n### Sub\n\n## Next Steps\n")})
		if err != nil {
			t.Fatalf("UpdateNode(content, dry run %v) = %v", dry, err)
		}
		for _, want := range []string{
			`Projects/Alpha.md line 2: [[Beta#Goals]] now points at a missing heading "Goals"`,
			`Projects/Alpha.md line 8: [t2](Beta.md#Goals) now points at a missing heading "Goals"`,
			`Projects/Alpha.md line 7: [[Beta#Goals#Sub]] now points at a missing heading "Goals"`,
			`Projects/Alpha.md line 9: [[Beta#^blk]] now points at a missing block "^blk"`,
		} {
			if !slices.Contains(res.Warnings, want) {
				t.Errorf("UpdateNode(content, dry run %v) warnings = %q, want %q among them", dry, res.Warnings, want)
			}
		}
		for _, w := range res.Warnings {
			if strings.Contains(w, "Next Steps") || strings.Contains(w, "Gamma") {
				t.Errorf("warning %q about a link that still finds its heading", w)
			}
		}
	}
	if got := noteFiles(t, dir)["Beta.md"]; !strings.Contains(got, "## Aims") {
		t.Errorf("Beta.md = %q, want the new content written", got)
	}
}

// TestRenameHeadingBreaksLink renames a heading to a text that one link
// cannot hold as written: refused, no file changed.
func TestRenameHeadingBreaksLink(t *testing.T) {
	dir := makeVault(t, map[string]string{
		"N.md": "# Plan\n",
		"M.md": "[[N#Plan]]\n\nan open ` then [[N#Plan]] here\n",
	})
	e := openMemWriter(t, dir)
	before := fileTree(t, dir)
	_, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "N", RenameHeading: &vaultgraph.HeadingRename{From: "Plan", To: "a`b"}})
	if want := "M.md would have 1 links after the heading rename, not 2; nothing was written"; !errors.Is(err, vaultgraph.ErrInvalid) || !strings.Contains(err.Error(), want) {
		t.Errorf("UpdateNode(rename to a text with '`') = %v, want ErrInvalid saying %q", err, want)
	}
	if d := treeDiff(fileTree(t, dir), before); d != "" {
		t.Errorf("a refused heading rename changed the vault:\n%s", d)
	}
}

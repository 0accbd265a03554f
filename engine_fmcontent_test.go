package vaultgraph_test

// Tests of content that carries its own frontmatter (engine_fmcontent.go):
// such content is the note's whole text, tags and properties given with
// it are applied on top with a warning naming each value they replace,
// and a tag change warns about the inline tags that stay in the body.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// fmContentCase is one write of content with (or without) frontmatter.
type fmContentCase struct {
	desc     string
	file     string // Note.md before the write; "" for a create
	update   vaultgraph.NoteUpdate
	create   vaultgraph.NewNote
	want     string   // Note.md after the write (the file unchanged when wantErr)
	wantWarn []string // each is one of the answer's warnings
	wantErr  string   // an ErrInvalid whose message holds this
}

// run writes the case on a fresh vault and checks the file, the warnings
// and that a refused write changed nothing.
func (tt fmContentCase) run(t *testing.T) {
	t.Helper()
	files := map[string]string{"Home.md": "home\n"}
	if tt.file != "" {
		files["Note.md"] = tt.file
	}
	dir := makeVault(t, files)
	e := openWriter(t, dir, false)
	before := noteFiles(t, dir)
	var res *vaultgraph.WriteResult
	var err error
	if tt.file != "" {
		u := tt.update
		u.ID = "Note"
		res, err = e.UpdateNode(context.Background(), u)
	} else {
		n := tt.create
		n.Title = "Note"
		res, err = e.CreateNode(context.Background(), n)
	}
	if tt.wantErr != "" {
		if !errors.Is(err, vaultgraph.ErrInvalid) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("write = %v, want ErrInvalid saying %q", err, tt.wantErr)
		}
		if d := treeDiff(noteFiles(t, dir), before); d != "" {
			t.Errorf("a refused write changed files:\n%s", d)
		}
		return
	}
	if err != nil {
		t.Fatalf("write = %v", err)
	}
	if got := noteFiles(t, dir)["Note.md"]; got != tt.want {
		t.Errorf("Note.md =\n%q\nwant\n%q", got, tt.want)
	}
	for _, w := range tt.wantWarn {
		if !slices.Contains(res.Warnings, w) {
			t.Errorf("warnings = %q, want %q among them", res.Warnings, w)
		}
	}
	for _, w := range res.Warnings {
		if (strings.Contains(w, "from the content's frontmatter") || strings.Contains(w, "written in the body")) && !slices.Contains(tt.wantWarn, w) {
			t.Errorf("unexpected warning %q", w)
		}
	}
}

func TestUpdateNodeWholeText(t *testing.T) {
	tests := []fmContentCase{
		{
			desc:   "frontmatter content replaces the note's frontmatter: one block",
			file:   "---\ntags: [a]\nstatus: draft\n---\nold body\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\ntags: [a]\nstatus: done\n---\nnew body\n")},
			want:   "---\ntags: [a]\nstatus: done\n---\nnew body\n",
		},
		{
			desc:   "a key left out of the content's frontmatter is gone",
			file:   "---\nkeep: 1\ndrop: 2\n---\nbody\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\nkeep: 1\n---\nbody\n")},
			want:   "---\nkeep: 1\n---\nbody\n",
		},
		{
			desc:   "a note without frontmatter gets the content's",
			file:   "plain body\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\ntags: [x]\n---\nBody\n")},
			want:   "---\ntags: [x]\n---\nBody\n",
		},
		{
			desc:   "twice on a note without frontmatter: still one block",
			file:   "---\ntags: [x]\n---\nBody\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\ntags: [z]\n---\nBody2\n")},
			want:   "---\ntags: [z]\n---\nBody2\n",
		},
		{
			desc:     "a note without frontmatter: content's frontmatter and tags on top",
			file:     "plain body\n",
			update:   vaultgraph.NoteUpdate{Content: strp("---\ntags: [x]\nkeep:   'as written'\n---\nBody\n"), Tags: &[]string{"y"}},
			want:     "---\ntags:\n  - y\nkeep:   'as written'\n---\nBody\n",
			wantWarn: []string{"tags [x] from the content's frontmatter replaced by tags [y]"},
		},
		{
			desc:     "properties on top keep the other keys' bytes and order",
			file:     "---\nold: 1\n---\nbody\n",
			update:   vaultgraph.NoteUpdate{Content: strp("---\nstatus: draft   # c\nkeep:   [1,2]\n---\nnew\n"), Properties: []vault.Property{{Key: "status", Value: "done"}, {Key: "added", Value: int64(3)}}},
			want:     "---\nstatus: done # c\nkeep:   [1,2]\nadded: 3\n---\nnew\n",
			wantWarn: []string{"status draft from the content's frontmatter replaced by status done"},
		},
		{
			desc:     "a property removed on top is named",
			file:     "body\n",
			update:   vaultgraph.NoteUpdate{Content: strp("---\nstatus: draft\nkeep: 1\n---\nnew\n"), Properties: []vault.Property{{Key: "status"}}},
			want:     "---\nkeep: 1\n---\nnew\n",
			wantWarn: []string{"status draft from the content's frontmatter removed"},
		},
		{
			desc:   "the same value on top is no warning",
			file:   "body\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\ntags: [x]\n---\nnew\n"), Tags: &[]string{"x"}},
			want:   "---\ntags: [x]\n---\nnew\n",
		},
		{
			desc:   "tags with a body-only content: replacing the note's tags is the request, no warning",
			file:   "---\ntags: [x]\n---\nbody\n",
			update: vaultgraph.NoteUpdate{Content: strp("new\n"), Tags: &[]string{"y"}},
			want:   "---\ntags:\n  - y\n---\nnew\n",
		},
		{
			desc:   "CRLF note: the content's lines become CRLF",
			file:   "---\r\ntags: [a]\r\n---\r\nold\r\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\ntags: [b]\n---\nnew\nbody\n")},
			want:   "---\r\ntags: [b]\r\n---\r\nnew\r\nbody\r\n",
		},
		{
			desc:   "CRLF content sent back as read",
			file:   "---\r\ntags: [a]\r\n---\r\nold\r\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\r\ntags: [a]\r\n---\r\nnew\r\n")},
			want:   "---\r\ntags: [a]\r\n---\r\nnew\r\n",
		},
		{
			desc:   "BOM note, content read with its BOM: one BOM, one block",
			file:   "\uFEFF---\ntags: [a]\n---\nold\n",
			update: vaultgraph.NoteUpdate{Content: strp("\uFEFF---\ntags: [a]\n---\nnew\n")},
			want:   "\uFEFF---\ntags: [a]\n---\nnew\n",
		},
		{
			desc:   "BOM note, content without BOM: the file's BOM stays",
			file:   "\uFEFF---\ntags: [a]\n---\nold\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\ntags: [c]\n---\nnew\n")},
			want:   "\uFEFF---\ntags: [c]\n---\nnew\n",
		},
		{
			desc:   "empty frontmatter block",
			file:   "---\ntags: [a]\n---\nold\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\n---\nnew\n")},
			want:   "---\n---\nnew\n",
		},
		{
			desc:   "empty frontmatter block with tags on top",
			file:   "old\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\n---\nnew\n"), Tags: &[]string{"t"}},
			want:   "---\ntags:\n  - t\n---\nnew\n",
		},
		{
			desc:    "malformed YAML is refused",
			file:    "---\ntags: [a]\n---\nold\n",
			update:  vaultgraph.NoteUpdate{Content: strp("---\ntags: [a\n---\nnew\n")},
			wantErr: "malformed YAML",
		},
		{
			desc:    "frontmatter that is not a map is refused",
			file:    "old\n",
			update:  vaultgraph.NoteUpdate{Content: strp("---\njust text\n---\nnew\n")},
			wantErr: "not a map of properties",
		},
		{
			desc:    "a key given twice is refused",
			file:    "old\n",
			update:  vaultgraph.NoteUpdate{Content: strp("---\na: 1\na: 2\n---\nnew\n")},
			wantErr: `key "a" is given twice`,
		},
		{
			desc:   "a broken block the note already has, sent back unchanged, stays",
			file:   "---\ntags: [a\n---\nold\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\ntags: [a\n---\nnew\n")},
			want:   "---\ntags: [a\n---\nnew\n",
		},
		{
			desc:   "a rule that is not closed is body text, under the note's frontmatter",
			file:   "---\nk: 1\n---\nold\n",
			update: vaultgraph.NoteUpdate{Content: strp("---\nnew\n")},
			want:   "---\nk: 1\n---\n---\nnew\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, tt.run)
	}
}

func TestCreateNodeWholeText(t *testing.T) {
	tests := []fmContentCase{
		{
			desc:   "frontmatter content is written as given",
			create: vaultgraph.NewNote{Content: "---\ntags: [x]\nstatus:   draft\n---\nBody"},
			want:   "---\ntags: [x]\nstatus:   draft\n---\nBody\n", // and a final newline
		},
		{
			desc:     "tags on top of the content's replace them, with a warning",
			create:   vaultgraph.NewNote{Content: "---\ntags: [x]\n---\nBody", Tags: []string{"y"}},
			want:     "---\ntags:\n  - y\n---\nBody\n",
			wantWarn: []string{"tags [x] from the content's frontmatter replaced by tags [y]"},
		},
		{
			desc:   "tags and properties added to the content's frontmatter",
			create: vaultgraph.NewNote{Content: "---\nkeep: 1\n---\nBody\n", Tags: []string{"y"}, Properties: []vault.Property{{Key: "status", Value: "done"}}},
			want:   "---\nkeep: 1\nstatus: done\ntags:\n  - y\n---\nBody\n",
		},
		{
			desc:     "a property on top replaces the content's, with a warning",
			create:   vaultgraph.NewNote{Content: "---\nstatus: draft\n---\nBody\n", Properties: []vault.Property{{Key: "status", Value: "done"}}},
			want:     "---\nstatus: done\n---\nBody\n",
			wantWarn: []string{"status draft from the content's frontmatter replaced by status done"},
		},
		{
			desc:    "malformed YAML is refused, no file",
			create:  vaultgraph.NewNote{Content: "---\ntags: [x\n---\nBody\n"},
			wantErr: "malformed YAML",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, tt.run)
	}
}

func TestUpdateNodeInlineTags(t *testing.T) {
	tests := []fmContentCase{
		{
			desc:     "inline tags not among the new tags are named",
			file:     "---\ntags: [a, b]\n---\nText #a and #Keep/me and #other.\n\n`#code` is no tag.\n",
			update:   vaultgraph.NoteUpdate{Tags: &[]string{"a", "new"}},
			want:     "---\ntags:\n  - a\n  - new\n---\nText #a and #Keep/me and #other.\n\n`#code` is no tag.\n",
			wantWarn: []string{"#Keep/me is written in the body and stays", "#other is written in the body and stays"},
		},
		{
			desc:     "removing every tag",
			file:     "---\ntags: [a]\n---\nText #A.\n",
			update:   vaultgraph.NoteUpdate{Tags: &[]string{}},
			want:     "---\n---\nText #A.\n",
			wantWarn: []string{"#A is written in the body and stays"},
		},
		{
			desc:   "an inline tag among the new tags, in another case, is no warning",
			file:   "Text #Topic.\n",
			update: vaultgraph.NoteUpdate{Tags: &[]string{"topic"}},
			want:   "---\ntags:\n  - topic\n---\nText #Topic.\n",
		},
		{
			desc:     "inline tags of new content count",
			file:     "---\ntags: [a]\n---\nold #gone\n",
			update:   vaultgraph.NoteUpdate{Content: strp("new #fresh\n"), Tags: &[]string{"a"}},
			want:     "---\ntags: [a]\n---\nnew #fresh\n",
			wantWarn: []string{"#fresh is written in the body and stays"},
		},
		{
			desc:   "no tag change, no warning",
			file:   "---\ntags: [a]\n---\nold #x\n",
			update: vaultgraph.NoteUpdate{Content: strp("new #x\n")},
			want:   "---\ntags: [a]\n---\nnew #x\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, tt.run)
	}
}

package vaultgraph_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
)

// TestNoteIDs pages through every note of testvault by ID, as
// resources/list does, and checks each page against the sorted IDs.
func TestNoteIDs(t *testing.T) {
	e := openTestVault(t)
	all := e.Graph().IDs()
	tests := []struct {
		desc     string
		after    string
		limit    int
		want     []string
		wantMore bool
	}{
		{"first page", "", 5, all[:5], true},
		{"after an ID", all[4], 5, all[5:10], true},
		{"after a name that is no note", all[4] + "\x00", 5, all[5:10], true},
		{"the last page, exactly full", all[len(all)-6], 5, all[len(all)-5:], false},
		{"all at once", "", len(all) + 1, all, false},
		{"after the last", all[len(all)-1], 5, []string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, more, err := e.NoteIDs(tt.after, tt.limit)
			if err != nil {
				t.Fatalf("NoteIDs(%q, %d) = %v", tt.after, tt.limit, err)
			}
			if !slices.Equal(got, tt.want) || more != tt.wantMore {
				t.Errorf("NoteIDs(%q, %d) = %q, %v, want %q, %v", tt.after, tt.limit, got, more, tt.want, tt.wantMore)
			}
		})
	}
	if _, _, err := e.NoteIDs("", 0); !errors.Is(err, vaultgraph.ErrInvalid) {
		t.Errorf("NoteIDs(\"\", 0) = %v, want ErrInvalid", err)
	}
}

// TestListNodesAfterTouch: a note whose file only got a new modification
// time (same content) sorts and filters by the new time at once.
func TestListNodesAfterTouch(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	ctx := context.Background()
	later := time.Now().Add(48 * time.Hour).Truncate(time.Second)
	touch(t, dir, "Home.md", later)
	if err := e.Sync(ctx, "Home.md"); err != nil {
		t.Fatal(err)
	}
	first, err := e.ListNodes(ctx, vaultgraph.ListQuery{SortBy: []string{"-modified"}, Limit: 1})
	if err != nil || len(first.Nodes) != 1 || first.Nodes[0].ID != "Home.md" {
		t.Errorf("ListNodes(-modified) after a touch = %v, %v, want Home.md first", first, err)
	}
	after, err := e.ListNodes(ctx, vaultgraph.ListQuery{ModifiedAfter: later.Add(-time.Second)})
	if err != nil || len(after.Nodes) != 1 || after.Nodes[0].ID != "Home.md" {
		t.Errorf("ListNodes(modified after the touch) = %v, %v, want Home.md alone", after, err)
	}
}

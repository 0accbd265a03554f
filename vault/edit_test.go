package vault

import (
	"errors"
	"testing"
)

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		desc  string
		src   string
		edits []Edit
		want  string
	}{
		{desc: "no edits", src: "abc", want: "abc"},
		{desc: "one replacement", src: "see [[Old]] here", edits: []Edit{{6, 9, "New Name"}}, want: "see [[New Name]] here"},
		{desc: "any order", src: "0123456789", edits: []Edit{{7, 8, "x"}, {1, 3, ""}, {4, 4, "ins"}}, want: "03ins456x89"},
		{desc: "adjacent", src: "abcd", edits: []Edit{{2, 4, "Z"}, {0, 2, "Y"}}, want: "YZ"},
		{desc: "insert before a replacement at the same offset", src: "abcd", edits: []Edit{{1, 3, "X"}, {1, 1, "i"}}, want: "aiXd"},
		{desc: "insert at the end", src: "ab", edits: []Edit{{2, 2, "!"}}, want: "ab!"},
		{desc: "whole text", src: "ab", edits: []Edit{{0, 2, "xyz"}}, want: "xyz"},
		{desc: "multi-byte text kept", src: "東京 [[a]] Café", edits: []Edit{{9, 10, "東"}}, want: "東京 [[東]] Café"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := ApplyEdits([]byte(tt.src), tt.edits)
			if err != nil {
				t.Fatalf("ApplyEdits(%q, %v) error: %v", tt.src, tt.edits, err)
			}
			if string(got) != tt.want {
				t.Errorf("ApplyEdits(%q, %v) = %q, want %q", tt.src, tt.edits, got, tt.want)
			}
		})
	}
}

func TestApplyEditsErrors(t *testing.T) {
	tests := []struct {
		desc  string
		edits []Edit
		want  error
	}{
		{desc: "negative start", edits: []Edit{{-1, 2, "x"}}, want: ErrEditRange},
		{desc: "end past the text", edits: []Edit{{2, 11, "x"}}, want: ErrEditRange},
		{desc: "end before start", edits: []Edit{{5, 4, "x"}}, want: ErrEditRange},
		{desc: "overlap", edits: []Edit{{2, 5, "x"}, {4, 6, "y"}}, want: ErrEditOverlap},
		{desc: "overlap given backwards", edits: []Edit{{4, 6, "y"}, {1, 2, ""}, {2, 5, "x"}}, want: ErrEditOverlap},
		{desc: "contained", edits: []Edit{{1, 9, "x"}, {3, 4, "y"}}, want: ErrEditOverlap},
		{desc: "same range twice", edits: []Edit{{3, 4, "x"}, {3, 4, "x"}}, want: ErrEditOverlap},
		{desc: "two inserts at one offset", edits: []Edit{{3, 3, "x"}, {3, 3, "y"}}, want: ErrEditOverlap},
		{desc: "insert inside a replacement", edits: []Edit{{2, 6, "x"}, {4, 4, "y"}}, want: ErrEditOverlap},
	}
	src := []byte("0123456789")
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := ApplyEdits(src, tt.edits)
			if !errors.Is(err, tt.want) {
				t.Fatalf("ApplyEdits(%v) = %q, %v, want %v", tt.edits, got, err, tt.want)
			}
			if got != nil {
				t.Errorf("ApplyEdits(%v) = %q with an error, want nil", tt.edits, got)
			}
			if string(src) != "0123456789" {
				t.Errorf("ApplyEdits changed its input to %q", src)
			}
		})
	}
}

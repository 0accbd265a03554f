package textfold

import "testing"

// TestDropTitleHeading checks the heading that only repeats the title.
func TestDropTitleHeading(t *testing.T) {
	tests := []struct{ in, title, want string }{
		{"# Home\n\nBody", "Home", "Body"},
		{"\n## home \nBody", "Home", "Body"},
		{"# Home page\nBody", "Home", "# Home page\nBody"},
		{"#Home\nBody", "Home", "#Home\nBody"}, // a tag, not a heading
		{"Body # Home", "Home", "Body # Home"},
		{"# Home", "Home", ""},
	}
	for _, tt := range tests {
		if got := DropTitleHeading(tt.in, tt.title); got != tt.want {
			t.Errorf("DropTitleHeading(%q, %q) = %q, want %q", tt.in, tt.title, got, tt.want)
		}
	}
}

func TestPreviewText(t *testing.T) {
	tests := []struct {
		desc, give, title string
		n                 int
		want              string
	}{
		{"heading repeating the title dropped", "# Alpha Plan\n\nThe plan.\n", "alpha plan", 200, "The plan."},
		{"other heading kept", "## Goals\nShip it.", "Beta", 200, "## Goals Ship it."},
		{"cut at a word", "one two three four", "", 9, "one two…"},
		{"exact fit", "one two", "", 7, "one two"},
		{"long word cut", "abcdefghij", "", 4, "abcd…"},
		{"runes, not bytes", "東京の旅行メモ 東京", "", 7, "東京の旅行メモ…"},
		{"empty", "", "x", 10, ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := Preview(tt.give, tt.title, tt.n); got != tt.want {
				t.Errorf("Preview(%q, %q, %d) = %q, want %q", tt.give, tt.title, tt.n, got, tt.want)
			}
		})
	}
}

package vault

import (
	"testing"
)

func TestRelativeTo(t *testing.T) {
	tests := []struct {
		dir, to string
		dotted  bool
		want    string
	}{
		{"", "Old", false, "Old"},
		{"", "Old", true, "./Old"},
		{"A", "Old", false, "../Old"},
		{"A/B", "A/C/Old", false, "../C/Old"},
		{"a/b", "A/B/Old", true, "./Old"},
		{"A", "A/B/Old", false, "B/Old"},
		{"A/B", "A", false, "../../A"}, // a note named like the folder
	}
	for _, tt := range tests {
		if got := relativeTo(tt.dir, tt.to, tt.dotted); got != tt.want {
			t.Errorf("relativeTo(%q, %q, %v) = %q, want %q", tt.dir, tt.to, tt.dotted, got, tt.want)
		}
	}
}

package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpsAllUsed: helps (help.go) holds the help of exactly the commands
// of the tree: none lacks its help, and no help is left of a command that
// is gone.
func TestHelpsAllUsed(t *testing.T) {
	var used []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		used = append(used, strings.TrimPrefix(c.CommandPath(), "vaultgraph "))
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&globals{}))
	slices.Sort(used)
	var keys []string
	for k := range helps {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(used, keys) {
		t.Errorf("commands %q, helps for %q", used, keys)
	}
}

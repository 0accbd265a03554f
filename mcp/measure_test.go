package mcp_test

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/mcp"
)

// formatTokens are one call's o200k token counts in each form.
type formatTokens struct {
	raw        int // pretty JSON of every field (what our server sent before, and most peers send)
	pretty     int // pretty JSON of the standard fields
	json       int // compact JSON, standard fields
	markdown   int
	toon       int
	defaultFmt int
}

// measureCall counts one call's answer in every form at standard detail.
func measureCall(t testing.TB, tl *mcp.Tools, c call) formatTokens {
	t.Helper()
	var m formatTokens
	tl.Rand = rand.New(rand.NewPCG(7, 7)) // as render does
	v, err := c.run(t.Context(), tl, mcp.Presentation{Detail: mcp.DetailFull})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	m.raw = countTokens(t, string(raw))
	compact := render(t, tl, c, mcp.Presentation{Format: mcp.FormatJSON})
	var tree any
	if err := json.Unmarshal([]byte(compact), &tree); err != nil {
		t.Fatal(err)
	}
	pretty, err := json.MarshalIndent(tree, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	m.pretty = countTokens(t, string(pretty))
	m.json = countTokens(t, compact)
	m.markdown = countTokens(t, render(t, tl, c, mcp.Presentation{Format: mcp.FormatMarkdown}))
	m.toon = countTokens(t, render(t, tl, c, mcp.Presentation{Format: mcp.FormatTOON}))
	m.defaultFmt = countTokens(t, render(t, tl, c, mcp.Presentation{}))
	return m
}

// TestResponseTokens measures every read tool's typical answer on
// testvault and a generated 1,000-note vault in every format (o200k_base
// tokens) and checks the goals of the response design: the default format
// is the smallest of the three for each tool, and list answers at standard
// detail are at least 60% smaller than the pretty JSON of every field.
// `make bench` prints the table (go test -v -run ResponseTokens ./mcp).
func TestResponseTokens(t *testing.T) {
	vaults := []struct {
		name  string
		tl    *mcp.Tools
		calls func(*mcp.Tools) []call
	}{
		{"testvault", openTools(t, filepath.Join("..", "testvault")), func(*mcp.Tools) []call { return testvaultCalls() }},
		{"gen1000", openTools(t, generatedVault(t, 1000)), func(tl *mcp.Tools) []call { return generatedCalls(t, tl) }},
	}
	sums := map[string]*formatTokens{}
	t.Logf("tokens %-9s %-16s %7s %7s %7s %7s %7s %7s %9s %9s", "vault", "call", "rawJSON", "pretty", "json", "md", "toon", "default", "vs raw", "vs pretty")
	for _, vt := range vaults {
		for _, c := range vt.calls(vt.tl) {
			m := measureCall(t, vt.tl, c)
			t.Logf("tokens %-9s %-16s %7d %7d %7d %7d %7d %7d %8.0f%% %8.0f%%", vt.name, c.name,
				m.raw, m.pretty, m.json, m.markdown, m.toon, m.defaultFmt, saving(m.defaultFmt, m.raw), saving(m.defaultFmt, m.pretty))
			sum := sums[c.tool]
			if sum == nil {
				sum = &formatTokens{}
				sums[c.tool] = sum
			}
			sum.json += m.json
			sum.markdown += m.markdown
			sum.toon += m.toon
			sum.defaultFmt += m.defaultFmt
			if isList(c.tool) && saving(m.defaultFmt, m.raw) < 60 {
				t.Errorf("%s %s: default saves %.0f%% against pretty JSON, want at least 60%%", vt.name, c.name, saving(m.defaultFmt, m.raw))
			}
		}
	}
	// The default is the smallest format over both vaults, except that a
	// single note stays Markdown (its content as written, not an escaped
	// string) while that costs at most 5% more.
	for tool, m := range sums {
		smallest := min(m.json, m.markdown, m.toon)
		slack := 0
		if tool == "get_node" || tool == "random_node" {
			slack = smallest / 20
		}
		if m.defaultFmt > smallest+slack {
			t.Errorf("%s: default format %s is %d tokens over the calls, but %s is %d", tool,
				mcp.DefaultFormats[tool], m.defaultFmt, which(*m, smallest), smallest)
		}
	}
}

func isList(tool string) bool {
	return strings.Contains("get_neighbors get_hubs search_by_tags list_nodes list_tags search", tool)
}

func saving(got, base int) float64 { return 100 * (1 - float64(got)/float64(base)) }

func which(m formatTokens, n int) string {
	switch n {
	case m.toon:
		return "toon"
	case m.markdown:
		return "markdown"
	}
	return "json"
}

package vault

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseLinkAllocs: a parse allocates few objects per link: the links'
// byte ranges sit in one table beside the AST (a node attribute cost a
// slice of room for ten and a boxed range per link) and the link list is
// made once, not grown by doubling.
func TestParseLinkAllocs(t *testing.T) {
	var b strings.Builder
	const links = 300
	for i := range links {
		fmt.Fprintf(&b, "See [[Note %d]] and [text](Other%%20%d.md).\n\n", i, i)
	}
	src := []byte(b.String())
	p := NewParser()
	n, err := p.Parse("A.md", src)
	if err != nil || len(n.Links) != 2*links {
		t.Fatalf("Parse = %d links, %v; want %d", len(n.Links), err, 2*links)
	}
	allocs := testing.AllocsPerRun(5, func() { _, _ = p.Parse("A.md", src) })
	if perLink := allocs / (2 * links); perLink > 10 {
		t.Errorf("allocations per link = %.1f, want at most 10", perLink)
	}
}

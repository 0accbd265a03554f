package vault_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/vault"
)

// FuzzFindMentions: any text and name give mentions whose range holds
// the text they report, in order, without overlaps, and a context that
// is valid UTF-8 and marks the mention.
func FuzzFindMentions(f *testing.F) {
	f.Add("We asked beta. `beta` [[Beta]] https://beta.org\n- BETA item\n", "Beta")
	f.Add("---\ntitle: x\n---\n| a | Café |\n", "café")
	f.Add("\uFEFF# Alpha Plan\n\nthe alpha plan.md and alpha  plan", "Alpha Plan")
	f.Add("\xff\xfe beta \x00", "beta")
	p := vault.NewParser()
	f.Fuzz(func(t *testing.T, src, name string) {
		end := 0
		for _, m := range p.FindMentions([]byte(src), []string{name}) {
			if m.Start < end || m.End <= m.Start || m.End > len(src) || src[m.Start:m.End] != m.Text {
				t.Fatalf("mention %+v after %d in %q", m, end, src)
			}
			end = m.End
			c := vault.LinkContext([]byte(src), m.Start, m.End, 0)
			if !utf8.ValidString(c) || !strings.Contains(c, vault.ContextOpen) {
				t.Fatalf("context %q of %+v", c, m)
			}
		}
	})
}

// FuzzLinkContext: any range of any text gives valid UTF-8 on one line,
// never a panic.
func FuzzLinkContext(f *testing.F) {
	f.Add("- a [[b]] c. d\n\n# e", 4, 9)
	f.Add("x", -1, 3)
	f.Add("日本語の[[リンク]]です。", 12, 30)
	f.Fuzz(func(t *testing.T, src string, start, end int) {
		for _, c := range []string{vault.LinkContext([]byte(src), start, end, 50), vault.LineContext([]byte(src), start, end, 0)} {
			if !utf8.ValidString(c) || strings.ContainsAny(c, "\n\r") {
				t.Fatalf("context of [%d,%d) in %q = %q", start, end, src, c)
			}
		}
	})
}

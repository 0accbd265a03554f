package vault

import (
	"bytes"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// encodeYAML writes n as YAML (two-space indent) the way a person would:
// yaml.v3's emitter takes every character outside the Basic Multilingual
// Plane (emoji, many CJK extensions) for unprintable, so it would write
// "Ideas 🚀" as "Ideas \U0001F680", double-quoted. Here such characters
// are written as themselves: each is swapped for a private-use character
// the emitter prints as is (one the text does not hold), and swapped back
// in the output. The result is checked to read back to the same scalars;
// if it does not, the emitter's own output is returned.
func encodeYAML(n *yaml.Node) ([]byte, error) {
	plain, err := emitYAML(n)
	if err != nil {
		return nil, err
	}
	forward, back := astralSwap(n)
	if forward == nil {
		return plain, nil
	}
	sub := cloneYAML(n, forward.Replace)
	out, err := emitYAML(sub)
	if err != nil {
		return plain, nil
	}
	out = []byte(back.Replace(string(out)))
	var got yaml.Node
	if yaml.Unmarshal(out, &got) != nil || len(got.Content) != 1 || !sameScalars(got.Content[0], n) {
		return plain, nil
	}
	return out, nil
}

// emitYAML is yaml.v3's encoder with a two-space indent.
func emitYAML(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// astralSwap returns the replacers that swap the astral characters of n's
// scalars for private-use ones and back,
// or nil when there are none or not enough free private-use characters.
func astralSwap(n *yaml.Node) (forward, back *strings.Replacer) {
	used := map[rune]bool{}
	var astral []rune
	walkScalars(n, MaxPropertyDepth+2, func(s *yaml.Node) {
		for _, r := range s.Value {
			if r >= 0x10000 && !used[r] {
				astral = append(astral, r)
			}
			used[r] = true
		}
	})
	if len(astral) == 0 {
		return nil, nil
	}
	var fwd, bwd []string
	next := rune(0xE000)
	for _, r := range astral {
		for next <= 0xF8FF && used[next] {
			next++
		}
		if next > 0xF8FF {
			return nil, nil
		}
		fwd = append(fwd, string(r), string(next))
		bwd = append(bwd, string(next), string(r))
		next++
	}
	return strings.NewReplacer(fwd...), strings.NewReplacer(bwd...)
}

// walkScalars calls f with every scalar under n, down to depth levels
// below it; aliases are not followed.
func walkScalars(n *yaml.Node, depth int, f func(*yaml.Node)) {
	if n == nil || depth < 0 {
		return
	}
	if n.Kind == yaml.ScalarNode {
		f(n)
	}
	for _, c := range n.Content {
		walkScalars(c, depth-1, f)
	}
}

// cloneYAML copies n with each scalar value passed through f.
func cloneYAML(n *yaml.Node, f func(string) string) *yaml.Node {
	c := *n
	c.Value = f(n.Value)
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = cloneYAML(k, f)
	}
	return &c
}

// sameScalars reports whether a and b have the same shape and the same
// scalar values.
func sameScalars(a, b *yaml.Node) bool {
	return a.Kind == b.Kind && (a.Kind != yaml.ScalarNode || a.Value == b.Value) &&
		slices.EqualFunc(a.Content, b.Content, sameScalars)
}

package vault

import (
	"cmp"
	"encoding/hex"
	"fmt"

	"gopkg.in/yaml.v3"
)

// sameValue reports whether two nodes hold the same data (see
// canonical).
func sameValue(bound *yamlBound, a, b *yaml.Node) bool {
	ca, oka := canonical(bound, a)
	cb, okb := canonical(bound, b)
	return oka && okb && ca == cb
}

// canonical returns the data of a node in one normal form: its decoded
// value printed when the node is within the bounds of bound (which it
// then counts against the frontmatter's), else a digest of its nodes, so
// that a value aliases would blow up is never expanded. The same value
// measured in the same order gets the same form. ok is false when the
// node cannot be decoded.
func canonical(bound *yamlBound, n *yaml.Node) (string, bool) {
	if bound.check(n) != nil {
		sum, ok := bound.digest(n)
		if !ok {
			return "", false
		}
		return "digest " + hex.EncodeToString(sum[:]), true
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return "", false
	}
	return fmt.Sprintf("%#v", v), true
}

// verify checks that out's frontmatter holds exactly the entries the edit
// meant, in order, so that no edit can change another property's meaning.
func (fm *fmEdit) verify(out []byte) error {
	type kv struct{ key, val string }
	var want []kv
	wantBound, gotBound := newYAMLBound(), newYAMLBound()
	for _, e := range fm.entries { // the entries of the file, then the new ones
		if !e.removed {
			c, _ := canonical(wantBound, cmp.Or(e.newVal, e.val))
			want = append(want, kv{e.name, c})
		}
	}
	fail := func(why string) error {
		return fmt.Errorf("%w: it cannot be changed in place (%s)", ErrBadFrontmatter, why)
	}
	blk, ok := locateFrontmatter(out)
	if !ok {
		if len(want) == 0 {
			return nil
		}
		return fail("the frontmatter block is lost")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(out[blk.rawStart:blk.rawEnd], &doc); err != nil {
		return fail(err.Error())
	}
	var got []kv
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		root := doc.Content[0]
		if root.Kind != yaml.MappingNode {
			return fail("not a map any more")
		}
		if key, dup := duplicateKey(root); dup {
			return fail(fmt.Sprintf("key %q twice", key))
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			c, _ := canonical(gotBound, root.Content[i+1])
			got = append(got, kv{root.Content[i].Value, c})
		}
	}
	if len(got) != len(want) {
		return fail(fmt.Sprintf("%d properties where %d were meant", len(got), len(want)))
	}
	for i := range got {
		if got[i] != want[i] {
			return fail(fmt.Sprintf("property %q", want[i].key))
		}
	}
	return nil
}

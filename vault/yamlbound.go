package vault

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"gopkg.in/yaml.v3"
)

// Bounds of the frontmatter values that are decoded. YAML aliases copy
// their anchor wherever they are used, so that a few bytes can stand for
// gigabytes ("billion laughs", or 5,000 aliases of a 1 MB string), and
// yaml.v3's own check counts nodes, not bytes. Each property's value is
// measured on its parsed nodes first, each anchor once, and only decoded
// when it is within these bounds; a property over one is left out of the
// index with a warning on the note (the file keeps it as written).
const (
	// MaxPropertyBytes is the most a frontmatter property's value may
	// hold once decoded: the bytes of its scalars (map keys included)
	// plus yamlNodeCost for each list, map and scalar, every alias
	// counted as a full copy of its anchor.
	MaxPropertyBytes = 1 << 20
	// MaxFrontmatterBytes is the same bound for the values of all the
	// properties of one note together; the properties that would take a
	// note past it are left out.
	MaxFrontmatterBytes = 4 << 20
	// MaxPropertyDepth is how deeply lists and maps may nest in a
	// frontmatter property's value ("[[1]]" is 2 deep).
	MaxPropertyDepth = 64
)

// yamlNodeCost is what each node of a YAML value counts for in
// MaxPropertyBytes over the bytes of its text: about what it takes once
// decoded, or written out as JSON.
const yamlNodeCost = 8

// Reasons a frontmatter value is not decoded, wrapped by yamlBound.check.
var (
	errYAMLSize  = errors.New("value too big")
	errYAMLDepth = errors.New("value nested too deeply")
	errYAMLLoop  = errors.New("alias inside its own anchor")
)

// yamlSize is what a YAML node would be once decoded.
type yamlSize struct {
	bytes   int64 // saturates at math.MaxInt64
	depth   int   // 0 for a scalar
	aliased bool  // whether an alias is followed on the way
}

// yamlMemo is the measure or digest of an anchored node, kept so that each
// anchor is walked once however many aliases name it.
type yamlMemo struct {
	size   yamlSize
	sum    [sha256.Size]byte
	err    error
	inWalk bool // being walked: an alias reaching it is a loop
}

// yamlBound measures the values of one frontmatter before they are
// decoded, and keeps what the values within bounds add up to. Its zero
// value is not ready: use newYAMLBound. The walks take time linear in the
// parsed nodes (each anchor is measured once), not in the decoded size.
type yamlBound struct {
	sizes map[*yaml.Node]*yamlMemo
	sums  map[*yaml.Node]*yamlMemo
	spent int64 // bytes of the values check let through
}

func newYAMLBound() *yamlBound {
	return &yamlBound{sizes: map[*yaml.Node]*yamlMemo{}, sums: map[*yaml.Node]*yamlMemo{}}
}

// check returns nil when the value v can be decoded: within
// MaxPropertyBytes and MaxPropertyDepth, and within what is left of
// MaxFrontmatterBytes, which it then takes its size from. Otherwise it
// returns an error wrapping errYAMLSize, errYAMLDepth or errYAMLLoop that
// says what to change.
func (b *yamlBound) check(v *yaml.Node) error {
	s, err := b.measure(v)
	switch {
	case err != nil:
		return err
	case s.depth > MaxPropertyDepth:
		return fmt.Errorf("%w: lists and maps nest more than %d levels deep (the limit): flatten it", errYAMLDepth, MaxPropertyDepth)
	case s.bytes > MaxPropertyBytes && s.aliased:
		return fmt.Errorf("%w: over the limit of %s once its aliases are expanded (each alias is a copy of its anchor): use fewer aliases, or smaller anchors", errYAMLSize, mebibytes(MaxPropertyBytes))
	case s.bytes > MaxPropertyBytes:
		return fmt.Errorf("%w: over the limit of %s for one property: shorten it", errYAMLSize, mebibytes(MaxPropertyBytes))
	case s.bytes > MaxFrontmatterBytes-b.spent:
		return fmt.Errorf("%w: the note's properties together are over the limit of %s (aliases expanded): shorten them, or use fewer aliases", errYAMLSize, mebibytes(MaxFrontmatterBytes))
	}
	b.spent += s.bytes
	return nil
}

// mebibytes writes a whole number of MiB.
func mebibytes(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }

// measure returns the size and depth n would decode to, following
// aliases; an alias inside its own anchor is an error.
func (b *yamlBound) measure(n *yaml.Node) (yamlSize, error) {
	if n == nil {
		return yamlSize{}, nil
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return yamlSize{bytes: yamlNodeCost}, nil // never parsed so
		}
		s, err := b.measure(n.Alias)
		s.aliased = true
		return s, err
	}
	var m *yamlMemo
	if n.Anchor != "" {
		if m = b.sizes[n]; m != nil {
			if m.inWalk {
				return yamlSize{}, fmt.Errorf("%w: an alias of &%s is inside that anchor's own value, which would never end: remove it", errYAMLLoop, n.Anchor)
			}
			return m.size, m.err
		}
		m = &yamlMemo{inWalk: true}
		b.sizes[n] = m
	}
	s := yamlSize{bytes: yamlNodeCost}
	var err error
	switch n.Kind {
	case yaml.ScalarNode:
		s.bytes = addSat(s.bytes, int64(len(n.Value)))
	case yaml.DocumentNode, yaml.SequenceNode, yaml.MappingNode:
		for _, c := range n.Content {
			var cs yamlSize
			if cs, err = b.measure(c); err != nil {
				break
			}
			s.bytes = addSat(s.bytes, cs.bytes)
			s.depth = max(s.depth, cs.depth)
			s.aliased = s.aliased || cs.aliased
		}
		if n.Kind != yaml.DocumentNode {
			s.depth++
		}
	}
	if m != nil {
		m.size, m.err, m.inWalk = s, err, false
	}
	return s, err
}

// addSat adds two sizes, saturating at math.MaxInt64.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// digest returns a hash of the data n holds, by kind, resolved tag, text
// and content in order, with each alias hashed as its anchor's value: two
// nodes that decode differently have different digests. It never decodes
// nor expands n (each anchor is hashed once), so it compares values over
// the bounds of check. ok is false for an alias inside its own anchor.
func (b *yamlBound) digest(n *yaml.Node) (sum [sha256.Size]byte, ok bool) {
	if n == nil {
		return sum, true
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return sum, false
		}
		return b.digest(n.Alias)
	}
	var m *yamlMemo
	if n.Anchor != "" {
		if m = b.sums[n]; m != nil {
			return m.sum, !m.inWalk && m.err == nil
		}
		m = &yamlMemo{inWalk: true}
		b.sums[n] = m
	}
	h := sha256.New()
	tag := n.ShortTag()
	h.Write(append(binary.BigEndian.AppendUint64([]byte{byte(n.Kind)}, uint64(len(tag))), tag...))
	if n.Kind == yaml.ScalarNode {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(n.Value))))
		h.Write([]byte(n.Value))
	} else {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(n.Content))))
	}
	ok = true
	for _, c := range n.Content {
		cs, cok := b.digest(c)
		if !cok {
			ok = false
			break
		}
		h.Write(cs[:])
	}
	h.Sum(sum[:0])
	if m != nil {
		m.sum, m.inWalk = sum, false
		if !ok {
			m.err = errYAMLLoop
		}
	}
	return sum, ok
}

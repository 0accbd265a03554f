package store

import (
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"slices"
	"time"
	"unsafe"

	"github.com/vaultgraph/vaultgraph/vault"
)

// A note's record in the cache holds its fields as decoded, in binary:
// no JSON is parsed at start-up. Lists keep the difference between nil
// and empty (a count of n+1, 0 for nil), so that a note comes back from
// the cache exactly as the tables give it.

// Kinds of property value in the cache.
const (
	valNil byte = iota
	valString
	valInt
	valFloat
	valFalse
	valTrue
	valTime
	valList
	valMap
)

// noteRecord writes a note as rowReader.note decoded it from its row.
func (e *snapEncoder) noteRecord(r *Record) {
	if e == nil || e.err != nil {
		return
	}
	n := r.Note
	e.row()
	e.str(n.ID)
	e.strOr(r.Path, n.ID)
	e.strOr(n.Title, vault.BaseName(n.ID))
	e.str(n.Hash)
	e.int(n.Size)
	e.int(n.ModTime.UnixNano())
	e.int(int64(n.BodyStart))
	e.strList(n.Aliases)
	e.strList(n.Tags)
	e.strList(n.Warnings)
	e.count(len(n.Properties), n.Properties == nil)
	for _, p := range n.Properties {
		e.str(p.Key)
		e.value(p.Value)
	}
	e.count(len(n.Headings), n.Headings == nil)
	for _, h := range n.Headings {
		for _, v := range []int{h.Level, h.Line, h.Start, h.End} {
			e.int(int64(v))
		}
		e.str(h.Text)
	}
	e.strList(n.BlockIDs)
}

// strOr writes v, or only a 0 when it is def (most notes' path is their
// ID, and their title their file's name): the cache is smaller and its
// strings fewer.
func (e *snapEncoder) strOr(v, def string) {
	if v == def {
		e.buf.WriteByte(0)
		return
	}
	e.buf.Write(binary.AppendUvarint(e.tmp[:0], uint64(len(v))+1))
	e.buf.WriteString(v)
}

// strOr reads what snapEncoder.strOr wrote.
func (d *snapDecoder) strOr(def string) string {
	l, n := binary.Uvarint(d.b)
	if n <= 0 || l > uint64(len(d.b)-n)+1 {
		d.fail()
		return ""
	}
	if l == 0 {
		d.b = d.b[n:]
		return def
	}
	s := d.b[n : n+int(l)-1]
	d.b = d.b[n+int(l)-1:]
	if len(s) == 0 {
		return ""
	}
	return unsafe.String(&s[0], len(s))
}

// count writes a list's length, keeping nil apart from empty.
func (e *snapEncoder) count(n int, isNil bool) {
	if isNil {
		n = -1
	}
	e.buf.Write(binary.AppendUvarint(e.tmp[:0], uint64(n+1)))
}

func (e *snapEncoder) strList(l []string) {
	e.count(len(l), l == nil)
	for _, s := range l {
		e.str(s)
	}
}

// value writes one property value; a type the cache cannot hold (none
// that decodeProperties makes) spoils the whole cache, which is then not
// written.
func (e *snapEncoder) value(v any) {
	switch x := v.(type) {
	case nil:
		e.buf.WriteByte(valNil)
	case string:
		e.buf.WriteByte(valString)
		e.str(x)
	case int64:
		e.buf.WriteByte(valInt)
		e.int(x)
	case float64:
		e.buf.WriteByte(valFloat)
		e.buf.Write(binary.LittleEndian.AppendUint64(e.tmp[:0], math.Float64bits(x)))
	case bool:
		if x {
			e.buf.WriteByte(valTrue)
		} else {
			e.buf.WriteByte(valFalse)
		}
	case time.Time:
		b, err := x.MarshalText() // as the JSON of the tables has it
		if err != nil {
			e.err = err
			return
		}
		e.buf.WriteByte(valTime)
		e.str(string(b))
	case []any:
		e.buf.WriteByte(valList)
		e.count(len(x), false)
		for _, it := range x {
			e.value(it)
		}
	case map[string]any:
		e.buf.WriteByte(valMap)
		e.count(len(x), false)
		for k, it := range x {
			e.str(k)
			e.value(it)
		}
	default:
		e.err = fmt.Errorf("property value of type %T", v)
	}
}

// The values of a link's kind and status, each written as its place in
// the list (a value not listed is written out).
var (
	linkKinds = []string{string(vault.KindWiki), string(vault.KindEmbed), string(vault.KindMarkdown),
		string(vault.KindImage), string(vault.KindFrontmatter)}
	linkStatuses = []string{string(vault.Resolved), string(vault.Broken), string(vault.Attachment), string(vault.Self)}
)

// symbol writes v as 1 + its place in known, or 0 and v.
func (e *snapEncoder) symbol(v string, known []string) {
	if i := slices.Index(known, v); i >= 0 {
		e.int(int64(i) + 1)
		return
	}
	e.int(0)
	e.str(v)
}

func (d *snapDecoder) symbol(known []string) string {
	i := d.int()
	switch {
	case i == 0:
		return d.str()
	case i < 0 || i > int64(len(known)):
		d.fail()
		return ""
	}
	return known[i-1]
}

// link reads what snapEncoder.link wrote, the row's tag at at, and gives
// its resolution and status to its note, and its detail as part of the
// note's LinkText (not decoded: the file's checksum held); ids are the
// IDs of rd's notes, in order.
func (d *snapDecoder) link(rd *rowReader, ids []string, at int) {
	notes := rd.snap.Notes
	source, resolved, status, anchored, _ := d.linkHead(ids)
	if d.err == nil && source >= len(notes) {
		d.fail()
	}
	if d.err != nil {
		return
	}
	if !rd.addLazyLink(notes[source], resolved, status, anchored, at, d.pos()) {
		d.fail() // a note's links are one after another, or it is damage
	}
}

// linkHead reads a link row up to its detail, which it returns undecoded;
// anchored says the link has a fragment. With ids nil the resolution is
// skipped (LinkText).
func (d *snapDecoder) linkHead(ids []string) (source int, resolved string, status vault.Status, anchored bool, detail []byte) {
	src, n := binary.Uvarint(d.b)
	if n <= 0 || src > math.MaxInt32 {
		d.fail()
		return
	}
	d.b = d.b[n:]
	switch t := d.int(); {
	case t == -1:
		resolved = d.str()
	case t < 0 || (ids != nil && t > int64(len(ids))):
		d.fail()
	case t > 0 && ids != nil:
		resolved = ids[t-1]
	}
	switch x := d.int(); {
	case x < 0 || x>>1 > int64(len(linkStatuses)):
		d.fail()
	case x>>1 == 0:
		anchored, status = x&1 == 1, vault.Status(d.str())
	default:
		anchored, status = x&1 == 1, vault.Status(linkStatuses[x>>1-1])
	}
	size, n := binary.Uvarint(d.b)
	if n <= 0 || size > uint64(len(d.b)-n) {
		d.fail()
		return
	}
	detail = d.b[n : n+int(size)]
	d.b = d.b[n+int(size):]
	return int(src), resolved, status, anchored, detail
}

// detail decodes a link's detail into l; ok says it was whole, with no
// byte left over.
func (d *snapDecoder) detail(l *vault.Link) (ok bool) {
	*l = vault.Link{Kind: vault.LinkKind(d.symbol(linkKinds)), Target: d.str(), Fragment: d.str(), Alias: d.str(), Property: d.str()}
	// Each offset as its distance from the one before (snapEncoder.link).
	l.Start = int(d.int())
	l.End = l.Start + int(d.int())
	l.TargetStart = l.Start + int(d.int())
	l.TargetEnd = l.TargetStart + int(d.int())
	l.Line = int(d.int())
	return d.err == nil && len(d.b) == 0
}

// LinkText is the links of one note as the snapshot cache holds them:
// only their resolution and status are decoded at load (Record.Resolved,
// Record.Status); the rest (target, fragment, alias, byte ranges) stays
// in the cache's bytes until Links is called: no link structs are in
// memory while nothing asks for them.
type LinkText struct {
	b        []byte // the note's link rows, each from its tag
	n        int
	anchored int // links with a fragment
}

// Len is the number of links.
func (t *LinkText) Len() int { return t.n }

// Anchored is the number of links with a fragment (a heading or block),
// known without decoding them.
func (t *LinkText) Anchored() int { return t.anchored }

// Links decodes the links, in order. The cache's checksum held when it
// was loaded, so an error means a fault in this code, not damage.
func (t *LinkText) Links() ([]vault.Link, error) {
	out := make([]vault.Link, 0, t.n)
	for _, l := range t.All() {
		out = append(out, l)
	}
	if len(out) != t.n {
		return nil, fmt.Errorf("%w: %d links of %d decoded", errCache, len(out), t.n)
	}
	return out, nil
}

// All yields the links, in order, each decoded on its own: nothing is
// kept. It stops early at a row that does not decode (see Links).
func (t *LinkText) All() iter.Seq2[int, vault.Link] {
	return func(yield func(int, vault.Link) bool) {
		d := &snapDecoder{b: t.b}
		for i := range t.n {
			if !d.next() {
				return
			}
			var l vault.Link
			_, _, _, _, detail := d.linkHead(nil)
			if dd := (&snapDecoder{b: detail}); d.err != nil || !dd.detail(&l) || !yield(i, l) {
				return
			}
		}
	}
}

// details yields each link's detail as encoded, undecoded, and whether
// the link has a fragment, in order; it stops early at a row that does
// not decode.
func (t *LinkText) details() iter.Seq2[bool, []byte] {
	return func(yield func(bool, []byte) bool) {
		d := &snapDecoder{b: t.b}
		for range t.n {
			if !d.next() {
				return
			}
			_, _, _, anchored, detail := d.linkHead(nil)
			if d.err != nil || !yield(anchored, detail) {
				return
			}
		}
	}
}

// LinkAnchor is what LinkText.Anchors gives of a link.
type LinkAnchor struct {
	Kind     vault.LinkKind
	Fragment string
}

// Anchors yields each link's kind and fragment, in order, decoding
// nothing more of it: what a check of every link's anchor reads.
func (t *LinkText) Anchors() iter.Seq2[int, LinkAnchor] {
	return func(yield func(int, LinkAnchor) bool) {
		d := &snapDecoder{b: t.b}
		for i := range t.n {
			if !d.next() {
				return
			}
			_, _, _, _, detail := d.linkHead(nil)
			dd := &snapDecoder{b: detail}
			a := LinkAnchor{Kind: vault.LinkKind(dd.symbol(linkKinds))}
			dd.str() // the target
			a.Fragment = dd.str()
			if d.err != nil || dd.err != nil || !yield(i, a) {
				return
			}
		}
	}
}

// Link decodes link i alone; ok is false past the end.
func (t *LinkText) Link(i int) (l vault.Link, ok bool) {
	for j, x := range t.All() {
		if j == i {
			return x, true
		}
	}
	return vault.Link{}, false
}

// noteRecord reads what snapEncoder.noteRecord wrote.
func (d *snapDecoder) noteRecord() *Record {
	r := d.slab.record()
	n := r.Note
	n.ID = d.str()
	r.Path = d.strOr(n.ID)
	n.Title = d.strOr(vault.BaseName(n.ID))
	n.Hash = d.str()
	n.Size = d.int()
	n.ModTime = time.Unix(0, d.int())
	n.BodyStart = int(d.int())
	n.Aliases = d.strList()
	n.Tags = d.strList()
	n.Warnings = d.strList()
	if k, ok := d.count(); ok {
		n.Properties = d.slab.propertyList(k)
		for i := range n.Properties {
			n.Properties[i] = vault.Property{Key: d.str(), Value: d.value(0)}
		}
	}
	if k, ok := d.count(); ok {
		n.Headings = d.slab.headingList(k)
		for i := range n.Headings {
			h := &n.Headings[i]
			h.Level, h.Line, h.Start, h.End = int(d.int()), int(d.int()), int(d.int()), int(d.int())
			h.Text = d.str()
		}
	}
	n.BlockIDs = d.strList()
	return r
}

// count reads a list's length; ok is false for nil. A length longer than
// the bytes left (each item takes at least one) is damage.
func (d *snapDecoder) count() (int, bool) {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > uint64(len(d.b)-n)+1 {
		d.fail()
		return 0, false
	}
	d.b = d.b[n:]
	if v == 0 {
		return 0, false
	}
	return int(v - 1), true
}

func (d *snapDecoder) strList() []string {
	k, ok := d.count()
	if !ok {
		return nil
	}
	l := d.slab.stringList(k)
	for i := range l {
		l[i] = d.str()
	}
	return l
}

// maxValueDepth bounds the nesting of a property value read from the
// cache, so that damage cannot recurse without end.
const maxValueDepth = 64

func (d *snapDecoder) value(depth int) any {
	if len(d.b) == 0 || depth > maxValueDepth {
		d.fail()
		return nil
	}
	kind := d.b[0]
	d.b = d.b[1:]
	switch kind {
	case valNil:
		return nil
	case valString:
		return d.str()
	case valInt:
		return d.int()
	case valFloat:
		if len(d.b) < 8 {
			d.fail()
			return nil
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
		d.b = d.b[8:]
		return f
	case valFalse, valTrue:
		return kind == valTrue
	case valTime:
		var t time.Time
		if err := t.UnmarshalText([]byte(d.str())); err != nil {
			d.fail()
		}
		return t
	case valList:
		k, _ := d.count()
		l := make([]any, k)
		for i := range l {
			l[i] = d.value(depth + 1)
		}
		return l
	case valMap:
		k, _ := d.count()
		m := make(map[string]any, k)
		for range k {
			key := d.str()
			m[key] = d.value(depth + 1)
		}
		return m
	}
	d.fail()
	return nil
}

package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// benchWords is the vocabulary of the generated notes: frequent English
// words first (drawn more often), then rarer ones.
var benchWords = strings.Fields(`the of and to in is for on with that this as are be it by from at or
	plan budget review meeting project alpha beta release notes draft team design data model search index
	vector graph link tag folder query result cache server client token phrase title body snippet weight
	rank score travel kitchen garden music history science language market report invoice contract
	schedule deadline summary decision risk owner status target metric growth revenue customer support`)

// benchForeign are sentences some generated notes have: words unicode61
// does not fold (Greek, Cyrillic, ß, ø, ł) and words it does (café).
var benchForeign = []string{
	"Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και τα Ελληνικά είναι η γλώσσα της.",
	"Wir wohnen in der Straße am Fluss, gleich hinter der Brücke.",
	"Smørrebrød i København og pierogi w Łodzi.",
	"Новогодняя ёлка и йогурт на завтрак.",
	"Un café au lait à la crème, s'il vous plaît.",
}

// benchNotes makes n notes of about 120 words each; every tenth has one
// of benchForeign's sentences.
func benchNotes(n int) []*Record {
	rng := rand.New(rand.NewPCG(1, 2))
	recs := make([]*Record, n)
	for i := range n {
		var b strings.Builder
		for j := range 120 {
			if j > 0 {
				b.WriteByte(' ')
			}
			// Squared: the first words are the most frequent.
			k := int(float64(len(benchWords)) * rng.Float64() * rng.Float64())
			b.WriteString(benchWords[k])
			if j%15 == 14 {
				b.WriteString(".\n")
			}
		}
		if i%10 == 0 {
			b.WriteString("\n" + benchForeign[(i/10)%len(benchForeign)])
		}
		id := fmt.Sprintf("N%05d.md", i)
		title := benchWords[20+i%(len(benchWords)-20)] + fmt.Sprintf(" %d", i)
		recs[i] = &Record{Note: &vault.Note{ID: id, Title: title}, Path: id, Body: b.String()}
	}
	return recs
}

// BenchmarkKeyword times Keyword with snippets on 10,000 generated notes,
// per kind of query.
func BenchmarkKeyword(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: benchNotes(10000)}); err != nil {
		b.Fatal(err)
	}
	for _, q := range []struct{ name, text string }{
		{"word", "invoice"},
		{"prefix", "invo"},
		{"two words", "invoice customer"},
		{"phrase", `"invoice customer"`},
		{"fallback", "invoice zebra"},
		{"folded Greek", "ελληνικα"},
		{"folded German", "strasse"},
		{"accented", "cafe"},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Keyword(ctx, KeywordQuery{Text: q.text}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkKeywordIndex times writing 1,000 generated notes to a new
// index, full-text columns included.
func BenchmarkKeywordIndex(b *testing.B) {
	recs := benchNotes(1000)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		s, _ := openTemp(b)
		b.StartTimer()
		if err := s.Apply(ctx, &Batch{Upserts: recs}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}

// BenchmarkPrepare times Prepare, the part of an index write made on the
// parse workers, on 1,000 generated notes.
func BenchmarkPrepare(b *testing.B) {
	recs := benchNotes(1000)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range recs {
			if _, err := Prepare(r.Note, r.Body); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkKeywordPage times Keyword as the engine calls it (without
// snippets, up to 251 hits) on 10,000 generated notes.
func BenchmarkKeywordPage(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: benchNotes(10000)}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Keyword(ctx, KeywordQuery{Text: "invoice", Limit: 251, NoSnippets: true}); err != nil {
			b.Fatal(err)
		}
	}
}

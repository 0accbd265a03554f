package mcp_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/toon"
	"github.com/vaultgraph/vaultgraph/internal/toon/toontest"
	"github.com/vaultgraph/vaultgraph/mcp"
)

// TestTOONDecodesToJSON is the property that TOON and JSON carry the same
// data: for every read tool, detail preset and a range of token budgets,
// on testvault and a generated vault, decoding the TOON answer gives the
// value the JSON answer holds. (make e2e checks the same with the
// reference decoder from npm.)
// With a budget, each format is trimmed by its own count, so only the
// untrimmed answers are compared; the trimmed TOON must still decode.
func TestTOONDecodesToJSON(t *testing.T) {
	vaults := []struct {
		name  string
		tl    *mcp.Tools
		calls []call
	}{
		{"testvault", openTools(t, filepath.Join("..", "testvault")), testvaultCalls()},
		{"generated", openTools(t, generatedVault(t, 300)), nil},
	}
	vaults[1].calls = generatedCalls(t, vaults[1].tl)
	for _, vt := range vaults {
		for _, c := range vt.calls {
			for _, detail := range mcp.Details.Values {
				for _, budget := range []int{0, 60, 300, 1500} {
					p := mcp.Presentation{Detail: detail, MaxTokens: budget}
					desc := fmt.Sprintf("%s %s %s maxTokens %d", vt.name, c.name, detail, budget)
					p.Format = mcp.FormatTOON
					text := render(t, vt.tl, c, p)
					p.Format = mcp.FormatJSON
					js := render(t, vt.tl, c, p)
					got, err := toontest.Decode(text, toontest.DecodeOptions{})
					if err != nil {
						t.Errorf("%s: TOON does not decode: %v\n%s", desc, err, text)
						continue
					}
					want, err := toon.FromJSON([]byte(js))
					if err != nil {
						t.Fatalf("%s: JSON: %v", desc, err)
					}
					want = flatRowLists(want)
					// Trimmed answers differ by format (each is cut to its
					// own token count); they must still decode.
					if budget == 0 && !sameValue(got, want) {
						t.Errorf("%s: TOON decodes to\n%#v\nJSON is\n%#v\nTOON:\n%s", desc, got, want, text)
					}
				}
			}
		}
	}
}

// flatRowLists is a decoded JSON answer with its rows' tags and aliases
// lists joined, as a TOON table writes them (its cells are primitives),
// by the rule the answers use.
func flatRowLists(v any) any {
	obj, ok := v.(toon.Object)
	if !ok {
		return v
	}
	return mcp.FlatRows(mcp.FlatRows(obj, "nodes"), "neighbors")
}

// sameValue compares decoded values, numbers by their value.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, err1 := x.Float64()
		fy, err2 := y.Float64()
		return err1 == nil && err2 == nil && fx == fy
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case toon.Object:
		y, ok := b.(toon.Object)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i].Key != y[i].Key || !sameValue(x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

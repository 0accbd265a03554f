package store

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestPlainStrings checks the fast decoder of string lists against
// encoding/json: the same list where it takes one, and no answer where
// the JSON decoder must read it.
func TestPlainStrings(t *testing.T) {
	for _, give := range []string{
		`[]`, `["a"]`, `["a","b c"]`, `["café","東京"]`, `[""]`, `["",""]`,
		`["a\"b"]`, `["a\u003cb"]`, `[1]`, `["a",]`, `["a" ,"b"]`, `[ "a"]`, `["a"`, `"a"`, ``, `[`, `["a","b"`, `["\xff"]`,
	} {
		got, ok := plainStrings(give)
		if !ok {
			continue
		}
		var want []string
		if err := json.Unmarshal([]byte(give), &want); err != nil {
			t.Errorf("plainStrings(%q) = %q, but it is not JSON: %v", give, got, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("plainStrings(%q) = %#v, want %#v", give, got, want)
		}
	}
	for _, l := range [][]string{{}, {"a"}, {"x", "y z", "#tag/sub", "<b>", "line\nbreak", "quote\"d", "ünï"}} {
		b, _ := json.Marshal(l)
		var got []string
		if err := decodeJSON(string(b), &got); err != nil || !reflect.DeepEqual(got, l) {
			t.Errorf("decodeJSON(%s) = %#v, %v; want %#v", b, got, err, l)
		}
	}
}

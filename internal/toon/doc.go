// Package toon encodes JSON-model values as TOON (Token-Oriented Object
// Notation), conforming to the TOON specification v4.0 (toon-spec: 4.0,
// https://github.com/toon-format/spec). Encode writes TOON; the test-only
// package toontest reads it back (strict by default), so tests can check
// that TOON answers carry the same data as JSON ones.
//
// # Input values (host-type normalization, spec §3)
//
// Encode accepts exactly these Go types:
//
//   - nil → null
//   - bool → true / false
//   - string → string (must be valid UTF-8, otherwise Encode errors)
//   - json.Number → number, formatted losslessly from its decimal text
//   - int, int8…int64, uint, uint8…uint64 → number
//   - float32, float64 → number (shortest round-trip form); NaN and ±Inf → null
//   - []any → array
//   - Object → object, keys in slice order
//
// Any other type (including Go maps, whose iteration order is random, and
// structs) makes Encode return an error; convert such values first, for
// example with json.Marshal followed by FromJSON. An Object holding the same
// key twice is rejected, because strict TOON decoders reject duplicate keys.
//
// FromJSON decodes JSON text into these types, preserving object key order
// and keeping numbers as json.Number.
//
// # Numbers (spec §2)
//
// Numbers are emitted losslessly from their decimal text: a json.Number keeps
// every significant digit it has (no rounding to float64). Values with
// n = 0 or 1e-6 ≤ |n| < 1e21 use plain decimal form (no exponent, no leading
// or trailing zeros, -0 → 0). Values outside that range use JSON exponent
// form with a lowercase e and an explicit sign, e.g. 1e-7 or 1.5e+21.
//
// # Options (spec §13)
//
// The encoder uses the document delimiter (Options.Delimiter) for every
// array header, so the active delimiter always equals it. Spec v4.0 defines
// no key folding, so there is no such option.
package toon

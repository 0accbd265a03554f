// Package toontest decodes TOON (spec v4.0), so that tests can check that
// a TOON answer carries the same data as its JSON form: Decode reads what
// toon.Encode writes back into the values toon.FromJSON returns. Only
// tests import it; the program itself never reads TOON.
package toontest

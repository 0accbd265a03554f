package toon

// The round-trip tests decode with toontest, which imports toon, so they
// are in package toon_test; these give them the encoder's test helpers.

// FixtureFile is a TOON spec fixture file.
type FixtureFile = fixtureFile

// FixtureOptions maps a fixture's options onto Options.
var FixtureOptions = fixtureOptions

// HeaderOrder is v with its keys in the order Decode gives them back.
var HeaderOrder = headerOrder

package vaultgraph

// ExcludedParses returns how many times e parsed an excluded note to learn
// what it links (engine_excluded.go), for the tests of that cache.
func (e *Engine) ExcludedParses() int {
	e.exclRefs.mu.Lock()
	defer e.exclRefs.mu.Unlock()
	return e.exclRefs.parses
}

// Package embed turns note text into embedding vectors for vaultgraph's
// semantic search. A Provider embeds batches of text; the vector index and
// the concrete providers (built-in, Ollama, OpenAI-compatible, model2vec)
// arrive with the search work. Until then vault_status reports an
// embedding coverage of 0 and no tool depends on this package.
package embed

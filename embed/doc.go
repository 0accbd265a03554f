// Package embed turns note text into vectors for vaultgraph's semantic and
// hybrid search, and searches them.
//
// An Embedder makes L2-normalised vectors (cosine similarity = dot
// product) from batches of text. New picks one from a spec string:
//
//   - "builtin" (the default): offline, deterministic feature hashing,
//     lexical rather than semantic (see Builtin).
//   - "ollama:MODEL" and "openai:MODEL": HTTP clients for Ollama's
//     /api/embed and any OpenAI-compatible /embeddings endpoint. A server
//     that is down gives an error wrapping ErrUnavailable, so that search
//     can fall back to keywords and say so.
//   - "model2vec:PATH|NAME": a static embedding model loaded from a
//     folder in pure Go (see Model2Vec); Pull fetches one.
//   - "none": no vectors.
//
// Chunks splits a note at its headings into pieces of bounded size; a
// note gets one vector per chunk. Index answers top-k queries by brute
// force, scoring each note by its best chunk.
//
// The package imports neither the root package, mcp nor cmd.
package embed

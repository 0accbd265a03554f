// Package embed turns note text into vectors for vaultgraph's semantic and
// hybrid search, and searches them.
//
// An Embedder makes L2-normalised vectors (cosine similarity = dot
// product) from batches of text. New picks one from a spec string:
//
//   - "builtin" (the default): feature hashing of words, word bigrams and
//     character trigrams into 512 dimensions. Offline, no download,
//     deterministic, about ten thousand notes a second, and lexical, not
//     semantic: it finds notes that share words or word parts with the
//     query, not notes that say the same thing in other words. See
//     Builtin for the weighting and why its idf is a fixed prior.
//   - "ollama:MODEL" and "openai:MODEL": HTTP clients for Ollama's
//     /api/embed and any OpenAI-compatible /embeddings endpoint (OpenAI,
//     LM Studio, llama.cpp, vLLM), with batching, per-request timeouts and
//     retries with backoff. A server that is down gives an error wrapping
//     ErrUnavailable, so that search can fall back to keywords and say so.
//   - "model2vec:PATH|NAME": a static embedding model (potion-base-8M and
//     friends) loaded from a folder in pure Go: a safetensors reader and a
//     Hugging Face tokenizer (WordPiece, Unigram, WordLevel). Pull fetches
//     one into the user cache.
//   - "none": no vectors.
//
// Chunks splits a note at its headings into pieces of bounded size, each
// prefixed with the title and heading path; a note gets one vector per
// chunk. Index holds the vectors in one contiguous matrix (optionally
// int8) and answers top-k queries by brute force across all cores,
// scoring each note by its best chunk.
//
// The package imports neither the root package, mcp nor cmd.
package embed

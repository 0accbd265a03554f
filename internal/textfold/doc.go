// Package textfold owns the text rules that keyword search, snippets,
// previews and the builtin embedder share, so that each has one home:
//
//   - folding (Fold, FoldWord, FoldRunes): lower case, compatibility
//     forms, accents of Latin, Greek and Cyrillic letters removed (one
//     table, FoldsMarks and SpecialFold), as the full-text index matches
//     words;
//   - words (IsWordRune, Words, WordRuns): runs of the characters SQLite's
//     unicode61 tokenizer keeps in a token;
//   - CJK detection (IsCJK, HasCJK, IsCJKIdeograph);
//   - previews (DropTitleHeading, Preview): a note's text for a list, a
//     first heading that repeats the title left out.
//
// It imports only the standard library and golang.org/x/text, so every
// other package may use it.
package textfold

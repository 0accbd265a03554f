package vault

// StateDir is the folder, in the vault root, that holds vaultgraph's own
// files: the commit journal and the write lock (package vault/commit)
// and, by default, the index. Its name starts with a dot, so the scanner
// and the watcher skip it.
const StateDir = ".vaultgraph"

package vault

// StateDir is the folder, in the vault root, that holds vaultgraph's own
// files: the commit journal and the write lock (package vault/commit)
// and, by default, the index. Its name starts with a dot, so the scanner
// and the watcher skip it.
const StateDir = ".vaultgraph"

// WritePrefix starts the name of every file a write keeps beside a note
// while it works (its temporary files and backups: vault/commit). Scan
// lists the ones it meets (ScanResult.Marked), so that a start can tell
// whether a write was interrupted without walking the vault again.
const WritePrefix = StateDir + "-"

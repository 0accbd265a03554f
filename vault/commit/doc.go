// Package commit writes a set of file changes to a vault all at once or
// not at all, and puts the vault back in order after a crash.
//
// Apply takes a list of Ops (write a file, remove one) and runs this
// protocol:
//
//  1. Each new version goes to a temporary file beside its target
//     (TempPrefix...), which is written, fsynced and closed; missing
//     folders are made. With Options.Root the whole Apply runs under the
//     vault's write lock (LockWrites: an advisory lock on
//     vault.StateDir/LockName), which keeps other Applies and Recover out.
//  2. With a Root and more than one op, the folders are synced and the
//     journal (vault.StateDir/JournalName, JSON) is written atomically: it
//     names every file, its temporary file and its backup. From here on
//     a crash is finished, not undone.
//  3. Each op with CheckOld or IfAbsent is checked against the disk: a
//     file changed since the caller read it fails the Apply with a
//     *ChangedError (ErrChanged) and nothing changes.
//  4. Removed files are renamed to backups (BackupPrefix...), files
//     about to be replaced are hard-linked to backups (renamed where the
//     file system has no hard links), and each temporary file is renamed
//     into place (each checked once more just before).
//  5. On success the backups go, the folders are synced and the journal
//     is removed; an error then wraps ErrCommitted and the change stands.
//
// If a step fails, rollback puts back every file from its backup and
// removes the new files, temporary files and folders made; with a
// journal, the journal first says "rollback", so that a crash during the
// undo is undone too. A single file write needs neither journal nor
// backup: its one rename is atomic.
//
// ApplyGroup applies many independent single-file writes under one hold
// of the lock, each its own commit. Recover, which the Engine calls on
// Open, finishes or undoes what a crash left.
//
// The package imports vault only for its vault-level names (StateDir,
// ErrUnsafePath, MaxNameBytes); vault does not import it.
package commit

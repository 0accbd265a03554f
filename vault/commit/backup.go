package commit

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/vault"
)

// backupName returns a free backup name beside path:
// BackupPrefix + 8 random hex digits + "-" + the file's name, from which
// Recover can tell the file to restore without a journal. When that
// is over 255 bytes it fails, unless journaled is set: then the name is
// BackupPrefix + 8 hex + "~" + as much of the file's name as fits, and
// only the journal says whose backup it is (Recover without a
// journal leaves such names alone).
func backupName(path string, journaled bool) (string, error) {
	base := filepath.Base(path)
	var r [4]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(r[:])
	name := BackupPrefix + id + "-" + base
	if len(name) > vault.MaxNameBytes {
		if !journaled {
			return "", fmt.Errorf("back up %s: the name is too long to keep a backup beside it", path)
		}
		n := vault.MaxNameBytes - len(BackupPrefix) - len(id) - 1
		for n > 0 && !utf8.RuneStart(base[n]) {
			n-- // cut at a character boundary
		}
		name = BackupPrefix + id + "~" + base[:n]
	}
	return filepath.Join(filepath.Dir(path), name), nil
}

// backupTarget returns the name of the file a backup name keeps, or ""
// (also for the journal-only names of backupName).
func backupTarget(name string) string {
	rest, ok := strings.CutPrefix(name, BackupPrefix)
	if !ok {
		return ""
	}
	id, target, ok := strings.Cut(rest, "-")
	if !ok || len(id) != 8 || target == "" {
		return ""
	}
	if _, err := hex.DecodeString(id); err != nil {
		return ""
	}
	return target
}

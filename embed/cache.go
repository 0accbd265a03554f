package embed

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// hubName matches a Hugging Face model name, owner/name.
var hubName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$`)

// ValidModelName reports whether name looks like a Hugging Face model name
// ("minishlab/potion-base-8M") that is safe to use as a cache path.
func ValidModelName(name string) bool {
	return hubName.MatchString(name) && !strings.Contains(name, "..")
}

// DefaultCacheDir is where pulled models live:
// os.UserCacheDir()/vaultgraph/models.
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("model cache: %w", err)
	}
	return filepath.Join(dir, "vaultgraph", "models"), nil
}

// cacheDirOr is cacheDir, or DefaultCacheDir when it is "".
func cacheDirOr(cacheDir string) (string, error) {
	if cacheDir != "" {
		return cacheDir, nil
	}
	return DefaultCacheDir()
}

// ResolveModel2Vec finds a model2vec model folder: an existing folder path
// ("~/" expands to the home folder), else a Hugging Face name looked up in
// the cache (cacheDir, default DefaultCacheDir). A model that is not there
// wraps ErrModelNotFound with the command that fetches it.
func ResolveModel2Vec(pathOrName, cacheDir string) (string, error) {
	p := pathOrName
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, rest)
		}
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return p, nil
	}
	if !ValidModelName(pathOrName) {
		return "", fmt.Errorf("%w: no model folder %s", ErrModelNotFound, pathOrName)
	}
	cacheDir, err := cacheDirOr(cacheDir)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cacheDir, filepath.FromSlash(pathOrName))
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir, nil
	}
	return "", fmt.Errorf("%w: %s is not in %s; fetch it with `vaultgraph model pull %s` on a machine with internet",
		ErrModelNotFound, pathOrName, cacheDir, pathOrName)
}

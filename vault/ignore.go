package vault

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Ignore decides which vault paths are not part of the vault: dot-folders
// and dot-files (.obsidian, .trash, .git, .vaultgraph), and the "Excluded
// files" the user set in Obsidian (.obsidian/app.json userIgnoreFilters).
type Ignore struct {
	prefixes []string // folded path prefixes
	folders  []string // the prefixes as written, without a trailing slash
	patterns []*regexp.Regexp
}

// LoadIgnore reads the ignore rules of the vault at root. A missing
// app.json means no user filters; an unreadable or malformed one is an
// error naming the file, and the returned Ignore still has the built-in
// rules.
func LoadIgnore(root string) (*Ignore, error) {
	ig := &Ignore{}
	file := filepath.Join(root, ".obsidian", "app.json")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return ig, nil
	}
	if err != nil {
		return ig, fmt.Errorf("read ignore filters: %w", err)
	}
	var app struct {
		UserIgnoreFilters []string `json:"userIgnoreFilters"`
	}
	if err := json.Unmarshal(data, &app); err != nil {
		return ig, fmt.Errorf("parse %s: %w", file, err)
	}
	var bad []string
	for _, f := range app.UserIgnoreFilters {
		if err := ig.add(f); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) > 0 {
		return ig, fmt.Errorf("%s: %s", file, strings.Join(bad, "; "))
	}
	return ig, nil
}

func (ig *Ignore) add(filter string) error {
	f := strings.TrimSpace(filter)
	if f == "" {
		return nil
	}
	if len(f) > 2 && strings.HasPrefix(f, "/") && strings.HasSuffix(f, "/") {
		re, err := regexp.Compile(f[1 : len(f)-1])
		if err != nil {
			return fmt.Errorf("ignore filter %q: %w", filter, err)
		}
		ig.patterns = append(ig.patterns, re)
		return nil
	}
	ig.prefixes = append(ig.prefixes, Fold(strings.TrimPrefix(filepath.ToSlash(f), "/")))
	if dir := strings.Trim(filepath.ToSlash(f), "/"); dir != "" {
		ig.folders = append(ig.folders, dir)
	}
	return nil
}

// FilterFolders returns the paths the user's prefix filters name, as
// written and without slashes around them ("Templates/" gives
// "Templates"): where excluded folders may appear between scans, which
// the watcher does not follow.
func (ig *Ignore) FilterFolders() []string {
	if ig == nil {
		return nil
	}
	return slices.Clone(ig.folders)
}

// Skip reports whether the vault-relative path rel (forward slashes) is
// left out of the vault. isDir says whether rel is a folder.
func (ig *Ignore) Skip(rel string, isDir bool) bool {
	if rel == "" || rel == "." {
		return false
	}
	return Hidden(rel) || ig.Filtered(rel, isDir)
}

// Hidden reports whether the vault-relative path rel is in a dot-folder
// or is a dot-file (.obsidian, .trash, .git, .vaultgraph): outside the
// vault for Obsidian too, which never rewrites a link there.
func Hidden(rel string) bool {
	// A part starts with a dot: the first, or one after a slash.
	return strings.HasPrefix(rel, ".") || strings.Contains(rel, "/.")
}

// Filtered reports whether the vault-relative path rel is one of the
// user's "Excluded files" (userIgnoreFilters): Obsidian hides it from
// search and the graph but still rewrites its links on a rename. isDir
// says whether rel is a folder. Skip is Hidden or Filtered.
func (ig *Ignore) Filtered(rel string, isDir bool) bool {
	if ig == nil || rel == "" || rel == "." {
		return false
	}
	key := Fold(rel)
	if isDir {
		key += "/"
	}
	return slices.ContainsFunc(ig.prefixes, func(p string) bool { return strings.HasPrefix(key, p) }) ||
		slices.ContainsFunc(ig.patterns, func(re *regexp.Regexp) bool { return re.MatchString(rel) })
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// TestBacklinkContextCLI: get-neighbors shows the sentence of each
// incoming link.
func TestBacklinkContextCLI(t *testing.T) {
	dir := testutil.CopyTestVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	out, errOut, code := runCLI(t, "get-neighbors", "Beta", "--direction", "in", "--vault", dir, "--index", index, "--format", "markdown")
	if code != 0 {
		t.Fatalf("get-neighbors = exit %d: %s", code, errOut)
	}
	if want := "context: Budget risk is tracked in **[[Beta#Goals\\|Beta's goals]]**."; !strings.Contains(out, want) {
		t.Errorf("get-neighbors Beta --direction in =\n%s\nwant a line with %q", out, want)
	}
}

func TestGetRelatedCLI(t *testing.T) {
	dir := testutil.CopyTestVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	out, errOut, code := runCLI(t, "get-related", "Beta", "Home", "--exclude-linked", "--vault", dir, "--index", index)
	if code != 0 {
		t.Fatalf("get-related = exit %d: %s", code, errOut)
	}
	if want := "seeds[2]: Projects/Beta.md,Home.md\nnodes[2]{id,title,score,distance,shared,via,tags}:\n"; !strings.HasPrefix(out, want) || !strings.Contains(out, "Archive/Old Ideas.md,Old Ideas,") {
		t.Errorf("get-related Beta Home --exclude-linked =\n%s\nwant it to start with\n%s", out, want)
	}
	out, _, code = runCLI(t, "get-related", "--query", "budget", "--vault", dir, "--index", index, "--format", "json")
	// Beta (whose body has [[Alpha Plan#Risks#Budget]]) and Alpha Plan
	// match "budget" about equally: either may come first.
	if code != 0 || !strings.Contains(out, `"seeds":[`) || !strings.Contains(out[:strings.Index(out, `"nodes"`)+1], `"Projects/Alpha Plan.md"`) {
		t.Errorf("get-related --query budget = %s (exit %d), want Alpha Plan among the seeds", out, code)
	}
	out, _, code = runCLI(t, "get-related", "Nothing Like It", "--vault", dir, "--index", index)
	if code != 0 || strings.TrimSpace(out) != "null" {
		t.Errorf("get-related of a missing note = %q (exit %d), want null", out, code)
	}
	_, errOut, code = runCLI(t, "get-related", "--vault", dir, "--index", index)
	if code == 0 || !strings.Contains(errOut, "INVALID_PARAMS: ids:") {
		t.Errorf("get-related without notes = exit %d, stderr %q, want INVALID_PARAMS", code, errOut)
	}
}

func TestLinkMentionsCLI(t *testing.T) {
	dir := testutil.CopyTestVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	testutil.WriteFile(t, dir, "Log.md", "Met beta today.\n\n`beta` stays.\n")
	out, errOut, code := runCLI(t, "get-node", "Beta", "--fields", "mentions", "--format", "toon", "--vault", dir, "--index", index)
	if code != 0 || !strings.Contains(out, "mentions[1]{source,line,text,context}:\n  Log.md,1,beta,Met **beta** today.") {
		t.Fatalf("get-node Beta --fields mentions = %s (exit %d, %s)", out, code, errOut)
	}
	out, _, code = runCLI(t, "link-mentions", "Beta", "--dry-run", "--vault", dir, "--index", index)
	if code != 0 || !strings.Contains(out, `Log.md,1,beta,"[[Beta|beta]]"`) {
		t.Errorf("link-mentions --dry-run = %s (exit %d)", out, code)
	}
	out, errOut, code = runCLI(t, "link-mentions", "Beta", "Log.md:1", "--vault", dir, "--index", index)
	if code != 0 {
		t.Fatalf("link-mentions = exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "Log.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "Met [[Beta|beta]] today.\n\n`beta` stays.\n"; got != want {
		t.Errorf("Log.md = %q, want %q\n%s", got, want, out)
	}
	_, errOut, code = runCLI(t, "link-mentions", "Beta", "Log.md", "--vault", dir, "--index", index)
	if code == 0 || !strings.Contains(errOut, "INVALID_PARAMS") {
		t.Errorf("link-mentions with nothing left = exit %d, stderr %q, want INVALID_PARAMS", code, errOut)
	}
}

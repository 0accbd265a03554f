package main

// Crash safety of the built binary: `vaultgraph serve` is killed with
// SIGKILL at random moments while it renames a note with 300 backlinks.
// Afterwards every file holds either its old or its new bytes; the next
// start finishes the rename when the kill left its commit journal
// (.vaultgraph/commit.journal) and undoes it otherwise, so that the vault
// is all old or all new, never a mix; it removes every temporary and
// backup file, and its index equals a fresh full index of the same files.
//
// The kill comes 0-200 ms after the call, or anywhere in the time an
// uninterrupted rename takes, or 0-40 ms after the first backup file
// appears (the renames into place), in turn. The loop runs 16
// iterations (about 30 s); VAULTGRAPH_CRASH_ITERATIONS
// sets another count, -short skips it:
//
//	go test -race -run TestCrashRenameKill -v ./cmd/vaultgraph
//	VAULTGRAPH_CRASH_ITERATIONS=100 go test -run TestCrashRenameKill ./cmd/vaultgraph

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// crashBacklinks is how many notes link to the hub.
const crashBacklinks = 300

// crashNote is the text of linking note i when the hub is called hub.
func crashNote(i int, hub string) string {
	return fmt.Sprintf("# Note %d\n\nNote %d links to [[%s]], to [[%s|the hub]] and to [[%s#Section]].\n\nA markdown link: [hub](../%s.md). Unrelated: [[Note %d]].\n",
		i, i, hub, hub, hub, hub, (i+1)%crashBacklinks)
}

// crashRetarget is the model of a rename of the hub from old to new in a
// linking note's bytes: exactly the link targets change.
func crashRetarget(content, old, new string) string {
	r := strings.NewReplacer("[["+old+"]]", "[["+new+"]]", "[["+old+"|", "[["+new+"|", "[["+old+"#", "[["+new+"#", "](../"+old+".md)", "](../"+new+".md)")
	return r.Replace(content)
}

const crashHubText = "# Hub\n\n## Section\n\nEvery note links here.\n"

// crashFiles reads every file under dir (vault-relative slash paths),
// without .vaultgraph/, and the writer's temporary and backup files apart.
func crashFiles(t *testing.T, dir string) (files map[string]string, leftovers []string) {
	t.Helper()
	files = map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".vaultgraph" {
				return filepath.SkipDir
			}
			return nil
		}
		if base := d.Name(); strings.HasPrefix(base, commit.TempPrefix) || strings.HasPrefix(base, commit.BackupPrefix) {
			leftovers = append(leftovers, rel)
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(leftovers)
	return files, leftovers
}

// crashState is what a server says about the vault.
type crashState struct {
	ids    []string
	status map[string]any
}

// crashStatusKeys are the vault_status fields that a fresh index must
// match (not paths, times, sizes or the embedder's progress).
var crashStatusKeys = []string{"notes", "links", "brokenLinks", "attachmentLinks", "attachments", "tags", "edges", "problems", "notesWithWarnings", "duplicateNames"}

func (s crashState) String() string {
	b, _ := json.Marshal(s.status)
	return fmt.Sprintf("%d ids, status %s", len(s.ids), b)
}

// crashServe starts `serve` on the vault with its index, lists the notes
// and the status, and stops it with SIGTERM.
func crashServe(t *testing.T, bin, dir, index string) crashState {
	t.Helper()
	s := startServer(t, bin, []string{EnvToken + "=", EnvVault + "=", EnvIndex + "="}, "serve", "--no-watch", "--index", index, dir)
	c := s.stdioClient(t)
	initialize(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil || len(list.Tools) != len(serveTools) {
		t.Fatalf("tools/list after the crash = %d tools, %v; want %d", len(list.Tools), err, len(serveTools))
	}
	st := crashState{ids: crashListIDs(t, func(page int) string {
		text, isErr := call(t, c, "list_nodes", map[string]any{"format": "json", "detail": "minimal", "limit": 100, "page": page, "sortBy": []string{"path"}})
		if isErr {
			t.Fatalf("list_nodes = %s", text)
		}
		return text
	})}
	text, isErr := call(t, c, "vault_status", map[string]any{"format": "json"})
	if isErr {
		t.Fatalf("vault_status = %s", text)
	}
	st.status = crashStatus(t, text)
	s.stop(t)
	_ = c.Close()
	if logs := s.stderr.String(); strings.Contains(logs, "level=ERROR") {
		t.Errorf("the restarted server logged errors:\n%s", logs)
	}
	return st
}

func crashListIDs(t *testing.T, page func(int) string) []string {
	t.Helper()
	var ids []string
	for p := 1; ; p++ {
		var res struct {
			Nodes []struct {
				ID string `json:"id"`
			} `json:"nodes"`
			TotalPages int `json:"totalPages"`
		}
		text := page(p)
		if err := json.Unmarshal([]byte(text), &res); err != nil {
			t.Fatalf("list_nodes page %d: %v: %.300s", p, err, text)
		}
		for _, n := range res.Nodes {
			ids = append(ids, n.ID)
		}
		if p >= res.TotalPages {
			return ids
		}
	}
}

func crashStatus(t *testing.T, text string) map[string]any {
	t.Helper()
	var all map[string]any
	if err := json.Unmarshal([]byte(text), &all); err != nil {
		t.Fatalf("vault_status: %v: %.300s", err, text)
	}
	out := map[string]any{}
	for _, k := range crashStatusKeys {
		out[k] = all[k]
	}
	return out
}

// crashFresh copies the vault, indexes the copy from scratch with
// `vaultgraph index --full` and reads the same answers with the CLI.
func crashFresh(t *testing.T, bin, dir string) crashState {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	_ = os.RemoveAll(filepath.Join(cp, ".vaultgraph"))
	index := filepath.Join(t.TempDir(), "fresh.db")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append(args, "--vault", cp, "--index", index)...)
		cmd.Env = append(os.Environ(), EnvToken+"=", EnvVault+"=", EnvIndex+"=")
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("vaultgraph %q: %v\n%s", args, err, stderr)
		}
		return string(out)
	}
	run("index", "--full", "--embed", "none")
	st := crashState{ids: crashListIDs(t, func(page int) string {
		return run("list-nodes", "--format", "json", "--detail", "minimal", "--limit", "100", "--page", strconv.Itoa(page), "--sort-by", "path")
	})}
	st.status = crashStatus(t, run("vault-status", "--format", "json"))
	return st
}

func crashIterations(t *testing.T) int {
	t.Helper()
	n := 16
	if s := os.Getenv("VAULTGRAPH_CRASH_ITERATIONS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("VAULTGRAPH_CRASH_ITERATIONS=%q: want a positive number", s)
		}
	}
	return n
}

// TestCrashRenameKill renames a hub with 300 backlinks through `serve`
// over stdio and kills the server with SIGKILL 0-200 ms after sending the
// call, again and again.
func TestCrashRenameKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it many times")
	}
	bin := testBinary(t)
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.MkdirAll(filepath.Join(dir, "Notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	hub := "Hub 0"
	if err := os.WriteFile(filepath.Join(dir, hub+".md"), []byte(crashHubText), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range crashBacklinks {
		p := filepath.Join(dir, "Notes", fmt.Sprintf("Note %d.md", i))
		if err := os.WriteFile(p, []byte(crashNote(i, hub)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Markdown links to the hub are written with %20 for the space.
	for i := range crashBacklinks {
		p := filepath.Join(dir, "Notes", fmt.Sprintf("Note %d.md", i))
		b, _ := os.ReadFile(p)
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "](../"+hub+".md)", "](../"+strings.ReplaceAll(hub, " ", "%20")+".md)")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := filepath.Join(t.TempDir(), "index.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	retarget := func(content, old, new string) string {
		content = crashRetarget(content, old, new)
		return crashRetarget(content, strings.ReplaceAll(old, " ", "%20"), strings.ReplaceAll(new, " ", "%20"))
	}

	// rename starts a server, sends the rename and kills the server after
	// wait (or lets it finish and stops it when wait < 0). It returns how
	// long the rename took when it finished.
	rename := func(from, to string, wait time.Duration, afterBackup bool) (took time.Duration, finished bool) {
		s := startServer(t, bin, []string{EnvToken + "=", EnvVault + "=", EnvIndex + "="}, "serve", "--no-watch", "--index", index, dir)
		c := s.stdioClient(t)
		initialize(t, c)
		done := make(chan error, 1)
		start := time.Now()
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			req := mcpgo.CallToolRequest{}
			req.Params.Name = "update_node"
			req.Params.Arguments = map[string]any{"id": from, "title": to, "format": "json", "detail": "minimal"}
			res, err := c.CallTool(ctx, req)
			if err == nil && res.IsError {
				err = fmt.Errorf("update_node: %v", res.Content)
			}
			done <- err
		}()
		if wait < 0 {
			if err := <-done; err != nil {
				t.Fatalf("rename %s -> %s: %v", from, to, err)
			}
			took = time.Since(start)
			s.stop(t)
			_ = c.Close()
			return took, true
		}
		if wait >= 0 && afterBackup {
			// Wait for the Commit to move the hub to its backup (its
			// second step), then for the rest of wait.
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
				entries, _ := os.ReadDir(dir)
				if slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), commit.BackupPrefix) }) {
					break
				}
				select {
				case <-done:
					t.Logf("the rename finished before a backup was seen")
					done <- nil
				default:
					continue
				}
				break
			}
		}
		time.Sleep(wait)
		_ = s.cmd.Process.Kill()
		<-s.done
		_ = c.Close()
		select {
		case err := <-done:
			if err == nil {
				return time.Since(start), true
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the call did not return after the server was killed")
		}
		return 0, false
	}

	// A rename that runs to its end checks the model of the new bytes.
	before, _ := crashFiles(t, dir)
	next := "Hub 1"
	took, _ := rename(hub, next, -1, false)
	after, left := crashFiles(t, dir)
	want := map[string]string{}
	for k, v := range before {
		if k == hub+".md" {
			k = next + ".md"
		}
		want[k] = retarget(v, hub, next)
	}
	if !maps.Equal(after, want) || len(left) > 0 {
		for k := range want {
			if after[k] != want[k] {
				t.Errorf("%s = %q, want %q", k, after[k], want[k])
				break
			}
		}
		t.Fatalf("an uninterrupted rename: %d files, leftovers %q; want %d files as modelled", len(after), left, len(want))
	}
	t.Logf("an uninterrupted rename of a note with %d backlinks takes %v from the call to the answer", crashBacklinks, took.Round(time.Millisecond))
	hub = next

	counts := map[string]int{}
	iterations := crashIterations(t)
	for it := range iterations {
		next := fmt.Sprintf("Hub %d", it+2)
		pre, _ := crashFiles(t, dir)
		post := map[string]string{}
		for k, v := range pre {
			if k == hub+".md" {
				k = next + ".md"
			}
			post[k] = retarget(v, hub, next)
		}
		// 0-200 ms after the call, or anywhere in the time a whole rename
		// takes (every other iteration): a rename of 300 files takes longer
		// than 200 ms, and its later steps (backups, the renames into
		// place, removing the backups) are the ones that can go wrong.
		span := 200 * time.Millisecond
		afterBackup := false
		switch it % 3 {
		case 1:
			span = max(span, took*6/5)
		case 2:
			// The commit's renames into place: 0-40 ms after the first
			// backup appears.
			span, afterBackup = 40*time.Millisecond, true
		}
		wait := time.Duration(rng.Int64N(int64(span) + 1))
		_, finished := rename(hub, next, wait, afterBackup)

		// Right after the kill: every note file is old or new.
		got, left := crashFiles(t, dir)
		checkOldOrNew(t, fmt.Sprintf("iteration %d after the kill", it), got, pre, post, hub, next, true)
		_, err := os.Lstat(filepath.Join(dir, vault.StateDir, commit.JournalName))
		journal := err == nil

		// The next start repairs the vault and the index.
		served := crashServe(t, bin, dir, index)
		got, left2 := crashFiles(t, dir)
		if len(left2) > 0 {
			t.Errorf("iteration %d: after a restart %q remain", it, left2)
		}
		outcome := checkOldOrNew(t, fmt.Sprintf("iteration %d after the restart", it), got, pre, post, hub, next, false)
		if journal {
			counts[outcome+" (journal)"]++
		} else {
			counts[outcome]++
		}
		when := "after the call"
		if afterBackup {
			when = "after the first backup"
		}
		t.Logf("iteration %d: killed %v %s (finished: %v), %d leftovers and a journal: %v after the kill, outcome %s", it, wait.Round(time.Millisecond), when, finished, len(left), journal, outcome)
		switch {
		case outcome == "mixed":
			t.Errorf("iteration %d: after the restart the rename is half done (journal after the kill: %v)", it, journal)
		case finished && outcome != "new":
			t.Errorf("iteration %d: the rename was answered as done but the files are %s", it, outcome)
		case journal && outcome != "new":
			t.Errorf("iteration %d: the kill left the commit journal but the restart did not finish the rename (%s)", it, outcome)
		}
		var onDisk []string
		for k := range got {
			if strings.HasSuffix(k, ".md") {
				onDisk = append(onDisk, k)
			}
		}
		slices.Sort(onDisk)
		// list_nodes sorts titles naturally (Note 2 before Note 10); compare as sets
		if !slices.Equal(slices.Sorted(slices.Values(served.ids)), onDisk) {
			t.Errorf("iteration %d: list_nodes after the restart = %d ids %.300q, want the %d notes on disk", it, len(served.ids), served.ids, len(onDisk))
		}
		fresh := crashFresh(t, bin, dir)
		if !slices.Equal(served.ids, fresh.ids) || !maps.EqualFunc(served.status, fresh.status, func(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
			t.Errorf("iteration %d: the restarted server's index (%v) differs from a fresh full index (%v)", it, served, fresh)
		}
		if t.Failed() {
			t.FailNow()
		}

		if outcome == "new" {
			hub = next
		}
	}
	t.Logf("%d kills: outcomes %v", iterations, counts)
}

// checkOldOrNew checks that every file is entirely its pre- or its
// post-rename version, and returns "old" (all pre), "new" (all post) or
// "mixed". The hub may exist under its old name, its new name or both
// (a crash between the new file and the removal of the old one), never
// under neither, unless inBackup (before the repair: the Commit moves the
// old one to its backup first).
func checkOldOrNew(t *testing.T, what string, got, pre, post map[string]string, hub, next string, inBackup bool) string {
	t.Helper()
	oldHub, newHub := hub+".md", next+".md"
	var olds, news int
	for k, v := range got {
		p, inPre := pre[k]
		q, inPost := post[k]
		switch {
		case !inPre && !inPost:
			t.Errorf("%s: unexpected file %s = %.200q", what, k, v)
		case inPre && v == p && (k != newHub):
			olds++
			if inPost && v == q {
				news++ // unchanged by the rename
			}
		case inPost && v == q:
			news++
		default:
			t.Errorf("%s: %s is neither its old nor its new version:\n%.400q\nold %.400q\nnew %.400q", what, k, v, p, q)
		}
	}
	for k := range pre {
		if _, ok := got[k]; !ok && k != oldHub {
			t.Errorf("%s: %s is gone", what, k)
		}
	}
	_, hasOld := got[oldHub]
	_, hasNew := got[newHub]
	if !hasOld && !hasNew && !inBackup {
		t.Errorf("%s: the hub is gone: neither %s nor %s exists", what, oldHub, newHub)
	}
	switch {
	case hasOld && !hasNew && olds == len(pre):
		return "old"
	case hasNew && !hasOld && news == len(post):
		return "new"
	}
	if !inBackup {
		t.Logf("%s: half the rename: %d of %d files new, the note under its old name: %v, under its new name: %v", what, news, len(post), hasOld, hasNew)
	}
	return "mixed"
}

// TestCrashCLIWhileServing: a `vaultgraph` command run while a server
// serves the same vault must not touch the files a server's write has in
// flight (its temporary and backup files) while it holds the vault's
// write lock (.vaultgraph/write.lock, held here by the test as the
// server's Commit would); once the lock is free, those files are the
// leftovers of a crash and the next command cleans them up.
func TestCrashCLIWhileServing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	dir := copyVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	s := startServer(t, bin, []string{EnvToken + "=", EnvVault + "=", EnvIndex + "="}, "serve", "--no-watch", "--index", index, dir)
	c := s.stdioClient(t)
	initialize(t, c)
	// What a server's Commit has on disk between its steps: the new
	// version in a temporary file, the old one in a backup, with the
	// write lock held.
	lock, err := commit.LockWrites(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, commit.TempPrefix+"123456")
	bak := filepath.Join(dir, commit.BackupPrefix+"0123abcd-Home.md")
	plant := func() {
		t.Helper()
		if err := os.WriteFile(tmp, []byte("# Home\nthe new version\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(bak); err == nil {
			return
		}
		if err := os.Link(filepath.Join(dir, "Home.md"), bak); err != nil {
			t.Fatal(err)
		}
	}
	if !serverRunning(index) {
		t.Fatal("no heartbeat next to the served index")
	}
	otherIndex := filepath.Join(t.TempDir(), "other.db")
	var removed []string
	for _, args := range [][]string{
		{"vault-status", "--index", index},
		{"get-node", "Home", "--index", index},
		{"list-tags", "--index", index},
		{"index", "--index", index, "--embed", "none"},
		{"get-node", "Home", "--index", otherIndex},
		{"serve", "--no-watch", "--embed", "none", "--index", otherIndex}, // a second server (stdin closed: it stops at once)
		{"serve", "--no-watch", "--embed", "none", "--index", index},      // a second server on the same index
	} {
		plant()
		cmd := exec.Command(bin, append(args, "--vault", dir)...)
		cmd.Env = append(os.Environ(), EnvToken+"=", EnvVault+"=", EnvIndex+"=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("vaultgraph %q: %v\n%s", args, err, out)
		}
		var gone []string
		for _, p := range []string{tmp, bak} {
			if _, err := os.Lstat(p); err != nil {
				gone = append(gone, filepath.Base(p))
			}
		}
		t.Logf("vaultgraph %s: removed %q", strings.Join(args, " "), gone)
		if len(gone) > 0 {
			removed = append(removed, strings.Join(args, " "))
		}
	}
	if !serverRunning(index) {
		t.Logf("NOTE: the second `serve` on the same index removed the first one's heartbeat when it stopped: commands now scan the vault themselves while the first server still writes")
	}
	if len(removed) > 0 {
		t.Errorf("while the vault's write lock was held, these commands removed in-flight temporary and backup files: %q", removed)
	}

	// The writer is gone: the same files are leftovers now.
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "index", "--index", otherIndex, "--embed", "none", "--vault", dir)
	cmd.Env = append(os.Environ(), EnvToken+"=", EnvVault+"=", EnvIndex+"=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vaultgraph index: %v\n%s", err, out)
	}
	for _, p := range []string{tmp, bak} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("with the write lock free, `vaultgraph index` left %s", filepath.Base(p))
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "Home.md")); err != nil || strings.Contains(string(b), "the new version") {
		t.Errorf("Home.md after the clean-up = %q, %v, want its old content", b, err)
	}
	s.stop(t)
}

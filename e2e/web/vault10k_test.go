//go:build e2e

package webe2e

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// settleWait bounds the waits for the page's own state on the 10,000-note
// vault: generous, as a loaded machine draws it slowly; a wait is never a
// figure that is checked.
const settleWait = 3 * time.Minute

// minGraphInk is how many pixels the whole 10,000-note graph, fitted in
// its canvas, draws at least (it draws about ten times more).
const minGraphInk = 5000

// fittedInk fits the camera of the global graph to the whole graph (once
// any camera animation has ended), waits until the page says the graph
// is drawn at that camera and nothing is left to draw (GlobalGraph's
// settled), and returns the pixels its canvas drew, saving the
// screenshot as name.
func fittedInk(t *testing.T, ctx context.Context, what, name string) int {
	t.Helper()
	waitJS(t, ctx, what+": camera still", `!vgGraph.sigma.getCamera().isAnimated()`, settleWait)
	run(t, ctx, what+": fit the camera", 30*time.Second, chromedp.Evaluate(`vgGraph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }); 0`, nil))
	waitJS(t, ctx, what+": drawn and at rest", `vgGraph.settled()`, settleWait)
	n := shot(t, ctx, "#global-graph", name)
	t.Logf("%s: %d drawn pixels", what, n)
	return n
}

// inkedWithin takes screenshots of sel until its canvas has drawn at
// least want pixels or d has passed, and returns the last count: a
// drawing that comes late on a loaded machine still counts.
func inkedWithin(t *testing.T, ctx context.Context, sel string, want int, d time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		n := shot(t, ctx, sel, "")
		if n >= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// bigNotePage checks the page of note id of the 10,000-note vault, as
// the click on the graph opened it: its title, its rendered body (some
// of the largest notes link to none), its backlinks and its local graph
// drawn.
func bigNotePage(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	waitJS(t, ctx, "10k note page", fmt.Sprintf(`document.getElementById("note-title") && document.querySelector("#note-body") && document.querySelector(".note-layout p.muted")?.textContent.startsWith(%q)`, id), settleWait)
	var got struct {
		Title     string `json:"title"`
		Body      int    `json:"body"`
		Backlinks int    `json:"backlinks"`
	}
	run(t, ctx, "10k note page", 30*time.Second, chromedp.Evaluate(`({
		title: document.getElementById("note-title").textContent,
		body: document.getElementById("note-body").textContent.length,
		backlinks: document.querySelectorAll("#backlinks li").length,
	})`, &got))
	// The note clicked is among the largest (PageRank): many notes link to it.
	if got.Title == "" || got.Body < 100 || got.Backlinks < 2 {
		t.Errorf("10k note page of %s: %+v, want its title, body and backlinks", id, got)
	}
	waitJS(t, ctx, "10k local graph", `document.querySelector("#local-graph canvas")`, settleWait)
	if n := inkedWithin(t, ctx, "#local-graph", 200, time.Minute); n < 200 {
		t.Errorf("10k local graph of %s: %d drawn pixels, want nodes on the canvas", id, n)
	}
	return got.Title
}

// bigSearch types the title of note id into the search box of the
// 10,000-note vault and picks its folder in the folder filter: the note
// is among the results, every result is in that folder, the words are
// marked.
func bigSearch(t *testing.T, ctx context.Context, s *server, id, title string) {
	t.Helper()
	run(t, ctx, "10k search page", 30*time.Second, chromedp.Navigate(s.url+"#/"), chromedp.WaitVisible("#q", chromedp.ByQuery),
		chromedp.SendKeys("#q", title, chromedp.ByQuery))
	within := ""
	if dir := path.Dir(id); dir != "." {
		waitJS(t, ctx, "10k folders listed", fmt.Sprintf(`document.querySelector('#folder-filter option[value=%q]')`, dir), settleWait)
		run(t, ctx, "10k folder filter", 30*time.Second, chromedp.SetValue("#folder-filter", dir, chromedp.ByQuery),
			chromedp.Evaluate(`document.getElementById("folder-filter").dispatchEvent(new Event("change"))`, nil))
		within = fmt.Sprintf(` && [...document.querySelectorAll("#results li a[title]")].every(a => a.title.startsWith(%q))`, dir+"/")
	}
	waitJS(t, ctx, "10k search results", fmt.Sprintf(`document.querySelector('#results a[title=%q]') && document.querySelector("#results mark")`, id)+within, settleWait)
}

// bigPath finds a path on the 10,000-note vault between note from and a
// note three links away from it (the graph's own links, either way, as
// the path page follows them by default): the path page lists the two
// and the notes between, and draws them.
func bigPath(t *testing.T, ctx context.Context, s *server, from string) {
	t.Helper()
	var far struct {
		ID   string `json:"id"`
		Hops int    `json:"hops"`
	}
	run(t, ctx, "a note three links away", 30*time.Second, chromedp.Evaluate(fmt.Sprintf(`(() => {
		const g = vgGraph.graph, seen = new Map([[%q, 0]]);
		let ring = [%[1]q];
		for (let d = 1; d <= 3 && ring.length; d++) {
			const next = [];
			for (const n of ring) g.forEachNeighbor(n, (m) => { if (!seen.has(m)) { seen.set(m, d); next.push(m); } });
			if (next.length) ring = next.sort();
			else break;
		}
		return { id: ring[0], hops: seen.get(ring[0]) };
	})()`, from), &far))
	if far.Hops < 2 {
		t.Fatalf("no note two or more links from %s in the 10k graph (%+v)", from, far)
	}
	run(t, ctx, "10k path", 30*time.Second, chromedp.Navigate(s.url+"#/path?"+url.Values{"from": {from}, "to": {far.ID}}.Encode()))
	waitJS(t, ctx, "10k path listed", fmt.Sprintf(`document.querySelectorAll("#p-list li").length === %d`, far.Hops+1), settleWait)
	got := text(t, ctx, "#p-list")
	var ends []string
	run(t, ctx, "path ends", 10*time.Second, chromedp.Evaluate(`[...document.querySelectorAll("#p-list a")].map(a => a.title)`, &ends))
	if len(ends) != far.Hops+1 || ends[0] != from || ends[len(ends)-1] != far.ID {
		t.Errorf("10k path from %s to %s = %v (%q), want %d notes from one to the other", from, far.ID, ends, strings.TrimSpace(got), far.Hops+1)
	}
	if n := inkedWithin(t, ctx, "#path-graph", 200, time.Minute); n < 200 {
		t.Errorf("10k path graph: %d drawn pixels, want the path drawn", n)
	}
}

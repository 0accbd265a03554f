//go:build e2e

// Package webe2e drives the web app in headless Chromium: `make e2e`
// (go test -tags e2e ./e2e/web). Screenshots go to e2e/out/.
package webe2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// evilNote holds script in its title, its HTML and its links: opening it,
// searching it and drawing it must run none of it.
const evilNote = `---
title: "<script>window.__xss='title'</script><img src=x onerror=\"window.__xss='title-img'\">"
tags: [evil]
---
# <script>window.__xss='heading'</script>

<script>window.__xss='body'</script>
<img src="x" onerror="window.__xss='img'">
<svg onload="window.__xss='svg'"><circle r="5"/></svg>
<a href="javascript:window.__xss='a-href'">an HTML link</a>
<iframe src="javascript:window.__xss='iframe'"></iframe>
[a markdown link](javascript:window.__xss='md-link')
[[<script>window.__xss='wikilink'</script>]]
<div onclick="window.__xss='click'" id="evil-div">click me</div>
<form action="javascript:window.__xss='form'"><button id="evil-button">go</button></form>
Back to [[Home]] with <b onmouseover="window.__xss='hover'">bold</b> evilword.

Home's backlinks show [[Home]] beside <img src=x onerror="window.__xss='backlink'"> as text.
`

func copyVault(t *testing.T) string {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testvault"))); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, ".vaultgraph"))
	if err := os.WriteFile(filepath.Join(dir, "Evil.md"), []byte(evilNote), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestWebApp(t *testing.T) {
	dir := copyVault(t)
	s := serve(t, dir, 30*time.Second)
	ctx := browser(t)

	// Open: the token comes in the address's fragment, once.
	run(t, ctx, "open the app", 30*time.Second, chromedp.Navigate(s.url+"#token="+token))
	waitJS(t, ctx, "status", `document.getElementById("vault-name").textContent.includes("14 notes")`, 15*time.Second)
	waitJS(t, ctx, "token kept in the tab", `sessionStorage.getItem("vg-token") === "`+token+`" && !location.hash.includes("token")`, 5*time.Second)

	// Search as you type, snippets highlighted.
	run(t, ctx, "type a query", 10*time.Second, chromedp.WaitVisible("#q", chromedp.ByQuery), chromedp.SendKeys("#q", "cafe", chromedp.ByQuery))
	waitJS(t, ctx, "search results", `[...document.querySelectorAll("#results li a")].some(a => a.textContent === "Café Menu")`, 10*time.Second)
	waitJS(t, ctx, "highlighted snippet", `document.querySelector("#results mark")`, 5*time.Second)

	// Filter by folder: only notes under Notes/ stay.
	run(t, ctx, "folder filter", 10*time.Second, chromedp.SetValue("#folder-filter", "Notes", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("folder-filter").dispatchEvent(new Event("change"))`, nil))
	waitJS(t, ctx, "folder filter applied", `[...document.querySelectorAll("#results li a[title]")].every(a => a.title.startsWith("Notes/")) && !document.querySelector('#results a[title="Home.md"]')`, 10*time.Second)

	// Open a note from the results.
	click(t, ctx, "open Café Menu", `#results a[title="Notes/Café Menu.md"]`)
	waitJS(t, ctx, "note page", `document.getElementById("note-title")?.textContent === "Café Menu"`, 10*time.Second)

	// Follow a wikilink ([[Home]]).
	click(t, ctx, "follow [[Home]]", `#note-body a[href="#/note/Home.md"]`)
	waitJS(t, ctx, "Home opened", `document.getElementById("note-title")?.textContent === "Home"`, 10*time.Second)

	// Backlinks with the sentence that holds the link (not its whole
	// line), the link in <mark>, the rest as text (Evil.md's <img
	// onerror> shows as written); broken links marked; the embedded
	// image shown (fetched with the token).
	waitJS(t, ctx, "backlinks", `document.querySelectorAll("#backlinks li").length >= 5`, 5*time.Second)
	var back struct {
		Cafe, Alpha, Mark, Evil string
		Elements                int
	}
	run(t, ctx, "backlink contexts", 10*time.Second, chromedp.Evaluate(`(() => {
		const ctx = (id) => document.querySelector('#backlinks a[title="' + id + '"]')?.closest("li")?.querySelector(".backlink-context");
		return {
			cafe: ctx("Notes/Café Menu.md")?.textContent ?? "",
			alpha: ctx("Projects/Alpha Plan.md")?.textContent ?? "",
			mark: ctx("Notes/Café Menu.md")?.querySelector("mark")?.textContent ?? "",
			evil: ctx("Evil.md")?.textContent ?? "",
			elements: document.querySelectorAll("#backlinks .backlink-context *:not(mark)").length,
		};
	})()`, &back))
	if back.Cafe != "Back to [[Home]]." || back.Mark != "[[Home]]" {
		t.Errorf("Café Menu's backlink = %q, marked %q; want \"Back to [[Home]].\", marked \"[[Home]]\"", back.Cafe, back.Mark)
	}
	if back.Alpha != "See [[Home]] and [[Notes/Meeting Notes]]." {
		t.Errorf("Alpha Plan's backlink = %q, want its sentence \"See [[Home]] and [[Notes/Meeting Notes]].\"", back.Alpha)
	}
	if !strings.Contains(back.Evil, `<img src=x onerror=`) || back.Elements != 0 {
		t.Errorf("Evil.md's backlink = %q with %d elements besides <mark>; want its HTML as text", back.Evil, back.Elements)
	}
	waitJS(t, ctx, "broken link marked", `document.querySelector('#note-body a[href="#/missing/Missing%20Note"]')`, 5*time.Second)
	waitJS(t, ctx, "image shown", `[...document.querySelectorAll("#note-body img")].some(i => i.complete && i.naturalWidth > 0)`, 10*time.Second)
	waitJS(t, ctx, "local graph", `document.querySelector("#local-graph canvas")`, 10*time.Second)
	if n := inkedWithin(t, ctx, "#local-graph", 200, 30*time.Second); n < 200 {
		t.Errorf("local graph: %d drawn pixels, want nodes on the canvas", n)
	}
	run(t, ctx, "depth 2", 10*time.Second, chromedp.SetValue("#depth", "2", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("depth").dispatchEvent(new Event("change"))`, nil))
	var full []byte
	run(t, ctx, "note screenshot", 20*time.Second, chromedp.Sleep(700*time.Millisecond), chromedp.CaptureScreenshot(&full))
	save(t, "note.png", full)

	live(t, ctx, s, dir)
	embeds(t, ctx, s, dir)
	graphs(t, ctx, s, dir)
	t.Run("XSS", func(t *testing.T) { xss(t, ctx, s) })
	t.Run("CJK", func(t *testing.T) { cjk(t, ctx, s) })
}

// cjk opens testvault's Japanese note and checks that its title is drawn
// with real glyphs, not the empty boxes a missing font gives: 東 and 京,
// drawn in the title's font, differ from each other and from a character
// no font has. Without a CJK font on the machine (fontconfig knows none
// for Japanese) there is nothing to check: the test says so and skips.
func cjk(t *testing.T, ctx context.Context, s *server) {
	if out, err := exec.Command("fc-list", ":lang=ja", "family").Output(); err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Skipf("no CJK font installed (fc-list :lang=ja lists none, %v): install Debian's fonts-noto-cjk, as .ci/run does, to check that CJK text renders", err)
	}
	run(t, ctx, "open 東京 Trip", 10*time.Second, chromedp.Navigate(s.url+"#/note/"+url.PathEscape("Notes/東京 Trip.md")))
	waitJS(t, ctx, "東京 Trip", `document.getElementById("note-title")?.textContent === "東京 Trip"`, 10*time.Second)
	var got struct {
		Font     string `json:"font"`
		Distinct bool   `json:"distinct"`
		Tofu     bool   `json:"tofu"`
	}
	run(t, ctx, "draw the glyphs", 10*time.Second, chromedp.Evaluate(`(() => {
		const font = getComputedStyle(document.getElementById("note-title")).font;
		const c = document.createElement("canvas");
		c.width = c.height = 64;
		const g = c.getContext("2d");
		const draw = (ch) => {
			g.clearRect(0, 0, 64, 64);
			g.font = font.replace(/\d+(\.\d+)?px/, "40px");
			g.fillText(ch, 4, 48);
			return Array.from(g.getImageData(0, 0, 64, 64).data).join(",");
		};
		const to = draw("東"), kyo = draw("京"), none = draw("\u{10FFFD}");
		return { font, distinct: to !== kyo, tofu: to === none || kyo === none };
	})()`, &got))
	if !got.Distinct || got.Tofu {
		t.Errorf("東京 in the title's font (%s) is drawn as boxes: 東 and 京 differ %v, one is the missing-glyph box %v", got.Font, got.Distinct, got.Tofu)
	}
	var buf []byte
	run(t, ctx, "CJK screenshot", 20*time.Second, chromedp.CaptureScreenshot(&buf))
	save(t, "note-cjk.png", buf)
}

// live edits a file on disk while its note is open: the page shows the
// edit without a reload.
func live(t *testing.T, ctx context.Context, s *server, dir string) {
	run(t, ctx, "open Beta", 10*time.Second, chromedp.Navigate(s.url+"#/note/"+url.PathEscape("Projects/Beta.md")))
	waitJS(t, ctx, "Beta", `document.getElementById("note-title")?.textContent === "Beta"`, 10*time.Second)
	waitJS(t, ctx, "events connected", `document.getElementById("live").classList.contains("on")`, 10*time.Second)
	f, err := os.OpenFile(filepath.Join(dir, "Projects", "Beta.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, "\n\nA line written while the page was open: LIVE-MARKER.\n")
	f.Close()
	waitJS(t, ctx, "live update", `document.getElementById("note-body")?.textContent.includes("LIVE-MARKER")`, 10*time.Second)
}

// embeds writes a note that embeds a heading of Beta, the note made of
// script and a missing note, each alone on its line, and Beta inside a
// line, and opens it: the section shows in a frame, the missing note as a
// broken embed, the embed inside a line as a link within its paragraph
// (the browser keeps the paragraph whole), and the script does not run.
func embeds(t *testing.T, ctx context.Context, s *server, dir string) {
	body := "# Embeds\n\n![[Beta#Goals]]\n\n![[Evil]]\n\n![[No Such Note]]\n\nInline ![[Beta]] too.\n"
	if err := os.WriteFile(filepath.Join(dir, "Embeds.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	waitAPI(t, s, "api/note?id=Embeds.md", 15*time.Second)
	run(t, ctx, "open Embeds", 10*time.Second, chromedp.Navigate(s.url+"#/note/Embeds.md"))
	waitJS(t, ctx, "embeds shown", `document.querySelectorAll("#note-body .embed").length === 3`, 10*time.Second)
	var got struct {
		Section string `json:"section"`
		Source  string `json:"source"`
		Broken  string `json:"broken"`
		Frame   bool   `json:"frame"`
		XSS     any    `json:"xss"`
		Inline  string `json:"inline"`
	}
	run(t, ctx, "inspect embeds", 10*time.Second, chromedp.Evaluate(`(() => {
		const [beta, evil, broken] = document.querySelectorAll("#note-body .embed");
		return { section: beta.textContent, source: beta.querySelector(".embed-source a").getAttribute("href"),
			broken: broken.classList.contains("broken-embed") ? broken.textContent : "",
			frame: getComputedStyle(beta).borderTopStyle !== "none", xss: window.__xss ?? null,
			inline: document.querySelector("#note-body p .embed-inline")?.closest("p").textContent ?? "" };
	})()`, &got))
	if !strings.Contains(got.Section, "Ship the beta") || got.Source != "#/note/Projects%2FBeta.md" || !got.Frame {
		t.Errorf("Beta#Goals embed = %q from %q (framed %v), want its section with a link to Beta in a frame", got.Section, got.Source, got.Frame)
	}
	if got.Inline != "Inline Beta too." {
		t.Errorf("the paragraph with an embed inside = %q, want \"Inline Beta too.\" in one paragraph", got.Inline)
	}
	if !strings.Contains(got.Broken, "No Such Note") || got.XSS != nil {
		t.Errorf("broken embed = %q, xss %v", got.Broken, got.XSS)
	}
}

// waitAPI polls an API address with the token until it answers 200.
func waitAPI(t *testing.T, s *server, path string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		req, _ := http.NewRequest(http.MethodGet, s.url+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: no 200 within %s", path, d)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// graphs checks the global graph, a path, hubs and tags.
func graphs(t *testing.T, ctx context.Context, s *server, dir string) {
	// The global graph draws nodes (pixels on the canvas).
	run(t, ctx, "open the graph", 10*time.Second, chromedp.Navigate(s.url+"#/graph"))
	waitJS(t, ctx, "graph drawn", `window.vgGraph?.stats?.firstDrawMs > 0`, 15*time.Second)
	waitJS(t, ctx, "layout done", `window.vgGraph.stats.layoutRunning === false`, 15*time.Second)
	if n := shot(t, ctx, "#global-graph", "graph-testvault.png"); n < 500 {
		t.Errorf("global graph: %d drawn pixels, want nodes on the canvas", n)
	}
	liveGraph(t, ctx, dir)
	// The orphans toggle hides Orphan.md (and the other unlinked notes).
	click(t, ctx, "hide orphans", "#g-orphans")
	waitJS(t, ctx, "orphans hidden", `window.vgGraph.hidden.has("Orphan.md")`, 5*time.Second)

	// Find a path: drawn and listed.
	run(t, ctx, "find a path", 10*time.Second, chromedp.Navigate(s.url+"#/path?"+url.Values{"from": {"Deep Note"}, "to": {"東京 Trip"}}.Encode()))
	waitJS(t, ctx, "path listed", `document.querySelectorAll("#p-list li").length === 4`, 10*time.Second)
	if got := text(t, ctx, "#p-list"); !strings.Contains(got, "Deep Note") || !strings.Contains(got, "東京 Trip") {
		t.Errorf("path = %q", got)
	}
	if n := inkedWithin(t, ctx, "#path-graph", 200, 30*time.Second); n < 200 {
		t.Errorf("path graph: %d drawn pixels", n)
	}

	// Hubs and tags.
	run(t, ctx, "hubs", 10*time.Second, chromedp.Navigate(s.url+"#/hubs"))
	waitJS(t, ctx, "hubs listed", `document.querySelectorAll("#hubs li").length >= 10`, 10*time.Second)
	run(t, ctx, "tags", 10*time.Second, chromedp.Navigate(s.url+"#/tags"))
	waitJS(t, ctx, "tags listed", `document.querySelector('#tags a[href="#/tag/project"]')`, 10*time.Second)
	click(t, ctx, "a tag", `#tags a[href="#/tag/project"]`)
	waitJS(t, ctx, "tag notes", `document.querySelectorAll("#tag-notes li").length === 3`, 10*time.Second)
}

// liveGraph creates a note on disk that links to Beta while the global
// graph is open, renames it, then deletes it: its node and link appear
// and go in the graph drawn, without a reload of the page (a marker set
// on window survives) or of the graph (the camera, moved first, and the
// other notes stay put); the sizes follow the vault's highest PageRank
// after the change, and the renamed note keeps its place.
func liveGraph(t *testing.T, ctx context.Context, dir string) {
	var before struct {
		Order, Size int
		Camera      string
		Beta        string
	}
	const state = `({ order: vgGraph.graph.order, size: vgGraph.graph.size,
		camera: JSON.stringify(vgGraph.sigma.getCamera().getState()),
		beta: JSON.stringify([vgGraph.graph.getNodeAttribute("Projects/Beta.md", "x"), vgGraph.graph.getNodeAttribute("Projects/Beta.md", "y")]) })`
	run(t, ctx, "graph before", 10*time.Second, chromedp.Evaluate(`window.vgMarker = "kept"; window.vgGraphBefore = vgGraph;
		vgGraph.sigma.getCamera().setState({ x: 0.45, y: 0.55, ratio: 0.8, angle: 0 }); `+state, &before))
	note := filepath.Join(dir, "Newcomer.md")
	if err := os.WriteFile(note, []byte("# Newcomer\n\nA new note that links to [[Beta]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "new note in the graph", fmt.Sprintf(`vgGraph.graph.order === %d && vgGraph.graph.size === %d && vgGraph.graph.hasEdge("Newcomer.md", "Projects/Beta.md")`, before.Order+1, before.Size+1), 15*time.Second)
	var after struct {
		Order, Size int
		Camera      string
		Beta        string
	}
	run(t, ctx, "graph after", 10*time.Second, chromedp.Evaluate(state, &after))
	var same bool
	run(t, ctx, "no reload", 10*time.Second, chromedp.Evaluate(`window.vgMarker === "kept" && window.vgGraphBefore === vgGraph && vgGraph.stats.patches >= 1`, &same))
	if !same || after.Camera != before.Camera || after.Beta != before.Beta {
		t.Errorf("the graph was loaded anew: same page and graph %v, camera %s then %s, Beta at %s then %s", same, before.Camera, after.Camera, before.Beta, after.Beta)
	}
	waitJS(t, ctx, "counts shown", fmt.Sprintf(`document.getElementById("g-stats").textContent === "%d notes · %d links"`, before.Order+1, before.Size+1), 5*time.Second)
	var scale struct{ Drawn, Vault float64 }
	run(t, ctx, "size scale", 10*time.Second, chromedp.Evaluate(`(async () => {
		const res = await fetch("/api/hubs?metric=pagerank&limit=1", { headers: { Authorization: "Bearer " + sessionStorage.getItem("vg-token") } });
		return { drawn: vgGraph.maxPR, vault: (await res.json()).hubs[0].score };
	})()`, &scale, awaitPromise))
	if scale.Drawn != scale.Vault {
		t.Errorf("after a new note the sizes scale to PageRank %v, want the vault's highest now, %v", scale.Drawn, scale.Vault)
	}
	renamed := filepath.Join(dir, "Newcomer Renamed.md")
	const place = `JSON.stringify([vgGraph.graph.getNodeAttribute(%q, "x"), vgGraph.graph.getNodeAttribute(%q, "y")])`
	var was, is string
	run(t, ctx, "place before the rename", 10*time.Second, chromedp.Evaluate(fmt.Sprintf(place, "Newcomer.md", "Newcomer.md"), &was))
	if err := os.Rename(note, renamed); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "renamed in the graph", `vgGraph.graph.hasEdge("Newcomer Renamed.md", "Projects/Beta.md") && !vgGraph.graph.hasNode("Newcomer.md")`, 15*time.Second)
	run(t, ctx, "place after the rename", 10*time.Second, chromedp.Evaluate(fmt.Sprintf(place, "Newcomer Renamed.md", "Newcomer Renamed.md"), &is))
	if is != was {
		t.Errorf("the renamed note moved from %s to %s, want it kept in place", was, is)
	}
	if err := os.Remove(renamed); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "note gone from the graph", fmt.Sprintf(`vgGraph.graph.order === %d && vgGraph.graph.size === %d && !vgGraph.graph.hasNode("Newcomer.md") && !vgGraph.graph.hasNode("Newcomer Renamed.md") && window.vgMarker === "kept"`, before.Order, before.Size), 15*time.Second)
}

// xss opens, searches and draws a note made of script: nothing runs.
func xss(t *testing.T, c context.Context, s *server) {
	run(t, c, "open the evil note", 10*time.Second, chromedp.Navigate(s.url+"#/note/Evil.md"))
	waitJS(t, c, "evil note", `document.getElementById("note-title")?.textContent.includes("<script>")`, 10*time.Second)
	run(t, c, "poke it", 10*time.Second,
		chromedp.Evaluate(`document.querySelectorAll("#note-body *").forEach(e => { e.dispatchEvent(new MouseEvent("mouseover", {bubbles: true})); e.dispatchEvent(new MouseEvent("click", {bubbles: true})); })`, nil),
		chromedp.Sleep(300*time.Millisecond))
	run(t, c, "search it", 10*time.Second, chromedp.Navigate(s.url+"#/?q=evilword"))
	waitJS(t, c, "evil found", `document.querySelectorAll("#results li").length >= 1`, 10*time.Second)
	run(t, c, "draw it", 10*time.Second, chromedp.Navigate(s.url+"#/graph"))
	waitJS(t, c, "graph drawn", `window.vgGraph?.stats?.firstDrawMs > 0`, 15*time.Second)
	run(t, c, "open it again", 10*time.Second, chromedp.Navigate(s.url+"#/note/Evil.md"))
	waitJS(t, c, "evil note", `document.getElementById("note-body")`, 10*time.Second)
	var got struct {
		XSS      any  `json:"xss"`
		Scripts  int  `json:"scripts"`
		Handlers int  `json:"handlers"`
		JSLinks  int  `json:"jsLinks"`
		Frames   int  `json:"frames"`
		Title    bool `json:"title"`
	}
	run(t, c, "inspect", 10*time.Second, chromedp.Evaluate(`({
		xss: window.__xss ?? null,
		scripts: document.querySelectorAll("#note-body script, #view script").length,
		handlers: [...document.querySelectorAll("#view *")].filter(e => [...e.attributes].some(a => a.name.startsWith("on"))).length,
		jsLinks: [...document.querySelectorAll("#view [href], #view [src], #view [action]")].filter(e => /^\s*javascript:/i.test(e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action") || "")).length,
		frames: document.querySelectorAll("#view iframe, #view object, #view embed").length,
		title: document.getElementById("note-title").textContent.startsWith("<script>"),
	})`, &got))
	if got.XSS != nil || got.Scripts != 0 || got.Handlers != 0 || got.JSLinks != 0 || got.Frames != 0 {
		t.Errorf("the evil note ran or kept something: %+v", got)
	}
	if !got.Title {
		t.Errorf("the title should show as text (<script>...), got %+v", got)
	}
}

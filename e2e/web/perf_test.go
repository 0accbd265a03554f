//go:build e2e

package webe2e

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The global graph of a 10,000-note vault must stay interactive in
// software rendering (SwiftShader): pan and zoom at MinFPS frames a second
// or more, first drawn within MaxFirstDraw of its data arriving. Those
// two are timings, so they are checked only when $E2E_PERF_LIMITS is 1
// (make e2e-perf, on a quiet machine); make e2e runs the same test for
// everything else and reports the timings.
const (
	MinFPS       = 30
	MaxFirstDraw = 2 * time.Second
	bigVault     = 10000
)

// TestWebGraph10k drives the web app on a generated 10,000-note vault:
// the global graph drawn (pixels), moved in place by the mouse and the
// wheel, never fully drawn while a button is held, a hover label and a
// click that opens a note; that note's page, a search for it, and a path
// from it. It reports the first drawing's time and the frame rates
// (e2e/out/perf-10k.txt), and checks them only with $E2E_PERF_LIMITS=1.
// Every wait is for the page's own state, never a fixed sleep, so that a
// loaded machine is slower but does not fail it.
func TestWebGraph10k(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	gen := exec.Command(binary(t), "gen", dir, "--notes", fmt.Sprint(bigVault), "--seed", "1")
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	// No embedder: its background work would compete with the browser
	// for the CPU while the frame rate is measured.
	s := serve(t, dir, 5*time.Minute, "--embed", "none")
	ctx := browser(t)
	run(t, ctx, "open the graph", time.Minute, chromedp.Navigate(s.url+"#token="+token))
	run(t, ctx, "go to the graph", time.Minute, chromedp.Navigate(s.url+"#/graph"))
	waitJS(t, ctx, "graph drawn", `window.vgGraph?.stats?.firstDrawMs > 0`, settleWait)
	var st struct {
		Nodes       int     `json:"nodes"`
		Edges       int     `json:"edges"`
		FetchMs     float64 `json:"fetchMs"`
		GraphMs     float64 `json:"graphMs"`
		SigmaMs     float64 `json:"sigmaMs"`
		EdgesMs     float64 `json:"edgesMs"`
		FirstDrawMs float64 `json:"firstDrawMs"`
	}
	run(t, ctx, "stats", time.Minute, chromedp.Evaluate(`window.vgGraph.stats`, &st))
	waitJS(t, ctx, "links added", `window.vgGraph.stats.edges > 0`, settleWait)
	during := panZoom(t, ctx, "frame rate during the layout", 3*time.Second)
	t.Logf("during the layout: %+v", during)
	waitJS(t, ctx, "layout done", `window.vgGraph.stats.layoutRunning === false`, settleWait)
	if n := fittedInk(t, ctx, "10k graph", "graph-10k.png"); n < minGraphInk {
		t.Errorf("10k graph: %d drawn pixels, want nodes on the canvas", n)
	}
	run(t, ctx, "stats", time.Minute, chromedp.Evaluate(`window.vgGraph.stats`, &st))
	var base struct {
		FPS float64 `json:"fps"`
	}
	run(t, ctx, "the machine's own frame rate", time.Minute, chromedp.Evaluate(baselineJS, &base, awaitPromise))
	after := panZoom(t, ctx, "frame rate", 5*time.Second)
	if n := fittedInk(t, ctx, "10k graph after pan/zoom", "graph-10k-moved.png"); n < minGraphInk {
		t.Errorf("10k graph after pan/zoom: %d drawn pixels, want nodes on the canvas", n)
	}
	slowDrag, slowWheel := slowPanZoom(t, ctx)
	var off float64
	run(t, ctx, "the moved picture", time.Minute, chromedp.Evaluate(glideJS, &off))
	if off > 1 {
		t.Errorf("a note shown %.1f px away from where the camera puts it while moving, want under 1 px", off)
	}
	report := fmt.Sprintf("global graph, %d notes, %d links: data fetched in %.0f ms; first drawing (the notes) %.0f ms after the data arrived, the links %.0f ms later; pan/zoom (mouse drag and wheel) %.1f fps, %.1f of them showing the view moved (%.1f and %.1f fps while the layout runs); an empty WebGL canvas of that size: %.1f fps\n",
		st.Nodes, st.Edges, st.FetchMs, st.FirstDrawMs, st.EdgesMs, after.FPS, after.MovedFPS, during.FPS, during.MovedFPS, base.FPS)
	report += fmt.Sprintf("slow input (events 200 to 300 ms apart): held drag %.1f fps presented, longest gap %.0f ms, %d full drawings while held; wheel %.1f fps, longest gap %.0f ms, %d full drawings (longest pause between wheel events in the page %.0f ms)\n",
		slowDrag.FPS, slowDrag.MaxGapMs, slowDrag.HeldRenders, slowWheel.FPS, slowWheel.MaxGapMs, slowWheel.Renders, slowWheel.MaxInputGapMs)
	t.Log(report)
	save(t, "perf-10k.txt", []byte(report))
	if st.Nodes != bigVault {
		t.Errorf("graph has %d notes, want %d", st.Nodes, bigVault)
	}
	id := hoverAndOpen(t, ctx)
	title := bigNotePage(t, ctx, id)
	bigSearch(t, ctx, s, id, title)
	run(t, ctx, "back to the graph", time.Minute, chromedp.Navigate(s.url+"#/graph"))
	waitJS(t, ctx, "graph loaded again", `window.vgGraph?.stats?.edges > 0`, settleWait)
	bigPath(t, ctx, s, id)
	if os.Getenv("E2E_PERF_LIMITS") != "1" {
		t.Logf("timings reported, not checked (E2E_PERF_LIMITS=1, as make e2e-perf sets, checks %d fps and %s to the first drawing)", MinFPS, MaxFirstDraw)
		return
	}
	if after.FPS < MinFPS {
		t.Errorf("pan/zoom at %.1f fps, want at least %d", after.FPS, MinFPS)
	}
	if time.Duration(st.FirstDrawMs*float64(time.Millisecond)) > MaxFirstDraw {
		t.Errorf("first drawing %.0f ms after the data, want within %s", st.FirstDrawMs, MaxFirstDraw)
	}
}

// fps is the answer of the function GlobalGraph.countFrames returns:
// frames presented a second, those that showed the view moved, the longest
// time between two frames, and the graph's full drawings (all, and those
// while a mouse button was held).
type fps struct {
	FPS         float64 `json:"fps"`
	MovedFPS    float64 `json:"movedFps"`
	Frames      int     `json:"frames"`
	Moved       int     `json:"moved"`
	MaxGapMs    float64 `json:"maxGapMs"`
	Renders     int     `json:"renders"`
	HeldRenders int     `json:"heldRenders"`
	// MaxInputGapMs is the longest pause between two input events as the
	// page saw them (measured by the slow-input scenario).
	MaxInputGapMs float64 `json:"-"`
}

// panZoom drags the graph in circles with the mouse, then zooms in and out
// with the wheel, through the DevTools protocol (the input a person gives)
// for d, and returns the frames the page presented meanwhile.
func panZoom(t *testing.T, ctx context.Context, what string, d time.Duration) fps {
	t.Helper()
	var box []float64
	run(t, ctx, what+": graph box", 10*time.Second, chromedp.Evaluate(
		`(() => { const r = document.getElementById("global-graph").getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`, &box))
	cx, cy := box[0]+box[2]/2, box[1]+box[3]/2
	run(t, ctx, what+": start", 10*time.Second, chromedp.Evaluate(`window.vgCamera = vgGraph.sigma.getCamera().getState(); window.vgStop = window.vgGraph.countFrames(); 0`, nil))
	start := time.Now()
	drag := d / 2
	act := func(a chromedp.Action) { run(t, ctx, what, time.Minute, a) }
	act(input.DispatchMouseEvent(input.MousePressed, cx, cy).WithButton(input.Left).WithClickCount(1))
	for el := time.Since(start); el < drag; el = time.Since(start) {
		a := el.Seconds() * 4
		act(input.DispatchMouseEvent(input.MouseMoved, cx+80*math.Sin(a), cy+60*math.Sin(a)*math.Cos(a)).WithButton(input.Left).WithButtons(1))
		time.Sleep(10 * time.Millisecond)
	}
	act(input.DispatchMouseEvent(input.MouseReleased, cx, cy).WithButton(input.Left).WithClickCount(1))
	for i := 0; time.Since(start) < d; i++ {
		dy := 60.0 // out, twice, then in, twice
		if i%4 >= 2 {
			dy = -60
		}
		act(input.DispatchMouseEvent(input.MouseWheel, cx+40, cy+30).WithDeltaY(dy))
		time.Sleep(30 * time.Millisecond)
	}
	var f fps
	run(t, ctx, what+": stop", 10*time.Second, chromedp.Evaluate(`window.vgStop()`, &f))
	// Back to the camera it started from: the wheel's steps in and out do
	// not cancel out exactly, and the checks after want the graph in view.
	// The last wheel step's zoom animation ends first (else it carries
	// the camera on past the state set).
	waitJS(t, ctx, what+": camera still", `!vgGraph.sigma.getCamera().isAnimated()`, settleWait)
	run(t, ctx, what+": camera back", 10*time.Second, chromedp.Evaluate(`vgGraph.sigma.getCamera().setState(vgCamera); 0`, nil))
	t.Logf("%s: %+v", what, f)
	return f
}

// slowGaps are the pauses between the events of the slow-input scenario:
// input from a loaded machine or a slow trackpad, each pause longer than
// the rest the moved picture waits for after a release.
var slowGaps = []time.Duration{200 * time.Millisecond, 250 * time.Millisecond, 300 * time.Millisecond}

// slowPanZoom drags the graph with the button held and mouse moves 200 to
// 300 ms apart, then, once the graph is drawn again, turns the wheel with
// steps as far apart, and returns the frames presented during each. A
// full drawing of the graph while the button is held fails the test (it
// stalls the drag), and so does a graph not drawn again once the gesture
// has ended.
func slowPanZoom(t *testing.T, ctx context.Context) (drag, wheel fps) {
	t.Helper()
	var box []float64
	run(t, ctx, "slow input: graph box", 10*time.Second, chromedp.Evaluate(
		`(() => { const r = document.getElementById("global-graph").getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`, &box))
	cx, cy := box[0]+box[2]/2, box[1]+box[3]/2
	act := func(a chromedp.Action) { run(t, ctx, "slow input", time.Minute, a) }
	count := func() { act(chromedp.Evaluate(`window.vgStop = window.vgGraph.countFrames(); 0`, nil)) }
	stop := func(f *fps) { act(chromedp.Evaluate(`window.vgStop()`, f)) }
	// The camera comes back where it was at the end, for the checks after.
	act(chromedp.Evaluate(`window.vgCamera = vgGraph.sigma.getCamera().getState(); 0`, nil))
	count()
	act(input.DispatchMouseEvent(input.MousePressed, cx, cy).WithButton(input.Left).WithClickCount(1))
	for i := range 14 {
		time.Sleep(slowGaps[i%len(slowGaps)])
		a := float64(i) * 0.6
		act(input.DispatchMouseEvent(input.MouseMoved, cx+90*math.Sin(a), cy+50*math.Cos(a)).WithButton(input.Left).WithButtons(1))
	}
	time.Sleep(slowGaps[0])
	stop(&drag)
	act(input.DispatchMouseEvent(input.MouseReleased, cx, cy).WithButton(input.Left).WithClickCount(1))
	waitJS(t, ctx, "drawn again once the drag ended", drawnAgain, settleWait)
	// The pauses between wheel events as the page sees them (a loaded
	// machine delays them further).
	act(chromedp.Evaluate(`window.vgWheels = []; document.getElementById("global-graph").addEventListener("wheel", () => vgWheels.push(performance.now()), { capture: true }); 0`, nil))
	count()
	for i := range 10 {
		dy := 60.0
		if i%4 >= 2 {
			dy = -60
		}
		act(input.DispatchMouseEvent(input.MouseWheel, cx+40, cy+30).WithDeltaY(dy))
		time.Sleep(slowGaps[i%len(slowGaps)])
	}
	stop(&wheel)
	act(chromedp.Evaluate(`vgWheels.slice(1).reduce((m, t, i) => Math.max(m, t - vgWheels[i]), 0)`, &wheel.MaxInputGapMs))
	t.Logf("slow input: held drag %+v; wheel %+v", drag, wheel)
	if drag.HeldRenders > 0 {
		t.Errorf("slow drag: %d full drawings of the graph while the button was held, want none (each stalls the drag)", drag.HeldRenders)
	}
	if drag.Moved == 0 {
		t.Errorf("slow drag: no frame showed the view moved (%+v)", drag)
	}
	waitJS(t, ctx, "drawn again once the wheel stopped", `vgGraph.settled()`, settleWait)
	act(chromedp.Evaluate(`vgGraph.sigma.getCamera().setState(vgCamera); 0`, nil))
	waitJS(t, ctx, "drawn again where it was", `vgGraph.settled()`, settleWait)
	return drag, wheel
}

// drawnAgain is true once the graph is drawn at the camera shown (the
// moved picture is hidden).
const drawnAgain = `document.querySelector("#global-graph .sigma-glide").style.display === "none"`

// awaitPromise makes Evaluate wait for the promise the expression returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// hoverAndOpen points the mouse at the largest note once the graph is
// drawn and at rest (the cursor turns to a pointer and its label shows),
// then clicks it (the note opens), and returns its ID; a note that
// another drawn over it hides is passed over for the next.
func hoverAndOpen(t *testing.T, ctx context.Context) string {
	t.Helper()
	waitJS(t, ctx, "graph at rest", `vgGraph.settled()`, settleWait)
	var n struct {
		ID string  `json:"id"`
		X  float64 `json:"x"`
		Y  float64 `json:"y"`
	}
	run(t, ctx, "the largest note", 10*time.Second, chromedp.Evaluate(`(() => {
		const s = window.vgGraph.sigma, g = s.getGraph(), r = s.getContainer().getBoundingClientRect();
		const at = (id) => s.graphToViewport(g.getNodeAttributes(id));
		// The largest of the notes no other note covers at its centre.
		const id = g.nodes().sort((a, b) => g.getNodeAttribute(b, "size") - g.getNodeAttribute(a, "size"))
			.slice(0, 100).find((k) => s.getNodeAtPosition(at(k)) === k) ?? g.nodes()[0];
		const p = at(id);
		return { id, x: r.x + p.x, y: r.y + p.y };
	})()`, &n))
	// The mouse comes to the note as a person's does, in a few moves.
	for _, d := range []float64{12, 6, 0} {
		run(t, ctx, "hover", 10*time.Second, input.DispatchMouseEvent(input.MouseMoved, n.X+d, n.Y+d))
	}
	waitJS(t, ctx, "pointer over the note", `window.vgGraph.sigma.getContainer().style.cursor === "pointer"`, time.Minute)
	// The label: pixels on sigma's hover layer, which only the hovered
	// note draws on.
	waitJS(t, ctx, "hover label drawn", `(() => {
		const c = vgGraph.sigma.getCanvases().hovers, d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
		return n > 50;
	})()`, time.Minute)
	run(t, ctx, "click", time.Minute, chromedp.MouseClickXY(n.X, n.Y))
	waitJS(t, ctx, "note opened", fmt.Sprintf(`decodeURIComponent(location.hash).includes(%q)`, n.ID), settleWait)
	return n.ID
}

// glideJS moves the camera of a still graph and returns how far (in
// pixels) the moved picture shows a note from where a drawing with the new
// camera puts it.
const glideJS = `(() => {
	const s = window.vgGraph.sigma, cam = s.getCamera(), g = s.getGraph();
	s.render();
	const a = cam.getState(), at = g.getNodeAttributes(g.nodes()[0]);
	const p0 = s.graphToViewport(at);
	const b = { x: a.x + 0.1, y: a.y - 0.05, ratio: a.ratio * 0.7, angle: 0 };
	cam.setState(b);
	const m = new DOMMatrix(getComputedStyle(document.querySelector("#global-graph .sigma-glide")).transform);
	const { width: w, height: h } = s.getDimensions();
	const q = m.transformPoint(new DOMPoint(p0.x - w / 2, p0.y - h / 2));
	const p1 = s.graphToViewport(at, { cameraState: b });
	cam.setState(a);
	return Math.hypot(q.x + w / 2 - p1.x, q.y + h / 2 - p1.y);
})()`

// baselineJS measures how many frames a second this browser, on this
// machine, gives a WebGL canvas of the graph's size that only clears
// itself: the ceiling of any drawing (on a shared machine, far below the
// display's rate).
const baselineJS = `(async () => {
	const box = document.getElementById("global-graph");
	const c = document.createElement("canvas");
	c.width = box.clientWidth; c.height = box.clientHeight;
	c.style.cssText = "position:absolute;left:0;top:0;opacity:0.01";
	box.append(c);
	const gl = c.getContext("webgl");
	let frames = 0;
	const t0 = performance.now();
	await new Promise((r) => {
		const f = () => {
			frames++;
			gl.clearColor(Math.random(), 0.5, 0.5, 1);
			gl.clear(gl.COLOR_BUFFER_BIT);
			if (performance.now() - t0 < 3000) requestAnimationFrame(f); else r();
		};
		requestAnimationFrame(f);
	});
	c.remove();
	return { fps: frames / ((performance.now() - t0) / 1000) };
})()`

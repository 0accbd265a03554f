// Graph drawing with sigma.js (WebGL) over graphology, laid out by
// ForceAtlas2: the local graph of a note, a path, and the whole vault.
const { Graph, Sigma, FA2Layout, forceAtlas2, EdgeLineProgram, NodePointProgram } = window.VG;

// Above this many links the global graph draws thin lines and point
// nodes, and moves its last picture while the camera moves (glide): what
// keeps 10,000 notes interactive in software rendering.
const LARGE = 5000;

// REST is how long the camera stays still after a drag is released before
// the moved picture is drawn again; WHEEL_REST the same after a wheel step
// at least (a wheel gesture has no end to wait for: its steps may come
// 300 ms apart), longer when the steps come slower or a drawing is slow.
const REST = 150;
const WHEEL_REST = 500;

// RENAME_MS is how long a note removed from the global graph is
// remembered, so that a note created meanwhile that it was before a
// rename (a deletion and a creation, maybe in two changes) takes its
// place.
const RENAME_MS = 3000;

// RESCALE is how far (a share) the vault's highest PageRank moves before
// every note is sized again (a size follows its square root: 1% at most).
const RESCALE = 0.02;

const PALETTE = ["#5b4bdb", "#e67e22", "#16a085", "#c0392b", "#2980b9", "#8e44ad", "#d4a017",
  "#27ae60", "#e84393", "#7f8c8d", "#00a8a8", "#a0522d"];
const OTHER = "#b8bcc8";
const EDGE = "#d5d8e2";

function newSigma(graph, box, settings = {}) {
  return new Sigma(graph, box, {
    defaultEdgeColor: EDGE, labelColor: { color: "#1d2330" }, labelFont: "system-ui, sans-serif",
    labelSize: 12, zIndex: true, allowInvalidContainer: true, ...settings,
  });
}

function onClick(sigma, open) {
  sigma.on("clickNode", ({ node }) => open(node));
  sigma.on("enterNode", () => { sigma.getContainer().style.cursor = "pointer"; });
  sigma.on("leaveNode", () => { sigma.getContainer().style.cursor = ""; });
}

// drawLocal draws the notes around one note (the API's local graph).
export function drawLocal(box, data, open) {
  const g = new Graph({ type: "directed" });
  const n = data.nodes.length;
  data.nodes.forEach((x, i) => {
    const a = (2 * Math.PI * i) / Math.max(n, 1);
    const r = x.depth === 0 ? 0 : x.depth * 10;
    g.addNode(x.id, {
      label: x.title, x: r * Math.cos(a), y: r * Math.sin(a), size: x.depth === 0 ? 10 : x.depth === 1 ? 6 : 4,
      color: x.depth === 0 ? "#e67e22" : x.depth === 1 ? PALETTE[0] : "#9d94e8", zIndex: 2 - x.depth,
    });
  });
  for (const [s, t] of data.edges) {
    const a = data.nodes[s].id, b = data.nodes[t].id;
    if (a !== b) g.mergeEdge(a, b, { size: 1 });
  }
  if (n > 2) forceAtlas2.assign(g, { iterations: 150, settings: { ...forceAtlas2.inferSettings(g), gravity: 1 } });
  const sigma = newSigma(g, box, { renderEdgeLabels: false, labelRenderedSizeThreshold: n > 60 ? 6 : 0 });
  onClick(sigma, open);
  return sigma;
}

// drawPath draws a path of notes from left to right.
export function drawPath(box, path, open) {
  const g = new Graph({ type: "undirected" });
  path.forEach((x, i) => g.addNode(x.id, {
    label: x.title, x: i * 10, y: (i % 2) * 3, size: i === 0 || i === path.length - 1 ? 10 : 7,
    color: i === 0 || i === path.length - 1 ? "#e67e22" : PALETTE[0],
  }));
  for (let i = 1; i < path.length; i++) g.mergeEdge(path[i - 1].id, path[i].id, { size: 3, color: "#9d94e8" });
  const sigma = newSigma(g, box, { labelRenderedSizeThreshold: 0 });
  onClick(sigma, open);
  return sigma;
}

const topFolder = (id) => (id.includes("/") ? id.slice(0, id.indexOf("/")) : "(root)");

// GlobalGraph is the whole vault: nodes sized by PageRank, coloured by top
// folder or first tag, filtered by tag, folder and orphans.
export class GlobalGraph {
  constructor(box, open) {
    this.box = box;
    this.open = open;
    this.graph = new Graph({ type: "directed" });
    this.hidden = null; // Set of hidden node IDs, or null
    this.stats = {};
    this.gone = new Map(); // notes removed lately: id -> {x, y, links, t}
  }

  // setData replaces the graph, keeping the positions of notes it had.
  setData(data, fetchMs) {
    const t0 = performance.now();
    const old = this.graph;
    const g = new Graph({ type: "directed" });
    this.maxPR = 1e-9;
    for (const x of data.nodes) this.maxPR = Math.max(this.maxPR, x.pagerank);
    this.sizedPR = this.maxPR; // the scale every note is sized at
    const big = (this.big = data.nodes.length > 2000);
    const groups = new Map();
    data.nodes.forEach((x) => { const k = topFolder(x.id); groups.set(k, (groups.get(k) || 0) + 1); });
    const centres = seedCentres(groups);
    const seen = new Map();
    for (const x of data.nodes) {
      const k = topFolder(x.id);
      const i = seen.get(k) || 0;
      seen.set(k, i + 1);
      const c = centres.get(k);
      // A sunflower spiral per folder: a readable picture at once, which
      // the layout then refines.
      const r = Math.sqrt(i + 0.5) * 1.2, a = i * 2.39996;
      const keep = old.hasNode(x.id) ? old.getNodeAttributes(x.id) : null;
      g.addNode(x.id, {
        ...this.attrs(x), x: keep ? keep.x : c.x + r * Math.cos(a), y: keep ? keep.y : c.y + r * Math.sin(a),
      });
    }
    const fresh = data.nodes.filter((x) => !old.hasNode(x.id)).length;
    const large = data.edges.length > LARGE;
    // The links go into the graph sigma draws (small graphs), or into a
    // copy that then replaces it in one go (large graphs): sigma then
    // processes the graph once instead of once per added link.
    const addEdges = () => {
      const t = performance.now();
      const target = large ? g.copy() : g;
      for (const [s, t2] of data.edges) {
        const a = data.nodes[s].id, b = data.nodes[t2].id;
        if (a !== b) target.mergeEdge(a, b);
      }
      if (large) {
        this.graph = target;
        this.sigma.setGraph(target);
      }
      this.stats.edges = target.size;
      this.stats.edgesMs = performance.now() - t;
      if (fresh > 0) this.layout(fresh === target.order ? (big ? 8000 : 2500) : 1000);
    };
    this.graph = g;
    const t1 = performance.now();
    this.render(large);
    this.stats = { nodes: g.order, edges: 0, fetchMs, graphMs: t1 - t0, sigmaMs: performance.now() - t1 };
    // A large graph shows its notes first and gets its links a frame
    // later: the first picture comes sooner, the links follow.
    this.sigma.once("afterRender", () => {
      this.stats.firstDrawMs = performance.now() - t0;
      if (large) requestAnimationFrame(() => requestAnimationFrame(addEdges));
    });
    if (!large) addEdges();
  }

  // attrs are the attributes of note x (as the API gives it) but its
  // place.
  attrs(x) {
    return {
      label: x.title, pagerank: x.pagerank, size: this.sizeOf(x.pagerank),
      folder: topFolder(x.id), tag: x.tags[0] || "(none)", orphan: x.inDegree + x.outDegree === 0,
    };
  }

  // sizeOf is the size of a note of PageRank pr: its share of the
  // highest PageRank of the vault (maxPR).
  sizeOf(pr) {
    const big = this.big;
    return (big ? 1.5 : 3) + (big ? 14 : 16) * Math.sqrt(Math.min(pr / this.maxPR, 1));
  }

  // rescale sets the highest PageRank of the vault to maxPR after a
  // change (the notes the change touches are sized against it), and sizes
  // every note again when the scale every note has moved by more than
  // RESCALE: on a large graph that makes sigma process every note again,
  // for a change in size too small to see. The notes the change did not
  // touch keep their PageRank of before: it moves little.
  rescale(maxPR) {
    if (!(maxPR > 0)) return;
    this.maxPR = maxPR;
    if (Math.abs(maxPR / this.sizedPR - 1) <= RESCALE) return;
    this.sizedPR = maxPR;
    this.graph.updateEachNodeAttributes((n, a) => { a.size = this.sizeOf(a.pagerank); return a; }, { attributes: ["size"] });
  }

  // patch brings the graph up to date after a change ({added, removed,
  // edited} note IDs) in place, without loading it anew: around(ids) (the
  // API's /api/around) gives the notes of the change and those that link
  // to them, each with the notes it links to, and the ids gone; the notes
  // that linked to a removed note are asked about too. Notes gone are
  // dropped, new ones placed beside a note they link to or from, and the
  // links of every note of the answer replaced. The camera and the other
  // notes' places stay; a renamed note keeps its place (renamed). Sizes
  // follow the vault's highest PageRank now (the answer's maxPagerank).
  async patch(change, around) {
    const g = this.graph;
    const ids = new Set([...change.added, ...change.edited, ...change.removed]);
    for (const id of change.removed) if (g.hasNode(id)) g.inNeighbors(id).forEach((n) => ids.add(n));
    const res = await around([...ids]);
    if (g !== this.graph) return; // drawn anew meanwhile
    const touched = new Set();
    const now = performance.now();
    for (const [id, x] of this.gone) if (now - x.t > RENAME_MS) this.gone.delete(id);
    for (const id of res.missing) {
      if (!g.hasNode(id)) continue;
      const { x, y } = g.getNodeAttributes(id);
      this.gone.set(id, { x, y, links: linkKey(g.outNeighbors(id)), t: now });
      g.neighbors(id).forEach((n) => touched.add(n));
      g.dropNode(id);
    }
    this.rescale(res.maxPagerank);
    const fresh = res.notes.filter((x) => !g.hasNode(x.id)).length;
    for (const x of res.notes) {
      if (g.hasNode(x.id)) g.mergeNodeAttributes(x.id, this.attrs(x));
      else g.addNode(x.id, { ...this.attrs(x), ...(this.renamed(x, fresh) || spot(g, x, res.notes)) });
    }
    for (const x of res.notes) {
      const want = new Set(x.out.filter((t) => t !== x.id && g.hasNode(t)));
      for (const t of g.outNeighbors(x.id)) if (!want.has(t)) { g.dropEdge(x.id, t); touched.add(t); }
      for (const t of want) if (!g.hasEdge(x.id, t)) { g.addEdge(x.id, t); touched.add(t); }
    }
    for (const id of touched) if (g.hasNode(id)) g.setNodeAttribute(id, "orphan", g.degree(id) === 0);
    Object.assign(this.stats, { nodes: g.order, edges: g.size, patches: (this.stats.patches || 0) + 1 });
  }

  // renamed is the place of the note that new note x was before a
  // rename (a file renamed or moved arrives as a deletion and a creation),
  // or null: x's own if it was removed lately (written anew), else that of
  // the note removed lately if it is the only one and x the only new note
  // of the answer (fresh counts them), else that of the one removed note
  // that linked to the same notes x links to.
  renamed(x, fresh) {
    let from = null;
    if (this.gone.has(x.id)) {
      from = x.id;
    } else if (this.gone.size === 1 && fresh === 1) {
      from = this.gone.keys().next().value;
    } else {
      const want = linkKey(x.out.filter((t) => t !== x.id));
      const same = [...this.gone].filter(([, v]) => want && v.links === want);
      if (same.length === 1) from = same[0][0];
    }
    if (from === null) return null;
    const { x: px, y: py } = this.gone.get(from);
    this.gone.delete(from);
    return { x: px, y: py };
  }

  // settled tells the browser tests that the graph is drawn, links
  // included, at the camera shown, and that nothing will draw it again
  // unasked: no layout running, no drawing waiting (sigma's renderFrame is
  // the frame it asked for), no moved picture shown, no camera animation.
  settled() {
    const s = this.sigma;
    return !!s && this.stats.edgesMs !== undefined && !this.fa2 && !s.renderFrame &&
      !s.getCamera().isAnimated() && (this.glideCounts?.atRest() ?? true);
  }

  render(large) {
    this.kill();
    this.large = large;
    this.sigma = newSigma(this.graph, this.box, {
      zIndex: !large, labelRenderedSizeThreshold: large ? 12 : this.graph.order > 300 ? 5 : 0,
      labelDensity: large ? 0.3 : this.graph.order > 300 ? 1 : 10,
      ...(large ? { defaultNodeType: "point", nodeProgramClasses: { point: NodePointProgram },
        defaultEdgeType: "thin", edgeProgramClasses: { thin: EdgeLineProgram } } : {}),
      nodeReducer: (node, attr) => {
        const res = { ...attr, color: this.colours?.get(attr[this.colorBy]) || OTHER };
        if (this.hidden?.has(node)) res.hidden = true;
        return res;
      },
    });
    onClick(this.sigma, this.open);
    this.glideCounts = large ? glide(this.sigma) : null;
  }

  // layout runs ForceAtlas2 in a worker for ms milliseconds. The worker
  // moves a copy of the graph; the drawing takes its positions at the end
  // (for a small graph also every half second), so that the camera of a
  // large graph stays smooth while it runs: each change of positions
  // makes sigma process the whole graph again.
  layout(ms) {
    this.stopLayout();
    const work = this.graph.copy();
    // Strong gravity keeps the unlinked notes near the rest instead of
    // drifting to the edges.
    const settings = { ...forceAtlas2.inferSettings(work), barnesHutOptimize: work.order > 1000, strongGravityMode: true, gravity: 1 };
    this.fa2 = new FA2Layout(work, { settings });
    this.fa2.start();
    this.stats.layoutRunning = true;
    const apply = () => {
      this.graph.updateEachNodeAttributes((n, a) => {
        if (work.hasNode(n)) { a.x = work.getNodeAttribute(n, "x"); a.y = work.getNodeAttribute(n, "y"); }
        return a;
      }, { attributes: ["x", "y"] });
    };
    if (!this.large) this.applyTimer = setInterval(apply, 500);
    this.fa2Timer = setTimeout(() => { this.stopLayout(); apply(); this.stats.layoutRunning = false; }, ms);
  }

  stopLayout() {
    clearInterval(this.applyTimer);
    clearTimeout(this.fa2Timer);
    this.fa2?.kill();
    this.fa2 = null;
  }

  // filter hides the notes outside the tag and folder chosen (and orphans
  // unless asked), colours the rest and fills the legend.
  async filter({ tag, folder, orphans, colorBy }, legend) {
    let tagged = null;
    if (tag) {
      const res = await fetchTag(tag);
      tagged = new Set(res);
    }
    const prefix = folder ? folder.toLowerCase() + "/" : "";
    const hidden = new Set();
    const counts = new Map();
    this.colorBy = colorBy;
    this.graph.forEachNode((id, a) => {
      if ((tagged && !tagged.has(id)) || (prefix && !id.toLowerCase().startsWith(prefix)) || (!orphans && a.orphan)) hidden.add(id);
      else counts.set(a[colorBy], (counts.get(a[colorBy]) || 0) + 1);
    });
    const top = [...counts.entries()].sort((x, y) => y[1] - x[1]).slice(0, PALETTE.length);
    this.colours = new Map(top.map(([k], i) => [k, PALETTE[i]]));
    this.hidden = hidden;
    legend.replaceChildren(...top.map(([k, c]) => {
      const s = document.createElement("span");
      const dot = document.createElement("i");
      dot.style.background = this.colours.get(k);
      s.append(dot, `${k} (${c})`);
      return s;
    }));
    this.sigma?.refresh();
  }

  // countFrames counts, until the function it returns is called, the
  // frames the page presents, how many of them showed the view moved (the
  // camera differs from the frame before), the longest time between two
  // of them, and the graph's full drawings meanwhile (all, and while a
  // button was held): the tests drive a real drag and wheel meanwhile.
  countFrames() {
    let frames = 0, moved = 0, last = "", id = 0, prev = 0, maxGapMs = 0;
    const t0 = performance.now();
    const c0 = { ...this.glideCounts };
    const tick = (t) => {
      frames++;
      if (prev) maxGapMs = Math.max(maxGapMs, t - prev);
      prev = t;
      const now = JSON.stringify(this.sigma.getCamera().getState());
      if (last && now !== last) moved++;
      last = now;
      id = requestAnimationFrame(tick);
    };
    id = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(id);
      const s = (performance.now() - t0) / 1000;
      const c = this.glideCounts || {};
      return { fps: frames / s, movedFps: moved / s, frames, moved, maxGapMs,
        renders: (c.renders || 0) - (c0.renders || 0), heldRenders: (c.heldRenders || 0) - (c0.heldRenders || 0) };
    };
  }

  kill() {
    this.stopLayout();
    this.sigma?.kill();
    this.sigma = null;
  }
}

// glide makes sigma move its last picture while the camera moves instead
// of drawing the graph each frame (each WebGL frame of a large graph costs
// more than a frame's time in software rendering): after each drawing it
// copies its layers into one 2D canvas, which a CSS transform then moves
// and scales in their place. The transform maps the camera drawn to the
// camera now, so the picture drawn then matches the one shown.
//
// The graph is drawn again (links included) only once a gesture has ended:
// never while a mouse button or a finger is down (a drawing asked for
// meanwhile waits for the release), REST after a drag's release (or its
// inertia) and WHEEL_REST or more (wheelRest) after the last wheel step,
// so that input that comes slowly (a loaded machine, a slow trackpad)
// never draws the whole graph in the middle of a gesture. It returns
// counts for the tests: drawings, and drawings while a button was held.
function glide(sigma) {
  const cam = sigma.getCamera();
  const mouse = sigma.getMouseCaptor(), touch = sigma.getTouchCaptor();
  const { edges, nodes, labels, hoverNodes } = sigma.getCanvases();
  // The layers the picture replaces: all but the mouse layer, which stays
  // on top to take the wheel, clicks and hovers while the picture moves.
  const layers = Object.entries(sigma.getCanvases()).filter(([k]) => k !== "mouse").map(([, c]) => c);
  const snap = document.createElement("canvas");
  snap.className = "sigma-glide";
  snap.style.cssText = "position:absolute;left:0;top:0;display:none;pointer-events:none";
  hoverNodes.after(snap);
  const held = () => mouse.isMouseDown || touch.startTouchesPositions.length > 0;
  let drawn = null, timer = 0, pending = false, lastWheel = 0;
  // atRest: the picture drawn is the one shown, and no drawing waits.
  const counts = { renders: 0, heldRenders: 0, atRest: () => !held() && !timer && !pending && snap.style.display === "none" };
  // Drawings asked for while held (a graph change, a setting) wait.
  const draw = sigma.scheduleRender.bind(sigma);
  sigma.scheduleRender = () => {
    if (held()) pending = true;
    else draw();
    return sigma;
  };
  const settle = () => { timer = 0; return cam.isAnimated() ? later(REST) : sigma.scheduleRender(); };
  const later = (ms) => { clearTimeout(timer); timer = held() ? 0 : setTimeout(settle, ms); };
  let renderStart = 0, renderMs = 0;
  sigma.on("beforeRender", () => { renderStart = performance.now(); });
  sigma.on("afterRender", () => {
    counts.renders++;
    if (held()) counts.heldRenders++;
    pending = false;
    drawn = cam.getState();
    snap.width = edges.width; snap.height = edges.height;
    snap.style.width = edges.style.width; snap.style.height = edges.style.height;
    const ctx = snap.getContext("2d");
    for (const c of [edges, nodes, labels]) ctx.drawImage(c, 0, 0);
    snap.style.display = "none";
    layers.forEach((c) => { c.style.visibility = ""; });
    renderMs = performance.now() - renderStart; // with the copy
  });
  // A wheel step waits WHEEL_REST from the step itself, whatever its
  // zoom's frames do meanwhile; a drag REST from its last move.
  const down = () => { lastWheel = 0; clearTimeout(timer); timer = 0; };
  const release = () => { if (pending || !snap.style.display) later(REST); };
  mouse.on("mousedown", down);
  // A wheel gesture has no end: its steps may come slowly (a slow
  // trackpad, a loaded machine, a costly drawing that delays the next
  // step), so the wait grows to twice the last pause between two steps of
  // a gesture and twice the last drawing's time.
  let wheelGap = 0;
  const wheelRest = () => Math.max(WHEEL_REST, 2 * wheelGap, 2 * renderMs);
  mouse.on("wheel", () => {
    const now = performance.now();
    wheelGap = now - lastWheel < 4 * WHEEL_REST ? now - lastWheel : 0;
    lastWheel = now;
    later(wheelRest());
  });
  mouse.on("mouseup", release);
  touch.on("touchdown", down);
  touch.on("touchup", release);
  sigma.on("kill", () => clearTimeout(timer));
  sigma.unbindCameraHandlers();
  cam.on("updated", (now) => {
    // No drawing waits (the wheel's has been done, its rest grown since
    // with the drawing's time): one comes REST after this move.
    if (!timer || performance.now() - lastWheel > wheelRest()) later(REST);
    if (!drawn || now.angle !== drawn.angle) { sigma.scheduleRender(); return; }
    // Where the centre of the drawn picture is now, and its scale.
    const { width, height } = sigma.getDimensions();
    const c = sigma.framedGraphToViewport(drawn, { cameraState: now });
    snap.style.transform = `translate(${c.x - width / 2}px, ${c.y - height / 2}px) scale(${drawn.ratio / now.ratio})`;
    if (snap.style.display) {
      snap.style.display = "";
      layers.forEach((c) => { c.style.visibility = "hidden"; });
    }
  });
  return counts;
}

// linkKey is a set of link targets as one string, to compare two notes'
// links.
const linkKey = (ids) => [...new Set(ids)].sort().join("\n");

// spot is where a new note x goes: beside a note of g it links to, or one
// of notes (an answer of patch) that links to it; else at the centre.
function spot(g, x, notes) {
  const near = x.out.find((t) => g.hasNode(t)) || notes.find((n) => n.out.includes(x.id) && g.hasNode(n.id))?.id;
  const at = near ? g.getNodeAttributes(near) : { x: 0, y: 0 };
  const a = (x.id.length * 2.39996) % (2 * Math.PI);
  return { x: at.x + 2 * Math.cos(a), y: at.y + 2 * Math.sin(a) };
}

// seedCentres puts each folder's spiral on a circle, the larger folders
// further apart.
function seedCentres(groups) {
  const out = new Map();
  const keys = [...groups.keys()].sort((a, b) => groups.get(b) - groups.get(a));
  const R = Math.sqrt([...groups.values()].reduce((s, v) => s + v, 0)) * 1.5;
  keys.forEach((k, i) => {
    const a = (2 * Math.PI * i) / keys.length;
    out.set(k, keys.length === 1 ? { x: 0, y: 0 } : { x: R * Math.cos(a), y: R * Math.sin(a) });
  });
  return out;
}

let fetchTag = async () => [];

// setTagSource gives the graph the function that lists a tag's notes (the
// engine's tag rule, through the API).
export function setTagSource(fn) { fetchTag = fn; }

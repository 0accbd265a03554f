// vaultgraph's web app: a hash router over a few views, each built from
// the JSON API under /api/. Text from notes always goes in as text
// (textContent, or text nodes beside <mark> for a backlink's context);
// only the note body and search snippets go in as HTML, and the server
// sanitised both.
import { drawLocal, drawPath, GlobalGraph, setTagSource } from "./graphview.js";

const view = document.getElementById("view");
let current = null; // the shown view: {name, id, refresh()}

// ---- the token and the API -------------------------------------------

function token() { return sessionStorage.getItem("vg-token") || ""; }

function takeTokenFromAddress() {
  const m = location.hash.match(/^#token=([^&]*)/);
  if (m) {
    sessionStorage.setItem("vg-token", decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + "#/");
  }
}

function authHeaders() { return token() ? { Authorization: "Bearer " + token() } : {}; }

// api calls the API; params is an object (empty values left out) or
// URLSearchParams (for a repeated parameter).
async function api(path, params = {}) {
  const q = params instanceof URLSearchParams ? params
    : new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "" && v != null));
  const res = await fetch("/api/" + path + (q.size ? "?" + q : ""), { headers: authHeaders() });
  if (res.status === 401) {
    await askToken();
    return api(path, params);
  }
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

let asking = null; // the pending question, shared by concurrent calls

function askToken() {
  const dlg = document.getElementById("token-dialog");
  asking ||= new Promise((resolve) => {
    dlg.onclose = () => {
      sessionStorage.setItem("vg-token", document.getElementById("token-input").value.trim());
      asking = null;
      resolve();
    };
    dlg.showModal();
  });
  return asking;
}

// ---- small DOM helpers --------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v != null) el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null) el.append(c instanceof Node ? c : String(c));
  return el;
}

export function noteHref(id) { return "#/note/" + encodeURIComponent(id); }
const noteLink = (n) => h("a", { href: noteHref(n.id), title: n.id }, n.title || n.id);
const tagChip = (t) => h("a", { class: "chip", href: "#/tag/" + encodeURIComponent(t) }, "#" + t);

// Each route shows its view through its own show, which does nothing once
// a later route has started: a slow answer never replaces a newer view.
function shower(seq) { return (...nodes) => { if (seq === routeSeq) view.replaceChildren(...nodes); }; }

function debounce(fn, ms) {
  let t;
  return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };
}

// Images of a note come from /api/file; with a token they are fetched
// with it and shown from blob: URLs.
async function loadImages(root) {
  if (!token()) return;
  for (const img of root.querySelectorAll('img[src^="/api/file"]')) {
    const res = await fetch(img.getAttribute("src"), { headers: authHeaders() });
    if (res.ok) img.src = URL.createObjectURL(await res.blob());
  }
}

// ---- views --------------------------------------------------------------

async function searchView(show, params) {
  const input = h("input", { type: "search", id: "q", placeholder: "Search notes…", value: params.get("q") || "", autofocus: "" });
  const tagSel = h("select", { id: "tag-filter" }, h("option", { value: "" }, "any tag"));
  const folderSel = h("select", { id: "folder-filter" }, h("option", { value: "" }, "any folder"));
  const list = h("ul", { class: "results", id: "results" });
  const info = h("p", { class: "muted" });
  show(h("div", { class: "toolbar" }, input, tagSel, folderSel), info, list);
  const [tags, folders] = await Promise.all([api("tags"), api("folders")]);
  tags.forEach((t) => tagSel.append(h("option", { value: t.tag }, `#${t.tag} (${t.count})`)));
  folders.forEach((f) => folderSel.append(h("option", { value: f }, f)));
  let seq = 0;
  const run = async () => {
    const n = ++seq;
    const q = input.value.trim();
    history.replaceState(null, "", "#/?q=" + encodeURIComponent(q));
    if (!q) { list.replaceChildren(); info.textContent = "Type to search: words, \"a phrase\" or a question."; return; }
    const res = await api("search", { q, tags: tagSel.value, folder: folderSel.value, limit: 30 });
    if (n !== seq) return; // a later keystroke won
    info.textContent = `${res.total} notes` + (res.warnings?.length ? " · " + res.warnings.join("; ") : "");
    list.replaceChildren(...res.hits.map((hit) => {
      const snippet = h("div", { class: "snippet" });
      snippet.innerHTML = hit.snippet; // escaped by the server, matches in <mark>
      return h("li", {}, noteLink(hit), " ", h("span", { class: "meta" }, hit.score.toFixed(2), " · ", hit.id),
        h("div", {}, (hit.tags || []).map(tagChip)), snippet);
    }));
  };
  const later = debounce(run, 120);
  input.addEventListener("input", later);
  tagSel.addEventListener("change", run);
  folderSel.addEventListener("change", run);
  input.focus();
  await run();
  return { refresh: run };
}

// marked splits text with **marks** (a backlink's context, the link in
// bold) into text and <mark> elements; the text never goes in as HTML.
function marked(text) {
  return text.split(/\*\*(.+?)\*\*/).map((part, i) => (i % 2 ? h("mark", {}, part) : part));
}

async function noteView(show, id) {
  const n = await api("note", { id });
  const body = h("article", { id: "note-body" });
  body.innerHTML = n.html; // goldmark, then the server's sanitiser
  const props = n.properties.length
    ? h("table", { class: "props" }, n.properties.map((p) => h("tr", {}, h("td", {}, p.key), h("td", {}, p.value))))
    : null;
  const depthSel = h("select", { id: "depth" }, h("option", { value: "1" }, "depth 1"), h("option", { value: "2" }, "depth 2"));
  depthSel.value = sessionStorage.getItem("vg-depth") || "1";
  const local = h("div", { class: "graph", id: "local-graph" });
  const back = h("section", { id: "backlinks" }, h("h3", {}, `Backlinks (${n.backlinks.length})`),
    h("ul", {}, n.backlinks.map((b) => h("li", {}, noteLink(b), h("span", { class: "muted" }, " line " + b.line),
      h("span", { class: "backlink-context" }, ...marked(b.context))))));
  const out = h("section", { id: "outgoing" }, h("h3", {}, `Outgoing links (${n.links.length})`),
    h("ul", {}, n.links.map((l) => h("li", {}, noteLink(l)))),
    n.broken.length ? h("ul", {}, n.broken.map((b) => h("li", {}, h("a", { href: "#/missing/" + encodeURIComponent(b) }, b), h("span", { class: "muted" }, " (no such note)")))) : null);
  show(h("div", { class: "note-layout" },
    h("div", {},
      h("h1", { id: "note-title" }, n.title),
      h("p", { class: "muted" }, n.id, " · modified ", new Date(n.modified).toLocaleString()),
      h("div", {}, n.tags.map(tagChip)), props,
      (n.warnings || []).length ? h("details", { class: "warn" }, h("summary", {}, `${n.warnings.length} warnings`), h("ul", {}, n.warnings.map((w) => h("li", {}, w)))) : null,
      body),
    h("aside", {},
      h("section", {}, h("h3", {}, "Local graph ", depthSel), local), back, out)));
  document.title = n.title + " · vaultgraph";
  loadImages(body);
  const drawn = { g: null };
  const draw = async () => {
    sessionStorage.setItem("vg-depth", depthSel.value);
    const data = await api("local", { id: n.id, depth: depthSel.value });
    drawn.g?.kill();
    drawn.g = drawLocal(local, data, (nid) => { location.hash = noteHref(nid); });
  };
  depthSel.addEventListener("change", draw);
  await draw();
  return { id: n.id, kill: () => drawn.g?.kill() };
}

async function graphView(show) {
  window.vgGraph = null;
  const tagSel = h("select", { id: "g-tag" }, h("option", { value: "" }, "all tags"));
  const folderSel = h("select", { id: "g-folder" }, h("option", { value: "" }, "all folders"));
  const colorSel = h("select", { id: "g-color" }, h("option", { value: "folder" }, "colour by folder"), h("option", { value: "tag" }, "colour by tag"));
  const orphans = h("input", { type: "checkbox", id: "g-orphans", checked: "" });
  const stats = h("span", { class: "muted", id: "g-stats" });
  const box = h("div", { class: "graph big", id: "global-graph" });
  const legend = h("div", { class: "legend", id: "g-legend" });
  show(h("div", { class: "toolbar" }, tagSel, folderSel, colorSel, h("label", {}, orphans, " orphans"), stats), box, legend);
  const [tags, folders] = await Promise.all([api("tags"), api("folders")]);
  tags.forEach((t) => tagSel.append(h("option", { value: t.tag }, `#${t.tag} (${t.count})`)));
  folders.forEach((f) => folderSel.append(h("option", { value: f }, f)));
  const gg = new GlobalGraph(box, (id) => { location.hash = noteHref(id); });
  const filters = () => gg.filter({ tag: tagSel.value, folder: folderSel.value, orphans: orphans.checked, colorBy: colorSel.value }, legend);
  for (const el of [tagSel, folderSel, colorSel, orphans]) el.addEventListener("change", filters);
  const counted = () => { stats.textContent = `${gg.graph.order} notes · ${gg.graph.size} links`; };
  const load = async () => {
    const t0 = performance.now();
    const data = await api("graph");
    gg.setData(data, performance.now() - t0);
    filters();
    stats.textContent = `${data.nodes.length} notes · ${data.edges.length} links`;
  };
  // A change patches the graph drawn (changes that come together in one);
  // one too large to patch loads it anew.
  let queued = null;
  const patch = debounce(async () => {
    const c = queued;
    queued = null;
    try {
      await gg.patch(c, (ids) => api("around", new URLSearchParams(ids.map((id) => ["id", id]))));
      await filters();
      counted();
    } catch {
      await load();
    }
  }, 150);
  const refresh = (c) => {
    queued ||= { added: [], removed: [], edited: [] };
    for (const k of Object.keys(queued)) queued[k].push(...(c?.[k] || []));
    patch();
  };
  await load();
  window.vgGraph = gg; // for the browser tests' measurements
  return { refresh, kill: () => gg.kill() };
}

async function pathView(show, params) {
  const from = h("input", { id: "p-from", class: "wide", list: "p-notes", placeholder: "from note", value: params.get("from") || "" });
  const to = h("input", { id: "p-to", class: "wide", list: "p-notes", placeholder: "to note", value: params.get("to") || "" });
  const directed = h("input", { type: "checkbox", id: "p-directed" });
  const names = h("datalist", { id: "p-notes" });
  const result = h("div", { id: "p-result" });
  const box = h("div", { class: "graph", id: "path-graph" });
  const go = h("button", { id: "p-go" }, "Find path");
  show(h("div", { class: "toolbar" }, from, "→", to, h("label", {}, directed, " follow link direction"), go), names, result, box);
  const suggest = debounce(async (e) => {
    const q = e.target.value.trim();
    if (!q) return;
    const res = await api("search", { q, mode: "keyword", limit: 10 });
    names.replaceChildren(...res.hits.map((x) => h("option", { value: x.id }, x.title)));
  }, 150);
  from.addEventListener("input", suggest);
  to.addEventListener("input", suggest);
  let drawn = null;
  const find = async () => {
    if (!from.value || !to.value) return;
    history.replaceState(null, "", "#/path?" + new URLSearchParams({ from: from.value, to: to.value }));
    const res = await api("path", { from: from.value, to: to.value, directed: directed.checked });
    drawn?.kill();
    drawn = null;
    if (!res.path) {
      result.replaceChildren(h("p", { id: "p-none" }, "No path between these notes."));
      return;
    }
    result.replaceChildren(h("p", {}, `${res.length} links:`), h("ol", { class: "path", id: "p-list" }, res.path.map((n) => h("li", {}, noteLink(n)))));
    drawn = drawPath(box, res.path, (id) => { location.hash = noteHref(id); });
  };
  go.addEventListener("click", find);
  await find();
  return { kill: () => drawn?.kill() };
}

async function hubsView(show, params) {
  const metric = h("select", { id: "h-metric" }, ["pagerank", "in_degree", "out_degree"].map((m) => h("option", { value: m }, m)));
  metric.value = params.get("metric") || "pagerank";
  const list = h("ol", { id: "hubs" });
  show(h("div", { class: "toolbar" }, h("h2", {}, "Hubs"), metric), list);
  const load = async () => {
    const res = await api("hubs", { metric: metric.value, limit: 50 });
    list.replaceChildren(...res.hubs.map((x) => h("li", {}, noteLink(x), " ", h("span", { class: "muted" }, metric.value === "pagerank" ? x.score.toFixed(4) : x.score))));
  };
  metric.addEventListener("change", load);
  await load();
  return { refresh: load };
}

async function tagsView(show) {
  const tags = await api("tags");
  show(h("h2", {}, "Tags"), h("div", { id: "tags" }, tags.map((t) => h("span", {}, tagChip(t.tag), h("span", { class: "muted" }, t.count, " ")))));
  return { refresh: () => tagsView(show) };
}

async function tagView(show, tag) {
  const res = await api("tag", { tags: tag });
  show(h("h2", {}, "#" + tag), h("p", { class: "muted" }, `${res.total} notes`), h("ul", { class: "results", id: "tag-notes" }, res.notes.map((n) => h("li", {}, noteLink(n), " ", (n.tags || []).map(tagChip)))));
  return {};
}

function missingView(show, name) {
  show(h("h2", {}, "No note named “", name, "”"), h("p", { class: "muted" }, "The link is broken: no note of the vault has this name. It resolves as soon as one does."));
  return {};
}

// ---- the router -----------------------------------------------------------

let routeSeq = 0; // the latest route: an older one that ends later is dropped

async function route() {
  const hash = location.hash || "#/";
  if (!hash.startsWith("#/")) return; // a heading inside the note
  const my = ++routeSeq;
  const [p, query] = hash.slice(1).split("?");
  const params = new URLSearchParams(query || "");
  const [, name, ...rest] = p.split("/");
  const arg = decodeURIComponent(rest.join("/"));
  current?.kill?.();
  document.title = "vaultgraph";
  try {
    const show = shower(my);
    const views = { "": () => searchView(show, params), note: () => noteView(show, arg), graph: () => graphView(show),
      path: () => pathView(show, params), hubs: () => hubsView(show, params), tags: () => tagsView(show),
      tag: () => tagView(show, arg), missing: () => missingView(show, arg) };
    const shown = await (views[name] || views[""])();
    if (my !== routeSeq) { shown.kill?.(); return; }
    current = { name, ...shown };
  } catch (err) {
    if (my !== routeSeq) return;
    view.replaceChildren(h("p", { class: "warn", id: "error" }, String(err.message || err)));
    current = null;
  }
}

// ---- live updates -----------------------------------------------------------

// follow reads the server-sent events with fetch (so that the token goes
// in a header) and refreshes the view a change concerns.
async function follow() {
  const live = document.getElementById("live");
  for (;;) {
    try {
      const res = await fetch("/api/events", { headers: authHeaders() });
      if (!res.ok) throw new Error(res.statusText);
      live.classList.add("on");
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const msg = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = msg.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).join("\n");
          if (data) onChange(JSON.parse(data));
        }
      }
    } catch { /* reconnect below */ }
    live.classList.remove("on");
    await new Promise((r) => setTimeout(r, 2000));
  }
}

function onChange(c) {
  window.vgChanges = (window.vgChanges || 0) + 1;
  if (!current) return;
  if (current.name === "note") {
    if (c.removed.includes(current.id) || c.edited.includes(current.id) || c.added.length || c.removed.length) {
      const y = scrollY;
      route().then(() => scrollTo(0, y));
    }
    return;
  }
  current.refresh?.(c);
}

// ---- start --------------------------------------------------------------------

takeTokenFromAddress();
setTagSource(async (tag) => (await api("tag", { tags: tag, limit: 100000 })).notes.map((n) => n.id));
window.addEventListener("hashchange", route);
api("status").then((s) => { document.getElementById("vault-name").textContent = `${s.vault} · ${s.notes} notes`; follow(); });
route();

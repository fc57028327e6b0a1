(() => {
  "use strict";
  const PUCK = 40, PAD = 12, SVG = "http://www.w3.org/2000/svg";
  const COLORS = ["#1f6fc5", "#c42b2b", "#1a7f37", "#8250df", "#bc4c00", "#0a7f8f", "#bf3989", "#57606a"];
  const STATUS = "/_curvebake/status", CARDS = "/_curvebake/cards";
  const body = document.body;
  // What survives a live update: the scrubber's time (null while playing), the motions picked
  // for comparison, the versions kept as "before", the comparison mode, and the generation of
  // the bake the cards come from.
  const state = { scrub: null, picks: new Set(), pinned: new Map(), mode: "position", generation: null };
  let motions = new Map();

  // The data of every card, or only of `cards` (new from a live update: the others' is kept).
  const readData = (cards) => {
    if (!cards) motions = new Map();
    const read = (s) => {
      const d = JSON.parse(s.textContent);
      motions.set(d.name, d);
    };
    (cards || [document]).forEach((root) => root.querySelectorAll("script.motion-data").forEach(read));
  };

  // ---- Previews: fitted to their stage, or at 1:1 --------------------------------------
  // Pixels per unit, measured (em, rem, vw, ...); a translate in % is of the 40px square.
  const unitPx = (unit, stage, mode) => {
    if (!unit || unit === "px") return 1;
    if (unit === "%") return mode === "bar" ? (stage.clientWidth - 2 * PAD) / 100 : PUCK / 100;
    const probe = document.createElement("div");
    probe.style.cssText = "position:absolute;visibility:hidden;height:0;width:100" + unit;
    stage.appendChild(probe);
    const px = probe.getBoundingClientRect().width / 100;
    probe.remove();
    return px > 0 ? px : 1;
  };
  // A square's travel along x and y and its largest size (data-x, data-y, data-size), in
  // stage pixels: fitted, all of it is scaled into the stage (never enlarged), centred; at
  // 1:1 the square starts at the stage's edge on each axis it travels along, and the stage
  // grows (y) or scrolls (x) to hold its travel.
  const fitPuck = (box, stage, actual, w, h) => {
    const along = (axis) => {
      const px = unitPx(box.dataset[axis + "Unit"], stage, "puck");
      return box.dataset[axis].split(" ").map((v) => Number(v) * px);
    };
    const [xlo, xhi] = along("x"), [ylo, yhi] = along("y");
    const size = PUCK * Number(box.dataset.size);
    if (actual) {
      const grown = (size - PUCK) / 2, modes = stage.dataset.mode.split(" ");
      const x = modes.includes("x") ? grown - xlo : 0, y = modes.includes("y") ? grown - ylo : 0;
      if (modes.includes("y")) stage.style.height = `${Math.max(180, yhi - ylo + size + 2 * PAD)}px`;
      box.style.marginRight = modes.includes("x") ? `${xhi - xlo + grown + PAD}px` : "";
      return { k: 1, transform: `translate(${x}px, ${y}px)` };
    }
    box.style.marginRight = "";
    const k = Math.min(1, w / (xhi - xlo + size), h / (yhi - ylo + size));
    return { k, transform: `scale(${k}) translate(${-(xlo + xhi) / 2}px, ${-(ylo + yhi) / 2}px)` };
  };
  // A ring by its largest radius (data-hi; a % ring has a 140px box), a bar by its reach.
  const fitRing = (box, stage, actual, h) => {
    const percent = box.dataset.unit === "%";
    const size = percent ? 140 : 2 * Number(box.dataset.hi) * unitPx(box.dataset.unit, stage, "ring");
    if (actual) stage.style.height = `${Math.max(180, size + 2 * PAD)}px`;
    // A ring of length radii draws about its empty element as ink overflow, which does not
    // make the stage scroll: at 1:1 the box takes the ring's size, so that it does.
    box.style.padding = actual && !percent ? `${size / 2}px` : "";
    const k = actual || size <= 0 ? 1 : Math.min(1, h / size);
    return { k, transform: `scale(${k})` };
  };
  const fitBar = (box, stage, actual, w) => {
    const reach = Number(box.dataset.hi) * unitPx(box.dataset.unit, stage, "bar");
    const k = actual || reach <= 0 ? 1 : w / reach;
    return { k, transform: `scaleX(${k})` };
  };
  const fit = (box) => {
    const stage = box.parentElement, mode = box.dataset.fit;
    const actual = body.classList.contains("actual");
    stage.style.height = "";
    const w = stage.clientWidth - 2 * PAD, h = stage.clientHeight - 2 * PAD;
    const { k, transform } =
      mode === "puck" ? fitPuck(box, stage, actual, w, h)
      : mode === "ring" ? fitRing(box, stage, actual, h)
      : fitBar(box, stage, actual, w);
    box.style.transform = transform;
    const note = stage.querySelector(".scale-note");
    if (note) note.textContent = actual ? "1:1" : Math.abs(k - 1) > 1e-3 ? `shown at ×${k.toPrecision(2)}` : "";
  };
  const fitAll = () => document.querySelectorAll(".fit").forEach(fit);

  // ---- Plots: SVG drawn from the cards' data --------------------------------------------
  const node = (name, attrs, parent, text) => {
    const el = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    if (parent) parent.appendChild(el);
    return el;
  };
  // Round ticks (1, 2 or 5 times a power of ten apart), at most about `max` in lo..hi.
  const ticks = (lo, hi, max) => {
    const raw = (hi - lo) / Math.max(1, max), p = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw * (1 - 1e-9));
    const decimals = Math.min(6, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
    const points = [];
    for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9 && points.length < 50; k++) points.push(k * step);
    const label = (v) => { const s = v.toFixed(decimals); return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s; };
    return { points, label };
  };
  const short = (x) => String(Number(x.toPrecision(4)));
  const clip = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

  // One panel: `series` [{t, x, color, dashed}] against time 0..duration, value axis
  // downwards when `down`; `hlines` [{v, text, cls}] and `vlines` [{t, text, cls}] mark values
  // and times. The panel keeps what its cursor needs in `svg.plotTime`.
  const drawPlot = (svg, spec) => {
    const W = Math.max(260, Math.round(svg.parentElement.clientWidth || 520));
    const H = spec.height || Math.round(Math.min(260, Math.max(190, W * 0.42)));
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("width", W);
    svg.setAttribute("height", H);
    // Series with a label are named at their end, right of the plot (not by colour alone).
    const named = spec.series.filter((s) => s.label).map((s) => ({ s, text: clip(s.label, W < 480 ? 10 : 22) }));
    const labelRoom = named.length ? 10 + Math.max(...named.map((n) => n.text.length)) * 6.6 : 0;
    const m = { l: 62, r: 16 + labelRoom, t: 12, b: 40 };
    const w = W - m.l - m.r, h = H - m.t - m.b;
    let lo = Infinity, hi = -Infinity;
    for (const s of spec.series) for (const v of s.x) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    for (const l of spec.hlines) { lo = Math.min(lo, l.v); hi = Math.max(hi, l.v); }
    if (!(lo <= hi)) { lo = -1; hi = 1; }
    if (hi - lo <= 1e-9 * Math.max(1, Math.abs(lo))) { lo -= Math.abs(lo) * 0.1 || 1; hi += Math.abs(hi) * 0.1 || 1; }
    const pad = (hi - lo) * 0.07;
    lo -= pad; hi += pad;
    const D = spec.duration > 0 ? spec.duration : 1;
    const X = (t) => m.l + (Math.min(Math.max(t, 0), D) / D) * w;
    const Y = (v) => (spec.down ? m.t + ((v - lo) / (hi - lo)) * h : m.t + ((hi - v) / (hi - lo)) * h);
    const yt = ticks(lo, hi, Math.max(2, Math.floor(h / 34)));
    for (const v of yt.points) {
      node("line", { class: "grid", x1: m.l, x2: m.l + w, y1: Y(v), y2: Y(v) }, svg);
      node("text", { class: "tick", x: m.l - 6, y: Y(v), "text-anchor": "end", "dominant-baseline": "middle" }, svg, yt.label(v));
    }
    const xt = ticks(0, D, Math.max(2, Math.floor(w / 64)));
    for (const t of xt.points) {
      node("line", { class: "grid", x1: X(t), x2: X(t), y1: m.t, y2: m.t + h }, svg);
      node("text", { class: "tick", x: X(t), y: m.t + h + 15, "text-anchor": "middle" }, svg, xt.label(t));
    }
    node("line", { class: "axis", x1: m.l, x2: m.l, y1: m.t, y2: m.t + h }, svg);
    node("line", { class: "axis", x1: m.l, x2: m.l + w, y1: m.t + h, y2: m.t + h }, svg);
    node("text", { x: m.l + w / 2, y: H - 5, "text-anchor": "middle" }, svg, "time (s)");
    node("text", { x: 0, y: 0, "text-anchor": "middle", transform: `translate(14 ${m.t + h / 2}) rotate(-90)` }, svg, spec.ylabel);
    for (const l of spec.hlines) {
      node("line", { class: l.cls, x1: m.l, x2: m.l + w, y1: Y(l.v), y2: Y(l.v) }, svg);
    }
    // Joins last, thin, over the other marks; a mark on a join (a fade that looks done as it
    // ends) is drawn wide under it, so that both show (as the PNG does).
    const joins = spec.vlines.filter((l) => l.cls === "join");
    [...spec.vlines.filter((l) => l.cls !== "join"), ...joins].forEach((l) => {
      const under = l.cls !== "join" && joins.some((j) => Math.abs(X(j.t) - X(l.t)) <= 2);
      node("line", { class: l.cls + (under ? " under" : ""), x1: X(l.t), x2: X(l.t), y1: m.t, y2: m.t + h }, svg);
    });
    for (const s of spec.series) {
      const d = s.t.map((t, i) => `${i ? "L" : "M"}${X(t).toFixed(1)} ${Y(s.x[i]).toFixed(1)}`).join("");
      node("path", { class: "curve", d, stroke: s.color, "stroke-dasharray": s.dashed ? "7 4" : "none" }, svg);
    }
    // Each name at its series' last value, moved apart (13 px at least) and kept in the plot.
    const ends = named.map((n) => ({ ...n, y: Y(n.s.x[n.s.x.length - 1]) })).sort((a, b) => a.y - b.y);
    ends.forEach((e, i) => { e.y = Math.max(e.y, i ? ends[i - 1].y + 13 : m.t + 6); });
    for (let i = ends.length - 1, floor = m.t + h; i >= 0; i--, floor -= 13) ends[i].y = Math.min(ends[i].y, floor);
    for (const e of ends) {
      const text = node("text", { class: "end-label", x: m.l + w + 6, y: e.y, style: `fill: ${e.s.color}`, "dominant-baseline": "middle" }, svg, e.text);
      if (e.text !== e.s.label) node("title", {}, text, e.s.label);
    }
    const cursor = node("line", { class: "cursor", x1: m.l, x2: m.l, y1: m.t, y2: m.t + h, visibility: "hidden" }, svg);
    svg.plotTime = { left: m.l, width: w, duration: D, cursor };
    // Time and value from a point of the drawing, for what is dragged on it.
    svg.plotScale = { X, Y, top: m.t, bottom: m.t + h, t: (x) => ((x - m.l) / w) * D, v: (y) => (spec.down ? lo + ((y - m.t) / h) * (hi - lo) : hi - ((y - m.t) / h) * (hi - lo)) };
    moveCursor(svg);
  };
  // A legend under a plot: [{text, color, style}] with a key line drawn like the plot's.
  const MARKS = { end: ["#444b53", "dashed"], done: ["#8250df", "dashed"], rest: ["#6e7781", "dotted"], join: ["#c42b2b", "dashed"] };
  const legend = (list, items) => {
    list.replaceChildren(...items.map((item) => {
      const li = document.createElement("li");
      if (item.color) {
        const key = document.createElement("i");
        key.style.borderTop = `${item.width || 3}px ${item.style || "solid"} ${item.color}`;
        li.appendChild(key);
      } else {
        li.className = "note";
      }
      li.append(item.text);
      return li;
    }));
  };
  const markItems = (spec) => [...spec.hlines, ...spec.vlines].filter((l) => l.text)
    .map((l) => ({ text: l.text, color: MARKS[l.cls][0], style: MARKS[l.cls][1], width: 2 }));
  const moveCursor = (svg) => {
    const p = svg.plotTime;
    if (!p) return;
    if (state.scrub === null) { p.cursor.setAttribute("visibility", "hidden"); return; }
    const x = p.left + (Math.min(state.scrub, p.duration) / p.duration) * p.width;
    p.cursor.setAttribute("x1", x);
    p.cursor.setAttribute("x2", x);
    p.cursor.setAttribute("visibility", "visible");
  };

  // A track's unit (a card from before units were kept per track has the motion's).
  const trackUnit = (d, k) => (d.tracks[k].unit !== undefined ? d.tracks[k].unit : d.unit);
  // How a motion's end value is named, as its PNG plot's legend names it.
  const ENDING = { rests: "rests at", arrives: "arrives at", fixed: "rest value" };
  // A track's joins as the PNG marks them (hand-offs, a bound hit, where a track ends before
  // the motion: never a ball's every impact), by kind: the legend's words, one and several.
  const JOINS = { "hand-off": ["hand-off", "hand-offs"], bound: ["hits the bound", "hits the bound"], end: ["ends", "ends"] };
  const joinLines = (joins, lead) => Object.keys(JOINS).flatMap((kind) => {
    const at = joins.filter((j) => j[1] === kind).map((j) => j[0]);
    if (!at.length) return [];
    const words = JOINS[kind][at.length > 1 ? 1 : 0];
    const shown = at.length > 4 ? `${at.slice(0, 3).map(short).join(", ")}, … s` : `${at.map(short).join(", ")} s`;
    const text = `${lead}${words} ${shown}${kind === "end" ? ", then holds" : ""}`;
    return at.map((t, i) => ({ t, cls: "join", text: i ? undefined : text }));
  });
  // The panels of a motion: a ring's two radii share one; any other motion of several tracks
  // gets one panel per track (each with its own end value, joins and looks done, named in the
  // legend by its track).
  const cardPanels = (d) => {
    const shared = d.ring || d.tracks.length < 2;
    const groups = shared ? [d.tracks.map((_, k) => k)] : d.tracks.map((_, k) => [k]);
    const ending = ENDING[d.ending] || (d.rest !== null ? "rests at" : "rest value");
    return groups.map((ks) => {
      const own = ks.length === 1 && d.tracks.length > 1 ? d.tracks[ks[0]] : null;
      const lead = own ? `${own.name} ` : "";
      const hlines = ks.filter((k) => d.ends[k] !== undefined).map((k) => {
        const unit = trackUnit(d, k), name = d.tracks[k].name;
        const at = `${ENDING[d.tracks[k].ending] || ending} ${short(d.ends[k])}${unit ? " " + unit : ""}`;
        return { v: d.ends[k], cls: "end", text: shared ? at + (ks.length > 1 ? ` (${name})` : "") : `${name} ${at}` };
      });
      const vlines = [];
      // A track of several looks done on its own (a card from before that was kept has the
      // motion's time alone).
      const done = own && own.done != null ? own.done : d.done;
      if (done !== null) vlines.push({ t: done, cls: "done", text: `${lead}looks done ${short(done)} s` });
      if (d.rest !== null) vlines.push({ t: d.rest, cls: "rest", text: `at rest (proved) ${short(d.rest)} s` });
      if (!d.ring) vlines.push(...joinLines(ks.flatMap((k) => d.tracks[k].joins || []), lead));
      return {
        duration: d.duration, down: own ? own.down : d.down, hlines, vlines,
        ylabel: own ? own.ylabel : d.ylabel,
        series: ks.map((k, i) => ({
          t: d.tracks[k].t, x: d.tracks[k].x, color: COLORS[i % COLORS.length], label: ks.length > 1 ? d.tracks[k].name : undefined,
        })),
      };
    });
  };
  // A motion of translateX and translateY tracks: its path on screen, x to the right and y
  // down as on screen, one scale on both axes (so the path has its true shape), with a dot
  // and its time at round times (interpolated between the picked frames).
  const PATH_MARKS = 6;
  const drawPath = (svg, d, kx, ky) => {
    const tx = d.tracks[kx], ty = d.tracks[ky];
    const W = Math.max(260, Math.round(svg.parentElement.clientWidth || 520)), H = Math.round(Math.min(300, Math.max(200, W * 0.5)));
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("width", W);
    svg.setAttribute("height", H);
    const m = { l: 62, r: 16, t: 12, b: 40 }, w = W - m.l - m.r, h = H - m.t - m.b;
    const span = (x) => [Math.min(...x), Math.max(...x)];
    let [xlo, xhi] = span(tx.x), [ylo, yhi] = span(ty.x);
    const k = Math.min(w / Math.max(xhi - xlo, 1e-9), h / Math.max(yhi - ylo, 1e-9));
    // Centred: the spare room of the tighter axis is shared on both sides.
    const xmid = (xlo + xhi) / 2, ymid = (ylo + yhi) / 2;
    xlo = xmid - w / k / 2; xhi = xmid + w / k / 2; ylo = ymid - h / k / 2; yhi = ymid + h / k / 2;
    const X = (v) => m.l + (v - xlo) * k, Y = (v) => m.t + (v - ylo) * k;
    const xt = ticks(xlo, xhi, Math.max(2, Math.floor(w / 64))), yt = ticks(ylo, yhi, Math.max(2, Math.floor(h / 34)));
    for (const v of xt.points) {
      node("line", { class: "grid", x1: X(v), x2: X(v), y1: m.t, y2: m.t + h }, svg);
      node("text", { class: "tick", x: X(v), y: m.t + h + 15, "text-anchor": "middle" }, svg, xt.label(v));
    }
    for (const v of yt.points) {
      node("line", { class: "grid", x1: m.l, x2: m.l + w, y1: Y(v), y2: Y(v) }, svg);
      node("text", { class: "tick", x: m.l - 6, y: Y(v), "text-anchor": "end", "dominant-baseline": "middle" }, svg, yt.label(v));
    }
    node("rect", { class: "axis", x: m.l, y: m.t, width: w, height: h, fill: "none" }, svg);
    node("text", { x: m.l + w / 2, y: H - 5, "text-anchor": "middle" }, svg, `translateX (${trackUnit(d, kx) || "unitless"})`);
    node("text", { x: 0, y: 0, "text-anchor": "middle", transform: `translate(14 ${m.t + h / 2}) rotate(-90)` }, svg, `translateY (${trackUnit(d, ky) || "unitless"}) ↓ down`);
    const path = tx.t.map((_, i) => `${i ? "L" : "M"}${X(tx.x[i]).toFixed(1)} ${Y(ty.x[i]).toFixed(1)}`).join("");
    node("path", { class: "curve", d: path, stroke: COLORS[0] }, svg);
    const at = (tr, t) => {
      const i = tr.t.findIndex((u) => u >= t);
      if (i <= 0) return tr.x[i < 0 ? tr.x.length - 1 : 0];
      const f = (t - tr.t[i - 1]) / (tr.t[i] - tr.t[i - 1] || 1);
      return tr.x[i - 1] + f * (tr.x[i] - tr.x[i - 1]);
    };
    // Every mark gets its dot; a label that would overlap the last one drawn is left out
    // (a motion near rest puts its last marks on one spot).
    const times = ticks(0, d.duration, PATH_MARKS);
    let last = null;
    for (const t of times.points) {
      const x = X(at(tx, t)), y = Y(at(ty, t));
      node("circle", { class: "path-mark", cx: x, cy: y, r: 3.5 }, svg);
      if (last && Math.abs(x - last[0]) < 40 && Math.abs(y - last[1]) < 16) continue;
      node("text", { class: "tick", x: x + 6, y: y - 6 }, svg, `${times.label(t)} s`);
      last = [x, y];
    }
  };
  const drawPathPanel = (card, d) => {
    const names = d.tracks.map((tr) => tr.name);
    const kx = names.indexOf("translateX"), ky = names.indexOf("translateY");
    let box = card.querySelector(".path-box");
    if (kx < 0 || ky < 0 || d.ring) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("div");
      box.className = "plot-box path-box";
      const svg = node("svg", { class: "path-svg", role: "img", "aria-label": `Path of ${d.name} on screen, x against y, with times` });
      box.appendChild(svg);
      card.querySelector(".plot-legend").after(box);
    }
    drawPath(box.querySelector("svg"), d, kx, ky);
  };
  // Called with a card after its plot is drawn (the tuning script's handles draw over it).
  const drawnHooks = [];
  const drawCards = () => document.querySelectorAll("article[data-motion]").forEach(drawCard);
  const drawCard = (card) => {
    const d = motions.get(card.dataset.motion);
    const box = card.querySelector(".plot-box");
    if (!d || !box) return;
    const panels = cardPanels(d);
    // One svg per panel: the markup has the first; more are added for more tracks.
    while (box.querySelectorAll("svg").length < panels.length) box.appendChild(box.querySelector("svg").cloneNode(false));
    box.querySelectorAll("svg").forEach((svg, i) => drawPlot(svg, panels[i]));
    let list = card.querySelector(".plot-legend");
    if (!list) {
      list = document.createElement("ul");
      list.className = "plot-legend";
      box.after(list);
    }
    const tracks = d.tracks.length > 1 && panels.length === 1
      ? panels[0].series.map((s, k) => ({ text: d.tracks[k].name, color: s.color })) : [];
    // Every panel marks the same times: each is named once.
    const marks = panels.flatMap(markItems).filter((m, i, all) => all.findIndex((o) => o.text === m.text) === i);
    legend(list, [...tracks, ...marks]);
    drawPathPanel(card, d);
    drawnHooks.forEach((f) => f(card, d));
  };

  // ---- Comparison on one time axis -------------------------------------------------------
  // Progress of a track: 0 at its first value, 1 at its end value (its last frame when it has
  // none); a track that ends where it starts is divided by its largest excursion instead.
  const progress = (x, end) => {
    const x0 = x[0];
    let span = end - x0;
    if (Math.abs(span) < 1e-12) span = Math.max(...x.map((v) => Math.abs(v - x0))) || 1;
    return x.map((v) => (v - x0) / span);
  };
  const compareSeries = () => {
    const out = [];
    const add = (d, label, dashed) => d.tracks.forEach((tr, k) => {
      const end = d.ends[k] !== undefined ? d.ends[k] : tr.x[tr.x.length - 1];
      out.push({
        label: d.tracks.length > 1 ? `${label} ${tr.name}` : label, d, dashed, t: tr.t,
        track: tr.name, unit: trackUnit(d, k) || "unitless", down: tr.down,
        x: state.mode === "progress" ? progress(tr.x, end) : tr.x,
      });
    });
    for (const name of state.picks) if (motions.has(name)) add(motions.get(name), name, false);
    for (const [name, d] of state.pinned) add(d, `${name} (before)`, true);
    return out;
  };
  const drawCompare = () => {
    const section = document.getElementById("compare");
    const series = compareSeries();
    section.hidden = series.length === 0;
    if (section.hidden) return;
    // Each track of each motion has its own colour (a ring's two radii, a toss's x and y); a
    // kept version shares its motion's, dashed.
    const key = (s) => `${s.d.name}\n${s.track}`;
    const keys = [...new Set(series.map(key))];
    series.forEach((s) => { s.color = COLORS[keys.indexOf(key(s)) % COLORS.length]; });
    const units = [...new Set(series.map((s) => s.unit))];
    const position = state.mode === "position";
    const down = position && series.every((s) => s.down);
    drawPlot(section.querySelector("svg"), {
      height: 260, duration: Math.max(...series.map((s) => s.d.duration)), down, series, vlines: [],
      hlines: position ? [] : [{ v: 0, cls: "grid" }, { v: 1, cls: "end" }],
      ylabel: position ? `position (${units.join(", ")})${down ? " ↓ down" : ""}` : "progress",
    });
    const items = series.map((s) => ({ text: s.label, color: s.color, style: s.dashed ? "dashed" : "solid" }));
    if (position && units.length > 1) items.push({ text: "different units on one axis: compare progress instead" });
    legend(section.querySelector(".plot-legend"), items);
  };

  // ---- Scrubber, replay, loop, quarter speed, 1:1 ----------------------------------------
  const scrub = document.getElementById("scrub");
  const scrubTime = document.getElementById("scrub-time");
  // Every preview paused at the scrubber's time t: an animation of per-iteration length d
  // (4 D at quarter speed) for a motion of D seconds is at min(t, D) / D * d, so it shows the
  // motion's value at t. Past its end it holds its last frame, 2 µs before the end (Blink
  // takes 1 µs from the end as the end, and a ring's animation lets go of it there).
  const seekAll = () => {
    const t = state.scrub;
    body.classList.toggle("scrubbing", t !== null);
    scrubTime.textContent = t === null ? "playing" : `${t.toFixed(3)} s`;
    seek(document);
  };
  // The previews and plot cursors in `scope` (a card whose motion was baked again) only.
  const seek = (scope) => {
    const t = state.scrub;
    if (t !== null) {
      scope.querySelectorAll("[data-anim]").forEach((el) => {
        const D = Number(el.dataset.duration);
        for (const a of el.getAnimations({ subtree: true })) {
          const d = Number(a.effect.getComputedTiming().duration) || 0;
          a.pause();
          // (An animation of no time, under reduced motion, shows its end.)
          a.currentTime = D > 0 ? Math.max(0, Math.min((Math.min(t, D) / D) * d, d - 0.002)) : 0;
        }
      });
    }
    scope.querySelectorAll(".plot-svg").forEach(moveCursor);
  };
  // What the scrubber spans (a 20 s decay must not make a 0.3 s fade a few pixels of it):
  // every motion (the longest, the default), the motions on screen, or those picked to
  // compare (the comparison's time axis); with none on screen or picked, every motion. A
  // time past the new end is brought back to it.
  const span = document.getElementById("scrub-span");
  let longest = Number(scrub.max);
  const onScreen = () => {
    const top = document.querySelector("header.top").offsetHeight;
    return [...document.querySelectorAll("article[data-motion]")].filter((a) => {
      const r = a.getBoundingClientRect();
      return r.bottom > top && r.top < innerHeight && r.height > 0;
    }).map((a) => motions.get(a.dataset.motion));
  };
  const spanEnd = () => {
    const shown = span.value === "view" ? onScreen()
      : span.value === "picked" ? [...[...state.picks].map((n) => motions.get(n)), ...state.pinned.values()] : [];
    const ends = shown.filter(Boolean).map((d) => d.duration);
    return ends.length ? Math.max(...ends) : longest;
  };
  const applySpan = () => {
    span.options[0].textContent = `all motions (${short(longest)} s)`;
    const end = spanEnd();
    if (Number(scrub.max) !== end) scrub.max = String(end);
    if (state.scrub !== null) setScrub(Math.min(state.scrub, end));
  };
  span.addEventListener("change", applySpan);
  let spanFrame = 0;
  addEventListener("scroll", () => {
    if (span.value !== "view" || spanFrame) return;
    spanFrame = requestAnimationFrame(() => { spanFrame = 0; applySpan(); });
  }, { passive: true });
  // The keyboard moves the time a frame (at 60 fps) at a time, ten with Shift, a tenth of the
  // span with Page Up and Down, to either end with Home and End, whatever the span.
  scrub.addEventListener("keydown", (e) => {
    const end = Number(scrub.max), now = state.scrub === null ? Number(scrub.value) : state.scrub;
    const frames = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[e.key];
    let t;
    if (frames !== undefined) t = Math.round(now * 60 + frames * (e.shiftKey ? 10 : 1)) / 60;
    else if (e.key === "PageUp" || e.key === "PageDown") t = now + (e.key === "PageUp" ? end : -end) / 10;
    else if (e.key === "Home" || e.key === "End") t = e.key === "Home" ? 0 : end;
    else return;
    e.preventDefault();
    setScrub(Math.min(Math.max(t, 0), end));
  });
  const initHooks = [];
  const setScrub = (t) => {
    // A preview that finished and handed its property back has no animation left to seek:
    // starting to scrub starts every preview again (paused at once by the seek).
    if (state.scrub === null && t !== null) restart(document);
    state.scrub = t === null ? null : Math.min(Math.max(t, 0), Number(scrub.max));
    if (state.scrub !== null) scrub.value = String(state.scrub);
    scrub.setAttribute("aria-valuetext", state.scrub === null ? "playing" : `${state.scrub.toFixed(3)} seconds of ${short(Number(scrub.max))}`);
    seekAll();
  };
  scrub.addEventListener("input", () => setScrub(Number(scrub.value)));
  // Clicking or dragging on a plot scrubs to that time.
  document.addEventListener("pointerdown", (event) => {
    const svg = event.target.closest && event.target.closest(".plot-svg");
    if (!svg || !svg.plotTime) return;
    const at = (e) => {
      const r = svg.getBoundingClientRect(), p = svg.plotTime;
      const x = ((e.clientX - r.left) / r.width) * Number(svg.getAttribute("width"));
      setScrub(((x - p.left) / p.width) * p.duration);
    };
    at(event);
    const move = (e) => at(e);
    svg.addEventListener("pointermove", move);
    addEventListener("pointerup", () => svg.removeEventListener("pointermove", move), { once: true });
  });
  // Starts the previews in `scope` over.
  function restart(scope) {
    scope.querySelectorAll("[data-anim]").forEach((el) => {
      const name = el.dataset.anim;
      el.classList.remove(name);
      void el.offsetWidth; // restyle without the class, so that adding it starts over
      el.classList.add(name);
    });
  }
  const replay = (scope) => {
    if (state.scrub !== null) setScrub(null);
    restart(scope);
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.replay) replay(button.dataset.replay === "all" ? document : button.closest("article"));
    if (button.dataset.pin && motions.has(button.dataset.pin)) {
      state.pinned.set(button.dataset.pin, motions.get(button.dataset.pin));
      state.picks.add(button.dataset.pin);
      restorePicks();
      drawCompare();
      applySpan();
    }
    if (button.id === "compare-clear") {
      state.picks.clear();
      state.pinned.clear();
      restorePicks();
      drawCompare();
      applySpan();
    }
  });
  document.addEventListener("change", (event) => {
    const input = event.target;
    if (input.dataset && input.dataset.pick) {
      if (input.checked) state.picks.add(input.dataset.pick);
      else state.picks.delete(input.dataset.pick);
      drawCompare();
      applySpan();
    } else if (input.name === "compare-mode") {
      state.mode = input.value;
      drawCompare();
    }
  });
  const restorePicks = () => document.querySelectorAll("input[data-pick]").forEach((box) => { box.checked = state.picks.has(box.dataset.pick); });
  for (const [id, cls] of [["loop", "looping"], ["slow", "slow"], ["actual", "actual"]]) {
    const box = document.getElementById(id);
    box.addEventListener("change", () => {
      body.classList.toggle(cls, box.checked);
      if (cls === "actual") fitAll();
      else if (state.scrub !== null) seekAll();
      else if (cls === "slow") replay(document);
    });
  }

  // ---- Live updates under `curvebake watch --serve` --------------------------------------
  const header = document.querySelector("header.top");
  const live = document.getElementById("live");
  // Set only when it changed: a property of the root changed restyles the whole page.
  const setHeaderHeight = () => {
    const height = `${header.offsetHeight}px`;
    const root = document.documentElement.style;
    if (root.getPropertyValue("--header-height") !== height) root.setProperty("--header-height", height);
  };
  // The page keeps its scroll position as the box of errors comes, goes or changes (it is
  // sticky, over the cards), whichever card the browser's scroll anchoring holds on to.
  // Only when they changed: every poll would otherwise touch the page (and restyle it).
  let shown = "[]";
  const showErrors = (errors) => {
    const text = JSON.stringify(errors);
    if (text === shown) return;
    shown = text;
    const y = scrollY;
    fillErrors(errors);
    if (scrollY !== y) scrollTo(scrollX, y);
  };
  const fillErrors = (errors) => {
    const box = document.getElementById("bake-errors");
    box.hidden = errors.length === 0;
    if (box.hidden) { box.replaceChildren(); return; }
    const title = document.createElement("h2");
    title.textContent = `The last bake had ${errors.length} error${errors.length === 1 ? "" : "s"}: fix and save, and this page follows`;
    box.replaceChildren(title, ...errors.map((e) => {
      const item = document.createElement("div");
      item.className = "bake-error";
      const where = document.createElement("p");
      where.className = "where";
      where.textContent = e.line ? `${e.file}:${e.line}:${e.col}` : e.file;
      const message = document.createElement("p");
      message.className = "message";
      message.textContent = e.message;
      item.append(where, message);
      // The source line and the caret, as the command line prints them.
      const lines = e.text.split("\n");
      if (e.line && lines.length > 1) {
        const pre = document.createElement("pre");
        pre.textContent = lines.slice(1).join("\n");
        item.appendChild(pre);
      }
      return item;
    }));
  };
  // What the server sent of each card (before this script drew on it), to tell on a live
  // update which cards changed.
  let served = new Map();
  const remember = (root) => {
    served = new Map([...root.querySelectorAll("article[data-motion]")].map((a) => [a.dataset.motion, a.outerHTML]));
  };
  // The motions' stylesheets, by their path (without the query that made them load again):
  // linked, or inline where a live update put them (`data-href`).
  const sheets = (root) => new Map([...root.querySelectorAll('link[rel="stylesheet"], style[data-href]')]
    .map((l) => [(l.getAttribute("href") || l.dataset.href).split("?")[0], l]));
  // Loads `load` again (with the generation as a query, so that none comes from a cache), each
  // beside its old link, which goes once they are all loaded (so no card shows unstyled), with
  // the links of those no longer `wanted`.
  const swapSheets = async (wanted, load, generation) => {
    const have = sheets(document);
    await Promise.all(load.map((h) => new Promise((done) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = `${h}?g=${generation}`;
      link.onload = link.onerror = done;
      setTimeout(done, 2000);
      if (have.has(h)) have.get(h).after(link);
      else document.head.appendChild(link);
    })));
    for (const [h, l] of have) if (load.includes(h) || !wanted.includes(h)) l.remove();
  };
  // Called with a card and the one replacing it, before it does (the tuning script carries
  // its panel over).
  const swapHooks = [];
  const replaceCards = (cards) => cards.forEach((a) => {
    const old = document.querySelector(`article[data-motion="${CSS.escape(a.dataset.motion)}"]`);
    swapHooks.forEach((f) => f(old, a));
    old.replaceWith(document.adoptNode(a));
  });
  // After one bake of the same motions (`known.cards` not null): fetches only the cards it
  // changed (the server compares each bake's page with the one before) and the stylesheets it
  // wrote, and swaps them in together, each stylesheet put inline in place of the old one, so
  // that the page is restyled once (any change to its stylesheets restyles all of it). The
  // new cards, or null when the server's bake is not that one (the page is then fetched whole).
  const swapChanged = async (generation, known) => {
    const have = sheets(document);
    const load = [...have.keys()].filter((h) => known.written.includes(h));
    const fetched = async (url) => {
      const response = await fetch(url, { cache: "no-store" });
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return response;
    };
    let update, css;
    try {
      [update, css] = await Promise.all([
        fetched(CARDS).then((r) => r.json()),
        Promise.all(load.map((h) => fetched(h).then((r) => r.text()))),
      ]);
    } catch (e) {
      return null;
    }
    if (update.generation !== generation || !update.cards) return null;
    const template = document.createElement("template");
    template.innerHTML = update.cards.join("") + update.summary;
    const cards = [...template.content.querySelectorAll("article[data-motion]")];
    cards.forEach((a) => served.set(a.dataset.motion, a.outerHTML));
    // The cards first: moving a focused element (the Save just clicked) out of the page makes
    // the browser bring its style up to date, which is cheap only before the sheets change.
    replaceCards(cards);
    load.forEach((h, i) => {
      const style = document.createElement("style");
      style.dataset.href = h;
      style.textContent = css[i];
      have.get(h).replaceWith(style);
    });
    document.querySelector(".summary").replaceWith(template.content.querySelector(".summary"));
    longest = Number(update.longest);
    return cards;
  };
  // Fetches the page again and swaps in what changed: the stylesheets the bake wrote (all of
  // them when not known) are loaded again, then the cards that changed are replaced (all of
  // `main`, which holds only the cards, when motions came, went or moved). The new cards, or
  // null when `main` was; undefined when the page could not be fetched.
  const swapWhole = async (generation, known) => {
    const response = await fetch(location.pathname, { cache: "no-store" });
    if (!response.ok) return undefined;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.querySelector("main");
    if (!fresh) return undefined;
    const have = sheets(document);
    const wanted = [...sheets(doc).keys()];
    await swapSheets(wanted, wanted.filter((h) => !have.has(h) || !known || known.written.includes(h)), generation);
    const cards = [...fresh.querySelectorAll("article[data-motion]")];
    const names = (list) => JSON.stringify(list);
    const same = names(cards.map((a) => a.dataset.motion)) === names([...served.keys()]);
    const changed = same ? cards.filter((a) => served.get(a.dataset.motion) !== a.outerHTML) : null;
    remember(fresh);
    if (changed) replaceCards(changed);
    else document.querySelector("main").replaceWith(document.adoptNode(fresh));
    document.title = doc.title;
    const summary = doc.querySelector(".summary");
    if (summary) document.querySelector(".summary").replaceWith(document.adoptNode(summary));
    const max = doc.getElementById("scrub");
    if (max) longest = Number(max.max);
    return changed;
  };
  // Shows the bake of `generation`: `known`, its status when it is the bake after the page's
  // (what it wrote and how many cards it changed), lets only those be fetched. The scroll
  // position, the scrubber, the comparison and the 1:1 setting are applied to the new cards.
  const refresh = async (generation, known) => {
    const y = scrollY;
    let changed = known?.cards != null ? await swapChanged(generation, known) : null;
    if (!changed) changed = await swapWhole(generation, known);
    if (changed === undefined) return;
    init(changed);
    scrollTo(scrollX, y);
    document.documentElement.dataset.generation = String(generation);
  };
  // Polled every 250 ms; every 20 ms for 2 s after `expectBake` (a save made from this page:
  // its bake follows at once).
  let eager = 0, polling = false, next = null;
  const poll = async () => {
    polling = true;
    let wait = 250;
    try {
      const response = await fetch(STATUS, { cache: "no-store" });
      if (!response.ok) return; // not served by `curvebake watch --serve`: nothing to follow
      const status = await response.json();
      live.hidden = false;
      live.classList.remove("off");
      live.textContent = "live";
      // A bake with errors leaves the cards as they are (a broken file's motions would
      // vanish from the new page): the errors show over them until a clean bake replaces them.
      if (state.generation === null) state.generation = status.generation;
      if (status.generation !== state.generation && status.errors.length === 0) {
        // The files written and cards changed are the last bake's: they say what changed only
        // since the one before.
        await refresh(status.generation, status.generation === state.generation + 1 ? status : null);
        eager = 0;
      }
      if (status.errors.length === 0) state.generation = status.generation;
      showErrors(status.errors);
      setHeaderHeight();
      if (performance.now() < eager) wait = 20;
    } catch (e) {
      live.classList.add("off");
      live.textContent = "disconnected";
      wait = 1000;
    } finally {
      polling = false;
    }
    next = setTimeout(poll, wait);
  };
  const expectBake = () => {
    eager = performance.now() + 2000;
    if (polling) return;
    clearTimeout(next);
    poll();
  };

  // Sets the page up from its cards' data; `cards`: only those are new (a live update).
  const init = (cards) => {
    readData(cards);
    initHooks.forEach((f) => f(cards));
    if (cards) {
      cards.forEach((card) => { card.querySelectorAll(".fit").forEach(fit); drawCard(card); });
    } else {
      fitAll();
      drawCards();
    }
    restorePicks();
    drawCompare();
    applySpan();
    seekAll();
  };
  remember(document);
  init();
  setHeaderHeight();
  let width = innerWidth;
  addEventListener("resize", () => {
    setHeaderHeight();
    fitAll();
    if (innerWidth !== width) { width = innerWidth; drawCards(); drawCompare(); }
    if (span.value === "view") applySpan();
  });
  if (location.protocol === "http:" || location.protocol === "https:") poll();
  // What the tuning script of `curvebake watch --serve` builds on.
  window.curvebakeReview = {
    state, setScrub, refresh, expectBake, motions: () => motions, fit, drawCard, drawCompare, seek,
    onInit: (f) => initHooks.push(f), onDrawn: (f) => drawnHooks.push(f), onSwap: (f) => swapHooks.push(f),
  };
})();

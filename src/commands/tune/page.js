// Tuning in the review page, loaded only by the page that `curvebake watch --serve` serves
// (which carries the run's secret in <meta name="curvebake-tune">): a control for every
// number of each motion as written in its curve file, each change baked again by the server
// with the real engine and shown without a reload, Save and Revert, and handles on the plot
// (a spring's first overshoot peak and "looks done" marker, a fling's rest, an inertia's
// bounds) that solve for the parameters giving that outcome.
(() => {
  "use strict";
  const review = window.curvebakeReview;
  const meta = document.querySelector('meta[name="curvebake-tune"]');
  if (!review || !meta) return;
  const SECRET = meta.content, BASE = "/_curvebake/tune/", SVG = "http://www.w3.org/2000/svg";
  // Per motion: file, the file's hash when read, params [{key, name, value, text}], the saved
  // values and the current ones (by key), and the state of its bake requests.
  const tuned = new Map();
  // From an input to its card updated, in ms, and that time's two parts: the request (the
  // server's bake and the way there and back) and the page's update.
  const timings = [], parts = [];
  window.curvebakeTune = { tuned, timings, parts };

  const ask = async (what, body) => {
    const response = await fetch(BASE + what, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Curvebake-Secret": SECRET },
      body: JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw Object.assign(new Error(json.error || `HTTP ${response.status}`), { status: response.status });
    return json;
  };
  const cardOf = (name) => document.querySelector(`article[data-motion="${CSS.escape(name)}"]`);
  const dirty = (e) => Object.keys(e.current).some((k) => e.current[k] !== e.saved[k]);
  const short = (x) => String(Number(x.toPrecision(4)));

  // ---- Ranges: a slider over a sensible span for what the number is ----------------------
  const LIMITS = {
    stiffness: [1, 1000], damping: [0, 100], mass: [0.1, 10], damping_ratio: [0, 2],
    damping_fraction: [0, 2], perceptual_duration: [0.05, 3], response: [0.05, 3],
    visual_duration: [0.05, 3], duration: [0.05, 5], friction: [0.001, 1], restitution: [0, 0.99],
    origami_tension: [0, 200], origami_friction: [0, 100], lambda: [0.1, 30],
    bounce_stiffness: [1, 2000], bounce_damping: [0, 100],
  };
  // Positions and speeds have no natural scale: the span grows with the motion's own numbers.
  const range = (p, params, kind) => {
    const v = p.value;
    if (p.name === "bounce") return kind.includes("visual_duration") ? [0, 1] : [-0.95, 0.95];
    if (LIMITS[p.name]) {
      const [lo, hi] = LIMITS[p.name];
      return [Math.min(lo, v), Math.max(hi, v * 3)];
    }
    const scale = Math.max(1, ...params.filter((q) => !LIMITS[q.name] && q.name !== "bounce").map((q) => Math.abs(q.value)));
    const span = /velocity|acceleration/.test(p.name) ? Math.max(scale, Math.abs(v)) * 2 : scale * 1.5;
    return [v - span, v + span];
  };
  // A step of about a 500th of the span, a power of ten, and a value rounded to it.
  const stepOf = (lo, hi) => 10 ** Math.floor(Math.log10((hi - lo) / 500 || 1));
  const round = (v, step) => Number((Math.round(v / step) * step).toFixed(Math.max(0, -Math.log10(step))));

  // ---- The panel of a card ----------------------------------------------------------------
  // A group's legend: a track by its property, a sequence's step by its group's name
  // (`step_0`, as the numbers table, the plot and `inspect` name it).
  const groupOf = (key, d) => {
    const path = key.split(".").slice(0, -1);
    const words = [];
    for (let i = 0; i < path.length; i++) {
      if (path[i] === "tracks" && /^\d+$/.test(path[i + 1] || "")) {
        const k = Number(path[++i]);
        words.push(d && d.tracks[k] ? d.tracks[k].name : `track ${k + 1}`);
      } else if (/^\d+$/.test(path[i]) && path[i - 1] === "motion") {
        words.push(`step_${path[i]}`);
      } else if (path[i] === "snap" || path[i] === "inner" || path[i] === "outer") {
        words.push(path[i]);
      }
    }
    return words.join(" · ");
  };
  // A number's name as the file writes it; an item of a list with its position in the list
  // (`snap[0]`, `snap[1]`: five snap points are five controls a person, and a screen reader,
  // can tell apart).
  const nameOf = (p) => {
    const last = p.key.split(".").pop();
    return /^\d+$/.test(last) ? `${p.name}[${last}]` : p.name;
  };
  // A group's number fields as wide as the longest number they show (a value typed in
  // another form is written to 12 digits: 9.09945053286 is not cut to 9.0994505), at least
  // the width they had.
  const fit = (group) => {
    if (!group) return;
    const longest = Math.max(0, ...[...group.querySelectorAll('input[type="number"]')].map((i) => i.value.length));
    group.style.setProperty("--tune-chars", Math.min(24, longest));
  };
  const panel = (card, name) => {
    const e = tuned.get(name);
    const d = review.motions().get(name);
    const kind = e.params.map((p) => p.name);
    const box = document.createElement("section");
    box.className = "tune";
    box.setAttribute("aria-label", `Tune ${name}`);
    // The file's hash its values were read from: a card replaced by a live update keeps the
    // panel while the file is still that one.
    box.dataset.hash = e.hash;
    const head = document.createElement("h3");
    head.textContent = "Tune";
    const where = document.createElement("span");
    where.className = "tune-file";
    where.textContent = e.file;
    head.append(" ", where);
    box.appendChild(head);
    if (handles(card, e)) {
      const hint = document.createElement("p");
      hint.className = "tune-hint";
      hint.textContent = `Or drag the red handles on the plot (or focus one and press the arrow keys, Shift for bigger steps): ${handles(card, e)}.`;
      box.appendChild(hint);
    }
    const groups = new Map();
    for (const p of e.params) {
      const group = groupOf(p.key, d);
      if (!groups.has(group)) {
        const set = document.createElement(group ? "fieldset" : "div");
        set.className = "tune-group";
        if (group) {
          const legend = document.createElement("legend");
          legend.textContent = group;
          set.appendChild(legend);
        }
        groups.set(group, set);
        box.appendChild(set);
      }
      const [lo, hi] = range(p, e.params, kind);
      const step = stepOf(lo, hi);
      const row = document.createElement("div");
      row.className = "tune-param";
      const label = document.createElement("span");
      label.className = "tune-name";
      label.textContent = nameOf(p);
      const slider = document.createElement("input");
      Object.assign(slider, { type: "range", min: lo, max: hi, step, value: e.current[p.key] });
      const field = document.createElement("input");
      Object.assign(field, { type: "number", step: "any", value: e.current[p.key] });
      for (const input of [slider, field]) {
        input.setAttribute("aria-label", nameOf(p));
        input.dataset.key = p.key;
        input.dataset.tune = name;
      }
      slider.dataset.step = step;
      row.append(label, slider, field);
      groups.get(group).appendChild(row);
    }
    groups.forEach(fit);
    formSwitch(card, name, box);
    const figures = document.createElement("p");
    figures.className = "tune-figures";
    figures.setAttribute("aria-live", "polite");
    const actions = document.createElement("div");
    actions.className = "tune-actions";
    const save = document.createElement("button");
    Object.assign(save, { type: "button", textContent: "Save", className: "tune-save" });
    save.dataset.tuneSave = name;
    const revert = document.createElement("button");
    Object.assign(revert, { type: "button", textContent: "Revert", className: "tune-revert" });
    revert.dataset.tuneRevert = name;
    const status = document.createElement("span");
    status.className = "tune-status";
    status.setAttribute("role", "status");
    actions.append(save, revert, status);
    box.append(figures, actions);
    // Under the plot, above the preview: what is tuned, and what it does, in view together.
    const plot = card.querySelector("figure.plot") || card.querySelector(".card-head");
    plot.after(box);
    showState(card, e);
    if (e.said) say(name, ...e.said);
    return box;
  };
  const showState = (card, e) => {
    const changed = dirty(e);
    card.classList.toggle("tuned", changed);
    const actions = card.querySelector(".tune-actions");
    const focused = actions.contains(document.activeElement);
    card.querySelector(".tune-save").disabled = !changed;
    card.querySelector(".tune-revert").disabled = !changed;
    // A button disabled under the keyboard's focus (Save or Revert, done) hands it to the
    // card's status line, which says what happened, rather than to the page's top.
    if (focused && (!actions.contains(document.activeElement) || document.activeElement.disabled)) {
      const status = card.querySelector(".tune-status");
      status.tabIndex = -1;
      status.focus();
    }
  };
  // A card's status line; kept with the motion, so that a card replaced by a live update
  // shows it again. What a bake of the values shown would warn of follows it (a slip such as
  // 400 for 0.4 s makes a motion of minutes: said here, not only in the terminal).
  const say = (name, text, bad, offer) => {
    const e = tuned.get(name);
    if (e) e.said = [text, bad, offer];
    const card = cardOf(name);
    const status = card && card.querySelector(".tune-status");
    if (!status) return;
    const warnings = (!bad && e && e.warnings) || [];
    status.replaceChildren([text, ...warnings.map((w) => `warning: ${w}`)].filter(Boolean).join(" · "));
    status.classList.toggle("bad", !!bad);
    status.classList.toggle("warn", warnings.length > 0);
    // The number last moved, when the motion refuses it, is marked so and points at the
    // reason (for a screen reader as for the eye).
    status.id ||= `tune-status-${name}`;
    card.querySelectorAll(".tune input[data-key]").forEach((input) => {
      const marked = !!bad && e && input.dataset.key === e.moved;
      if (marked) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", status.id);
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    });
    if (offer) {
      const button = document.createElement("button");
      Object.assign(button, { type: "button", textContent: "Reload from the file" });
      button.dataset.tuneReload = name;
      status.append(" ", button);
    }
  };
  // Puts the current values into the controls (after a handle moved them, or a revert), all
  // but `typing`, the field (with its slider) of another form being typed in.
  const showValues = (name, typing) => {
    const e = tuned.get(name), card = cardOf(name);
    if (!card) return;
    card.querySelectorAll(".tune input[data-key]").forEach((input) => {
      const v = e.current[input.dataset.key];
      if (input.type === "range") {
        if (v < Number(input.min)) input.min = v;
        if (v > Number(input.max)) input.max = v;
      }
      if (document.activeElement !== input || input.type === "range") input.value = v;
    });
    card.querySelectorAll(".tune .tune-group").forEach(fit);
    showState(card, e);
    refreshOther(card, typing);
  };

  // ---- Baking again ---------------------------------------------------------------------
  // One request at a time per motion; what changes meanwhile is sent when it comes back, so a
  // dragged slider never queues stale bakes.
  const rebake = (name, started) => {
    const e = tuned.get(name);
    e.started = e.started || started || performance.now();
    if (e.busy) { e.again = true; return; }
    e.busy = true;
    const t0 = e.started;
    e.started = null;
    ask("bake", { file: e.file, motion: name, values: e.current })
      .then((answer) => {
        const fetched = performance.now();
        e.warnings = answer.warnings || [];
        apply(name, answer);
        timings.push(performance.now() - t0);
        parts.push({ request: fetched - t0, page: performance.now() - fetched });
        // A file changed on disk stays said (with its offer to reload) until reloaded.
        if (!e.stale) say(name, dirty(e) ? "changed, not saved" : "");
      })
      .catch((error) => say(name, error.message, true))
      .finally(() => {
        e.busy = false;
        if (e.again) { e.again = false; rebake(name); }
      });
  };
  // The card as the server baked it: its preview and numbers replaced, its data and CSS
  // updated, its plot, the comparison and the scrubber's seek redrawn.
  const apply = (name, answer) => {
    const card = cardOf(name);
    if (!card) return;
    const template = document.createElement("template");
    template.innerHTML = answer.card;
    const fresh = template.content.querySelector("article");
    applyCss(card, name, answer.css || "");
    const detail = fresh.querySelector(".detail");
    if (detail) card.querySelector(".detail").replaceWith(detail);
    const data = fresh.querySelector("script.motion-data").textContent;
    card.querySelector("script.motion-data").textContent = data;
    review.motions().set(name, JSON.parse(data));
    tuned.get(name).figures = answer.figures;
    card.querySelectorAll(".fit").forEach(review.fit);
    review.drawCard(card);
    review.drawCompare();
    review.seek(card);
    showFigures(card, answer.figures);
    showState(card, tuned.get(name));
  };
  // A tuned motion's CSS: its custom properties (the top `:root` block: its duration and
  // easings) are set on its card, which restyles only the card; the rest (keyframes, classes)
  // goes into a stylesheet of its own, written only when it changed, since any change to the
  // page's stylesheets restyles all of it (about 30 ms against 5 with 111 motions). With
  // reduced motion all of it goes into the stylesheet, where the media query's duration wins.
  const ROOT = /^:root \{\n([^}]*)\n\}\n/m;
  const applyCss = (card, name, css) => {
    const block = matchMedia("(prefers-reduced-motion: reduce)").matches ? null : css.match(ROOT);
    const rest = block ? css.replace(ROOT, "") : css;
    let style = document.querySelector(`style[data-tuned="${CSS.escape(name)}"]`);
    if (!style) {
      style = document.createElement("style");
      style.dataset.tuned = name;
    }
    if (style.textContent !== rest || !style.isConnected) {
      style.textContent = rest;
      // Last, so it wins over the baked stylesheet (moved only when it is not: a move restyles
      // the whole page).
      if (document.head.lastElementChild !== style) document.head.appendChild(style);
    }
    if (block) for (const [, key, value] of block[1].matchAll(/(--[\w-]+):\s*([^;]*);/g)) card.style.setProperty(key, value);
  };
  const showFigures = (card, f) => {
    const out = card.querySelector(".tune-figures");
    if (!out || !f) return;
    const parts = [];
    if (f.looks_done !== null) parts.push(`looks done ${short(f.looks_done)} s`);
    if (f.rests !== null) parts.push(`at rest ${short(f.rests)} s`);
    // An overshoot is worth saying for a spring (0 % is news there), elsewhere when it happens.
    const spring = ((card.querySelector(".kind") || {}).textContent || "").startsWith("spring");
    for (const t of f.tracks) {
      if (t.overshoot_fraction === null || (!spring && !(t.overshoot_fraction > 0))) continue;
      const at = t.peak_time !== null ? ` at ${short(t.peak_time)} s` : "";
      const which = f.tracks.length > 1 ? `${t.name} ` : "";
      parts.push(`${which}overshoot ${short(t.overshoot_fraction * 100)} %${at}`);
    }
    out.textContent = parts.join(" · ");
  };
  const setValue = (name, key, value) => {
    const e = tuned.get(name);
    if (!Number.isFinite(value)) return;
    e.current[key] = value;
    e.moved = key;
  };

  document.addEventListener("input", (event) => {
    const input = event.target;
    if (!input.dataset || !input.dataset.tune || !input.dataset.key) return;
    const started = performance.now();
    const name = input.dataset.tune, key = input.dataset.key;
    const value = input.type === "range" ? round(Number(input.value), Number(input.dataset.step)) : Number(input.value);
    if (input.value === "" || !Number.isFinite(value)) return;
    setValue(name, key, value);
    const twin = input.parentElement.querySelector(input.type === "range" ? 'input[type="number"]' : 'input[type="range"]');
    twin.value = value;
    fit(input.closest(".tune-group"));
    showState(cardOf(name), tuned.get(name));
    refreshOther(cardOf(name));
    rebake(name, started);
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button");
    if (!button) return;
    if (button.dataset.tuneSave) save(button.dataset.tuneSave);
    if (button.dataset.tuneRevert) {
      const name = button.dataset.tuneRevert, e = tuned.get(name);
      e.current = { ...e.saved };
      showValues(name);
      rebake(name);
    }
    if (button.dataset.tuneReload) reload(button.dataset.tuneReload);
  });
  const save = (name) => {
    const e = tuned.get(name);
    const values = { ...e.current };
    const started = performance.now();
    say(name, "saving…");
    ask("save", { file: e.file, motion: name, values, hash: e.hash })
      .then((answer) => {
        // The watch bakes the file at once: the page follows as soon as it has.
        review.expectBake();
        e.hash = answer.hash;
        const box = cardOf(name) && cardOf(name).querySelector(".tune");
        if (box) box.dataset.hash = answer.hash;
        e.saved = values;
        e.savedAt = started;
        showState(cardOf(name), e);
        say(name, `saved to ${e.file}`);
      })
      .catch((error) => {
        e.stale = error.status === 409;
        say(name, error.message, true, e.stale);
      });
  };
  // The motion as its file is now: its values and hash read again, its edits dropped.
  const reload = async (name) => {
    await load(new Set([name]));
    const e = tuned.get(name);
    if (!e) return;
    const card = cardOf(name);
    if (card) {
      const old = card.querySelector(".tune");
      if (old) old.remove();
      panel(card, name);
      review.drawCard(card);
    }
    say(name, `reloaded from ${e.file}`);
    rebake(name);
  };

  // ---- The motions of the watched files ---------------------------------------------------
  // A motion with edits not saved keeps the values and the hash it had (so a save notices a
  // file changed on disk meanwhile); any other takes the file as it is now (`fresh` forces it).
  const load = async (fresh) => {
    const list = await ask("motions", {});
    for (const [name, m] of Object.entries(list.motions)) {
      const old = tuned.get(name);
      if (old && dirty(old) && !(fresh && fresh.has(name))) continue;
      const values = Object.fromEntries(m.params.map((p) => [p.key, p.value]));
      const said = old && !(fresh && fresh.has(name)) ? old.said : undefined;
      tuned.set(name, { file: m.file, hash: m.hash, params: m.params, saved: values, current: { ...values }, said, figures: m.figures });
    }
  };
  // A card new from a live update, or with a new panel: a motion still being tuned is baked
  // again over it; another shows the bake (its tuned CSS goes, from the page and the card).
  const follow = (card, name) => {
    showState(card, tuned.get(name));
    const style = document.querySelector(`style[data-tuned="${CSS.escape(name)}"]`);
    if (dirty(tuned.get(name))) {
      rebake(name);
    } else {
      if (style) style.remove();
      card.removeAttribute("style");
    }
  };
  // Gives every card its panel; one whose file changed since its panel read it (an edit on
  // disk) gets a new one.
  const attachAll = () => {
    document.querySelectorAll("article[data-motion]").forEach((card) => {
      const name = card.dataset.motion, e = tuned.get(name), old = card.querySelector(".tune");
      if (!e || (old && old.dataset.hash === e.hash)) return;
      if (old) old.remove();
      panel(card, name);
      showFigures(card, e.figures);
      follow(card, name);
      review.drawCard(card);
    });
  };
  // A card replaced by a live update keeps its panel (its values, form, figures and status) in
  // the new card, which is then drawn once, with its handles.
  review.onSwap((old, fresh) => {
    const box = old.querySelector(".tune"), name = fresh.dataset.motion;
    if (!box || !tuned.has(name)) return;
    // Moving the panel takes the focus from whatever in it had it: given back after.
    const focused = box.contains(document.activeElement) ? document.activeElement : null;
    (fresh.querySelector("figure.plot") || fresh.querySelector(".card-head")).after(box);
    follow(fresh, name);
    focused?.focus();
  });
  let loading = Promise.resolve();
  const fail = (error) => {
    document.documentElement.dataset.tuning = `unavailable: ${error.message}`;
  };
  // Reads the motions and gives the cards their panels. After a live update of `cards` (null:
  // all of them) that all kept their panels, tuning is ready at once: the motions are read
  // again without holding the page (a file edited on disk gets new panels then; a save from
  // a stale panel is refused by its hash meanwhile).
  let starts = 0;
  const start = (cards) => {
    const n = ++starts;
    const kept = cards && cards.every((card) => {
      const box = card.querySelector(".tune"), e = tuned.get(card.dataset.motion);
      return box && e && box.dataset.hash === e.hash;
    });
    const root = document.documentElement;
    root.dataset.tuning = kept ? "ready" : "loading";
    // Ready when the last start's motions are read (an earlier one's may still be on the way).
    const ready = () => { if (n === starts) root.dataset.tuning = "ready"; };
    loading = loading.then(load).then(attachAll).then(ready).catch(fail);
  };
  review.onInit(start);

  // ---- Handles on the plot ----------------------------------------------------------------
  // A spring in each form: its natural frequency ω0 and damping ratio ζ from the numbers as
  // written, and back (the forms of crates/motion/src/spring_forms.rs, with m = 1 where the
  // form has no mass).
  const TAU = 2 * Math.PI;
  const springForm = (e) => {
    const has = (k) => e.current["motion." + k] !== undefined;
    const v = (k, d) => (has(k) ? e.current["motion." + k] : d);
    const set = (k, x) => { if (has(k)) e.current["motion." + k] = x; };
    if (has("stiffness") && has("damping")) {
      const m = v("mass", 1), k = v("stiffness"), c = v("damping");
      return { w: Math.sqrt(k / m), z: c / (2 * Math.sqrt(k * m)), put: (w, z) => { set("stiffness", m * w * w); set("damping", 2 * z * w * m); } };
    }
    if (has("stiffness") && has("damping_ratio")) {
      const m = v("mass", 1);
      return { w: Math.sqrt(v("stiffness") / m), z: v("damping_ratio"), put: (w, z) => { set("stiffness", m * w * w); set("damping_ratio", z); } };
    }
    if (has("response")) {
      return { w: TAU / v("response"), z: v("damping_fraction"), put: (w, z) => { set("response", TAU / w); set("damping_fraction", z); } };
    }
    if (has("perceptual_duration")) {
      const b = v("bounce", 0);
      return { w: TAU / v("perceptual_duration"), z: b >= 0 ? 1 - b : 1 / (1 + b), fixed: !has("bounce"), put: (w, z) => { set("perceptual_duration", TAU / w); set("bounce", z <= 1 ? 1 - z : 1 / z - 1); } };
    }
    if (has("visual_duration")) {
      const b = v("bounce", 0);
      return { w: TAU / (1.2 * v("visual_duration")), z: Math.min(1, Math.max(0.05, 1 - b)), fixed: !has("bounce"), put: (w, z) => { set("visual_duration", TAU / (1.2 * w)); set("bounce", Math.min(0.95, Math.max(0, 1 - z))); } };
    }
    if (has("origami_tension")) {
      const k = (v("origami_tension") - 30) * 3.62 + 194, c = (v("origami_friction") - 8) * 3 + 25;
      return { w: Math.sqrt(k), z: c / (2 * Math.sqrt(k)), put: (w, z) => { set("origami_tension", (w * w - 194) / 3.62 + 30); set("origami_friction", (2 * z * w - 25) / 3 + 8); } };
    }
    return null;
  };
  // Arrow keys move a focused handle as a drag would, by KEY_STEP pixels of the plot (Shift:
  // SHIFT_STEP); after the bake redraws the plot, its new handle takes the focus back, and its
  // label (with the value it now sets) is read out.
  const KEY_STEP = 2, SHIFT_STEP = 10;
  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  // A handle at (x, y) of the plot's pixels: `id` names it across redraws, `label` says what it
  // is and sets; `drag(t, v, started, before, done)` solves for the values that put it at (t, v).
  // A handle is a slider of its own kind ("handle"): what it sets, now, is its value (the
  // text before the colon of its label); the plot holding it is a group, not an image.
  const handle = (svg, x, y, { id, label }, drag) => {
    const h = document.createElementNS(SVG, "circle");
    const now = label.split(":")[0];
    const number = Number((now.match(/-?[\d.]+/) || ["0"])[0]);
    Object.entries({ cx: x, cy: y, r: 7, class: "tune-handle", tabindex: "0", role: "slider", "aria-roledescription": "handle", "aria-label": label, "aria-valuenow": number, "aria-valuetext": now }).forEach(([k, v]) => h.setAttribute(k, v));
    svg.setAttribute("role", "group");
    h.dataset.handle = id;
    const title = document.createElementNS(SVG, "title");
    title.textContent = label;
    h.appendChild(title);
    const scale = svg.plotScale, name = svg.closest("article").dataset.motion, e = tuned.get(name);
    // Every move solves from the values at its start, so moves never compound.
    const moveTo = (px, py, start) => {
      e.current = { ...start };
      drag(scale.t(px), scale.v(py), performance.now(), start, review.motions().get(name).done);
    };
    h.addEventListener("pointerdown", (event) => {
      event.stopPropagation();
      // (No text selected, no page scrolled by the drag.) Pressing a handle ends typing in a
      // field as a press anywhere else would: the field no longer holds the focus (and the
      // keys) while the handle changes the numbers it shows.
      event.preventDefault();
      const typed = document.activeElement;
      if (typed && typed !== document.body && typed.blur) typed.blur();
      const start = { ...e.current };
      const move = (ev) => {
        const r = svg.getBoundingClientRect(), k = Number(svg.getAttribute("width")) / r.width;
        moveTo((ev.clientX - r.left) * k, (ev.clientY - r.top) * k, start);
      };
      addEventListener("pointermove", move);
      addEventListener("pointerup", () => removeEventListener("pointermove", move), { once: true });
    });
    h.addEventListener("keydown", (event) => {
      const arrow = ARROWS[event.key];
      if (!arrow) return;
      event.preventDefault();
      const step = event.shiftKey ? SHIFT_STEP : KEY_STEP;
      e.keyed = id;
      moveTo(x + arrow[0] * step, y + arrow[1] * step, { ...e.current });
    });
    // Focus moved elsewhere (not lost to a redraw): the next drawing leaves it there.
    h.addEventListener("focusout", (event) => { if (event.relatedTarget) e.keyed = null; });
    svg.appendChild(h);
    const lost = !document.activeElement || document.activeElement === document.body;
    if (e.keyed === id && lost) h.focus();
    return h;
  };
  const hline = (svg, v, cls) => {
    const s = svg.plotScale, l = document.createElementNS(SVG, "line");
    const [x1, x2] = [s.X(0), s.X(Infinity)];
    Object.entries({ x1, x2, y1: s.Y(v), y2: s.Y(v), class: cls }).forEach(([k, a]) => l.setAttribute(k, a));
    svg.appendChild(l);
  };
  // What a handle solved for, written with 4 significant digits (a file is read by people;
  // the outcome moves by far less than the handle's pixel).
  // ---- A spring in another platform's form ----------------------------------------------
  // Each form's parameters from ω0 and ζ (m = 1) and back; a form is offered when it can
  // write the spring exactly (motion.dev's only for 0.05 <= ζ <= 1). Moving one of them
  // writes the spring back in the file's own form (only its numbers change).
  const FORMS = {
    physical: { label: "stiffness, damping (mass 1)", params: ["stiffness", "damping"],
      from: (w, z) => [w * w, 2 * z * w], to: ([k, c]) => [Math.sqrt(k), c / (2 * Math.sqrt(k))], ok: () => true },
    android: { label: "Android/Compose: stiffness, damping_ratio", params: ["stiffness", "damping_ratio"],
      from: (w, z) => [w * w, z], to: ([k, z]) => [Math.sqrt(k), z], ok: () => true },
    perceptual: { label: "SwiftUI/Flutter: perceptual_duration, bounce", params: ["perceptual_duration", "bounce"],
      from: (w, z) => [TAU / w, z <= 1 ? 1 - z : 1 / z - 1], to: ([p, b]) => [TAU / p, b >= 0 ? 1 - b : 1 / (1 + b)], ok: () => true },
    response: { label: "SwiftUI: response, damping_fraction", params: ["response", "damping_fraction"],
      from: (w, z) => [TAU / w, z], to: ([r, f]) => [TAU / r, f], ok: () => true },
    motion_dev: { label: "motion.dev: visual_duration, bounce", params: ["visual_duration", "bounce"],
      from: (w, z) => [TAU / (1.2 * w), 1 - z], to: ([v, b]) => [TAU / (1.2 * v), 1 - b], ok: (w, z) => z >= 0.05 && z <= 1 },
    origami: { label: "Origami/Rebound: origami_tension, origami_friction", params: ["origami_tension", "origami_friction"],
      from: (w, z) => [(w * w - 194) / 3.62 + 30, (2 * z * w - 25) / 3 + 8], to: ([t, f]) => { const k = (t - 30) * 3.62 + 194; return [Math.sqrt(k), ((f - 8) * 3 + 25) / (2 * Math.sqrt(k))]; }, ok: () => true },
  };
  const formSwitch = (card, name, box) => {
    const e = tuned.get(name);
    const kind = (card.querySelector(".kind") || {}).textContent || "";
    if (!kind.startsWith("spring") || !springForm(e) || springForm(e).fixed) return;
    const row = document.createElement("label");
    row.className = "tune-form";
    const select = document.createElement("select");
    select.dataset.tuneForm = name;
    select.append(new Option("as written in the file", ""));
    for (const [key, f] of Object.entries(FORMS)) select.append(new Option(f.label, key));
    row.append("Form ", select);
    const group = document.createElement("fieldset");
    group.className = "tune-group tune-other";
    group.hidden = true;
    box.append(row, group);
    // `typing`: the field of this form being typed in, left as the person is writing it.
    const show = (typing) => {
      const f = FORMS[select.value], s = springForm(e);
      group.hidden = !f;
      if (!f) {
        delete group.dataset.shown;
        return;
      }
      const ok = f.ok(s.w, s.z);
      const values = f.from(s.w, s.z);
      // The same form still shown: its numbers are put in place (a focused field keeps its
      // focus, and shows the motion as it is now, moved by a handle or another control).
      const shown = `${select.value} ${ok}`;
      if (group.dataset.shown === shown) {
        group.querySelectorAll("input[data-index]").forEach((input) => {
          if (typing && input.parentElement === typing.parentElement) return;
          const v = values[Number(input.dataset.index)];
          if (input.type === "range") {
            if (v < Number(input.min)) input.min = v;
            if (v > Number(input.max)) input.max = v;
            input.value = v;
          } else input.value = Number(v.toPrecision(6));
        });
        fit(group);
        return;
      }
      group.dataset.shown = shown;
      group.replaceChildren();
      const legend = document.createElement("legend");
      legend.textContent = `${f.label} (written back as the file's form)`;
      group.appendChild(legend);
      if (!ok) {
        const note = document.createElement("p");
        note.className = "tune-hint";
        note.textContent = "This spring has no exact form here (motion.dev's damping ratio is between 0.05 and 1).";
        group.appendChild(note);
        return;
      }
      f.params.forEach((p, i) => {
        const [lo, hi] = range({ name: p, value: values[i] }, [], f.params);
        const step = stepOf(lo, hi);
        const slider = document.createElement("input");
        Object.assign(slider, { type: "range", min: lo, max: hi, step, value: values[i] });
        const field = document.createElement("input");
        Object.assign(field, { type: "number", step: "any", value: Number(values[i].toPrecision(6)) });
        const label = document.createElement("span");
        label.className = "tune-name";
        label.textContent = p;
        const wrap = document.createElement("div");
        wrap.className = "tune-param";
        for (const input of [slider, field]) {
          input.setAttribute("aria-label", p);
          input.dataset.tuneOther = name;
          input.dataset.index = i;
        }
        slider.dataset.step = step;
        wrap.append(label, slider, field);
        group.appendChild(wrap);
      });
      fit(group);
    };
    select.addEventListener("change", () => show());
    box.formShow = show;
  };
  // The other form's values follow the file's after every change, whatever has the focus
  // (but `typing`, the one of its fields being typed in, while it is).
  const refreshOther = (card, typing) => {
    const box = card && card.querySelector(".tune");
    if (box && box.formShow) box.formShow(typing);
  };
  document.addEventListener("input", (event) => {
    const input = event.target;
    if (!input.dataset || !input.dataset.tuneOther) return;
    const started = performance.now(), name = input.dataset.tuneOther, e = tuned.get(name);
    const group = input.closest(".tune-other"), card = cardOf(name);
    const f = FORMS[card.querySelector("select[data-tune-form]").value];
    const value = input.type === "range" ? round(Number(input.value), Number(input.dataset.step)) : Number(input.value);
    if (!f || input.value === "" || !Number.isFinite(value)) return;
    const twin = input.parentElement.querySelector(input.type === "range" ? 'input[type="number"]' : 'input[type="range"]');
    twin.value = value;
    const values = [...group.querySelectorAll('input[type="number"]')].map((i) => Number(i.value));
    const [w, z] = f.to(values);
    if (!(w > 0) || !(z >= 0)) return;
    const before = { ...e.current };
    springForm(e).put(w, z);
    // A number typed in another form is written back exactly (to 12 digits: ζ 0.5 typed in
    // Android's form stays 0.5, not 0.4999); a slider's, to 4 as a drag's.
    moved(name, started, before, input.type === "number" ? 12 : 4, input);
  });
  // What the handles of a card's plot set, in words (none: no handles).
  const handles = (card, e) => {
    const kind = (card.querySelector(".kind") || {}).textContent || "";
    const d = review.motions().get(card.dataset.motion);
    if (!d || d.tracks.length !== 1) return "";
    if (kind.startsWith("spring") && springForm(e)) return springForm(e).fixed ? "the time it looks done" : "the first overshoot and the time it looks done";
    if (kind.startsWith("friction")) return "where the fling rests";
    if (kind.startsWith("inertia") && (e.current["motion.min"] !== undefined || e.current["motion.max"] !== undefined)) return "the bounds";
    return "";
  };
  // `typing`: the field of another form that moved them, being typed in.
  const moved = (name, started, before, digits = 4, typing = null) => {
    const e = tuned.get(name);
    for (const [k, v] of Object.entries(e.current)) if (v !== before[k]) e.current[k] = Number(v.toPrecision(digits));
    showValues(name, typing);
    rebake(name, started);
  };
  review.onDrawn((card, d) => {
    const name = card.dataset.motion, e = tuned.get(name);
    const svg = card.querySelector(".plot-svg");
    if (!e || !svg || !svg.plotScale || d.tracks.length !== 1) return;
    const s = svg.plotScale, end = d.ends[0], tr = d.tracks[0];
    const unitOf = (track) => (track.unit ? ` ${track.unit}` : "");
    const kind = (card.querySelector(".kind") || {}).textContent || "";
    const spring = kind.startsWith("spring") ? springForm(e) : null;
    if (spring && end !== undefined) {
      // The first swing's peak as the figures say it: the closed form's, not a picked frame's.
      const f = e.figures && e.figures.tracks[0];
      if (f && f.peak_time !== null && !spring.fixed) {
        handle(svg, s.X(f.peak_time), s.Y(f.peak_value), {
          id: "peak",
          label: `first overshoot peak, ${short(f.overshoot_fraction * 100)} % at ${short(f.peak_time)} s: drag or use the arrow keys to set the overshoot and its time`,
        }, (t, v, started, before) => {
          // ζ from the overshoot os = exp(-ζπ/√(1-ζ²)): ζ = -ln(os)/√(π² + ln²(os)); the
          // peak at t = π/ωd, ωd = ω0√(1-ζ²) (exact for a spring from rest).
          const os = Math.min(0.95, Math.max(1e-4, (v - end) / (end - tr.x[0])));
          const z = -Math.log(os) / Math.sqrt(Math.PI ** 2 + Math.log(os) ** 2);
          const w = Math.PI / (Math.max(t, 1e-3) * Math.sqrt(1 - z * z));
          const f = springForm(e);
          f.put(w, z);
          moved(name, started, before);
        });
      }
      if (d.done !== null) {
        handle(svg, s.X(d.done), s.Y(end), {
          id: "done",
          label: `looks done at ${short(d.done)} s: drag or use the arrow keys to make the spring faster or slower`,
        }, (t, v, started, before, done) => {
          // The same ζ, every time scaled: ω0 by done / new done.
          const f = springForm(e);
          if (!(t > 1e-3) || !done) return;
          f.put(f.w * (done / t), f.z);
          moved(name, started, before);
        });
      }
    }
    const key = (k) => (e.current["motion." + k] !== undefined ? "motion." + k : null);
    if (kind.startsWith("friction") && end !== undefined) {
      handle(svg, s.X(Infinity), s.Y(end), { id: "rest", label: `rest position ${short(end)}${unitOf(tr)}: drag or use the arrow keys to move it` }, (t, v, started, before) => {
        // A fling rests at from + v/λ with λ = -ln(friction): the velocity that rests at v
        // (the snap form writes the rest itself).
        if (key("to")) e.current[key("to")] = round(v, 10 ** Math.floor(Math.log10(Math.abs(v) || 1) - 3));
        else if (key("velocity") && key("friction") && key("from")) {
          const lambda = -Math.log(e.current["motion.friction"]);
          e.current["motion.velocity"] = (v - e.current["motion.from"]) * lambda;
        } else return;
        moved(name, started, before);
      });
    }
    if (kind.startsWith("inertia")) {
      for (const bound of ["min", "max"]) {
        if (!key(bound)) continue;
        hline(svg, e.current[key(bound)], "end");
        // A bound beyond the plotted values (a carousel's last page) has its handle on the
        // plot's edge, where it can be seen and dragged in.
        const y = s.Y(e.current[key(bound)]), edge = Math.min(Math.max(y, s.top), s.bottom);
        const beyond = edge !== y ? ` (beyond the plot, ${y < s.top ? "above" : "below"})` : "";
        handle(svg, s.X(Infinity), edge, { id: bound, label: `${bound} bound ${short(e.current[key(bound)])}${unitOf(tr)}${beyond}: drag or use the arrow keys to move it` }, (t, v, started, before) => {
          e.current[key(bound)] = v;
          moved(name, started, before);
        });
      }
    }
  });

  // A tuned motion's CSS is a stylesheet of the document: changing it restyles every card, and
  // the fitting of its preview then waits for that. Cards out of view skip their rendering
  // (content-visibility), so an update costs about one card, not all of them (measured with
  // 100 motions: ~250 ms down to ~35 ms for the page's part).
  const style = document.createElement("style");
  style.textContent = `
article { content-visibility: auto; contain-intrinsic-size: auto 1200px; }
.tune { margin-top: 12px; padding: 10px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fbfcfd; }
.tune h3 { margin: 0 0 6px; font-size: 15px; }
.tune-file { font-weight: normal; font-size: 12px; color: var(--muted); font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
/* The fields' column fits the longest number of its group (--tune-chars, set by the script),
   and the spin buttons. */
.tune-group { --tune-field: max(10ch, calc(var(--tune-chars, 0) * 1ch + 30px)); display: grid; grid-template-columns: max-content minmax(0, 1fr) var(--tune-field); align-items: center; gap: 4px 10px; margin: 0 0 6px; padding: 4px 8px 6px; border: 1px solid var(--line); border-radius: 4px; }
div.tune-group { border: 0; padding: 0; }
.tune-group[hidden] { display: none; }
.tune-group legend { font-size: 13px; color: var(--muted); padding: 0 4px; }
.tune-param { display: contents; font-size: 14px; }
.tune-group legend { grid-column: 1 / -1; }
.tune-hint { margin: 0 0 6px; font-size: 12px; color: var(--muted); }
.tune-name { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
.tune-param input[type=number] { width: 100%; font: inherit; font-variant-numeric: tabular-nums; }
.tune-figures { margin: 6px 0; font-size: 13px; font-variant-numeric: tabular-nums; min-height: 1.2em; }
.tune-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.tune-actions button:disabled { opacity: 0.45; cursor: default; }
.tune-save:not(:disabled) { background: var(--accent); border-color: var(--accent); color: #fff; }
.tune-status { font-size: 13px; color: var(--muted); }
.tune-form { display: block; margin: 0 0 6px; font-size: 13px; color: var(--muted); }
.tune-form select { font: inherit; margin-left: 6px; max-width: 100%; }
@media (max-width: 520px) {
  .tune-group { grid-template-columns: minmax(0, 1fr) min(var(--tune-field), 60%); }
  .tune-name { grid-column: 1 / -1; }
  .tune-form select { display: block; margin: 4px 0 0; }
}
.tune-status.bad, .tune-status.warn { color: var(--bad); }
.tune input[aria-invalid="true"] { border: 2px solid var(--bad); }
article.tuned { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
.plot-svg .tune-handle { fill: #fff; stroke: #d1242f; stroke-width: 2.5; cursor: grab; }
.plot-svg .tune-handle:hover { fill: #ffd7d5; }
.plot-svg .tune-handle:focus { fill: #ffd7d5; stroke: #0b57d0; stroke-width: 4; outline: none; }
@media (forced-colors: active) { .plot-svg .tune-handle:focus { stroke: Highlight; } }
`;
  document.head.appendChild(style);
  start();
})();

// Drives the review page served by `curvebake watch --serve` as a person would, in headless
// Chromium through playwright-core (run by tests/suite/tune_page.rs, which checks the files):
//
//   node tune_page.mjs <playwright-core dir> <chromium> <url> <project dir> <scenario>
//
// Prints one JSON object: what the page showed at each step. Scenarios: `person` (slider,
// overshoot handle, save; a second tab; a file edited on disk in between) and `measure`
// (timings with many motions on the page, for the report; nothing is asserted on them).
import { createRequire } from "module";
import fs from "fs";
import path from "path";

const [playwrightDir, executablePath, url, project, scenario] = process.argv.slice(2);
const { chromium } = createRequire(path.join(playwrightDir, "x.js"))("playwright-core");
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-quic"],
});
const out = { errors: [] };
const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });

const open = async () => {
  const page = await context.newPage();
  page.on("pageerror", (e) => out.errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.tuning === "ready", null, { timeout: 20000 });
  return page;
};
const card = (page, name) => page.locator(`article[data-motion="${name}"]`);
// What a card shows: its figures line, its numbers table, its plot's curve, the preview's
// transform with the scrubber at `t`, and its tuning controls' values.
// Read at once, when the card and its tuning are there (a live update may be replacing them).
const look = (page, name, t) => page.waitForFunction(([name, t]) => {
  const card = document.querySelector(`article[data-motion="${name}"]`);
  if (document.documentElement.dataset.tuning !== "ready" || !card || !card.querySelector(".tune-figures")) return null;
  window.curvebakeReview.setScrub(t);
  const cell = (h) => [...card.querySelectorAll(".numbers tr")].find((r) => r.querySelector("th").textContent === h);
  const values = {};
  card.querySelectorAll('.tune input[type="number"]').forEach((i) => { values[i.dataset.key] = Number(i.value); });
  const el = card.querySelector("[data-anim]");
  const seen = {
    figures: card.querySelector(".tune-figures").textContent,
    looksDone: cell("looks done") ? cell("looks done").querySelector("td").textContent : null,
    stiffnessCell: cell("stiffness") ? cell("stiffness").querySelector("td").textContent : null,
    curve: card.querySelector(".plot-svg path.curve").getAttribute("d"),
    transform: el ? `${getComputedStyle(el).translate} ${getComputedStyle(el).transform}` : null,
    status: card.querySelector(".tune-status").textContent,
    values,
  };
  window.curvebakeReview.setScrub(null);
  return seen;
}, [name, t], { timeout: 10000 }).then((handle) => handle.jsonValue());
// Bakes come back one after another; `baked` waits for one past the `n`th, and quiet.
const bakes = (page) => page.evaluate(() => window.curvebakeTune.timings.length);
const baked = (page, name, n) => page.waitForFunction(([name, n]) => {
  const tune = window.curvebakeTune.tuned.get(name);
  return window.curvebakeTune.timings.length > n && tune && !tune.busy && !tune.again;
}, [name, n], { timeout: 10000 });
const settled = (page, name) => page.waitForFunction((name) => {
  const tune = window.curvebakeTune.tuned.get(name);
  return tune && !tune.busy && !tune.again;
}, name, { timeout: 10000 });
// Waits until the page shows the server's last bake and its tuning is loaded: a live update
// replaces the cards, and a person would wait for it too.
const quiet = (page) => page.waitForFunction(async () => {
  const status = await (await fetch("/_curvebake/status", { cache: "no-store" })).json();
  return status.generation === window.curvebakeReview.state.generation
    && document.documentElement.dataset.tuning === "ready";
}, null, { timeout: 10000, polling: 100 });
// Drags the slider of `key` on the card, with the mouse, to `fraction` of its track.
const dragSlider = async (page, name, label, fraction) => {
  await quiet(page);
  const slider = card(page, name).getByRole("slider", { name: label, exact: true });
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  const value = Number(await slider.inputValue()), min = Number(await slider.getAttribute("min")), max = Number(await slider.getAttribute("max"));
  const y = box.y + box.height / 2, from = box.x + 8 + ((value - min) / (max - min)) * (box.width - 16);
  await page.mouse.move(from, y);
  await page.mouse.down();
  for (let k = 1; k <= 5; k++) await page.mouse.move(from + (box.x + box.width * fraction - from) * (k / 5), y);
  await page.mouse.up();
};
// Waits for the watcher's bake after a save to reach the page (a live update past `generation`).
const rebaked = (page, generation) => page.waitForFunction((g) => (document.documentElement.dataset.generation || "") !== g
  && document.documentElement.dataset.tuning === "ready", generation, { timeout: 10000 });
const waitStatus = (page, name, text) => page.waitForFunction(([name, text]) =>
  (document.querySelector(`article[data-motion="${name}"] .tune-status`) || { textContent: "" }).textContent.includes(text), [name, text], { timeout: 10000 });

if (scenario === "person") {
  const file = path.join(project, "curves", "card-drop.ron");
  const a = await open();
  out.sliders = await card(a, "card-drop").locator(".tune").getByRole("slider").evaluateAll((all) => all.map((s) => s.getAttribute("aria-label")));
  out.fields = await card(a, "card-drop").getByRole("spinbutton").evaluateAll((all) => all.map((s) => s.getAttribute("aria-label")));
  out.start = await look(a, "card-drop", 0.12);
  // The carousel's controls: its five snap points each named with its place in the list.
  out.carousel = await card(a, "carousel").locator(".tune").evaluate((box) => ({
    sliders: [...box.querySelectorAll('input[type="range"]')].map((s) => s.getAttribute("aria-label")),
    fields: [...box.querySelectorAll('input[type="number"]')].map((s) => s.getAttribute("aria-label")),
    labels: [...box.querySelectorAll(".tune-name")].map((s) => s.textContent),
  }));
  // 0. A stiffness typed in, then Revert: the figures of the edit, then the same as at the start.
  let n = await bakes(a);
  await card(a, "card-drop").getByRole("spinbutton", { name: "stiffness", exact: true }).fill("400");
  await baked(a, "card-drop", n);
  out.typed = await look(a, "card-drop", 0.12);
  n = await bakes(a);
  await card(a, "card-drop").getByRole("button", { name: "Revert", exact: true }).click();
  await baked(a, "card-drop", n);
  out.reverted = await look(a, "card-drop", 0.12);
  // 0b. A slip (stiffness 0.5 for 500): the bake's warning of a motion of minutes is on the
  //     card, and gone again after Revert.
  n = await bakes(a);
  await card(a, "card-drop").getByRole("spinbutton", { name: "stiffness", exact: true }).fill("0.5");
  await baked(a, "card-drop", n);
  out.slipStatus = await card(a, "card-drop").locator(".tune-status").textContent();
  n = await bakes(a);
  // (From the keyboard: the focus goes from the disabled Revert to the card's status line.)
  await card(a, "card-drop").getByRole("button", { name: "Revert", exact: true }).focus();
  await a.keyboard.press("Enter");
  await baked(a, "card-drop", n);
  out.revertedStatus = await card(a, "card-drop").locator(".tune-status").textContent();
  out.focusAfterRevert = await a.evaluate(() => document.activeElement.className);
  // 0c. A value the motion refuses (stiffness -5): its field is marked invalid and points at
  //     the reason; Revert clears it.
  await card(a, "card-drop").getByRole("spinbutton", { name: "stiffness", exact: true }).fill("-5");
  await a.waitForFunction(() => document.querySelector('article[data-motion="card-drop"] .tune-status.bad'), null, { timeout: 10000 });
  out.refusedField = await a.evaluate(() => {
    const field = document.querySelector('article[data-motion="card-drop"] .tune input[type="number"][aria-label="stiffness"]');
    const by = field.getAttribute("aria-describedby");
    return [field.getAttribute("aria-invalid"), by && document.getElementById(by).textContent];
  });
  n = await bakes(a);
  await card(a, "card-drop").getByRole("button", { name: "Revert", exact: true }).click();
  await baked(a, "card-drop", n);
  out.refusedCleared = await a.evaluate(() => document.querySelectorAll('article[data-motion="card-drop"] [aria-invalid]').length);
  // 1. A slider moved with the mouse: the preview, the plot and the figures follow.
  n = await bakes(a);
  await dragSlider(a, "card-drop", "stiffness", 0.8);
  await baked(a, "card-drop", n);
  out.slid = await look(a, "card-drop", 0.12);
  // Where the tuned CSS went: its duration and easings on the card, the rest in a stylesheet.
  out.slidCss = await a.evaluate(() => ({
    cardDuration: document.querySelector('article[data-motion="card-drop"]').style.getPropertyValue("--card-drop-duration"),
    sheet: document.querySelector('style[data-tuned="card-drop"]').textContent,
  }));
  out.fileAfterSlide = fs.readFileSync(file, "utf8");
  // 2. The overshoot peak dragged down the plot (further past the end): more overshoot.
  await quiet(a);
  const handle = card(a, "card-drop").locator('circle.tune-handle[aria-label^="first overshoot"]');
  const hb = await handle.boundingBox();
  n = await bakes(a);
  await a.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
  await a.mouse.down();
  await a.mouse.move(hb.x + hb.width / 2 + 10, hb.y + hb.height / 2 + 12, { steps: 4 });
  await a.mouse.up();
  await baked(a, "card-drop", n);
  out.dragged = await look(a, "card-drop", 0.12);
  // 2b. The same handles from the keyboard: ArrowDown moves the peak further past the end,
  //     Shift+ArrowRight the time it looks done later (a bigger step); each time the redrawn
  //     handle keeps the focus and its label says the value it now sets.
  const focused = () => a.evaluate(() => {
    const h = document.activeElement;
    return h && h.classList.contains("tune-handle") ? h.getAttribute("aria-label") : null;
  });
  await quiet(a);
  await handle.focus();
  n = await bakes(a);
  await a.keyboard.press("ArrowDown");
  await baked(a, "card-drop", n);
  out.keyed = await look(a, "card-drop", 0.12);
  out.keyedLabel = await focused();
  const doneHandle = card(a, "card-drop").locator('circle.tune-handle[aria-label^="looks done"]');
  await doneHandle.focus();
  n = await bakes(a);
  await a.keyboard.press("ArrowRight");
  await baked(a, "card-drop", n);
  out.doneStep = await look(a, "card-drop", 0.12);
  n = await bakes(a);
  await a.keyboard.press("Shift+ArrowRight");
  await baked(a, "card-drop", n);
  out.doneShiftStep = await look(a, "card-drop", 0.12);
  out.doneLabel = await focused();
  // 3. Save: the file changes in those numbers only (the test compares it). Every card and
  //    the tuning panel are marked, and the plots drawn counted, to tell what the live update
  //    replaced and drew.
  await quiet(a);
  let generation = await a.evaluate(() => document.documentElement.dataset.generation || "");
  await a.evaluate(() => {
    document.querySelectorAll("article[data-motion]").forEach((card) => { card.seenBefore = true; });
    document.querySelector('article[data-motion="card-drop"] .tune').seenBefore = true;
    window.drawn = {};
    performance.clearResourceTimings();
    if (!window.counting) window.curvebakeReview.onDrawn((card) => { drawn[card.dataset.motion] = (drawn[card.dataset.motion] || 0) + 1; });
    window.counting = true;
  });
  out.saveRoundTripMs = await a.evaluate((g) => new Promise((done) => {
    // From the click to the page showing the watch's bake of the saved file (measured here,
    // where the page is, for the report: nothing is asserted on it).
    const t0 = performance.now();
    document.querySelector('article[data-motion="card-drop"] .tune-save').click();
    const check = () => ((document.documentElement.dataset.generation || "") !== g && document.documentElement.dataset.tuning === "ready"
      ? done(performance.now() - t0) : setTimeout(check, 2));
    check();
  }), generation);
  await waitStatus(a, "card-drop", "saved to");
  out.saved = await look(a, "card-drop", 0.12);
  out.fileAfterSave = fs.readFileSync(file, "utf8");
  // The watch bakes the saved file and the page follows: the card still shows the saved values.
  await rebaked(a, generation);
  out.afterRebake = await look(a, "card-drop", 0.12);
  out.swap = await a.evaluate(() => ({
    replaced: [...document.querySelectorAll("article[data-motion]")].filter((c) => !c.seenBefore).map((c) => c.dataset.motion),
    cards: document.querySelectorAll("article[data-motion]").length,
    panelKept: !!document.querySelector('article[data-motion="card-drop"] .tune').seenBefore,
    drawn: window.drawn,
    css: [...document.querySelectorAll('link[rel="stylesheet"], style[data-href]')]
      .filter((l) => (l.getAttribute("href") || l.dataset.href).startsWith("css/card-drop.css"))
      .map((l) => (l.dataset.href ? l.textContent : "(linked)")),
    tunedStyles: document.querySelectorAll("style[data-tuned]").length,
    fetched: performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
      .filter((p) => !p.startsWith("/_curvebake/status") && p !== "/_curvebake/tune/motions"),
  }));
  out.swap.cssOnDisk = fs.readFileSync(path.join(project, "out/css/card-drop.css"), "utf8");
  // 4. A second tab on the same motion: B edits, A edits and saves first, B's save is refused
  //    (the file changed since B read it) and B offers to reload from the file.
  const b = await open();
  n = await bakes(b);
  await dragSlider(b, "card-drop", "damping", 0.2);
  await baked(b, "card-drop", n);
  n = await bakes(a);
  await dragSlider(a, "card-drop", "damping", 0.6);
  await baked(a, "card-drop", n);
  await quiet(a);
  generation = await a.evaluate(() => document.documentElement.dataset.generation || "");
  await card(a, "card-drop").getByRole("button", { name: "Save", exact: true }).click();
  await waitStatus(a, "card-drop", "saved to");
  await rebaked(a, generation);
  out.fileAfterA = fs.readFileSync(file, "utf8");
  out.aValues = (await look(a, "card-drop", 0)).values;
  await quiet(b);
  await card(b, "card-drop").getByRole("button", { name: "Save", exact: true }).click();
  await waitStatus(b, "card-drop", "changed on disk");
  out.bRefused = await look(b, "card-drop", 0);
  out.fileAfterB = fs.readFileSync(file, "utf8");
  await quiet(b);
  await card(b, "card-drop").getByRole("button", { name: "Reload from the file" }).click();
  await b.waitForFunction(() => !document.querySelector('article[data-motion="card-drop"]').classList.contains("tuned"), null, { timeout: 10000 });
  await settled(b, "card-drop");
  out.bReloaded = await look(b, "card-drop", 0);
  // 5. The file edited on disk while A has edits: A's save is refused, the file stays.
  n = await bakes(a);
  await dragSlider(a, "card-drop", "stiffness", 0.3);
  await baked(a, "card-drop", n);
  const edited = fs.readFileSync(file, "utf8").replace("// A card", "// Edited by hand: a card");
  fs.writeFileSync(file, edited);
  out.editedOnDisk = edited;
  await new Promise((done) => setTimeout(done, 400));
  await quiet(a);
  await card(a, "card-drop").getByRole("button", { name: "Save", exact: true }).click();
  await waitStatus(a, "card-drop", "changed on disk");
  out.aRefused = await look(a, "card-drop", 0);
  out.fileAfterRefusal = fs.readFileSync(file, "utf8");
  // The tuning screenshot, for people.
  await a.reload();
  await a.waitForFunction(() => document.documentElement.dataset.tuning === "ready", null, { timeout: 20000 });
  n = await bakes(a);
  await dragSlider(a, "card-drop", "damping", 0.15);
  await baked(a, "card-drop", n);
  await card(a, "card-drop").locator(".card-head").scrollIntoViewIfNeeded();
  await a.evaluate(() => scrollBy(0, -90));
  // 6. The spring in another platform's form: SwiftUI's perceptual duration, written back as
  //    the file's stiffness and damping.
  await quiet(a);
  out.beforeOtherForm = await look(a, "card-drop", 0);
  await card(a, "card-drop").getByRole("combobox").selectOption("perceptual");
  n = await bakes(a);
  await card(a, "card-drop").getByRole("spinbutton", { name: "perceptual_duration", exact: true }).fill("0.5");
  await baked(a, "card-drop", n);
  out.otherForm = await look(a, "card-drop", 0);
  // 6b. Android's form: a damping ratio typed in (its field keeps the focus), then the
  //     overshoot handle dragged: the form shows the dragged spring, and a stiffness typed in
  //     it next keeps the drag's damping ratio (it used to show, and write back, the typed one).
  const form = () => a.evaluate(() => {
    const box = document.querySelector('article[data-motion="card-drop"] .tune');
    const e = window.curvebakeTune.tuned.get("card-drop");
    return {
      shown: Object.fromEntries([...box.querySelectorAll('.tune-other input[type="number"]')].map((i) => [i.getAttribute("aria-label"), Number(i.value)])),
      sliders: Object.fromEntries([...box.querySelectorAll('.tune-other input[type="range"]')].map((i) => [i.getAttribute("aria-label"), Number(i.value)])),
      stiffness: e.current["motion.stiffness"],
      damping: e.current["motion.damping"],
      focus: document.activeElement ? document.activeElement.getAttribute("aria-label") : null,
    };
  });
  await quiet(a);
  await card(a, "card-drop").getByRole("combobox").selectOption("android");
  n = await bakes(a);
  await card(a, "card-drop").getByRole("spinbutton", { name: "damping_ratio", exact: true }).fill("0.3");
  await baked(a, "card-drop", n);
  out.androidTyped = await form();
  await quiet(a);
  const peak = card(a, "card-drop").locator('circle.tune-handle[aria-label^="first overshoot"]');
  const pb = await peak.boundingBox();
  n = await bakes(a);
  await a.mouse.move(pb.x + pb.width / 2, pb.y + pb.height / 2);
  await a.mouse.down();
  await a.mouse.move(pb.x + pb.width / 2 + 15, pb.y + pb.height / 2 - 15, { steps: 4 });
  await a.mouse.up();
  await baked(a, "card-drop", n);
  out.androidDragged = await form();
  n = await bakes(a);
  await card(a, "card-drop").locator(".tune-other").getByRole("spinbutton", { name: "stiffness", exact: true }).fill("230");
  await baked(a, "card-drop", n);
  out.androidRetyped = await form();
  // Every number field shows its whole number (the damping now written to 12 digits): the
  // text's width, measured in the field's font, fits inside the field beside its spin buttons.
  out.fieldsFit = await a.evaluate(() => {
    const ctx = document.createElement("canvas").getContext("2d");
    return [...document.querySelectorAll('article[data-motion="card-drop"] .tune input[type="number"]')].map((i) => {
      const css = getComputedStyle(i);
      ctx.font = `${css.fontSize} ${css.fontFamily}`;
      const room = i.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 15;
      return { name: i.getAttribute("aria-label"), value: i.value, text: ctx.measureText(i.value).width, room };
    });
  });
  // 7. A fling's rest position dragged up the plot: the velocity that rests there.
  await quiet(a);
  const rest = card(a, "fling").locator('circle.tune-handle[aria-label^="rest position"]');
  await rest.scrollIntoViewIfNeeded();
  const rb = await rest.boundingBox();
  n = await bakes(a);
  await a.mouse.move(rb.x + rb.width / 2, rb.y + rb.height / 2);
  await a.mouse.down();
  await a.mouse.move(rb.x + rb.width / 2, rb.y + rb.height / 2 - 40, { steps: 4 });
  await a.mouse.up();
  await baked(a, "fling", n);
  out.fling = await look(a, "fling", 0);
  out.flingEnd = await a.evaluate(() => window.curvebakeReview.motions().get("fling").ends[0]);
  // 8. Every handle inside its plot's drawing (a bound past the plotted values on its edge).
  out.handles = await a.evaluate(() => [...document.querySelectorAll("circle.tune-handle")].map((h) => {
    const box = h.ownerSVGElement.viewBox.baseVal, y = Number(h.getAttribute("cy"));
    return { label: h.getAttribute("aria-label"), inside: y >= 0 && y <= box.height, role: h.getAttribute("role"), value: h.getAttribute("aria-valuetext") };
  }));
  // 9. A spring written with its perceptual duration alone gets a bounce: set and saved, it
  //    is written into the file after the duration.
  await quiet(a);
  const tap = card(a, "tap").getByRole("spinbutton", { name: "bounce", exact: true });
  await tap.scrollIntoViewIfNeeded();
  n = await bakes(a);
  await tap.fill("0.3");
  await baked(a, "tap", n);
  out.tapBounced = await look(a, "tap", 0);
  await card(a, "tap").getByRole("button", { name: "Save", exact: true }).click();
  await waitStatus(a, "tap", "saved");
  out.othersAfterBounce = fs.readFileSync(path.join(project, "curves", "others.ron"), "utf8");
  await card(a, "card-drop").locator(".card-head").scrollIntoViewIfNeeded();
  await a.evaluate(() => scrollBy(0, -90));
  if (process.env.CURVEBAKE_TUNE_SCREENSHOT) await a.screenshot({ path: process.env.CURVEBAKE_TUNE_SCREENSHOT });
} else if (scenario === "measure") {
  const a = await open();
  // The first spring written with a stiffness.
  const name = await a.evaluate(() => document.querySelector('.tune input[aria-label="stiffness"]').closest("article").dataset.motion);
  out.cards = await a.evaluate(() => document.querySelectorAll("article[data-motion]").length);
  const slider = card(a, name).getByRole("slider", { name: "stiffness", exact: true });
  await slider.scrollIntoViewIfNeeded();
  for (let k = 0; k < 20; k++) {
    await slider.focus();
    const n = await bakes(a);
    await a.keyboard.press(k % 2 ? "ArrowLeft" : "ArrowRight");
    await baked(a, name, n);
  }
  out.inputToUpdateMs = await a.evaluate(() => window.curvebakeTune.timings);
  out.parts = await a.evaluate(() => window.curvebakeTune.parts);
  out.saveMs = [];
  out.saveToRebakedPageMs = [];
  for (let k = 0; k < 5; k++) {
    await quiet(a);
    await slider.focus();
    const n = await bakes(a);
    await a.keyboard.press("ArrowRight");
    await baked(a, name, n);
    const generation = await a.evaluate(() => document.documentElement.dataset.generation || "");
    const [saved, rebakedPage] = await a.evaluate(([name, g]) => new Promise((done) => {
      const t0 = performance.now(), root = document.documentElement;
      let saved = null;
      document.querySelector(`article[data-motion="${name}"] .tune-save`).click();
      const check = () => {
        const status = document.querySelector(`article[data-motion="${name}"] .tune-status`);
        if (saved === null && status && status.textContent.includes("saved to")) saved = performance.now() - t0;
        if ((root.dataset.generation || "") !== g && root.dataset.tuning === "ready") done([saved, performance.now() - t0]);
        else setTimeout(check, 2);
      };
      check();
    }), [name, generation]);
    out.saveMs.push(saved);
    out.saveToRebakedPageMs.push(rebakedPage);
  }
}
await browser.close();
console.log(JSON.stringify(out));

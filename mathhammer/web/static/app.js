// mathhammer's local page: lines checked as you type, computations with progress and
// cancelling, roster drops, matrix cells. Plain JavaScript, no build step, no library.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

async function answerOf(response) {
  // JSON from the server, or its one-line text (a refusal) as an error
  const text = await response.text();
  try { return JSON.parse(text); } catch (e) { return { state: "error", ok: false, message: text }; }
}

// -- lines checked as you type -------------------------------------------------------------
const timers = new WeakMap();
const latest = new WeakMap();  // the newest check of each field: older answers are dropped

async function checkField(area) {
  const list = document.getElementById(area.id + "-checks");
  const turn = (latest.get(area) || 0) + 1;
  latest.set(area, turn);
  const lines = area.value.split("\n").map((l) => l.trim()).filter((l) => l);
  const answers = await Promise.all(lines.map(async (line) => {
    const query = new URLSearchParams({ game: area.dataset.checkGame, kind: area.dataset.checkKind, line });
    return answerOf(await fetch("/api/check?" + query));
  }));
  if (latest.get(area) !== turn) return;
  list.replaceChildren();
  let bad = false;
  answers.forEach((answer, i) => {
    const item = document.createElement("li");
    item.className = answer.ok ? "ok" : "bad";
    item.dataset.line = String(i + 1);
    item.textContent = answer.ok ? answer.read : answer.message;
    bad = bad || !answer.ok;
    list.append(item);
  });
  area.classList.toggle("invalid", bad);
}

function watchField(area) {
  area.addEventListener("input", () => {
    clearTimeout(timers.get(area));
    timers.set(area, setTimeout(() => checkField(area), 200));
  });
  if (area.value.trim()) checkField(area);
}

// -- writing lines: examples, the 40k line writer, lines saved in this browser ---------------
function addLine(area, line) {
  area.value = (area.value.trim() ? area.value.trim() + "\n" : "") + line;
  area.dispatchEvent(new Event("input"));  // checked as if typed
}

function part(root, name) { return $(`[data-part="${name}"]`, root); }

function weaponLine(root) {
  const count = parseInt(part(root, "count").value, 10);
  const name = part(root, "name").value.trim();
  const melee = part(root, "melee").checked;
  const skill = part(root, "skill").value;
  const abilities = JSON.parse(root.dataset.abilities || "[]");
  return `${count > 1 ? count + "x " : ""}${name ? name + ": " : ""}` +
    `${melee ? "Melee" : part(root, "range").value + '"'} A${part(root, "a").value.trim()} ` +
    `${melee ? "WS" : "BS"}${skill}+ S${part(root, "s").value} AP${part(root, "ap").value} ` +
    `D ${part(root, "d").value.trim()}` + (abilities.length ? ` [${abilities.join(", ")}]` : "");
}

function targetLine(root) {
  const count = parseInt(part(root, "count").value, 10);
  const name = part(root, "name").value.trim();
  const sv = part(root, "sv").value, insv = part(root, "insv").value, fnp = part(root, "fnp").value;
  const keywords = part(root, "keywords").value.trim();
  return `${count > 1 ? count + "x " : ""}${name ? name + ": " : ""}T${part(root, "t").value} ` +
    `Sv${sv === "-" ? "-" : sv + "+"}${insv ? " InSv" + insv + "+" : ""} W${part(root, "w").value}` +
    `${fnp ? " FNP" + fnp + "+" : ""}${keywords ? " [" + keywords + "]" : ""}`;
}

function watchWriter(root) {
  const area = document.getElementById(root.dataset.into);
  const adder = $("[data-add-ability]", root);
  if (adder) adder.addEventListener("click", () => {
    const name = part(root, "ability").value;
    if (!name) return;
    const value = part(root, "ability-value").value.trim();
    const ability = name === "ANTI" ? `ANTI-${value || "INFANTRY 4+"}` : (value ? `${name} ${value}` : name);
    const abilities = JSON.parse(root.dataset.abilities || "[]").concat([ability]);
    root.dataset.abilities = JSON.stringify(abilities);
    part(root, "abilities").textContent = abilities.join(", ");
  });
  $("[data-write]", root).addEventListener("click", () => {
    addLine(area, root.dataset.writer === "weapon" ? weaponLine(root) : targetLine(root));
    root.dataset.abilities = "[]";
    const shown = part(root, "abilities");
    if (shown) shown.textContent = "";
  });
}

const SAVED_MOST = 50;
function savedKey(box) { return "mathhammer:saved:" + box.dataset.savedFor; }
function savedLines(box) {
  try { return JSON.parse(localStorage.getItem(savedKey(box)) || "[]"); } catch (e) { return []; }
}

function listSaved(box) {
  const select = $("select.saved-lines", box);
  select.replaceChildren(new Option("choose…", ""));
  savedLines(box).forEach((line) => select.append(new Option(line, line)));
}

function watchSaved(box) {
  const area = document.getElementById(box.dataset.into);
  const note = $(".saved-note", box);
  $(".save-lines", box).addEventListener("click", () => {
    const lines = area.value.split("\n").map((l) => l.trim()).filter((l) => l);
    const kept = lines.concat(savedLines(box).filter((l) => !lines.includes(l))).slice(0, SAVED_MOST);
    try { localStorage.setItem(savedKey(box), JSON.stringify(kept)); } catch (e) { note.textContent = "this browser keeps no saved lines"; return; }
    note.textContent = `${lines.length} saved in this browser`;
    listSaved(box);
  });
  $(".forget-lines", box).addEventListener("click", () => {
    try { localStorage.removeItem(savedKey(box)); } catch (e) { /* nothing kept */ }
    note.textContent = "saved lines forgotten";
    listSaved(box);
  });
  const select = $("select.saved-lines", box);
  select.addEventListener("change", () => { if (select.value) addLine(area, select.value); select.value = ""; });
  listSaved(box);
}

// -- computations -----------------------------------------------------------------------------
let running = null;

function showProgress(text) {
  $("#progress").hidden = text === null;
  if (text !== null) $("#progress-text").textContent = text;
}

function wireAnswer(root, jobId) {
  $$("a[data-file]", root).forEach((a) => { a.href = `/api/jobs/${jobId}/files/${a.dataset.file}`; });
  $$("figure[data-view]", root).forEach(async (figure) => {  // charts come after the numbers
    // drawn for the width the chart gets here, so its text keeps its size on a phone
    const width = Math.round(figure.getBoundingClientRect().width);
    const response = await fetch(`/api/jobs/${jobId}/views/${figure.dataset.view}` + (width > 0 ? `?width=${width}` : ""));
    figure.innerHTML = await response.text();
    readable(figure);
  });
  $$("a.cell", root).forEach((a) => a.addEventListener("click", async (event) => {
    event.preventDefault();
    $$("a.cell.active").forEach((x) => x.classList.remove("active"));
    a.classList.add("active");
    const cell = $("#cell");
    cell.innerHTML = "<p class='hint'>Drawing…</p>";
    const response = await fetch(`/api/jobs/${jobId}/views/${a.dataset.view}`);
    cell.innerHTML = await response.text();
    cell.scrollIntoView({ behavior: "smooth", block: "start" });
  }));
}

// Charts are scaled to their column, but never so far that their smallest text is under
// 11 CSS px (8 pt at 100 dpi): on a phone a wide chart keeps that size and scrolls sideways
// inside its own box, never the page.
const SMALLEST_TEXT_PX = 11;

function readable(figure) {
  const svg = $("svg", figure);
  if (!svg) return;
  const natural = parseFloat(svg.getAttribute("width")) * (svg.getAttribute("width").endsWith("pt") ? 4 / 3 : 1);
  const sizes = $$("text", svg).map((t) => parseFloat(getComputedStyle(t).fontSize)).filter((s) => s > 0);
  if (!natural || !sizes.length) return;
  const smallest = Math.min(...sizes) * natural / svg.viewBox.baseVal.width;  // at full size
  const least = natural * Math.min(1, SMALLEST_TEXT_PX / smallest);
  svg.style.minWidth = `${Math.round(least)}px`;
}

function showError(message) {
  const answer = $("#answer");
  answer.replaceChildren();
  const p = document.createElement("p");
  p.className = "error";
  p.id = "answer-error";
  p.textContent = message;
  answer.append(p);
}

function markField(where) {
  // a refusal located at a box's line ("buffs line 2", the error's location field): mark it
  const box = where ? document.getElementById(where.split(" ")[0]) : null;
  if (box && box.tagName === "TEXTAREA") { box.classList.add("invalid"); box.focus(); }
}

async function poll(job, started) {
  while (running === job.id) {
    const status = await answerOf(await fetch(`/api/jobs/${job.id}`));
    if (running !== job.id) return;
    if (status.state === "done") {
      running = null;
      showProgress(null);
      $("#answer").innerHTML = status.html;
      wireAnswer($("#answer"), job.id);
      answers.set(location.search, { id: job.id, html: status.html });
      reveal($("#answer"));
      return;
    }
    if (status.state === "error" || status.state === "cancelled") {
      running = null;
      showProgress(null);
      showError(status.state === "error" ? status.message : "Cancelled.");
      return;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const bar = $("#progress-bar");
    if (status.total > 0 && !status.preparing) { bar.max = status.total; bar.value = status.done; } else { bar.removeAttribute("value"); }
    const steps = status.total > 0 ? `${status.desc}: ${status.done.toLocaleString()} of ${status.total.toLocaleString()}, ` : "";
    // numba compiles an engine's kernels on its first question: say so, with the time moving
    const doing = status.preparing ? `Preparing the engine (${status.preparing}; first time only)… ` : `Working… ${steps}`;
    showProgress(`${doing}${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// -- the address is the question: short links, one history entry per question ---------------
const answers = new Map();  // address -> the answer shown for it (Back shows it again)

function shareQuery(form) {
  // the form's fields, leaving out what the page reads the same when absent: empty fields,
  // fields at their default (data-default), trials and seed of an exact answer
  const params = new URLSearchParams(new FormData(form));
  const defaults = {};
  $$("[data-default]", form).forEach((e) => { defaults[e.name] = e.dataset.default; });
  const exact = params.get("engine") === "exact";
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    if (value === "" || defaults[name] === value) continue;
    if (exact && (name === "trials" || name === "seed")) continue;
    out.append(name, value);
  }
  return out;
}

function fillForm(form, query) {
  // the form as the address says (what it leaves out at its default)
  for (const field of form.elements) {
    if (!field.name || field.type === "file" || field.type === "submit" || field.type === "button") continue;
    const given = query.get(field.name);
    const fallback = field.dataset.default !== undefined ? field.dataset.default : null;
    if (field.type === "checkbox") { field.checked = given !== null && given !== "" && given !== "off"; continue; }
    if (field.type === "radio") { field.checked = field.value === (given ?? fallback ?? field.value); continue; }
    if (field.tagName === "SELECT" && given === null && fallback === null) {
      const shown = Array.from(field.options).find((o) => o.defaultSelected) || field.options[0];
      field.value = shown ? shown.value : "";
      continue;
    }
    // absent: the field's default, else what the page showed when it was opened
    field.value = given !== null ? given : fallback !== null ? fallback : field.defaultValue;
  }
  $$("textarea[data-check-game]", form).forEach((area) => checkField(area));
}

function reveal(element) {
  // bring the progress or the answer into view when it begins below the fold
  const box = element.getBoundingClientRect();
  if (box.top > window.innerHeight * 0.6 || box.bottom < 0) element.scrollIntoView({ behavior: "smooth", block: "start" });
}

async function start(form, push = true) {
  const shown = shareQuery(form);
  shown.set("run", "1");
  const address = location.pathname + "?" + shown;
  if (push && address !== location.pathname + location.search) history.pushState({ question: true }, "", address);
  else history.replaceState({ question: true }, "", address);
  const params = new URLSearchParams(new FormData(form));
  params.set("page", form.dataset.kind);
  $("#answer").replaceChildren();
  $("#cell") && $("#cell").replaceChildren();
  showProgress("Working…");
  reveal($("#progress"));
  const response = await fetch("/api/jobs", {
    method: "POST", body: params,
    headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  const job = await answerOf(response);
  if (job.state === "error") { showProgress(null); showError(job.message); markField(job.location); return; }
  running = job.id;
  await poll(job, Date.now());
}

// -- roster drops -----------------------------------------------------------------------------
async function upload(zone, file) {
  const error = $(".drop-error", zone);
  error.hidden = true;
  const max = Number(zone.dataset.maxBytes);
  if (file.size > max) {  // the server's own refusal, said before sending 17 MiB
    error.textContent = `${file.name}: the file is ${(file.size / 2 ** 20).toFixed(1)} MiB; a roster file may be at most ${Math.floor(max / 2 ** 20)} MiB`;
    error.hidden = false;
    return;
  }
  const body = new FormData();
  body.append("slot", zone.dataset.slot);
  body.append("file", file, file.name);
  const answer = await answerOf(await fetch("/api/rosters", { method: "POST", body }));
  if (!answer.ok) { error.textContent = answer.message; error.hidden = false; return; }
  const query = new URLSearchParams(location.search);
  query.set(zone.dataset.slot, answer.id);
  query.delete("run");
  if (zone.dataset.then === "battle") query.delete("scenario");
  location.href = location.pathname + "?" + query;
}

function send(zone, file) {
  upload(zone, file).catch(() => {
    const error = $(".drop-error", zone);
    error.textContent = "The server does not answer: is `mathhammer serve` still running?";
    error.hidden = false;
  });
}

function watchDrop(zone) {
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    if (event.dataTransfer.files.length) send(zone, event.dataTransfer.files[0]);
  });
  const input = $("input[type=file]", zone);
  input.addEventListener("change", () => { if (input.files.length) send(zone, input.files[0]); });
  // keyboard: Enter or Space on the drop zone opens the file chooser
  zone.addEventListener("keydown", (event) => {
    if (event.target === zone && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); input.click(); }
  });
}

// -- units by name (the BSData checkout of `mathhammer serve --data DIR`) -------------------
let unitTurn = 0;

async function completeUnits(input) {
  const turn = ++unitTurn;
  const answer = await answerOf(await fetch("/api/units?" + new URLSearchParams({ find: input.value.trim() })));
  if (turn !== unitTurn) return;  // an older answer: a newer one is on its way
  const list = document.getElementById("unit-names");
  list.replaceChildren();
  if (!answer.ok) { $("#unit-hint").textContent = answer.message; return; }
  answer.units.forEach((unit) => {
    const option = document.createElement("option");
    option.value = unit.line.slice(1);
    const sizes = unit.sizes[0] === unit.sizes[1] ? `${unit.sizes[0]}` : `${unit.sizes[0]}-${unit.sizes[1]}`;
    option.label = `${unit.faction} · ${sizes} model${unit.sizes[1] === 1 ? "" : "s"}`;
    list.append(option);
  });
}

function addUnit(into) {
  const name = $("#unit-name").value.trim().replace(/^@/, "");
  const hint = $("#unit-hint");
  if (!name) { hint.textContent = "Type a datasheet's name first (part of it lists the names)."; $("#unit-name").focus(); return; }
  const size = $("#unit-size").value.trim();
  const line = "@" + name + (size ? ":" + size : "");
  const area = document.getElementById(into);
  area.value = (area.value.trim() ? area.value.trim() + "\n" : "") + line;
  area.dispatchEvent(new Event("input"));
  hint.textContent = `Added ${line} to the ${into === "weapons" ? "weapon" : "target"} lines.`;
}

function watchUnits() {
  const input = $("#unit-name");
  if (!input) return;
  let timer = null;
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => completeUnits(input), 150); });
  input.addEventListener("focus", () => { if (!$("#unit-names").children.length) completeUnits(input); }, { once: true });
  // Enter in the box adds the unit as a target rather than submitting the whole form
  [input, $("#unit-size")].forEach((field) => field.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); addUnit("targets"); }
  }));
  $$("button[data-unit-into]").forEach((button) => button.addEventListener("click", () => addUnit(button.dataset.unitInto)));
}

document.addEventListener("DOMContentLoaded", () => {
  watchUnits();
  $$("textarea[data-check-game]").forEach(watchField);
  $$("button.example").forEach((b) => b.addEventListener("click", () => addLine(document.getElementById(b.dataset.into), b.textContent)));
  $$("fieldset.writer").forEach(watchWriter);
  $$("div.saved").forEach(watchSaved);
  $$(".drop").forEach(watchDrop);
  const pick = $("#archetype");
  if (pick) pick.addEventListener("change", () => {
    const area = document.getElementById(pick.dataset.into);
    if (pick.value) {
      area.value = (area.value.trim() ? area.value.trim() + "\n" : "") + pick.value;
      area.dispatchEvent(new Event("input"));
    }
    pick.value = "";
  });
  $("#cancel").addEventListener("click", async () => {
    const id = running;
    running = null;
    showProgress(null);
    showError("Cancelled.");
    if (id) await fetch(`/api/jobs/${id}/cancel`, { method: "POST" });
  });
  const form = $("form.compute");
  if (!form) return;
  const run = (push = true) => start(form, push).catch(() => {  // the server stopped, or the network is down
    running = null;
    showProgress(null);
    showError("The server does not answer: is `mathhammer serve` still running?");
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); run(); });
  // Back and Forward step through the questions asked on this page
  window.addEventListener("popstate", () => {
    const query = new URLSearchParams(location.search);
    running = null;
    showProgress(null);
    fillForm(form, query);
    const known = answers.get(location.search);
    if (known) { $("#answer").innerHTML = known.html; wireAnswer($("#answer"), known.id); }
    else if (query.get("run") === "1") start(form, false).catch(() => showError("The server does not answer: is `mathhammer serve` still running?"));
    else { $("#answer").replaceChildren(); }
  });
  // an address whose fields the page refused (#page-error) is not computed
  if (new URLSearchParams(location.search).get("run") === "1" && !$("#page-error")) run(false);
});

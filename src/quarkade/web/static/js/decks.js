// The deck builder: a button each side of every word's count, the deck-building rules checked
// as you click (a click that would break one is refused, and the reason is said), presets to
// start from, your saved decks, and "Test this deck" (a background run on the server whose
// progress and win rates, with intervals, fill in as it goes). Without this script the form
// still saves a deck.
import { fetchJSON, h } from "./common.js";

const root = document.getElementById("builder");
const game = root.dataset.game;
const size = Number(root.dataset.size);
const perKind = Number(root.dataset.perKind);
const most = Number(root.dataset.max);
const form = document.getElementById("deck-form");
const el = (id) => document.getElementById(id);
const kinds = [...form.querySelectorAll("fieldset.kind")].map((fieldset) => ({
  name: fieldset.dataset.kind,
  inputs: [...fieldset.querySelectorAll("input[type=number]")],
}));
const inputOf = new Map(kinds.flatMap((kind) => kind.inputs.map((input) => [wordOf(input), input])));
const kindOf = new Map(kinds.flatMap((kind) => kind.inputs.map((input) => [wordOf(input), kind])));
let testing = null;

function wordOf(input) { return input.name.replace(/^count\./, ""); }
function count(input) { const n = Number(input.value); return Number.isInteger(n) && n >= 0 ? n : NaN; }
function total(kind) { return kind.inputs.reduce((sum, input) => sum + (count(input) || 0), 0); }

// Every rule the deck breaks now, in words; empty when it can be played.
function problems() {
  const found = [];
  for (const [word, input] of inputOf) {
    const n = count(input);
    if (Number.isNaN(n)) found.push(`the count of ${word} should be a whole number from 0 to ${most}`);
    else if (n > most) found.push(`${n} copies of ${word}: a deck holds at most ${most} copies of a word`);
  }
  for (const kind of kinds) {
    const held = total(kind);
    if (held < perKind) found.push(`${perKind - held} ${kind.name} short: a deck needs exactly ${perKind} ${kind.name}`);
    if (held > perKind) found.push(`${held - perKind} ${kind.name} too many: a deck needs exactly ${perKind} ${kind.name}`);
  }
  return found;
}

function deckText() {
  return kinds.map((kind) => kind.inputs.filter((input) => count(input) > 0)
    .map((input) => `${wordOf(input)} ${count(input)}`).join(", ")).join(" | ");
}

function update(refusal = "") {
  for (const kind of kinds) el(`count-${kind.name}`).textContent = String(total(kind));
  for (const input of inputOf.values()) {
    const n = count(input);
    input.setAttribute("aria-invalid", String(Number.isNaN(n) || n > most));
  }
  const found = problems();
  const line = el("deck-check");
  line.classList.toggle("bad", Boolean(refusal) || found.length > 0);
  const cards = kinds.reduce((sum, kind) => sum + total(kind), 0);
  const state = found.length ? `Not a deck yet (${cards} of ${size} cards): ${found.join("; ")}.`
    : `A deck that can be played: ${size} cards.`;
  line.textContent = refusal ? `${refusal} ${state}` : state;
  root.dataset.legal = found.length ? "no" : "yes";
  el("test").disabled = found.length > 0 || testing !== null;
}

function change(word, step) {
  const input = inputOf.get(word);
  const kind = kindOf.get(word);
  const n = count(input) || 0;
  if (step > 0 && n >= most) return update(`Refused: ${word} is at ${n}; a deck holds at most ${most} copies of a word.`);
  if (step > 0 && total(kind) >= perKind) {
    return update(`Refused: ${kind.name} are at ${perKind}, exactly what a deck needs; take one out first.`);
  }
  if (step < 0 && n <= 0) return update(`Refused: there is no ${word} to take out.`);
  input.value = String(n + step);
  return update();
}

for (const button of form.querySelectorAll("button.less, button.more")) {
  button.hidden = false;
  button.addEventListener("click", () => change(button.dataset.word, button.classList.contains("more") ? 1 : -1));
}
for (const input of inputOf.values()) input.addEventListener("input", () => update());

function load(text, name) {
  const counts = new Map();
  for (const part of text.split(/[,|]/)) {
    const match = /^\s*(\S+)\s+(\d+)\s*$/.exec(part);
    if (match) counts.set(match[1], Number(match[2]));
  }
  for (const [word, input] of inputOf) input.value = String(counts.get(word) || 0);
  if (name !== undefined) el("deck-name").value = name;
  update();
}

for (const button of document.querySelectorAll("button.preset")) {
  button.addEventListener("click", () => load(button.dataset.deck, `my ${button.dataset.name}`));
}

// -- saving, and your decks -------------------------------------------------------------------

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const found = problems();
  if (found.length) {
    say(`Not saved: ${found.join("; ")}.`, true);
    return;
  }
  try {
    const response = await fetch(`/api/decks/${game}`, {
      method: "POST", headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ name: el("deck-name").value, deck: deckText() }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || String(response.status));
    say(`Saved: ${body.name}.`, false);
    await showSaved();
  } catch (problem) {
    say(`Not saved: ${problem.message}`, true);
  }
});

function say(text, bad) {
  let line = el("save-result");
  if (!line) {
    line = h("p", { id: "save-result", role: bad ? "alert" : "status" });
    form.after(line);
  }
  line.setAttribute("role", bad ? "alert" : "status");
  line.className = bad ? "error" : "ok";
  line.textContent = text;
}

async function showSaved() {
  const data = await fetchJSON(`/api/decks/${game}`);
  const list = el("saved");
  if (!data.decks.length) {
    list.replaceChildren(h("li", { class: "muted none" }, "No deck saved yet."));
    return;
  }
  list.replaceChildren(...data.decks.map((deck) => h("li", { dataset: { id: deck.id } },
    h("strong", { class: "deck-name" }, deck.name), " ",
    h("button", { type: "button", class: "small", onclick: () => load(deck.deck, deck.name) },
      h("span", { class: "visually-hidden" }, `${deck.name}: `), "load"), " ",
    h("button", { type: "button", class: "small", onclick: () => forget(deck) },
      h("span", { class: "visually-hidden" }, `${deck.name}: `), "delete"),
    h("br"), h("small", {}, deck.deck))));
}

async function forget(deck) {
  const response = await fetch(`/api/decks/${game}/${encodeURIComponent(deck.id)}`, { method: "DELETE" });
  if (response.ok) say(`Deleted: ${deck.name}.`, false);
  await showSaved();
}

// -- "test this deck" ---------------------------------------------------------------------------

el("test").hidden = false;
el("test").addEventListener("click", async () => {
  if (problems().length || testing) return;
  el("test-box").hidden = false;
  el("test-status").textContent = "Starting...";
  try {
    const response = await fetch(`/api/decks/${game}/tests`, {
      method: "POST", headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ deck: deckText() }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || String(response.status));
    testing = body.url;
    update();
    follow();
  } catch (problem) {
    el("test-status").textContent = `Could not start the test: ${problem.message}`;
  }
});

async function follow() {
  let run;
  try {
    run = await fetchJSON(testing);
  } catch (problem) {
    el("test-status").textContent = `Lost the test: ${problem.message}`;
    testing = null;
    update();
    return;
  }
  showRun(run);
  if (run.state === "running") {
    setTimeout(follow, 1000);
  } else {
    testing = null;
    update();
  }
}

const pct = (rate) => `${(100 * rate).toFixed(1)}%`;
const interval = (low, high) => `[${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}]`;

function showRun(run) {
  root.dataset.test = run.state;
  el("test-progress").max = run.total;
  el("test-progress").value = run.done;
  const words = { running: `Playing: ${run.done} of ${run.total} games`,
    done: `Done: ${run.games} games against each preset`, stopped: "Stopped (the server restarted)",
    failed: "The test failed on the server" };
  el("test-status").textContent = `${words[run.state] || run.state}.`;
  el("test-results").tBodies[0].replaceChildren(...run.presets.map((row) => h("tr", { dataset: { preset: row.preset } },
    h("th", { scope: "row" }, row.preset),
    h("td", {}, String(row.games)),
    h("td", { class: "rate" }, row.games ? `${pct(row.rate)} ${interval(row.low, row.high)}` : "..."),
    h("td", { class: "own" }, `${pct(row.preset_strength.rate)} `
      + `${interval(row.preset_strength.low, row.preset_strength.high)}`))));
}

update();

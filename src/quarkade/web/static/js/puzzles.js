// Card Commons puzzles: find the one winning move. A right move is answered with the
// defence's reply from the solution, until the puzzle is solved; a move that also wins is
// neither right nor wrong (the line goes another way); any other move fails the puzzle and
// the board shows the reply that beats it. The server answers every move from its pool
// (nothing is searched); the page keeps the step and this device's tally.
import { drawTable, fetchJSON, h, keepFocus, loadRenderer } from "./common.js";

const root = document.getElementById("puzzles");
const el = (id) => document.getElementById(id);
const count = Number(root.dataset.count);
const TALLY = "quarkade-puzzles";

let puzzle = null;   // GET /api/puzzles/<n>: the puzzle at its step
let failed = false;  // a wrong move was tried on this puzzle
let pending = false;

function tally() {
  try { return JSON.parse(localStorage.getItem(TALLY)) || { solved: [], failed: [] }; }
  catch { return { solved: [], failed: [] }; }
}

function note(number, solved) {
  const kept = tally();
  if (kept.solved.includes(number) || kept.failed.includes(number)) return;
  (solved ? kept.solved : kept.failed).push(number);
  localStorage.setItem(TALLY, JSON.stringify(kept));
  drawTally();
}

function drawTally() {
  const kept = tally();
  const tried = kept.solved.length + kept.failed.length;
  el("tally").textContent = tried === 0 ? "No puzzles tried yet on this device."
    : `Solved ${kept.solved.length} of the ${tried} you have tried (first try only); `
      + `${count} puzzles in all.`;
}

function firstUntried() {
  const kept = tally();
  for (let number = 1; number <= count; number += 1) {
    if (!kept.solved.includes(number) && !kept.failed.includes(number)) return number;
  }
  return 1;
}

async function open(number) {
  puzzle = await fetchJSON(`/api/puzzles/${number}`);
  failed = false;
  history.replaceState(null, "", `#${number}`);
  feedback(null);
  draw();
  el("puzzle-title").focus();
}

async function attempt(move) {
  if (pending || !puzzle || puzzle.solved || failed) return;
  pending = true;
  root.dataset.pending = "yes";
  try {
    const response = await fetch(`/api/puzzles/${puzzle.number}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ step: puzzle.step, move }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || `${response.status}`);
    answer(body);
  } catch (problem) {
    feedback("wrong", String(problem.message || problem));
  } finally {
    pending = false;
    root.dataset.pending = "no";
    draw();
  }
}

function answer(body) {
  const said = body.result;
  if (said === "wrong") {
    failed = true;
    note(body.number, false);
    puzzle = { ...body };
    feedback("wrong", `Not that. ${body.refutation} The winning move was “${body.answer}”.`);
    return;
  }
  if (said === "also") {
    feedback("also", body.message);
    return;
  }
  puzzle = body;
  const replies = body.played.slice(1);
  const reply = replies.length ? ` Your opponent answered “${replies.join("”, then “")}”.` : "";
  if (said === "solved") {
    note(body.number, true);
    feedback("right", `Right: ${body.played[0]}.${reply} Puzzle solved!`);
  } else {
    feedback("right", `Right: ${body.played[0]}.${reply} Keep going.`);
  }
}

function draw() {
  root.dataset.number = String(puzzle.number);
  root.dataset.step = String(puzzle.step);
  root.dataset.result = puzzle.solved ? "solved" : failed ? "failed" : "playing";
  el("puzzle-title").textContent = `Puzzle ${puzzle.number} of ${puzzle.of}`;
  el("puzzle-title").tabIndex = -1;
  const rules = puzzle.variant === "tutorial" ? "Tutorial rules" : "Classic rules";
  const field = puzzle.torus ? ", on the torus field" : "";
  const themes = puzzle.themes.length ? ` Themes: ${puzzle.themes.join(", ")}.` : "";
  const cells = puzzle.empty === 1 ? "1 empty cell" : `${puzzle.empty} empty cells`;
  el("about").textContent = `${rules}${field}; ${cells}.${themes}`;
  el("task").textContent = failed ? "Puzzle failed: the board shows the reply that beats your move."
    : puzzle.task;
  const playing = !puzzle.solved && !failed;
  keepFocus(root, () => {
    const ui = { act: playing ? attempt : null, held: puzzle.table.held,
      name: (seat) => puzzle.table.seats[seat].name, pending };
    drawTable(el("table"), renderer, puzzle.table, ui);
    el("puzzle-moves-box").hidden = !playing;
    el("puzzle-moves").replaceChildren(...(playing ? puzzle.table.legal : []).map((move) =>
      h("li", {}, h("button", { type: "button", disabled: pending,
        dataset: { key: `puzzle-move-${move.id}`, move: move.text },
        onclick: () => attempt(move.id) }, move.label || move.text))));
  });
  el("next").hidden = playing;
  el("analyse").hidden = playing;
  el("analyse").href = puzzle.analyse;
}

function feedback(kind, text) {
  const box = el("feedback");
  if (!kind) { box.hidden = true; box.replaceChildren(); root.dataset.feedback = ""; return; }
  box.hidden = false;
  box.className = `feedback ${kind === "wrong" ? "wrong" : "right"}`;
  box.textContent = text;
  root.dataset.feedback = kind;
}

const renderer = count ? await loadRenderer(root.dataset.renderer) : null;
if (count) {
  el("next").addEventListener("click", () => open((puzzle.number % count) + 1));
  el("forget").addEventListener("click", () => { localStorage.removeItem(TALLY); drawTally(); });
  drawTally();
  const wanted = Number(location.hash.slice(1));
  open(wanted >= 1 && wanted <= count ? wanted : firstUntried()).catch((problem) => {
    el("puzzle-title").textContent = `The puzzle could not be loaded: ${problem.message}`;
  });
}

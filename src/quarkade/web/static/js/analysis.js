// The Card Commons analysis board: a position from a finished game's step or from moves,
// every legal move judged (won or lost, proven by the solver where it reaches; otherwise the
// search's chance to win), and moves played forward and back on the board. The page keeps
// the board's moves; the server rebuilds the position from them at every request.
import { drawTable, h, keepFocus, loadRenderer } from "./common.js";

const root = document.getElementById("analysis");
const el = (id) => document.getElementById(id);
const start = JSON.parse(root.dataset.start);
const renderer = await loadRenderer(root.dataset.renderer);
const RULES = { tutorial: "Tutorial", classic: "Classic" };

let moves = [...start.moves];  // the board's moves from the start (action ids)
let ahead = [...start.rest].reverse();  // moves for Forward: stepped back over, or the game's
let board = null;               // the last answer
let asked = 0;                  // the latest request; older answers are dropped

async function ask(judge) {
  const response = await fetch("/api/analysis/card-commons", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ variant: start.variant, torus: start.torus, game: start.game,
      moves, judge }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `${response.status}`);
  return body;
}

async function load() {
  const mine = ++asked;
  problem(null);
  root.dataset.judged = "no";
  try {
    const body = await ask(false);
    if (mine !== asked) return;
    board = body;
    draw();
    if (!board.to_move) { root.dataset.judged = "yes"; return; }
    el("thinking").hidden = false;
    const judged = await ask(true);
    if (mine !== asked) return;
    el("thinking").hidden = true;
    drawJudged(judged.judged.moves);
    el("said").textContent = summary(judged.judged.moves);
    root.dataset.judged = "yes";
  } catch (error) {
    if (mine !== asked) return;
    el("thinking").hidden = true;
    problem(String(error.message || error));
  }
}

function play(id) {
  moves = [...moves, id];
  ahead = [];
  load();
}

function draw() {
  root.dataset.step = String(moves.length);
  const field = board.torus ? "the torus field" : "the flat field";
  const from = start.game ? `From a finished game, ${start.moves.length} steps in. ` : "";
  el("setting").textContent = `${from}${RULES[board.variant]} rules, on ${field}; `
    + `${moves.length} moves from the start (the coin included).`;
  el("board-title").textContent = board.to_move ? `${board.to_move} to move` : "The board";
  el("said").textContent = board.said || (board.to_move ? `${board.to_move} to move: `
    + "choose a move on the table or from the list." : "");
  el("back").disabled = moves.length === 0;
  el("forward").disabled = ahead.length === 0;
  el("moves-text").value = board.notation.join(", ");
  el("variant").value = board.variant;
  el("torus").checked = board.torus;
  keepFocus(root, () => {
    const ui = { act: board.to_move ? play : null, held: board.table.held,
      name: (seat) => board.names[seat] };
    drawTable(el("table"), renderer, board.table, ui);
  });
  el("judged").replaceChildren(...board.coin.map((move) => h("li", {},
    h("button", { type: "button", onclick: () => play(move.id) }, move.label || move.text))));
  el("judged-box").hidden = !board.to_move && !board.coin.length;
}

function drawJudged(judged) {
  el("judged").replaceChildren(...judged.map((move) => h("li", {},
    h("button", { type: "button", class: move.exact === "wins" ? "goal" : null,
      dataset: { key: `judged-${move.id}`, move: move.text, value: move.exact || "estimate" },
      onclick: () => play(move.id) },
    `${move.label || move.text}: ${verdict(move)}`))));
}

// The position's value for the side to move, in a sentence.
function summary(judged) {
  const who = board.to_move;
  const wins = judged.filter((move) => move.exact === "wins").length;
  if (wins) return `${who} wins with best play: ${wins === 1 ? "one move wins" : `${wins} moves win`}.`;
  if (judged.every((move) => move.exact === "loses")) {
    return `${who} loses with best play, whatever the move.`;
  }
  const best = Math.max(...judged.map((move) => move.chance ?? 0));
  return `Out of the solver's reach: the search gives ${who} about ${Math.round(100 * best)}% `
    + "to win with the best move.";
}

function verdict(move) {
  if (move.exact === "wins") return "wins (proven)";
  if (move.exact === "loses") return "loses (proven)";
  return `about ${Math.round(100 * move.chance)}% to win (estimate)`;
}

function problem(text) {
  const box = el("problem");
  box.hidden = !text;
  box.textContent = text || "";
}

el("back").addEventListener("click", () => {
  if (!moves.length) return;
  ahead = [...ahead, moves[moves.length - 1]];
  moves = moves.slice(0, -1);
  load();
});
el("forward").addEventListener("click", () => {
  if (!ahead.length) return;
  moves = [...moves, ahead[ahead.length - 1]];
  ahead = ahead.slice(0, -1);
  load();
});

load();

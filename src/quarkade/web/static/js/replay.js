// The replay page, for any game: step through the game (first, back, forward, last, the
// slider, arrow keys, or a click on a log entry) as this device's seat may see it. The
// stepper stays disabled until the game has loaded.
import { drawTable, fetchJSON, h, loadRenderer, logText, seatName } from "./common.js";

const root = document.getElementById("replay");
const gameId = root.dataset.id;
const seat = root.dataset.seat;
const query = seat !== "" ? `?seat=${encodeURIComponent(seat)}` : "";
const renderer = new URLSearchParams(location.search).get("renderer") === "generic" ? null
  : await loadRenderer(root.dataset.renderer);
const el = (id) => document.getElementById(id);
const cache = new Map();
let game = null;
let current = 0;
let wanted = 0;

async function start() {
  try {
    game = await fetchJSON(`/api/games/${gameId}${query}`);
  } catch (problem) {
    showProblem(problem.message);
    return;
  }
  const viewer = game.viewpoint === null ? "" : `?seat=${game.viewpoint}`;
  el("download").href = `/games/${gameId}/record${viewer}`;
  el("slider").max = String(game.step);
  if (game.revealed) {
    el("reveal-note").textContent = "Every hidden card is shown at every step, as the table chose.";
    el("reveal-note").hidden = false;
  }
  el("log").replaceChildren(...game.log.map((entry) => h("li", { value: entry.step, dataset: { step: entry.step } },
    h("button", { type: "button", onclick: () => show(entry.step) }, logText(game, entry)))));
  await show(0);
}

async function show(step) {
  if (!game) return;  // the game has not loaded yet (or could not be loaded)
  wanted = Math.max(0, Math.min(game.step, step));
  const target = wanted;
  let data = cache.get(target);
  if (!data) {
    try {
      data = await fetchJSON(`/api/games/${gameId}/steps/${target}${query}`);
    } catch (problem) {
      showProblem(problem.message);
      return;
    }
    cache.set(target, data);
  }
  if (target !== wanted) return;  // a later click won
  current = target;
  root.dataset.step = String(current);
  const table = { ...game, ...data, legal: [] };
  drawTable(el("table"), renderer, table,
    { act: null, held: game.held, name: (s) => seatName(table, s) });
  el("where").textContent = `step ${current} of ${game.step}`;
  const analyse = el("analyse");  // Card Commons: the analysis board, once the game is over
  if (analyse) {
    analyse.hidden = !game.over;
    analyse.href = `/analysis/card-commons?game=${encodeURIComponent(gameId)}&step=${Math.max(1, current)}`;
  }
  el("happened").textContent = happened(current);
  el("slider").value = String(current);
  el("slider").disabled = false;
  el("first").disabled = el("back").disabled = current === 0;
  el("forward").disabled = el("last").disabled = current === game.step;
  for (const item of el("log").children) {
    item.classList.toggle("current", Number(item.dataset.step) === current);
  }
  const mark = el("log").querySelector("li.current");
  if (mark) mark.scrollIntoView({ block: "nearest" });
}

// What the step shown did, in words (the replay's live region reads it out).
function happened(step) {
  if (step === 0) return `Step 0 of ${game.step}: the start of the game.`;
  const lines = game.log.filter((entry) => entry.step === step).map((entry) => logText(game, entry));
  const what = lines.length ? lines.join(" ") : "a random draw.";
  return `Step ${step} of ${game.step}: ${what}`;
}

function showProblem(text) {
  const box = el("problem");
  box.textContent = text;
  box.hidden = false;
}

el("first").addEventListener("click", () => show(0));
el("back").addEventListener("click", () => show(current - 1));
el("forward").addEventListener("click", () => show(current + 1));
el("last").addEventListener("click", () => show(game.step));
el("slider").addEventListener("input", (event) => show(Number(event.target.value)));
document.addEventListener("keydown", (event) => {
  if (!game || event.target instanceof HTMLInputElement) return;
  const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: game.step };
  if (event.key in moves) { event.preventDefault(); show(moves[event.key]); }
});

start();

// The game page's coach: in a game against bots, a Hint button for the seat to move (the
// a win chance for every legal move and the best of them starred, from one search with
// this seat's information only); once the game is over, a link to its review (and back to the tutorial, for a
// tutorial's last lesson). It reads where the game is from the #game element's data
// attributes, which game.js keeps up to date.
import { fetchJSON, h, loadStylesheet } from "./common.js";

await loadStylesheet(new URL("../learn.css", import.meta.url));

const root = document.getElementById("game");
const box = document.getElementById("coach");
const gameId = root.dataset.id;
let coach = null;
let hint = null;      // the last hint, for the step it was asked at
let asking = false;

function seat() {
  return new URLSearchParams(location.search).get("seat") || root.dataset.seat || "";
}

function query() {
  return seat() !== "" ? `?seat=${encodeURIComponent(seat())}` : "";
}

async function load() {
  try {
    coach = await fetchJSON(`/api/games/${gameId}/coach${query()}`);
  } catch {
    return;  // the game page shows the problem itself
  }
  draw();
}

async function ask() {
  if (asking) return;
  asking = true;
  draw();
  const step = root.dataset.step;
  try {
    const response = await fetch(`/api/games/${gameId}/hint${query()}`, {
      method: "POST", headers: { accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || `${response.status}`);
    hint = { step, body };
    coach.hinted = body.hinted;
  } catch (problem) {
    hint = { step, error: String(problem.message || problem) };
  } finally {
    asking = false;
    draw();
  }
}

function draw() {
  if (!coach) return;
  const over = root.dataset.over === "yes";
  const mine = root.dataset.turn === "mine";
  if (hint && hint.step !== root.dataset.step) hint = null;
  const parts = [];
  if (coach.hints && !over) {
    parts.push(h("h2", { id: "coach-title" }, "Hint",
      h("button", { type: "button", id: "hint", class: "quiet", disabled: !mine || asking,
        dataset: { key: "hint" }, onclick: ask }, asking ? "Thinking..." : "Show a hint")));
    if (hint && hint.error) parts.push(h("p", { class: "error" }, hint.error));
    else if (hint) parts.push(drawHint(hint.body));
    else parts.push(h("p", { class: "muted" }, mine
      ? "Each move's chance to win, the best one starred."
      : "On your turn: each move's chance to win, the best one starred."));
  }
  if (coach.hinted.length) {
    parts.push(h("p", { class: "muted", id: "unrated" },
      "Hints were used in this game, so it will not be rated."));
  }
  if (over && coach.review) {
    parts.push(h("h2", {}, "After the game"),
      h("p", { class: "buttons" },
        h("a", { class: "button primary", id: "review-link", href: coach.review }, "Review this game"),
        coach.tutorial ? h("a", { class: "button", id: "tutorial-link", href: coach.tutorial },
          "Back to the tutorial") : null));
  }
  box.replaceChildren(...parts);
  box.classList.add("coach");
  box.hidden = parts.length === 0;
}

// The best few moves at once, every move behind "All N moves".
const SHOWN = 6;

function drawHint(body) {
  const rows = body.moves.map((move) => h("li", { class: move.id === body.best.id ? "bot" : null,
    dataset: { action: move.id } },
  h("span", {}, move.id === body.best.id ? "\u2605 " : "", move.label || move.text),
  h("span", { class: "chance" }, `${Math.round(move.chance * 100)}%`),
  h("span", { class: "bar", "aria-hidden": "true" }, bar(move.chance))));
  const more = rows.slice(SHOWN);
  return h("div", { id: "hint-panel", role: "status" },
    h("p", {}, "Best by this search: ", h("strong", {}, body.best.label || body.best.text), "."),
    h("ol", { class: "hint-list", "aria-label": "Each move's estimated chance to win" },
      rows.slice(0, SHOWN)),
    more.length ? h("details", {}, h("summary", {}, `All ${rows.length} moves`),
      h("ol", { class: "hint-list", start: String(SHOWN + 1) }, more)) : null,
    h("p", { class: "muted" }, `Estimated by ${body.iterations} searches from what you can see.`));
}

// A bar as wide as the chance (set through the style object: the page allows no inline
// style attribute).
function bar(chance) {
  const fill = h("span");
  fill.style.width = `${Math.round(chance * 100)}%`;
  return fill;
}

// game.js updates these attributes after every change: redraw when the game moves on,
// and ask again once it ends (a game that ended before anyone moved has no review).
let wasOver = root.dataset.over === "yes";
new MutationObserver(() => {
  const over = root.dataset.over === "yes";
  if (over && !wasOver) load();
  else draw();
  wasOver = over;
}).observe(root, {
  attributes: true, attributeFilter: ["data-step", "data-turn", "data-over"] });
load();

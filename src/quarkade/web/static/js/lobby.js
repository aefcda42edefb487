// The lobby: open games and games to watch, kept live over /ws/lobby (the server sends the
// whole list after every change to a public game); joining an open seat is one click, and
// quick play finds a seat or opens a game.
import { h } from "./common.js";

const el = (id) => document.getElementById(id);
let retries = 0;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  socket.addEventListener("open", () => { retries = 0; });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "lobby") draw(message);
  });
  socket.addEventListener("close", (event) => {
    if (event.code >= 4000) return;
    setTimeout(connect, Math.min(5000, 200 * 2 ** retries++));
  });
}

function seatText(seat) {
  return seat.rating !== null && seat.rating !== undefined ? `${seat.name} (${seat.rating})` : seat.name;
}

function draw(lobby) {
  const open = el("open-games");
  open.dataset.count = String(lobby.open.length);
  open.replaceChildren(lobby.open.length ? h("ul", { class: "lobby-list" }, lobby.open.map((game) =>
    h("li", { class: "lobby-game", dataset: { id: game.id } },
      h("strong", {}, game.title), ` ${game.players} players, ${game.time_control}`,
      game.options.length ? `; ${game.options.join(", ")}` : "",
      h("div", { class: "lobby-seats" }, game.seats.map((seat) => seat !== game.seats.find((s) => s.open)
        ? h("span", {}, seatText(seat))
        : game.yours  // the player sits here already: their game, not a seat to take
        ? h("a", { class: "your-game", href: `/games/${game.id}` }, "You sit here: open your game")
        : h("button", { type: "button", class: "primary join",
          dataset: { game: game.id, seat: String(seat.seat) },
          onclick: () => join(game, seat) }, "Join"))))))
    : h("p", { class: "muted", id: "no-open" }, "No open games right now: create one."));
  const live = el("live-games");
  live.replaceChildren(lobby.live.length ? h("ul", { class: "lobby-list" }, lobby.live.map((game) =>
    h("li", {}, h("a", { href: `/games/${game.id}?seat=spectator` },
      `${game.title}: ${game.seats.map(seatText).join(", ")}`), " ",
    h("span", { class: "muted" }, game.time_control))))
    : h("p", { class: "muted" }, "No public games under way."));
}

async function join(game, seat) {
  if (seat.chooses) {  // the seat chooses its own options (a deck) first
    location.href = `/games/${game.id}/take/${seat.seat}`;
    return;
  }
  const response = await fetch(`/api/games/${game.id}/seats/${seat.seat}/take`, {
    method: "POST", headers: { "content-type": "application/json", accept: "application/json" },
    body: "{}" });
  const body = await response.json();
  if (!response.ok) { problem(body.error); return; }
  location.href = body.url;
}

function problem(text) {
  const box = el("quick-problem");
  box.textContent = text || "";
  box.hidden = !text;
}

// Quick play's player counts (the chosen game's own) and deck choice (a game with a deck
// builder) are shown only for the chosen game.
function showChoices() {
  const game = el("quick-game").value;
  for (const label of document.querySelectorAll("#quick .quick-deck, #quick .quick-players")) {
    const mine = label.dataset.game === game;
    label.hidden = !mine;
    for (const field of label.querySelectorAll("select, input")) field.disabled = !mine;
  }
}
// The page arrives with the open games drawn by the server as plain forms (they work with no
// script); until the live list replaces them, a click on one joins in one step as well.
el("open-games").addEventListener("submit", (event) => {
  const button = event.target.querySelector("button.join");
  if (!button || button.dataset.chooses === "yes") return;  // the seat's form asks first
  event.preventDefault();
  join({ id: button.dataset.game }, { seat: Number(button.dataset.seat), chooses: false });
});

el("quick-game").addEventListener("change", showChoices);
showChoices();

el("quick").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const game = form.get("game");
  const deck = form.get(`deck.${game}`);
  const response = await fetch("/api/lobby/quick", {
    method: "POST", headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ game, players: Number(form.get(`players.${game}`)),
      time_control: form.get("time_control"), ...(deck ? { deck } : {}) }) });
  const body = await response.json();
  if (!response.ok) { problem(body.error); return; }
  location.href = body.url;
});

connect();

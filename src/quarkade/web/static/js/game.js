// The game page, for any game: the live table of one seat (or a spectator's), its moves as
// buttons, the log, the seats and invite links, the result and a rematch. Live over a
// WebSocket that reconnects and catches up; the server sends a whole snapshot each time.
import {
  drawTable, h, keepFocus, loadRenderer, logText, resultText, seatName, turnText,
} from "./common.js";

const root = document.getElementById("game");
const params = new URLSearchParams(location.search);
const gameId = root.dataset.id;
let seat = root.dataset.seat || "";
const renderer = params.get("renderer") === "generic" ? null
  : await loadRenderer(root.dataset.renderer);

const el = (id) => document.getElementById(id);
let socket = null;
let table = null;
let pending = false;
let retries = 0;
let handover = null;  // the held seat waiting for this device to be passed to it

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = seat !== "" ? `?seat=${encodeURIComponent(seat)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}${query}`);
  const mine = socket;
  socket.addEventListener("open", () => { retries = 0; });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (mine !== socket) return;  // replaced on purpose (a seat switch)
    if (event.code >= 4000) return;  // refused: the error message says why
    status("Connection lost; reconnecting...");
    setTimeout(connect, Math.min(5000, 200 * 2 ** retries++));
  });
}

function receive(message) {
  if (message.type === "state") {
    if (table && message.step < table.step && message.id === table.id) return;
    root.dataset.server = message.server || "";  // which server process this page talks to
    table = message;
    pending = false;
    problem("");
    draw();
  } else if (message.type === "error") {
    pending = false;
    problem(message.message);
    if (table) draw();
    if (message.status === 403 && !table) offerSpectator();
  } else if (message.type === "rematch") {
    location.href = message.url;
  }
}

function act(action) {
  if (pending || !table || !socket || socket.readyState !== WebSocket.OPEN) return;
  pending = true;
  socket.send(JSON.stringify({ type: "act", action, step: table.step }));
  draw();
}

function switchSeat(next) {
  seat = String(next);
  handover = null;
  const url = new URL(location.href);
  url.searchParams.set("seat", seat);
  history.replaceState(null, "", url);
  const old = socket;
  connect();
  old.close();
}

function draw() {
  // For tests and scripts: where the page is.
  root.dataset.step = String(table.step);
  root.dataset.over = table.over ? "yes" : "no";
  root.dataset.turn = table.legal.length && !pending ? "mine" : "wait";
  // Hot-seat: the seat to move is held on this device but another seat is shown.
  const next = table.to_move;
  if (!table.over && next !== null && table.held.includes(next) && table.viewpoint !== next) {
    if (!table.secret) { switchSeat(next); return; }
    handover = next;
  } else {
    handover = null;
  }
  status(handover !== null ? `Pass the device to ${seatName(table, handover)}` : turnText(table));
  el("replay-link").href = `/games/${gameId}/replay${table.viewpoint === null ? "" : `?seat=${table.viewpoint}`}`;
  keepFocus(root, () => {
    drawMainTable();
    drawMoves();
    drawResult();
    drawSeats();
    drawLog();
  });
}

function drawMainTable() {
  const container = el("table");
  if (handover !== null) {
    container.replaceChildren(h("div", { class: "handover" },
      h("p", {}, `It is ${seatName(table, handover)}'s turn. Pass the device, then:`),
      h("button", { class: "primary", type: "button", dataset: { key: "handover" },
        onclick: () => switchSeat(handover) }, `Show ${seatName(table, handover)}'s table`)));
    return;
  }
  const ui = { act: pending ? () => {} : act, held: table.held,
    name: (s) => seatName(table, s), pending };
  drawTable(container, renderer, table, ui);
}

function drawMoves() {
  const list = el("moves");
  const box = el("moves-box");
  box.hidden = table.over || handover !== null || !table.held.length;
  if (!table.legal.length) {
    list.replaceChildren(h("li", { class: "muted" }, table.over ? "The game is over."
      : `Waiting for ${table.to_move === null ? "chance" : seatName(table, table.to_move)}.`));
    return;
  }
  list.replaceChildren(...table.legal.map((move, index) => h("li", {},
    h("button", { type: "button", disabled: pending, dataset: { key: `move-${move.id}`, action: move.id },
      "aria-keyshortcuts": index < 9 ? String(index + 1) : null,
      onclick: () => act(move.id) },
    index < 9 ? h("span", { class: "key", "aria-hidden": "true" }, `${index + 1}`) : null,
    move.label || move.text))));
}

function drawResult() {
  const box = el("result-box");
  box.hidden = !table.over;
  if (!table.over) return;
  const flagged = (table.flagged || []).map((fault) => ` Flagged: ${fault.message}.`).join("");
  el("result").textContent = resultText(table) + flagged;
  const button = el("rematch");
  const atTable = table.held.length > 0 || table.invites !== undefined;
  button.hidden = !atTable;
  button.textContent = table.rematch ? "Play the rematch" : "Rematch";
  button.onclick = () => {
    if (table.rematch) location.href = `/games/${gameId}/rematch`;
    else socket.send(JSON.stringify({ type: "rematch" }));
  };
}

function drawSeats() {
  const invites = new Map((table.invites || []).map((invite) => [invite.seat, invite]));
  const stopped = new Map((table.flagged || []).map((fault) => [fault.seat, fault.message]));
  el("seats").replaceChildren(...table.seats.map((entry) => {
    const invite = invites.get(entry.seat);
    const link = invite ? new URL(invite.url, location.href).href : null;
    return h("li", {},
      h("span", {}, seatName(table, entry.seat)),
      table.to_move === entry.seat && !table.over ? h("span", { class: "tag turn" }, "to move") : null,
      entry.kind === "friend" && !entry.joined ? h("span", { class: "tag" }, "invited") : null,
      stopped.has(entry.seat) ? h("span", { class: "tag", title: stopped.get(entry.seat) },
        "bot stopped: plays random") : null,
      table.viewpoint === entry.seat ? h("span", { class: "tag" }, "shown") : null,
      table.held.includes(entry.seat) && table.viewpoint !== entry.seat && !table.over
        ? h("button", { type: "button", dataset: { key: `show-${entry.seat}` },
          onclick: () => switchSeat(entry.seat) }, "show") : null,
      link && !invite.joined ? h("span", { class: "invite" },
        h("input", { readonly: true, value: link, "aria-label": `Invite link for seat ${entry.seat}` }),
        h("button", { type: "button", dataset: { key: `copy-${entry.seat}` },
          onclick: (event) => copy(link, event.currentTarget) }, "copy")) : null,
      invite && invite.joined ? h("span", { class: "tag" }, "joined") : null,
      table.held.includes(entry.seat) && table.seats.length > 1 && entry.kind === "friend"
        ? h("button", { type: "button", dataset: { key: `link-${entry.seat}` },
          title: "A one-time link that opens this seat on another device of yours",
          onclick: (event) => linkDevice(entry.seat, event.currentTarget) }, "use on another device")
        : null);
  }));
}

// The seat's holder asks for a one-time link for another device of theirs (ten minutes).
async function linkDevice(seatNumber, button) {
  try {
    const response = await fetch(`/api/games/${gameId}/seats/${seatNumber}/link`, {
      method: "POST", headers: { accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || `${response.status}`);
    const link = new URL(body.url, location.href).href;
    button.replaceWith(h("span", { class: "invite" },
      h("input", { readonly: true, value: link, "aria-label": `Link for another device, seat ${seatNumber}` }),
      h("button", { type: "button", onclick: (event) => copy(link, event.currentTarget) }, "copy")));
  } catch (error) {
    problem(`Could not make a device link: ${error.message}`);
  }
}

function drawLog() {
  const every = el("every-action").checked;
  const list = el("log");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  const entries = table.log.filter((entry) => every || entry.line);
  list.replaceChildren(...entries.map((entry) => h("li", {
    value: every ? entry.step : null, class: entry.player < 0 && !entry.line ? "chance" : null,
  }, every && entry.line ? `${logText(table, { ...entry, line: null })} - ${entry.line}` : logText(table, entry))));
  if (atBottom || !pending) list.scrollTop = list.scrollHeight;
}

function status(text) { el("status").textContent = text; }

function problem(text) {
  const box = el("problem");
  box.textContent = text;
  box.hidden = !text;
}

function offerSpectator() {
  el("table").replaceChildren(h("p", {}, "This device holds no token for that seat. ",
    h("a", { href: `/games/${gameId}?seat=spectator` }, "Watch as a spectator"), "."));
  status("");
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "copied";
  } catch {
    button.previousElementSibling.select();
  }
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  if (/^[1-9]$/.test(event.key) && table && table.legal.length) {
    const move = table.legal[Number(event.key) - 1];
    if (move) { event.preventDefault(); act(move.id); }
  }
});
el("every-action").addEventListener("change", () => table && drawLog());

connect();

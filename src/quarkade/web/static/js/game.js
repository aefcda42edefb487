// The game page, for any game: the live table of one seat (or a spectator's), its moves as
// buttons, the log, the seats and invite links, the result and a rematch, and the chat.
// Live over a WebSocket that reconnects and catches up; the server sends a whole snapshot
// each time, and chat messages as they come. Other seats' moves are announced in a polite
// live region; after a move the focus stays on the table (or the next move); a move that
// ends the game without the mover winning asks first.
import {
  drawTable, h, keepFocus, loadRenderer, localTime, logText, resultText, seatName, turnText,
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
let refocus = false;  // a move was made from this page: keep the focus on the table
let announced = null;  // the last log step announced in the live region
const chat = [];  // the chat messages, in order

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
    announce();
  } else if (message.type === "chat") {
    receiveChat(message);
  } else if (message.type === "error") {
    pending = false;
    problem(message.message);
    if (table) draw();
    if (message.status === 403 && !table) offerSpectator();
  } else if (message.type === "rematch") {
    location.href = message.url;
  }
}

async function act(action) {
  if (pending || !table || !socket || socket.readyState !== WebSocket.OPEN) return;
  const move = table.legal.find((entry) => entry.id === action);
  if (move && move.ends) {
    const step = table.step;
    if (!(await confirmEnding(move)) || !table || table.step !== step) return;
  }
  pending = true;
  refocus = true;
  socket.send(JSON.stringify({ type: "act", action, step: table.step }));
  draw();
}

// A move after which the game is over without the mover winning: ask first (a dialog
// that keeps the keyboard inside it; Escape or Cancel plays nothing).
function confirmEnding(move) {
  const dialog = el("confirm");
  const what = move.label || move.text;
  el("confirm-text").textContent = move.ends === "draw"
    ? `"${what}" ends the game in a draw.`
    : `"${what}" ends the game, and you lose.`;
  el("confirm-yes").textContent = move.ends === "draw" ? `Play it: a draw` : `Play it and lose`;
  const before = document.activeElement;
  return new Promise((resolve) => {
    const done = (answer) => {
      el("confirm-yes").onclick = el("confirm-no").onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      if (!answer && before && document.contains(before)) before.focus();
      resolve(answer);
    };
    el("confirm-yes").onclick = () => done(true);
    el("confirm-no").onclick = () => done(false);
    dialog.onclose = () => done(false);
    dialog.showModal();
    el("confirm-no").focus();
  });
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
  drawRevealNote();
  keepFocus(root, () => {
    drawMainTable();
    drawMoves();
    drawResult();
    drawSeats();
    drawLog();
    drawChatForm();
  }, refocus ? nextFocus : null);
  if (!pending && document.activeElement && document.activeElement !== document.body) {
    refocus = false;
  }
}

// Where the keyboard goes when what it was on is gone after a move: a lit thing on the
// table, else the first move in the list, else the table itself.
function nextFocus() {
  return root.querySelector("#table button:not([disabled])")
    || root.querySelector("#moves button:not([disabled])") || el("table");
}

// Other seats' moves (and what chance did) since the last state, in the polite live region.
function announce() {
  const log = table.log;
  const newest = log.length ? log[log.length - 1].step : 0;
  if (announced === null || newest < announced) {  // first load, or a rematch
    announced = newest;
    return;
  }
  const fresh = log.filter((entry) => entry.step > announced
    && (entry.line !== null || entry.player >= 0) && entry.player !== table.viewpoint);
  announced = newest;
  if (!fresh.length) return;
  el("last-move").textContent = fresh.map((entry) => logText(table, entry)).join(" ");
}

function drawRevealNote() {
  const note = el("reveal-note");
  note.hidden = !table.hides;
  note.textContent = table.revealed
    ? "The game is over: every hidden card is shown, as the table chose."
    : table.reveal ? "Every hidden card will be shown to everyone once the game is over."
      : "Hidden cards stay hidden after the game.";
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
  el("moves-title").textContent = table.legal.length ? `Your moves (${table.legal.length})` : "Your moves";
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

// -- chat ---------------------------------------------------------------------------------

function receiveChat(message) {
  if (message.all) chat.length = 0;
  for (const entry of message.messages) {
    if (entry.number === chat.length) chat.push(entry);
  }
  const list = el("chat");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  list.replaceChildren(...chat.map((entry) => h("li", {},
    h("time", { datetime: new Date(entry.sent * 1000).toISOString() }, localTime(entry.sent)),
    " ", h("strong", {}, table ? seatName(table, entry.seat) : entry.name), ": ",
    h("span", { class: "chat-text" }, entry.text))));
  if (atBottom || message.all) list.scrollTop = list.scrollHeight;
}

function drawChatForm() {
  const seated = table.held.length > 0;
  el("chat-form").hidden = !seated;
  el("chat-note").hidden = seated;
}

el("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = el("chat-text");
  const text = input.value.trim();
  if (!text || !socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ type: "chat", text }));
  input.value = "";
});

function showChat(shown) {
  el("chat-body").hidden = !shown;
  el("chat-toggle").setAttribute("aria-expanded", String(shown));
  el("chat-toggle").textContent = shown ? "Hide" : "Show";
  try { localStorage.setItem("quarkade-chat", shown ? "shown" : "hidden"); } catch { /* private mode */ }
}
el("chat-toggle").addEventListener("click", () => showChat(el("chat-body").hidden));
try { if (localStorage.getItem("quarkade-chat") === "hidden") showChat(false); } catch { /* ok */ }

// On a narrow screen a game with its own table is played on the table: the list of moves
// folds away behind it (it is still one tap away).
if (renderer && !matchMedia("(min-width: 880px)").matches) el("moves-fold").open = false;

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

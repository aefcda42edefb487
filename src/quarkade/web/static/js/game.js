// The game page, for any game: the live table of one seat (or a spectator's), its moves as
// buttons, the log, the seats and invite links, the clocks, resign and abort (confirmed
// first), the result with rating changes and a rematch, and the chat. Live over a WebSocket
// that reconnects and catches up; the server sends the whole table each time but only the
// log entries this page does not hold yet (log_from: how many it holds), and chat
// messages as they come (the newest 200 first; earlier ones when asked for). When it becomes this device's turn the tab's title and icon
// change, and (as the player chose) a sound plays and a notification appears; so does one
// when a watched game ends. Other seats' moves are announced in a polite live region;
// after a move the focus stays on the table (or the next move); a move that ends the game
// without the mover winning asks first.
import {
  clockText, drawTable, fetchJSON, h, keepFocus, loadRenderer, localTime, logText, resultText,
  moveWords, seatName, turnText,
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
let receivedAt = 0;  // when the last snapshot came (the clocks count down from it)
let wasMyTurn = false;
let wasOver = null;
let settings = { sound: false, notify: false };
let audio = null;
const baseTitle = document.title;
let refocus = false;  // a move was made from this page: keep the focus on the table
let announced = null;  // the last log step announced in the live region
const chat = [];  // the chat messages this page holds, in order (the newest at the end)
let earlierChat = 0;  // how many messages come before those

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
    if (message.log_from > 0) {  // only the new entries: after the first log_from held
      if (!table || message.id !== table.id || table.log.length < message.log_from) {
        socket.close();  // out of step with the server: reconnect for the whole table
        return;
      }
      message.log = table.log.slice(0, message.log_from).concat(message.log);
    }
    root.dataset.server = message.server || "";  // which server process this page talks to
    const turnBefore = table && table.id === message.id ? `${table.to_move}/${table.over}` : null;
    table = message;
    receivedAt = performance.now();
    pending = false;
    problem("");
    draw();
    alertIfNeeded();
    announce();
    // The header's count of games waiting for this player may have changed (turns.js).
    if (turnBefore !== null && turnBefore !== `${table.to_move}/${table.over}`
        && table.held.length) document.dispatchEvent(new Event("quarkade:turns"));
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

// A move in words: the game's renderer may say it (Hadronize), else the label without
// the notation's seat numbers.
function wordsFor(move) {
  const own = renderer && renderer.moveWords
    ? renderer.moveWords(move, table, (seat) => seatName(table, seat)) : null;
  return own || moveWords(move);
}

// A move after which the game is over without the mover winning: ask first.
function confirmEnding(move) {
  const what = wordsFor(move);
  return ask("Play this move?", move.ends === "draw" ? `"${what}" ends the game in a draw.`
    : move.ends === "trap" ? `"${what}" leaves you only moves that lose the game.`
      : `"${what}" ends the game, and you lose.`,
  move.ends === "draw" ? "Play it: a draw" : move.ends === "trap" ? "Play it anyway"
    : "Play it and lose");
}

// A question in a modal dialog (the keyboard stays inside it; Escape or Cancel says no);
// the focus goes back where it was when the answer is no.
function ask(title, question, yes = "Yes") {
  const dialog = el("confirm");
  el("confirm-title").textContent = title;
  el("confirm-text").textContent = question;
  el("confirm-yes").textContent = yes;
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
  status(handover !== null ? `Pass the device to ${seatName(table, handover)}.`
    : table.waiting ? waitingText() : turnText(table));
  el("replay-link").href = `/games/${gameId}/replay${table.viewpoint === null ? "" : `?seat=${table.viewpoint}`}`;
  drawRevealNote();
  keepFocus(root, () => {
    drawMainTable();
    drawMoves();
    drawResult();
    drawActions();
    drawSeats();
    drawLog();
    drawChatForm();
  }, refocus ? nextFocus : null);
  drawClocks();
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

// Other seats' moves (and what chance did) since the last state, in the polite live region:
// a sentence per event, the game's own lines (a move the game tells in the line after it
// is not said twice); a game with no lines says who played what.
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
  const lined = fresh.filter((entry) => entry.line);
  const told = lined.length ? lined : fresh.filter((entry) => entry.player >= 0);
  if (!told.length) return;
  el("last-move").textContent = told.map((entry) => sentence(logText(table, entry))).join(" ");
}

function sentence(text) {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function drawRevealNote() {
  const note = el("reveal-note");
  note.hidden = !table.hides;
  note.textContent = table.revealed
    ? "The game is over: every hidden card is shown, as the table chose."
    : table.reveal ? "Every hidden card will be shown to everyone once the game is over."
      : "Hidden cards stay hidden after the game.";
}

function waitingText() {
  const open = table.seats.filter((s) => !s.joined).length;
  return `Waiting for ${open === 1 ? "one more player" : `${open} more players`}: the game starts when every seat is taken.`;
}

// -- clocks: the server keeps them; the page counts down from its last snapshot ----------

function drawClocks() {
  const box = el("clocks");
  const clock = table.clock;
  const aborted = table.over && table.outcome && table.outcome.result === "aborted";
  if (!clock || clock.kind === "none" || table.waiting || aborted) {
    box.hidden = true; // an aborted game's clocks never counted for anything
    return;
  }
  box.hidden = false;
  box.dataset.control = clock.control;
  const seats = clock.kind === "realtime" ? table.seats.map((s) => s.seat)
    : (clock.running === null ? [] : [clock.running]);
  box.replaceChildren(h("span", { class: "muted" }, clock.label),
    ...seats.map((s) => h("span", {
      class: `clock${clock.running === s ? " running" : ""}`, dataset: { seat: String(s) },
    }, h("span", { class: "who" }, seatName(table, s)), " ", h("strong", { class: "time" }, ""))));
  tick();
}

function tick() {
  if (!table || !table.clock || table.clock.kind === "none") return;
  const clock = table.clock;
  const passed = (performance.now() - receivedAt) / 1000;
  for (const node of el("clocks").querySelectorAll(".clock")) {
    const s = Number(node.dataset.seat);
    const left = s === clock.running ? clock.left - passed : clock.remaining[s];
    node.querySelector(".time").textContent = clockText(left);
    node.classList.toggle("low", s === clock.running && left < 20 && clock.kind === "realtime");
  }
}
setInterval(tick, 200);

// -- resign, abort, claim an abandoned seat: confirmed first ------------------------------

function drawActions() {
  const may = table.may || { resign: [], abort: false, claim: [] };
  const mine = table.viewpoint !== null && may.resign.includes(table.viewpoint);
  el("actions-box").hidden = !(mine || may.abort || may.claim.length);
  el("resign").hidden = !mine;
  el("abort").hidden = !may.abort;
  el("claims").replaceChildren(...may.claim.map((s) => h("button", {
    type: "button", dataset: { key: `claim-${s}` },
    onclick: () => confirmThen(`Claim that ${seatName(table, s)} abandoned the game?`,
      { type: "claim", seat: s }),
  }, `${seatName(table, s)} abandoned: claim`)));
}

async function confirmThen(question, message) {
  if (!(await ask("Are you sure?", question))) return;
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

el("resign").addEventListener("click", () => confirmThen(
  table.seats.length === 2 ? "Resign? You lose this game."
    : "Resign? A bot plays your seat for the rest of the game, and you finish last.",
  { type: "resign" }));
el("abort").addEventListener("click", () => confirmThen(
  "Abort the game? It ends with no result.", { type: "abort" }));

// -- your turn: title, icon, sound, notification --------------------------------------------

function alertIfNeeded() {
  const mine = !table.over && table.legal.length > 0;
  document.title = mine ? `\u25B6 Your turn - ${baseTitle}` : baseTitle;
  const icon = document.querySelector("link[rel=icon]");
  if (icon) icon.href = mine ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  if (mine && !wasMyTurn) {
    if (settings.sound) beep();
    notify(`Your turn in ${baseTitle.split(" - ")[0]}`, turnText(table));
  }
  if (table.over && wasOver === false) notify(`${baseTitle.split(" - ")[0]} is over`, resultText(table));
  wasMyTurn = mine;
  wasOver = table.over;
}

function notify(title, body) {
  if (!settings.notify || !("Notification" in window) || Notification.permission !== "granted") return;
  if (!document.hidden) return;
  try { new Notification(title, { body, icon: "/static/favicon-turn.svg" }); } catch { /* none */ }
}

function beep() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.3);
    root.dataset.beeps = String(Number(root.dataset.beeps || 0) + 1);
  } catch { /* no sound here */ }
}

async function loadSettings() {
  try {
    settings = (await fetchJSON("/api/me")).settings;
  } catch { return; }
  el("sound").checked = settings.sound;
  el("notify").checked = settings.notify;
}

async function saveSetting(key, value) {
  settings[key] = value;
  if (key === "notify" && value && "Notification" in window && Notification.permission === "default") {
    await Notification.requestPermission();
  }
  if (key === "sound" && value) beep();  // a click is a gesture: sound may start now
  await fetch("/api/me", { method: "POST", headers: { "content-type": "application/json",
    accept: "application/json" }, body: JSON.stringify({ settings: { [key]: value } }) });
}
el("sound").addEventListener("change", (event) => saveSetting("sound", event.target.checked));
el("notify").addEventListener("change", (event) => saveSetting("notify", event.target.checked));


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
      : table.waiting ? "The game starts when every seat is taken."
        : table.to_move === null ? "Dealing..." : `Waiting for ${seatName(table, table.to_move)}.`));
    return;
  }
  list.replaceChildren(...table.legal.map((move, index) => h("li", {},
    h("button", { type: "button", disabled: pending, dataset: { key: `move-${move.id}`, action: move.id, notation: move.text },
      "aria-keyshortcuts": index < 9 ? String(index + 1) : null,
      onclick: () => act(move.id) },
    index < 9 ? h("span", { class: "key", "aria-hidden": "true" }, `${index + 1}`) : null,
    wordsFor(move)))));
}

function drawResult() {
  const box = el("result-box");
  box.hidden = !table.over;
  if (!table.over) return;
  const flagged = (table.flagged || []).map((fault) => ` The result is flagged. ${fault.message}`).join("");
  el("result").textContent = resultText(table) + flagged;
  const changes = new Map((table.rating_changes || []).map((c) => [c.seat, c]));
  const outcome = table.outcome || { winners: [] };
  el("result-table").replaceChildren(...table.seats.map((s) => {
    const change = changes.get(s.seat);
    const result = outcome.result === "aborted" ? "-" : outcome.winners.includes(s.seat)
      ? (outcome.result === "shared win" ? "shared win" : "won")
      : outcome.result === "draw" ? "draw" : s.replaced ? `lost (${s.replaced})` : "lost";
    const delta = change ? change.after - change.before : null;
    return h("tr", { dataset: { seat: String(s.seat) } },
      h("td", {}, seatName(table, s.seat)), h("td", {}, result),
      h("td", { class: "rating-change" }, change
        ? `${change.after} (${delta >= 0 ? "+" : ""}${delta})` : ""));
  }));
  drawRematch();
}

// The rematch is an offer (RULINGS S-13): offer it, or accept or decline the one offered;
// it begins when everyone at the table accepted, and this page then follows it.
let sawOffer = false; // this page saw the offer stand, or asked for the rematch itself
function drawRematch() {
  const offer = table.rematch;
  const atTable = table.held.length > 0;
  const note = el("rematch-note");
  const yes = el("rematch");
  const no = el("rematch-decline");
  const link = el("rematch-link");
  const names = (seats) => seats.map((s) => seatName(table, s)).join(" and ");
  const send = (message) => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  yes.hidden = !atTable;
  no.hidden = true;
  link.hidden = true;
  note.hidden = !offer;
  yes.textContent = "Rematch";
  yes.onclick = () => { sawOffer = true; send({ type: "rematch" }); };
  no.onclick = () => send({ type: "rematch", decline: true });
  if (!offer) return;
  const mine = (seats) => seats.some((s) => table.held.includes(s));
  if (offer.state === "offered") {
    sawOffer = true;
    const verb = offer.accepted.length > 1 ? "offer" : "offers";
    if (atTable && mine(offer.waiting)) {
      note.textContent = `${names(offer.accepted)} ${verb} a rematch.`;
      yes.textContent = "Accept the rematch";
      no.hidden = false;
      no.textContent = "Decline";
    } else {
      note.textContent = atTable
        ? `You offered a rematch. Waiting for ${names(offer.waiting)} to accept.`
        : `${names(offer.accepted)} ${verb} a rematch.`;
      yes.hidden = true;
      no.hidden = !atTable;
      no.textContent = "Take back the offer";
    }
  } else if (offer.state === "accepted") {
    note.textContent = "The rematch has begun.";
    const follow = `/games/${gameId}/rematch`;
    yes.textContent = "Play the rematch";
    yes.onclick = () => { location.href = follow; };
    link.hidden = atTable;
    link.href = `/games/${offer.id}`;
    if (atTable && sawOffer) { sawOffer = false; location.href = follow; }
  } else {
    const who = offer.by === null ? "A player" : seatName(table, offer.by);
    note.textContent = offer.state === "declined" ? `${who} declined the rematch.`
      : `The rematch offer ended: ${who} left the game.`;
  }
}

function drawSeats() {
  const invites = new Map((table.invites || []).map((invite) => [invite.seat, invite]));
  const stopped = new Map((table.flagged || []).map((fault) => [fault.seat, fault.message]));
  el("seats").replaceChildren(...table.seats.map((entry) => {
    const invite = invites.get(entry.seat);
    const link = invite ? new URL(invite.url, location.href).href : null;
    return h("li", {},
      h("span", {}, seatName(table, entry.seat)),
      entry.about ? h("small", { class: "about" }, entry.about) : null,
      entry.replaced ? h("span", { class: "tag" }, `bot since: ${entry.replaced}`) : null,
      !entry.joined && entry.kind === "open" ? h("span", { class: "tag" }, "open") : null,
      table.to_move === entry.seat && !table.over ? h("span", { class: "tag turn" }, "to move") : null,
      entry.kind === "friend" && !entry.joined ? h("span", { class: "tag" }, "invited") : null,
      stopped.has(entry.seat) ? h("span", { class: "tag", title: stopped.get(entry.seat) },
        "bot stopped: plays random") : null,
      table.viewpoint === entry.seat ? h("span", { class: "tag" }, "shown") : null,
      table.held.includes(entry.seat) && table.viewpoint !== entry.seat && !table.over
        ? h("button", { type: "button", dataset: { key: `show-${entry.seat}` },
          onclick: () => switchSeat(entry.seat) }, "show") : null,
      link && !invite.joined ? h("span", { class: "invite" },
        h("input", { readonly: true, value: link, "aria-label": `Invite link for ${seatName(table, entry.seat)}` }),
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
      h("input", { readonly: true, value: link, "aria-label": `Link for another device of ${seatName(table, seatNumber)}` }),
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
  if (message.before !== undefined) {  // earlier messages, asked for
    const first = chat.length ? chat[0].number : message.before;
    chat.unshift(...message.messages.filter((entry) => entry.number < first));
  } else {
    for (const entry of message.messages) {
      if (!chat.length || entry.number === chat[chat.length - 1].number + 1) chat.push(entry);
    }
  }
  if (message.earlier !== undefined) earlierChat = message.earlier;
  el("chat-earlier").hidden = earlierChat <= 0;
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

el("chat-earlier").addEventListener("click", () => {
  if (socket && socket.readyState === WebSocket.OPEN && chat.length) {
    socket.send(JSON.stringify({ type: "chat_before", number: chat[0].number }));
  }
});

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

loadSettings();
connect();

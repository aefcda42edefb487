// Shared by the game and replay pages: building elements, names, the generic table, renderers.
//
// A game's renderer is an ES module at /static/games/<game>.js exporting
//   render(container, table, ui)
// where `table` is what the server sends a seat (view, seats, viewpoint, to_move, over,
// winners, outcome: {result, winners, ending}, legal: [{id, text, label}], step) and `ui` is {act(id) | null, held, name(seat)}.
// It draws the table into `container`, and makes moves by calling ui.act with the id of one
// of table.legal. Elements it wants kept in focus across redraws carry a data-key.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The name of a seat as this page shows it: "(you)" marks a seat this device holds.
export function seatName(table, seat) {
  const entry = table.seats[seat];
  const name = entry ? entry.name : "a player";
  return table.held && table.held.includes(seat) ? `${name} (you)` : name;
}

export function turnText(table) {
  if (table.over) return resultText(table);
  if (table.to_move === null || table.to_move === undefined) return "Dealing...";
  if (table.legal && table.legal.length) return `Your turn, ${seatName(table, table.to_move)}.`;
  return `Waiting for ${seatName(table, table.to_move)}.`;
}

// The server's outcome (State.outcome(), or the server's own ruling: a resignation, a
// flag that fell, a seat abandoned, an abort): who won, and how when the server decided.
const RULED = { resigned: "resigned", "out of time": "ran out of time",
  abandoned: "abandoned the game" };

// "you" for the one seat this device holds (a hot-seat device holds several: names then),
// else the seat's name as ``name`` gives it.
export function sayer(table, name) {
  const mine = table.held && table.held.length === 1 ? table.held[0] : null;
  return (seat) => (seat === mine ? "you" : name(seat));
}

// The winners as a sentence's start: "Ada wins", "you win", "Ada and you share the win".
export function wonBy(winners, say) {
  const names = winners.map(say);
  if (names.length > 1) return `${names.join(" and ")} share the win`;
  return `${names[0]} ${names[0] === "you" ? "win" : "wins"}`;
}

export function resultText(table) {
  const outcome = table.outcome || { result: "draw", winners: [] };
  if (outcome.result === "aborted") return "Game aborted: no result.";
  if (outcome.result === "draw") return "Game over: a draw.";
  const who = sayer(table, (seat) => seatName(table, seat));
  const winners = outcome.winners;
  const loser = outcome.result === "win" && RULED[outcome.ending] && table.seats.length === 2
    ? ` (${who(1 - winners[0])} ${RULED[outcome.ending]})` : "";
  return `Game over: ${wonBy(winners, who)}${loser}.`;
}

// A clock's time as people read it: 4:59, 0:07.3 under ten seconds, 2 d 23 h for days.
export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, seconds);
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  const minutes = Math.floor(s / 60);
  const rest = s - minutes * 60;
  return s < 10 ? `${minutes}:${rest.toFixed(1).padStart(4, "0")}`
    : `${minutes}:${String(Math.floor(rest)).padStart(2, "0")}`;
}

// The log line of an entry: the game's words when it has them, else who did what.
export function logText(table, entry) {
  if (entry.line) return entry.line;
  const who = entry.player < 0 ? "The draw" : seatName(table, entry.player);
  return `${who}: ${entry.text}`;
}

// A move as a button reads it: the game's label without the notation's seat numbers
// ("observe 0  Ada - up: 3 hadronize" -> "Observe Ada - up: 3 hadronize"); the notation
// stays the move's name in records and the terminal.
export function moveWords(move) {
  const label = move.label || move.text;
  if (!move.label || !label.startsWith(move.text) || label === move.text) return label;
  const verb = move.text.split(" ").filter((word) => !/^\d+$/.test(word)).join(" ");
  const words = `${verb} ${label.slice(move.text.length).trim()}`.replace(/\s+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export async function loadRenderer(url) {
  if (!url) return null;
  try {
    return await import(url);
  } catch (problem) {
    console.error("renderer failed to load; showing the generic table", problem);
    return null;
  }
}

// A renderer's own stylesheet (games/<game>.css beside it), added to the page once. A
// renderer awaits it at its top, so its first drawing is already styled.
export function loadStylesheet(url) {
  const href = new URL(url, location.href).href;
  if ([...document.styleSheets].some((sheet) => sheet.href === href)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h("link", { rel: "stylesheet", href });
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
}

// Draw the table with the game's renderer, or the generic one when there is none.
export function drawTable(container, renderer, table, ui) {
  container.replaceChildren();
  if (renderer && typeof renderer.render === "function") {
    renderer.render(container, table, ui);
  } else {
    renderGeneric(container, table);
  }
}

// Any game's view as nested lists: every field of what this seat may know, readable.
export function renderGeneric(container, table) {
  container.append(h("div", { class: "generic" }, describe(table.view, table)));
}

function describe(value, table) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "none");
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) {
      return h("span", {}, value.length ? value.map((item) => item ?? "-").join(", ") : "none");
    }
    return h("ol", { start: "0" }, value.map((item) => h("li", {}, describe(item, table))));
  }
  if (typeof value === "object") {
    return h("dl", {}, Object.entries(value).map(([key, item]) => [
      h("dt", {}, key.replaceAll("_", " ")), h("dd", {}, describe(item, table)),
    ]));
  }
  return h("span", {}, String(value));
}

export async function fetchJSON(url) {
  const response = await fetch(url, { headers: { accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `${response.status}`);
  return body;
}

// Keep keyboard focus on "the same" element across a redraw (matched by data-key). When the
// focus was in `root` and the redraw took its element away, `fallback()` (if given) names
// where it goes instead of falling to the page's body.
export function keepFocus(root, redraw, fallback = null) {
  const active = document.activeElement;
  const inside = active && active !== document.body && root.contains(active);
  const key = inside ? active.dataset.key : undefined;
  redraw();
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) {
      again.focus();
      return true;
    }
  }
  const lost = !document.activeElement || document.activeElement === document.body;
  if (fallback && lost) {
    const next = fallback();
    if (next) next.focus();
  }
  return false;
}

// A time (seconds since the epoch) in the viewer's own locale and time zone.
export function localTime(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// Dates and times the server wrote (<time datetime="...">), shown in the viewer's locale.
export function localizeTimes(scope = document) {
  for (const node of scope.querySelectorAll("time[datetime]")) {
    const when = new Date(node.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) {
      node.textContent = when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    }
  }
}

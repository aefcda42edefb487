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
  const name = entry ? entry.name : `seat ${seat}`;
  return table.held && table.held.includes(seat) ? `${name} (you)` : name;
}

export function turnText(table) {
  if (table.over) return resultText(table);
  if (table.to_move === null || table.to_move === undefined) return "Waiting for chance...";
  if (table.legal && table.legal.length) return `Your turn, ${seatName(table, table.to_move)}`;
  return `Waiting for ${seatName(table, table.to_move)}`;
}

// The server's outcome (State.outcome()): a win, a shared win or a draw, and who won.
export function resultText(table) {
  const outcome = table.outcome || { result: "draw", winners: [] };
  if (outcome.result === "draw") return "Game over: a draw.";
  const names = outcome.winners.map((seat) => seatName(table, seat)).join(" and ");
  return `Game over: ${names} ${outcome.result === "shared win" ? "share the win" : "wins"}.`;
}

// The log line of an entry: the game's words when it has them, else who did what.
export function logText(table, entry) {
  if (entry.line) return entry.line;
  const who = entry.player < 0 ? "chance" : seatName(table, entry.player);
  return `${who}: ${entry.text}`;
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

// Keep keyboard focus on "the same" element across a redraw (matched by data-key).
export function keepFocus(root, redraw) {
  const key = document.activeElement && root.contains(document.activeElement)
    ? document.activeElement.dataset.key : undefined;
  redraw();
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus();
    return again !== null;
  }
  return false;
}

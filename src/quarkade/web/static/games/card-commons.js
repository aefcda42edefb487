// Card Commons on the web: the 4 x 4 field named as the notation names it (columns a-d, rows
// 1-4 counted from seat 0's edge: seat 0 sits below the field, seat 1 above), each seat's own
// side tinted in that seat's colour, both hands and the cards thrown away.
//
// On your turn, pick a card in your hand: exactly the cells it may go to light up (read from
// the legal moves the server sent, nothing else; a lesson's forbidden trap can be clicked but is
// not lit). Click a lit empty cell to put it there, or a
// lit card to invert it, then the card to throw away. A 3's Repel and a 5's Polarize are
// chosen by clicking the card on the field; Pass and "don't" are buttons. Escape steps back.
import { h, loadStylesheet, sayer, wonBy } from "../js/common.js";

await loadStylesheet(new URL("card-commons.css", import.meta.url));

const SUITS = { H: "♥", S: "♠", D: "♦", C: "♣" };
const COLUMNS = "abcd";

// What the person has chosen so far this turn (a card, then for an inversion a cell); kept
// across redraws of the same step, forgotten when the game moves on.
let choice = { key: "", card: null, cell: null };

export function render(container, table, ui) {
  const view = table.view;
  const key = `${table.id}/${table.step}/${table.viewpoint}`;
  if (choice.key !== key) choice = { key, card: null, cell: null };
  const moves = readMoves(ui.act ? table.legal || [] : []);
  if (choice.card && !litCells(moves, choice.card).size) choice = { key, card: null, cell: null };
  const lit = choice.card ? litCells(moves, choice.card) : new Map();
  if (choice.cell && !(lit.get(choice.cell) || {}).discards) choice.cell = null;
  const name = (seat) => (ui.name ? ui.name(seat) : table.seats[seat].name);
  const ctx = {
    view, ui, moves, lit, me: table.viewpoint, name,
    say: sayer(table, name),  // the result's words: "you" for this device's one seat
    plain: (seat) => table.seats[seat].name,  // without "(you)": for "Ada's side"
    placing: moves.place.size + moves.invert.size > 0,
    redraw(focusOn) {
      container.replaceChildren();
      render(container, table, ui);
      const target = focusOn && container.querySelector(focusOn);
      if (target) target.focus();
    },
  };
  // Narrow: one column, seat 1 above the field and seat 0 below it, the prompt between the
  // field and seat 0. Wide: the field on the left, the seats and the prompt beside it.
  container.append(h("div", { class: "cc-box" }, h("div", { class: "cc",
    onkeydown: (event) => stepBack(event, ctx) },
  drawHeader(ctx), drawHand(ctx, 1), drawField(ctx), drawPrompt(ctx), drawHand(ctx, 0),
  drawFooter(ctx))));
}

// -- the legal moves, by what they do ------------------------------------------------------

// Moves read from their notation: "3H c2", "inv 4S c3 /AH", "repel b2>b1", "polarize c2",
// "no repel", "no polarize", "pass".
function readMoves(legal) {
  const moves = { place: new Map(), invert: new Map(), repel: new Map(), polarize: new Map(),
    decline: null, pass: null, forbidden: new Set() };
  for (const move of legal) {
    const words = move.text.split(" ");
    if (move.text === "pass") moves.pass = move.id;
    else if (words[0] === "no") moves.decline = move.id;
    else if (words[0] === "repel") {
      const [from, to] = words[1].split(">");
      moves.repel.set(from, { id: move.id, to });
    } else if (words[0] === "polarize") moves.polarize.set(words[1], move.id);
    else if (words[0] === "inv") {
      const cells = entry(moves.invert, words[1]);
      entry(cells, words[2]).set(words[3].slice(1), move.id);
      if (move.allowed === false) moves.forbidden.add(move.id);
    } else if (words.length === 2) {
      entry(moves.place, words[0]).set(words[1], move.id);
      if (move.allowed === false) moves.forbidden.add(move.id);
    }
  }
  return moves;
}

function entry(map, key) {
  if (!map.has(key)) map.set(key, new Map());
  return map.get(key);
}

// The lit cells of one card: cell -> {place: id} for an empty cell, or {discards: Map of
// discard -> id} for a card it inverts (the engine's lit cells, read from the legal moves).
function litCells(moves, card) {
  const lit = new Map();
  for (const [cell, id] of moves.place.get(card) || []) lit.set(cell, { place: id });
  for (const [cell, discards] of moves.invert.get(card) || []) lit.set(cell, { discards });
  return lit;
}

function pick(ctx, card) {
  if (choice.card === card) {
    choice.card = choice.cell = null;
    ctx.redraw(`[data-key="hand-${card}"]`);
    return;
  }
  choice.card = card;
  choice.cell = null;
  ctx.redraw("button.cc-cell.lit");
}

function stepBack(event, ctx) {
  if (event.key !== "Escape" || !choice.card) return;
  event.preventDefault();
  if (choice.cell) {
    const cell = choice.cell;
    choice.cell = null;
    ctx.redraw(`[data-key="cell-${cell}"]`);
  } else {
    const card = choice.card;
    choice.card = null;
    ctx.redraw(`[data-key="hand-${card}"]`);
  }
}

// -- the field ---------------------------------------------------------------------------

function drawField(ctx) {
  const { view } = ctx;
  const grid = h("div", { class: "cc-field", role: "group",
    "aria-label": `The field: columns a to d, rows 1 to 4 counted from ${whose(ctx.plain(0))} edge` });
  const put = (node, row, column, rows = 1) => {
    node.style.gridRow = `${row} / span ${rows}`;
    node.style.gridColumn = String(column);
    grid.append(node);
  };
  [...COLUMNS].forEach((letter, index) => {
    put(h("span", { class: "cc-label", "aria-hidden": "true" }, letter), 1, index + 2);
    put(h("span", { class: "cc-label", "aria-hidden": "true" }, letter), 6, index + 2);
  });
  [4, 3, 2, 1].forEach((row, index) => {
    put(h("span", { class: "cc-label", "aria-hidden": "true" }, String(row)), index + 2, 1);
    [...COLUMNS].forEach((letter, column) => put(drawCell(ctx, `${letter}${row}`), index + 2,
      column + 2));
  });
  for (const seat of [0, 1]) {
    const rows = view.side_rows[seat];
    const top = 6 - Math.max(...rows);
    put(h("span", { class: `cc-side side-${seat}` },
      h("span", {}, seat === ctx.me ? "your side" : `${whose(ctx.plain(seat))} side`)), top, 6,
      rows.length);
  }
  return h("div", { class: "cc-field-box" }, grid);
}

function drawCell(ctx, cell) {
  const { view, lit, moves } = ctx;
  const stack = view.field[cell];
  const classes = ["cc-cell", `side-${sideOf(view, cell)}`];
  if (view.ability && view.ability.cell === cell) classes.push("source");
  const last = view.last && view.phase !== "over" ? view.last : null;
  if (last && (last.cell === cell || last.to === cell) && last.kind !== "decline") {
    classes.push("last");
  }
  const parts = [h("span", { class: "cc-name", "aria-hidden": "true" }, cell), drawStack(stack)];
  const shown = describeCell(cell, stack);
  let act = null;
  let label = shown;
  let tag = null;
  const spot = lit.get(cell);
  const repel = moves.repel.get(cell);
  if (spot && spot.place !== undefined) {
    // A lesson's trap the Law forbids may be tried (and is answered why), but is not lit.
    if (!moves.forbidden.has(spot.place)) classes.push("lit");
    act = () => ctx.ui.act(spot.place);
    label = `Put the ${pretty(choice.card)} on ${cell}`;
    if (choice.card[0] === "2" && !touchesACard(view, cell)) {
      tag = "tunnel";
      label += " (a Tunnel: diagonally next to a card)";
    }
  } else if (spot) {
    if ([...spot.discards.values()].some((id) => !moves.forbidden.has(id))) classes.push("lit");
    if (choice.cell === cell) classes.push("chosen");
    act = () => {
      choice.cell = cell;
      ctx.redraw("button.cc-discard");
    };
    tag = "invert";
    label = `Invert the ${pretty(topCard(stack))} on ${cell} with the ${pretty(choice.card)}`;
  } else if (repel) {
    classes.push("target");
    act = () => ctx.ui.act(repel.id);
    tag = `${arrow(cell, repel.to, view.torus)} ${repel.to}`;
    label = `Repel: push the ${stack.map((c) => pretty(c.card)).join(" and ")} on ${cell} to `
      + repel.to;
  } else if (moves.polarize.has(cell)) {
    classes.push("target");
    act = () => ctx.ui.act(moves.polarize.get(cell));
    tag = "turn down";
    label = `Polarize: turn the ${pretty(topCard(stack))} on ${cell} face down`;
  }
  if (tag) parts.push(h("span", { class: "cc-tag", "aria-hidden": "true" }, tag));
  if (!act) {
    return h("div", { class: classes.join(" "), role: "img", "aria-label": shown }, parts);
  }
  return h("button", { type: "button", class: classes.join(" "), "aria-label": `${label}. ${shown}`,
    dataset: { key: `cell-${cell}`, cell }, onclick: act }, parts);
}

function drawStack(stack) {
  if (!stack.length) return null;
  if (stack.length === 1) return cardFace(stack[0]);
  return h("span", { class: "cc-stack" }, cardFace(stack[0], "under"), cardFace(stack[1], "over"));
}

function cardFace(card, extra = "") {
  const up = card.face_up !== false;
  const colour = up ? (isRed(card.card) ? "red" : "black") : "down";
  return h("span", { class: `cc-card ${colour} ${extra}`.trim(), "aria-hidden": "true" },
    h("span", { class: "rank" }, card.card[0]),
    h("span", { class: "suit" }, SUITS[card.card[1]]),
    up ? h("span", { class: "charge" }, isRed(card.card) ? "+" : "\u2212")
      : h("span", { class: "charge" }, "down"));
}

function describeCell(cell, stack) {
  if (!stack.length) return `${cell}: empty`;
  const words = stack.map((c) => `${pretty(c.card)}${c.face_up ? "" : " face down"}`);
  if (stack.length === 1) return `${cell}: ${words[0]}`;
  return `${cell}: a stack, ${words[1]} on top of ${words[0]}`;
}

// -- hands, the prompt, the header and the result --------------------------------------

function drawHand(ctx, seat) {
  const { view, moves, name } = ctx;
  const over = view.phase === "over";
  const toMove = !over && view.to_move === seat;
  const choosing = toMove && ctx.placing;
  const cards = view.hands[seat].map((card) => {
    const face = cardFace({ card, face_up: true });
    if (!choosing) return h("span", { class: "cc-hand-card", title: pretty(card) }, face);
    const count = litCells(moves, card).size;
    const chosen = choice.card === card;
    return h("button", { type: "button", class: `cc-hand-card${chosen ? " chosen" : ""}`,
      disabled: count === 0, "aria-pressed": chosen ? "true" : "false",
      "aria-label": `${pretty(card)}: ${count ? `goes on ${plural(count, "cell")}`
        : "cannot go anywhere now"}`,
      dataset: { key: `hand-${card}`, card }, onclick: () => pick(ctx, card) }, face);
  });
  const rows = view.side_rows[seat];
  const tags = [];
  if (toMove) tags.push(h("span", { class: "tag turn" }, "to move"));
  if (view.opener === seat) tags.push(h("span", { class: "tag" }, "opener"));
  if (over && view.winner === seat) tags.push(h("span", { class: "tag win" }, "winner"));
  const out = view.discards[seat];
  return h("section", { class: `cc-seat seat-${seat}${toMove ? " to-move" : ""}`,
    "aria-label": `${name(seat)}: hand and side` },
  h("div", { class: "cc-seat-head" },
    h("strong", {}, name(seat)),
    h("span", { class: "cc-suits" }, view.suits[seat].split("").map((s) => SUITS[s]).join("")),
    tags),
  // The Tutorial never counts the sides: only Classic scoring is shown.
  view.variant === "tutorial" ? null : h("p", { class: "cc-seat-side" },
    h("span", { class: `cc-swatch side-${seat}`, "aria-hidden": "true" }),
    `Own side (keep it open): rows ${rows.join(" and ")}, the ${seat === 0 ? "top" : "bottom"} `
    + `half. ${view.open_cells[seat]} of 8 cells open, ${plural(view.particles[seat], "card")} `
    + "there."),
  h("div", { class: "cc-hand" }, cards.length ? cards
    : h("span", { class: "cc-none" }, "no cards left in hand")),
  out.length ? h("p", { class: "cc-out" }, "Thrown away: ",
    out.map((card) => h("span", { class: "cc-mini", title: pretty(card) },
      cardFace({ card, face_up: true })))) : null);
}

function drawPrompt(ctx) {
  const { view, moves, lit, ui } = ctx;
  if (!ui.act) return null;
  const buttons = [];
  let text;
  if (view.phase === "repel" && moves.decline !== null) {
    text = `Repel: your ${pretty(view.ability.card)} on ${view.ability.cell} may push a card or `
      + "stack beside it one cell further away. Click the card to push (its arrow shows where "
      + "it lands), or";
    buttons.push(actButton(ctx, "Don't repel", moves.decline, "decline"));
  } else if (view.phase === "polarize" && moves.decline !== null) {
    text = `Polarize: your ${pretty(view.ability.card)} on ${view.ability.cell} may turn itself `
      + "or a face-up card beside it face down. Click that card, or";
    buttons.push(actButton(ctx, "Don't polarize", moves.decline, "decline"));
  } else if (ctx.placing || moves.pass !== null) {
    if (choice.cell) {
      const stack = view.field[choice.cell];
      text = `Invert the ${pretty(topCard(stack))} on ${choice.cell} with your `
        + `${pretty(choice.card)}. Which card do you throw away?`;
      for (const [card, id] of lit.get(choice.cell).discards) {
        buttons.push(h("button", { type: "button", class: "cc-discard", dataset: { key: `discard-${card}` },
          "aria-label": `Throw away the ${pretty(card)}`, onclick: () => ui.act(id) },
        cardFace({ card, face_up: true })));
      }
      buttons.push(backButton(ctx, "Back"));
    } else if (choice.card) {
      const cells = [...lit.keys()].sort(byCell);
      text = `The ${pretty(choice.card)} can go on ${plural(cells.length, "cell")}: `
        + `${cells.join(" ")}. They are lit on the field; click one.`;
      buttons.push(backButton(ctx, "Choose another card"));
    } else if (view.phase === "opening") {
      text = "You open: choose a card of 2 to 5 from your hand, then one of the four centre cells.";
    } else if (ctx.placing) {
      text = "Choose a card from your hand: the cells it can go on light up.";
    } else {
      text = "No card of yours can go anywhere now.";
    }
    if (moves.pass !== null) buttons.push(actButton(ctx, "Pass", moves.pass, "pass"));
  } else {
    return null;
  }
  return h("div", { class: "cc-prompt", role: "group", "aria-label": "Your move" },
    h("p", {}, text), buttons.length ? h("div", { class: "cc-buttons" }, buttons) : null);
}

function actButton(ctx, words, id, key) {
  return h("button", { type: "button", class: key === "pass" ? "" : "primary",
    dataset: { key }, onclick: () => ctx.ui.act(id) }, words);
}

function backButton(ctx, words) {
  return h("button", { type: "button", dataset: { key: "back" },
    onclick: () => stepBack({ key: "Escape", preventDefault() {} }, ctx) }, words);
}

function drawHeader(ctx) {
  const { view, name } = ctx;
  const kind = `${view.variant === "tutorial" ? "Tutorial" : "Classic"} game`
    + (view.torus ? " on a torus (the edges wrap)" : "");
  const who = view.to_move === null ? null : name(view.to_move);
  const doing = {
    coin: "A coin decides who opens.",
    opening: `${who} opens: a card of 2 to 5 on a centre cell.`,
    turn: `${who} to move.`,
    repel: `${who} decides the Repel.`,
    polarize: `${who} decides the Polarize.`,
    over: "Game over.",
  }[view.phase];
  const notes = [];
  if (view.variant === "tutorial" && view.phase !== "over") {
    notes.push("Whoever has no card to place at the start of their turn loses.");
  } else if (view.opener !== null && view.phase !== "over") {
    notes.push(`Opener: ${name(view.opener)} (wins a full tie).`);
  }
  if (view.passed && view.phase === "turn") notes.push("The last turn was a pass: another pass ends the game.");
  return h("div", { class: "cc-head" },
    h("p", {}, h("strong", {}, capital(doing)), " ", h("span", { class: "cc-kind" }, kind)),
    notes.length ? h("p", { class: "cc-notes" }, notes.join(" ")) : null);
}

function drawFooter(ctx) {
  const { view, name } = ctx;
  if (view.phase === "over") {
    return h("p", { class: "cc-foot cc-result" }, capital(resultLine(ctx)));
  }
  if (!view.last || view.last.kind === "opener") return null;
  return h("p", { class: "cc-foot cc-last" }, `Last move: ${describeLast(view.last, name)}`);
}

function resultLine(ctx) {
  const { view, say } = ctx;
  const winner = view.winner;
  if (winner === null) return "Game over.";
  const head = wonBy([winner], say);
  const theirs = say(winner) === "you" ? "your" : "their";
  if (view.variant === "tutorial") return `${head}: ${say(1 - winner)} could not place a card.`;
  const open = view.open_cells;
  const cards = view.particles;
  if (open[0] !== open[1]) {
    return `${head}, with ${open[winner]} open cells on ${theirs} side to ${open[1 - winner]}.`;
  }
  if (cards[0] !== cards[1]) {
    return `${head}: open cells tied at ${open[0]}, and fewer cards on ${theirs} side `
      + `(${cards[winner]} to ${cards[1 - winner]}).`;
  }
  return `${head}: open cells and cards tied, so the opener wins.`;
}

function describeLast(last, name) {
  const who = last.seat === null ? "chance" : name(last.seat);
  const card = last.card ? pretty(last.card) : "";
  switch (last.kind) {
    case "pass": return `${who} passed.`;
    case "decline": return `${who} did not ${last.ability} with the ${card}.`;
    case "polarize": return `${who} turned the ${card} on ${last.cell} face down.`;
    case "repel": return `${who} repelled the ${last.cards.map(pretty).join("/")} from `
      + `${last.cell} to ${last.to}.`;
    case "invert": return `${who} inverted the ${pretty(last.covered)} on ${last.cell} with the `
      + `${card}, throwing away the ${pretty(last.discard)}.`;
    case "open": return `${who} opened with the ${card} on ${last.cell}.`;
    case "tunnel": return `${who} tunnelled the ${card} to ${last.cell}.`;
    default: return `${who} channelled the ${card} to ${last.cell}`
      + (last.ignored ? ` (Anchor: ignoring ${last.ignored.join(" and ")}).` : ".");
  }
}

// -- small helpers -------------------------------------------------------------------------

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function pretty(card) {
  return `${card[0]}${SUITS[card[1]]}`;
}

function isRed(card) {
  return card[1] === "H" || card[1] === "D";
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function topCard(stack) {
  return stack[stack.length - 1].card;
}

function sideOf(view, cell) {
  return view.side_rows[0].includes(Number(cell[1])) ? 0 : 1;
}

// "Ada's", and "Hearts and Spades'" for a name ending in s.
function whose(name) {
  return name.endsWith("s") ? `${name}'` : `${name}'s`;
}

// Cells in notation order: row 1 first, a to d (the engine's ascending cell ids).
function byCell(one, other) {
  return (Number(one[1]) - Number(other[1])) || one.charCodeAt(0) - other.charCodeAt(0);
}

function touchesACard(view, cell) {
  const column = COLUMNS.indexOf(cell[0]);
  const row = Number(cell[1]) - 1;
  return [[0, 1], [0, -1], [1, 0], [-1, 0]].some(([dc, dr]) => {
    let c = column + dc;
    let r = row + dr;
    if (view.torus) {
      c = (c + 4) % 4;
      r = (r + 4) % 4;
    } else if (c < 0 || c > 3 || r < 0 || r > 3) {
      return false;
    }
    return view.field[`${COLUMNS[c]}${r + 1}`].length > 0;
  });
}

// Which way a Repel pushes, as an arrow on the screen (row 4 is at the top).
function arrow(from, to, torus) {
  let dc = COLUMNS.indexOf(to[0]) - COLUMNS.indexOf(from[0]);
  let dr = Number(to[1]) - Number(from[1]);
  if (torus && Math.abs(dc) > 1) dc = -Math.sign(dc);
  if (torus && Math.abs(dr) > 1) dr = -Math.sign(dr);
  if (dc) return dc > 0 ? "\u2192" : "\u2190";
  return dr > 0 ? "\u2191" : "\u2193";
}

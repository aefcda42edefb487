// Dead Cat on the web: every seat's die and cubes, the box, and the time deck position by
// position (1 is the top) with what this seat knows of each card: the ones it peeked, and for
// the others who peeked them. On your turn: Peek (then turn your die on the die widget to a
// new number) or Announce "Dead Cat". Below, how the last round ended and who scored.
import { h, loadStylesheet, sayer, wonBy } from "../js/common.js";

await loadStylesheet(new URL("dead-cat.css", import.meta.url));

// The pips of a die face on a 3 x 3 grid, cells numbered 0-8 row by row.
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8] };

export function render(container, table, ui) {
  const view = table.view;
  const name = (seat) => (ui.name ? ui.name(seat) : table.seats[seat].name);
  const moves = { peek: null, announce: null, bets: new Map() };
  for (const move of ui.act ? table.legal || [] : []) {
    const [word, value] = move.text.split(" ");
    if (word === "peek") moves.peek = move.id;
    else if (word === "announce") moves.announce = move.id;
    else if (word === "bet") moves.bets.set(Number(value), move.id);
  }
  const ctx = { view, ui, name, say: sayer(table, name), moves, me: table.viewpoint };
  container.append(h("div", { class: "dc" },
    drawHeader(ctx), drawChoice(ctx), drawSeats(ctx), drawDecks(ctx), drawLastRound(ctx)));
}

function drawHeader(ctx) {
  const { view, name } = ctx;
  let doing;
  if (view.phase === "over") {
    doing = `Game over after round ${view.last_round.round}: `
      + `${wonBy(view.winners, ctx.say)} with ${view.goal} cubes.`;
  } else if (view.phase === "first") {
    doing = "A die roll picks who begins.";
  } else {
    const who = name(view.active);
    doing = `Round ${view.round}: ${{ turn: `${who} to move`, draw: `${who} peeks`,
      bet: `${who} turns their die` }[view.phase]}.`;
  }
  const rule = `First to ${view.goal} cubes wins. ${view.players} players: ${view.alive} alive `
    + `and ${view.dead} dead cats, ${view.removed} set aside unseen each round.`;
  return h("div", { class: "dc-head" }, h("p", {}, h("strong", {}, doing)),
    h("p", { class: "dc-rule" }, rule));
}

// The seat to move: Peek or Announce; after a peek, the die widget.
function drawChoice(ctx) {
  const { view, moves } = ctx;
  if (moves.bets.size) {
    const shown = view.dice[view.active];
    const top = view.time_deck[0];
    const drew = top && top.card ? `You drew ${top.card === "alive" ? "an alive" : "a dead"} cat; `
      + "it now lies face down on top of the time deck (position 1). " : "";
    const faces = [1, 2, 3, 4, 5, 6].map((value) => {
      const id = moves.bets.get(value);
      return h("button", { type: "button", class: `dc-die-choice${id === undefined ? " now" : ""}`,
        disabled: id === undefined, dataset: { key: `bet-${value}`, bet: value },
        "aria-label": id === undefined ? `${value}: your die shows it now; you must change it`
          : `Turn your die to ${value}`,
        onclick: () => ctx.ui.act(id) }, die(value), h("span", {}, id === undefined ? "now" : value));
    });
    return h("div", { class: "dc-choice", role: "group", "aria-label": "Turn your die" },
      h("p", {}, drew, h("strong", {}, `Turn your die from ${shown} to a new number:`),
        " your bet on how many cards from the top the first dead cat lies."),
      h("div", { class: "dc-dice-row" }, faces));
  }
  if (moves.peek === null && moves.announce === null) return null;
  const buttons = [];
  if (moves.peek !== null) {
    buttons.push(h("button", { type: "button", class: "primary", dataset: { key: "peek" },
      onclick: () => ctx.ui.act(moves.peek) }, "Peek at the top card"));
  }
  if (moves.announce !== null) {
    buttons.push(h("button", { type: "button", class: "primary dc-announce",
      dataset: { key: "announce" }, onclick: () => ctx.ui.act(moves.announce) },
    "Announce \u201cDead Cat\u201d"));
  }
  const explain = [];
  if (moves.peek !== null) {
    explain.push("Peek: look at the top card of the box (only you see it), lay it face down "
      + "on top of the time deck, then turn your die to another number.");
  }
  if (moves.announce !== null) {
    explain.push("Announce: turn the time deck over from the top until a dead cat shows; the "
      + "die closest to its position wins the round (the highest die if none shows).");
  } else {
    explain.push("Nobody may announce while the time deck is empty (this game plays with peek first).");
  }
  return h("div", { class: "dc-choice", role: "group", "aria-label": "Your move" },
    h("p", {}, h("strong", {}, "Your turn: peek, or announce \u201cDead Cat\u201d.")),
    h("div", { class: "dc-buttons" }, buttons),
    h("p", { class: "dc-help" }, explain.join(" ")));
}

function drawSeats(ctx) {
  const { view, name } = ctx;
  const over = view.phase === "over";
  return h("div", { class: "dc-seats" }, view.dice.map((value, seat) => {
    const tags = [];
    if (!over && view.active === seat && view.phase !== "first") {
      tags.push(h("span", { class: "tag turn" }, "to move"));
    }
    if (!over && view.starter === seat) tags.push(h("span", { class: "tag" }, "began the round"));
    if (view.winners.includes(seat)) tags.push(h("span", { class: "tag win" }, "winner"));
    const cubes = [];
    for (let i = 0; i < Math.max(view.goal, view.cubes[seat]); i += 1) {
      cubes.push(h("span", { class: `dc-cube${i < view.cubes[seat] ? " won" : ""}` }));
    }
    const classes = ["dc-seat"];
    if (!over && view.active === seat) classes.push("to-move");
    if (view.winners.includes(seat)) classes.push("winner");
    return h("section", { class: classes.join(" "), "aria-label":
      `${name(seat)}: die shows ${value}, ${view.cubes[seat]} of ${view.goal} cubes` },
    h("div", { class: "dc-seat-head" }, h("strong", {}, name(seat)), tags),
    h("div", { class: "dc-seat-body" },
      h("span", { class: "dc-bet" }, die(value), h("span", {}, `die: ${value}`)),
      h("span", { class: "dc-cubes", title: `${view.cubes[seat]} of ${view.goal} cubes` },
        h("span", { class: "dc-cube-row", "aria-hidden": "true" }, cubes),
        h("span", {}, `cubes: ${view.cubes[seat]} of ${view.goal}`))));
  }));
}

function drawDecks(ctx) {
  const { view, name, me } = ctx;
  if (view.phase === "over") return null;
  const box = h("div", { class: "dc-box", "aria-label": `The box: ${view.box} cards left` },
    h("div", { class: "dc-pile", "aria-hidden": "true" },
      view.box ? h("span", { class: "dc-card back" }, h("span", {}, view.box)) : h("span", {
        class: "dc-card empty" }, "empty")),
    h("p", {}, h("strong", {}, `Box: ${view.box} card${view.box === 1 ? "" : "s"} left`),
      h("br"), h("span", { class: "dc-muted" }, `${view.removed} more set aside unseen`)));
  const deck = view.time_deck;
  const cards = deck.map((entry) => {
    const known = entry.card !== null;
    const mine = known || (me !== null && entry.peeker === me);
    const who = mine ? "you peeked" : `peeked by ${name(entry.peeker)}`;
    const what = known ? `${entry.card} cat` : "unknown";
    return h("li", { class: "dc-slot", "aria-label": `Position ${entry.position}: ${what}, ${who}` },
      h("span", { class: "dc-pos" }, entry.position === 1 ? "1 (top)" : String(entry.position)),
      h("span", { class: `dc-card ${known ? entry.card : "back"}`, "aria-hidden": "true" },
        known ? entry.card : "?"),
      h("span", { class: "dc-who" }, who));
  });
  return h("div", { class: "dc-decks" }, box,
    h("div", { class: "dc-time" },
      h("p", {}, h("strong", {}, "Time deck"), deck.length
        ? ` (${deck.length} card${deck.length === 1 ? "" : "s"}, top first: position = the count `
          + "an announcement would reach)" : ": empty; peeked cards go here"),
      deck.length ? h("ol", { class: "dc-slots" }, cards) : null));
}

function drawLastRound(ctx) {
  const { view, name } = ctx;
  const last = view.last_round;
  if (!last) return null;
  const how = last.ran_out ? "The box ran out (nobody announced)."
    : `${name(last.announcer)} announced \u201cDead Cat\u201d.`;
  let found;
  if (last.count !== null) found = `The first dead cat was card ${last.count} from the top.`;
  else if (last.revealed.length) found = "No dead cat was revealed, so the highest die won.";
  else found = "The time deck was empty, so the highest die won.";
  const winners = last.winners.map(name).join(" and ");
  return h("section", { class: "dc-last", "aria-label": `Round ${last.round}` },
    h("p", {}, h("strong", {}, `Round ${last.round}. `), how, " ", found),
    last.revealed.length ? h("ol", { class: "dc-revealed", "aria-label": "Revealed, top first" },
      last.revealed.map((card, index) => h("li", {},
        h("span", { class: "dc-pos" }, String(index + 1)),
        h("span", { class: `dc-card small ${card}` }, card)))) : null,
    // After the game, when the table chose to reveal: the cards that stayed face down too.
    last.time_deck && last.time_deck.length > last.revealed.length
      ? h("div", { class: "dc-face-down" },
        h("p", {}, "Revealed after the game, the rest of that time deck:"),
        h("ol", { class: "dc-revealed", start: String(last.revealed.length + 1),
          "aria-label": "The rest of the time deck, revealed after the game" },
        last.time_deck.slice(last.revealed.length).map((card, index) => h("li", {},
          h("span", { class: "dc-pos" }, String(last.revealed.length + index + 1)),
          h("span", { class: `dc-card small ${card}` }, card))))) : null,
    h("p", {}, "Dice: ", last.dice.map((value, seat) => h("span", {
      class: `dc-final${last.winners.includes(seat) ? " won" : ""}` },
    `${name(seat)} ${value}`)), ` \u2014 ${winners} ${last.winners.length > 1
      ? "take a cube each" : "takes a cube"}.`));
}

function die(value) {
  const pips = PIPS[value] || [];
  const cells = [];
  for (let i = 0; i < 9; i += 1) cells.push(h("span", { class: pips.includes(i) ? "pip" : "" }));
  return h("span", { class: "dc-die", "aria-hidden": "true" }, cells);
}

// Decoherence on the web: both players' verve, decks and hands, their open chains and tables
// (states with spin and size, bare particles, links, what is known of each noun), discards,
// and on your turn the moves as clicks. Pick a card in your hand and the places it may go
// light up: a new chain, one of your chains, or one of their chains to close. A sentence
// that needs a target lights up its targets on the tables. Everything is a button, so Tab
// and Enter play too; Escape puts a picked card back. The page lists every move as text
// as well (the generic list), so nothing is out of reach.
//
// The seat shown sits at the bottom; the spectator sees seat 0 at the bottom. Moves are read
// from the notation of table.legal (`verb riffed -> chain 2`, `qualifier up -> chain 1`,
// `noun kiki -> chain 1`, `close their chain 2 with kiki`, `discard lulu`,
// `target: their hidden #3`, `pass`), never from the ids.
import { h, sayer, wonBy } from "../js/common.js";

const VERBS = ["tapped", "verved", "boo'd", "twigged", "riffed"];
const QUALIFIERS = ["up", "down", "through", "out"];
const WORDS = [...VERBS, ...QUALIFIERS, "kiki", "bouba", "lulu"];
const CLOSE_COST = { kiki: 3, bouba: 2, lulu: 2 };
const HAND_LIMIT = 7;
// What each sentence does, in a few words (N: the size of its noun; "their": the other
// side of the sentence's owner). The rules page says it in full.
const EFFECTS = {
  "tapped up": "pay 1; turn one of their states up",
  "tapped down": "pay 1; turn one of their states down",
  "tapped through": "pay 1; a coin: on heads they lose N",
  "tapped out": "pay 1; look at one of their unlinked things, discarded if its size is N or less",
  "verved up": "gain N; leak 1 more this turn",
  "verved down": "gain 1; no leak this turn",
  "verved through": "gain N, +1 per lulu of yours on the table",
  "verved out": "they lose N and you lose 1",
  "boo'd up": "measure one of their hidden unlinked things: its spin becomes up",
  "boo'd down": "measure one of their hidden unlinked things: its spin becomes down",
  "boo'd through": "measure their hidden unlinked bare particles (or else one hidden state)",
  "boo'd out": "one of their hidden unlinked things is shown and discarded",
  "twigged up": "link this up state to one of your things, which turns down",
  "twigged down": "link this down state to one of your things, which turns up",
  "twigged through": "link this spinless state to one of their things",
  "twigged out": "a fatal link to one of your things (it turns down); this stays bare",
  "riffed up": "pick one of their states: if up, both grow by N; if down, both are discarded",
  "riffed down": "pick one of their states: if down, both grow by N; if up, both are discarded",
  "riffed through": "no effect; a bare particle stays",
  "riffed out": "discard one of their things along with this noun",
};
const ENDINGS = {
  decoherence: "decohered at 0 verve",
  "empty deck": "had to draw from an empty deck",
  "made classical": "was made classical: no hidden noun, no link and no open chain",
};

// The card picked in the hand, kept across redraws of the same step of the same game.
let picked = null;
// A move made from the keyboard: once the table is redrawn without the button that made
// it, the focus goes on to the next thing to press (a lit target, a card, Pass).
let refocus = false;

loadStyles();

export function render(container, table, ui) {
  const view = table.view;
  // A revealed table (after the game) is everyone's, still drawn from this page's seat.
  const me = view.revealed ? (table.viewpoint ?? null) : view.player === undefined ? null : view.player;
  const name = (seat) => (ui.name ? ui.name(seat) : table.seats[seat].name);
  const moves = readMoves(table.legal || []);
  const live = Boolean(ui.act) && (table.legal || []).length > 0;
  if (picked && (!live || picked.step !== table.step || picked.game !== table.id
      || !moves.byWord.has(picked.word) || view.phase !== "play")) {
    picked = null;
  }
  const ctx = {
    table, view, ui, me, name, moves, live, links: linkLetters(view, name),
    redraw(focusKey) {
      container.replaceChildren();
      render(container, table, ui);
      const again = focusKey && container.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    },
    pick(word, key) {
      picked = picked && picked.key === key ? null
        : { word, step: table.step, game: table.id, key };
      ctx.redraw(key);
      // Keyboard users go straight on to the first lit place, in reading order.
      const first = picked && container.querySelector("button.dc-chain.lit");
      if (first) first.focus();
    },
  };
  const bottom = me === null ? 0 : me;
  const root = h("div", {
    class: "dc", dataset: { phase: view.phase },
    onkeydown: (event) => {
      if (event.key === "Escape" && picked) {
        event.preventDefault();
        const key = picked.key;
        picked = null;
        ctx.redraw(key);
      }
    },
  },
  drawBanner(ctx),
  drawSeat(ctx, 1 - bottom, "top"),
  drawResolving(ctx),
  drawSeat(ctx, bottom, "bottom"),
  drawKey());
  container.append(root);
  const lost = !document.activeElement || document.activeElement === document.body;
  if (refocus && live && !ui.pending && lost) {
    const next = root.querySelector("button.dc-thing.lit, .dc-hand-mine button.dc-card, button.dc-pass");
    if (next) {
      next.focus();
      refocus = false;
    }
  }
}

// Play a move; a click made by Enter or Space (no pointer: detail 0) keeps the keyboard flow.
function play(ctx, action, event) {
  refocus = event.detail === 0;
  ctx.ui.act(action);
}

// -- the moves, read from their notation ---------------------------------------------------

function readMoves(legal) {
  const moves = { pass: null, byWord: new Map(), targets: new Map(), discards: new Map() };
  const add = (word, move) => {
    if (!moves.byWord.has(word)) moves.byWord.set(word, []);
    moves.byWord.get(word).push(move);
  };
  for (const { id, text } of legal) {
    let m;
    if (text === "pass") moves.pass = id;
    else if ((m = /^verb (\S+) -> chain (\d+)$/.exec(text))) add(m[1], { kind: "new", chain: +m[2], id });
    else if ((m = /^qualifier (\S+) -> chain (\d+)$/.exec(text))) add(m[1], { kind: "join", chain: +m[2], id });
    else if ((m = /^noun (\S+) -> chain (\d+)$/.exec(text))) add(m[1], { kind: "finish", chain: +m[2], id });
    else if ((m = /^close their chain (\d+) with (\S+)$/.exec(text))) add(m[2], { kind: "close", chain: +m[1], id });
    else if ((m = /^discard (\S+)$/.exec(text))) moves.discards.set(m[1], id);
    else if ((m = /^target: (your|their)\b.*#(\d+)$/.exec(text))) moves.targets.set(`${m[1]} ${m[2]}`, id);
  }
  return moves;
}

// Where the picked card may go, each with the key of the button that plays it.
function destinations(ctx, word) {
  return (ctx.moves.byWord.get(word) || []).map((move) => ({
    ...move,
    key: move.kind === "new" ? "new-chain" : `${move.kind === "close" ? "their" : "your"}-chain-${move.chain}`,
  }));
}

// -- the banner: whose turn, what to do, the last thing that happened ------------------------

function drawBanner(ctx) {
  const { view, table, me, name, moves } = ctx;
  const lines = [];
  let head;
  if (view.phase === "over") {
    head = resultLine(view, sayer(table, name));
  } else if (view.active === null) {
    head = "Setting up: decks, the coin for who goes first, the opening hands...";
  } else {
    const mover = table.to_move;
    const mine = ctx.live && mover === me;
    head = `Turn ${view.turn}: ${mine ? "your turn" : `${name(view.active)} to play`}`;
    if (mine && view.phase === "play") {
      lines.push(picked
        ? `Where should ${picked.word} go? Pick a lit place (Esc puts the card back).`
        : `Pick a card in your hand${moves.byWord.size ? " (the bright ones can be played)" : ""}, `
          + "then where it goes. Pass when you are done.");
    } else if (mine && view.phase === "discard") {
      lines.push(`You hold ${view.hand_sizes[me]} cards: pick one to discard (down to ${HAND_LIMIT}).`);
    } else if (mine && view.phase === "target") {
      lines.push("Your sentence needs a target: pick one of the lit things on the table.");
    } else if (mover !== null && mover !== undefined && mover !== me) {
      lines.push(`Waiting for ${name(mover)}...`);
    }
    const leak = view.leak;
    if (leak && leak.amount > 0) {
      const why = [`${leak.open_chains} open chain${leak.open_chains === 1 ? "" : "s"}`];
      if (leak.verved_up) why.push(`${leak.verved_up} from verved up`);
      lines.push(`${leak.seat === me ? "You leak" : `${name(leak.seat)} leaks`} ${leak.amount} `
        + `verve at the end of this turn (${why.join(", ")}).`);
    } else if (leak && leak.verved_down) {
      lines.push(`No leak for ${leak.seat === me ? "you" : name(leak.seat)} this turn (verved down).`);
    }
  }
  const last = lastLine(table);
  return h("div", { class: "dc-banner" },
    h("p", { class: "dc-head" }, head),
    lines.map((line) => h("p", {}, line)),
    last ? h("p", { class: "dc-last" }, h("span", { class: "dc-label" }, "Last: "), last) : null);
}

function resultLine(view, say) {
  const winners = view.winners || [];
  const losers = [0, 1].filter((seat) => !winners.includes(seat));
  const turns = `Game over after ${view.turn} turns`;
  if (!winners.length) return `${turns}: both lose at once, with as many hidden nouns each: a draw.`;
  if (losers.length !== 1) return `${turns}: ${wonBy(winners.slice(0, 1), say)}.`;
  const loser = say(losers[0]);
  const why = ENDINGS[view.result] || view.result || "lost";
  return `${turns}: ${wonBy(winners, say)}. ${capital(loser)} `
    + `${loser === "you" ? why.replace(/^was /, "were ") : why}.`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The newest log line this page may read, up to the step shown (the replay shows old steps).
function lastLine(table) {
  const log = table.log || [];
  for (let i = log.length - 1; i >= 0; i -= 1) {
    if (log[i].step <= table.step && log[i].line) return log[i].line;
  }
  return null;
}

// -- a seat: its header, hand, chains and table ---------------------------------------------

function drawSeat(ctx, seat, where) {
  const { view, me, name } = ctx;
  const mine = seat === me;
  const active = view.phase !== "over" && view.active === seat;
  const verve = view.verve[seat];
  const header = h("div", { class: "dc-seat-head" },
    h("span", { class: "dc-name" }, name(seat)),
    active ? h("span", { class: "tag turn" }, "to play") : null,
    (view.winners || []).includes(seat) ? h("span", { class: "tag win" }, "winner") : null,
    h("span", { class: `dc-verve${verve <= 3 ? " low" : ""}`, title: "verve: coherence and life; 0 loses" },
      h("span", { class: "dc-label" }, "verve"), h("strong", {}, String(verve))),
    h("span", { class: "dc-stat" }, `deck ${view.deck_sizes[seat]}`),
    h("span", { class: "dc-stat" }, `hand ${view.hand_sizes[seat]}`),
    h("span", { class: "dc-stat", title: "nouns on this table the other player has not seen" },
      `hidden nouns ${view.hidden_nouns[seat]}`));
  const parts = [header];
  const hand = view.hands ? drawRevealedHand(ctx, seat, view.hands[seat])
    : mine && view.hand ? drawHand(ctx, view.hand) : drawHandBacks(ctx, view.hand_sizes[seat], seat);
  const chains = drawChains(ctx, seat);
  const things = drawThings(ctx, seat);
  const extras = drawExtras(ctx, seat);
  // A player's own hand comes first on their side, so it is in view when the page opens
  // (below their chains and table it started under the fold on a desktop).
  if (where === "top") parts.push(hand, chains, things, extras);
  else if (mine) parts.push(hand, drawButtons(ctx), chains, things, extras);
  else parts.push(things, chains, hand, extras);
  return h("section", {
    class: `dc-seat dc-${where}${active ? " to-move" : ""}`,
    "aria-label": mine ? `Your side (${name(seat)})` : `${name(seat)}'s side`,
  }, parts);
}

function drawHandBacks(ctx, count, seat) {
  const { name } = ctx;
  const backs = [];
  for (let i = 0; i < count; i += 1) backs.push(h("span", { class: "dc-back", "aria-hidden": "true" }));
  return h("div", { class: "dc-row dc-hand dc-hand-hidden", dataset: { seat } },
    h("span", { class: "dc-label" }, `${possessive(ctx, seat)} hand`),
    h("span", { class: "dc-backs", role: "img", "aria-label": `${name(seat)} holds ${count} cards` }, backs),
    h("span", { class: "dc-count" }, `${count} card${count === 1 ? "" : "s"}`));
}

function drawHand(ctx, hand) {
  const { moves, live, view } = ctx;
  const discarding = live && view.phase === "discard";
  const cards = hand.map((word, index) => {
    const key = `card-${word}-${index}`;
    const kind = kindOf(word);
    if (discarding && moves.discards.has(word)) {
      return h("button", {
        type: "button", class: `dc-card ${kind} playable`, dataset: { key, word },
        "aria-label": `Discard ${word}`,
        onclick: (event) => play(ctx, moves.discards.get(word), event),
      }, cardFace(word));
    }
    if (live && view.phase === "play" && moves.byWord.has(word)) {
      const chosen = picked !== null && picked.key === key;
      return h("button", {
        type: "button", class: `dc-card ${kind} playable${chosen ? " picked" : ""}`,
        dataset: { key, word }, "aria-pressed": chosen ? "true" : "false",
        "aria-label": `${word} (${kind})${chosen ? ", picked: now pick where it goes" : ""}`,
        onclick: () => ctx.pick(word, key),
      }, cardFace(word));
    }
    return h("span", { class: `dc-card ${kind}`, dataset: { word } }, cardFace(word));
  });
  return h("div", { class: "dc-row dc-hand dc-hand-mine" },
    h("span", { class: "dc-label" }, "your hand"),
    h("div", { class: "dc-cards" }, cards.length ? cards : h("span", { class: "dc-empty" }, "empty")));
}

// After the game, when the table chose to reveal: every seat's hand face up.
function drawRevealedHand(ctx, seat, hand) {
  return h("div", { class: "dc-row dc-hand dc-hand-revealed", dataset: { seat } },
    h("span", { class: "dc-label" }, `${possessive(ctx, seat)} hand, revealed`),
    h("div", { class: "dc-cards" }, hand.length
      ? hand.map((word) => h("span", { class: `dc-card ${kindOf(word)}`, dataset: { word } }, cardFace(word)))
      : h("span", { class: "dc-empty" }, "empty")));
}

function cardFace(word) {
  return [h("span", { class: "dc-kind" }, kindOf(word)), h("span", { class: "dc-word" }, word)];
}

function kindOf(word) {
  if (VERBS.includes(word)) return "verb";
  if (QUALIFIERS.includes(word)) return "qualifier";
  return "noun";
}

function drawButtons(ctx) {
  const { moves, live, view } = ctx;
  if (!live) return null;
  const buttons = [];
  if (moves.pass !== null) {
    const leak = view.leak ? view.leak.amount : 0;
    const over = view.hand_sizes[ctx.me] > HAND_LIMIT ? `, then discard down to ${HAND_LIMIT}` : "";
    buttons.push(h("button", {
      type: "button", class: "dc-pass", dataset: { key: "pass" },
      onclick: (event) => play(ctx, moves.pass, event),
    }, `Pass: end the turn${leak ? ` (leak ${leak})` : ""}${over}`));
  }
  if (picked) {
    buttons.push(h("button", {
      type: "button", dataset: { key: "put-back" },
      onclick: () => { const key = picked.key; picked = null; ctx.redraw(key); },
    }, `Put ${picked.word} back`));
  }
  return buttons.length ? h("div", { class: "dc-buttons" }, buttons) : null;
}

// -- chains ----------------------------------------------------------------------------------

function drawChains(ctx, seat) {
  const { view, me } = ctx;
  const mine = seat === me;
  const chains = view.chains[seat];
  const boxes = chains.map((chain) => drawChain(ctx, seat, chain));
  const fresh = mine && picked ? destinations(ctx, picked.word).find((d) => d.kind === "new") : null;
  if (fresh) {
    boxes.push(h("button", {
      type: "button", class: "dc-chain lit new", dataset: { key: fresh.key, action: fresh.id },
      "aria-label": `Start chain ${fresh.chain} with ${picked.word}`,
      onclick: (event) => play(ctx, fresh.id, event),
    }, h("span", { class: "dc-chain-name" }, `new chain ${fresh.chain}`),
    h("span", { class: "dc-slots" }, slot(picked.word, "verb"), slot(null, "qualifier"), slot(null, "noun"))));
  }
  const owner = mine ? "your" : `${possessive(ctx, seat)}`;
  return h("div", { class: "dc-row dc-chains", dataset: { seat } },
    h("span", { class: "dc-label" }, `${owner} chains`),
    h("div", { class: "dc-chain-list" },
      boxes.length ? boxes : h("span", { class: "dc-empty" }, "no open chain")));
}

function drawChain(ctx, seat, chain) {
  const mine = seat === ctx.me;
  const slots = h("span", { class: "dc-slots" },
    slot(chain.verb, "verb"), slot(chain.qualifier, "qualifier"), slot(null, "noun"));
  const needs = chain.qualifier ? `needs a noun: ${EFFECTS[`${chain.verb} ${chain.qualifier}`]}`
    : "needs a qualifier";
  const title = h("span", { class: "dc-chain-name" }, `chain ${chain.chain}`);
  const dest = picked ? destinations(ctx, picked.word).find((d) => d.kind !== "new"
    && d.chain === chain.chain && (d.kind === "close") !== mine) : null;
  if (!dest) {
    return h("div", { class: "dc-chain", dataset: { chain: chain.chain } }, title, slots,
      h("span", { class: "dc-chain-note" }, needs));
  }
  let label;
  let note;
  if (dest.kind === "join") {
    const effect = EFFECTS[`${chain.verb} ${picked.word}`];
    label = `Add ${picked.word} to your chain ${chain.chain}: ${chain.verb} ${picked.word} (${effect})`;
    note = `add ${picked.word}: ${effect}`;
  } else if (dest.kind === "finish") {
    const effect = EFFECTS[`${chain.verb} ${chain.qualifier}`];
    label = `Finish your chain ${chain.chain}: ${chain.verb} ${chain.qualifier} ${picked.word} `
      + `takes effect (${effect})`;
    note = `finish it now: ${effect}`;
  } else {
    const cost = CLOSE_COST[picked.word];
    label = `Close ${possessive(ctx, seat)} chain ${chain.chain} with ${picked.word}: pay ${cost} `
      + `verve; ${chain.verb} ${chain.qualifier} ${picked.word} takes effect as their sentence`;
    note = `close with ${picked.word}: pay ${cost}; it takes effect for them`;
  }
  return h("button", {
    type: "button", class: `dc-chain lit${dest.kind === "close" ? " close" : ""}`,
    dataset: { key: dest.key, action: dest.id, chain: chain.chain }, "aria-label": label,
    onclick: (event) => play(ctx, dest.id, event),
  }, title, slots, h("span", { class: "dc-chain-note" }, note));
}

function slot(word, kind) {
  if (!word) return h("span", { class: `dc-slot empty ${kind}` }, kind);
  return h("span", { class: `dc-slot ${kind}` }, word);
}

// -- the table ---------------------------------------------------------------------------------

function drawThings(ctx, seat) {
  const things = ctx.view.tables[seat];
  const mine = seat === ctx.me;
  return h("div", { class: "dc-row dc-table", dataset: { seat } },
    h("span", { class: "dc-label" }, mine ? "your table" : `${possessive(ctx, seat)} table`),
    h("div", { class: "dc-things" },
      things.length ? things.map((thing) => drawThing(ctx, seat, thing))
        : h("span", { class: "dc-empty" }, "nothing on the table")));
}

function drawThing(ctx, seat, thing) {
  const { me, view, moves, live } = ctx;
  const mine = seat === me;
  const side = mine ? "your" : "their";
  const target = live && view.phase === "target" ? moves.targets.get(`${side} ${thing.slot}`) : undefined;
  const resolving = view.resolving && view.resolving.owner === seat && view.resolving.slot === thing.slot;
  const link = thing.link ? ctx.links.get(`${seat} ${thing.slot}`) : null;
  const shape = thing.kind === "bare" ? "bare particle"
    : thing.spin ? `${thing.spin} state` : "spinless state";
  const arrow = thing.kind === "bare" ? "\u2022" : thing.spin === "up" ? "\u2191"
    : thing.spin === "down" ? "\u2193" : "\u25cb";
  const known = knowledge(ctx, seat, thing);
  const size = sizeText(thing);
  const parts = [
    h("span", { class: "dc-thing-top" },
      h("span", { class: "dc-slotno" }, `#${thing.slot}`),
      h("span", { class: `dc-noun${thing.noun ? "" : " unknown"}` }, thing.noun || "hidden")),
    h("span", { class: `dc-spin ${thing.spin || thing.kind}` },
      h("span", { class: "dc-arrow", "aria-hidden": "true" }, arrow), ` ${shape}`),
    h("span", { class: "dc-size" }, `size ${size}`),
    h("span", { class: `dc-know ${thing.status}` }, known),
    link ? h("span", { class: `dc-link${link.fatal ? " fatal" : ""} c${link.colour}` },
      h("span", { class: "dc-link-mark" }, link.letter),
      ` ${link.fatal ? "fatal link" : "link"} \u2194 ${link.partner}`) : null,
  ];
  const what = `${mine ? "your" : possessive(ctx, seat)} ${thing.noun || "hidden noun"} #${thing.slot}`;
  const label = `${what}: ${shape}, size ${size}, ${known}`
    + (link ? `, ${link.fatal ? "fatal " : ""}link ${link.letter} with ${link.partner}` : "");
  const classes = `dc-thing ${thing.kind}${thing.noun ? "" : " unseen"}${resolving ? " fresh" : ""}`
    + `${link ? " linked" : ""}${link && link.fatal ? " fatal" : ""}`;
  if (target === undefined) {
    return h("div", { class: classes, "aria-label": label, role: "group",
      dataset: { seat, slot: thing.slot } }, parts);
  }
  return h("button", {
    type: "button", class: `${classes} lit`, "aria-label": `Target ${label}`,
    dataset: { key: `target-${side}-${thing.slot}`, action: target, seat, slot: thing.slot },
    onclick: (event) => play(ctx, target, event),
  }, parts);
}

function sizeText(thing) {
  if (thing.size === null || thing.size === undefined) return thing.growth ? `? + ${thing.growth}` : "?";
  return thing.size_exact ? String(thing.size) : `${thing.size}+?`;
}

// What the other side knows: of your things, what they know; of theirs, what you know.
function knowledge(ctx, seat, thing) {
  if (seat === ctx.me) {
    return { hidden: "hidden from them", known: "known to them", measured: "measured by them" }[thing.status];
  }
  if (ctx.me === null) return { hidden: "hidden", known: "known", measured: "measured" }[thing.status];
  if (thing.status === "hidden") return thing.noun ? "hidden again (you saw it)" : "hidden from you";
  return { known: "known to you", measured: "measured" }[thing.status];
}

// Each link gets a letter and a colour, the same on both halves: "A", "B", ...
function linkLetters(view, name) {
  const found = new Map();
  let count = 0;
  for (const seat of [0, 1]) {
    for (const thing of view.tables[seat]) {
      const link = thing.link;
      if (!link || found.has(`${seat} ${thing.slot}`)) continue;
      const letter = String.fromCharCode(65 + (count % 26));
      const colour = count % 4;
      count += 1;
      const partner = view.tables[link.seat].find((other) => other.slot === link.slot);
      found.set(`${seat} ${thing.slot}`, { letter, colour, fatal: link.fatal, other: link, partnerThing: partner });
      found.set(`${link.seat} ${link.slot}`, { letter, colour, fatal: link.fatal,
        other: { seat, slot: thing.slot }, partnerThing: thing });
    }
  }
  for (const entry of found.values()) {
    entry.partner = `${sideWord(view, entry.other.seat, name)} `
      + `${entry.partnerThing && entry.partnerThing.noun ? entry.partnerThing.noun : "hidden"} #${entry.other.slot}`;
  }
  return found;
}

function sideWord(view, seat, name) {
  if (view.player === null || view.player === undefined) return `${name(seat)}'s`;
  return seat === view.player ? "your" : "their";
}

function possessive(ctx, seat) {
  if (ctx.me === null) return `${ctx.name(seat)}'s`;
  return seat === ctx.me ? "your" : "their";
}

// How to read the table, in one line.
function drawKey() {
  return h("p", { class: "dc-key" },
    h("span", {}, h("b", { class: "up" }, "\u2191"), " up state"),
    h("span", {}, h("b", { class: "down" }, "\u2193"), " down state"),
    h("span", {}, h("b", {}, "\u25cb"), " spinless state"),
    h("span", {}, h("b", {}, "\u2022"), " bare particle"),
    h("span", {}, h("b", { class: "dc-link-mark" }, "A"), " the two halves of a link"),
    h("span", {}, h("b", { class: "dc-link-mark fatal" }, "A"), " a fatal link"),
    h("span", {}, "size 2+? : at least 2 (an unseen bouba may bunch with it)"),
    h("span", {}, "verve 0 loses"));
}

// -- the sentence being resolved, discards, decklists ----------------------------------------

function drawResolving(ctx) {
  const { view, name, me } = ctx;
  const r = view.resolving;
  if (!r) return null;
  const whose = r.owner === me ? "Your" : `${name(r.owner)}'s`;
  const closer = r.closer !== null ? `, closed by ${r.closer === me ? "you" : name(r.closer)}` : "";
  const waiting = r.waiting === "target" ? "waiting for a target" : "waiting for the coin";
  return h("div", { class: "dc-resolving", role: "status" },
    h("span", { class: "dc-label" }, "resolving"),
    h("span", { class: "dc-slots" }, slot(r.verb, "verb"), slot(r.qualifier, "qualifier"),
      slot(r.noun || "hidden", "noun")),
    h("span", {}, `${whose} sentence${closer} (its noun is #${r.slot}): ${waiting}.`),
    h("span", { class: "dc-effect" }, `${EFFECTS[`${r.verb} ${r.qualifier}`]}.`));
}

function drawExtras(ctx, seat) {
  const { view } = ctx;
  const discards = Object.entries(view.discards[seat] || {});
  const pile = discards.length
    ? discards.sort((a, b) => WORDS.indexOf(a[0]) - WORDS.indexOf(b[0]))
      .map(([word, count]) => h("span", { class: `dc-pile ${kindOf(word)}` }, `${word} \u00d7${count}`))
    : h("span", { class: "dc-empty" }, "none");
  const decklist = view.decklists && view.decklists[seat];
  const left = view.decks ? Object.entries(view.decks[seat]) : null;
  return h("div", { class: "dc-extras" },
    left ? h("div", { class: "dc-row dc-deck-left", dataset: { seat } },
      h("span", { class: "dc-label" }, "left in the deck, revealed"),
      h("div", { class: "dc-piles" }, left.length
        ? left.map(([word, count]) => h("span", { class: `dc-pile ${kindOf(word)}` }, `${word} \u00d7${count}`))
        : h("span", { class: "dc-empty" }, "none"))) : null,
    h("div", { class: "dc-row dc-discards", dataset: { seat } },
      h("span", { class: "dc-label" }, "discards"), h("div", { class: "dc-piles" }, pile)),
    decklist ? h("details", { class: "dc-decklist" },
      h("summary", {}, seat === ctx.me ? "your deck list" : "deck list"), h("p", {}, decklist)) : null);
}

// The renderer's own stylesheet, beside it: added to the page once.
function loadStyles() {
  if (document.querySelector("link[data-decoherence]")) return;
  document.head.append(h("link", {
    rel: "stylesheet", href: new URL("decoherence.css", import.meta.url).href,
    dataset: { decoherence: "" },
  }));
}

// Hadronize on the web: every seat's cloud chamber, the superposed quark in the middle, and
// (on your turn) each chamber a button: click or press Enter on a chamber to make that seat
// observe the quark. Each chamber then lists what every possible collapse would do there.
import { h } from "../js/common.js";

const LETTERS = { up: "u", down: "d", strange: "s", charm: "c", bottom: "b", top: "t" };
const COLOURS = { up: "#d9480f", down: "#1c6fd6", strange: "#2b8a3e", charm: "#b07d00",
  bottom: "#7b3fc4", top: "#c2255c" };
const SVG = "http://www.w3.org/2000/svg";

// A move in the page's list of moves, in the words the chambers use: "Make Ada observe it:
// up: 3 tunnel over, ..." (the label's notation names the seat by number).
export function moveWords(move, table, name) {
  const match = /^observe (\d+)$/.exec(move.text);
  if (!match || !move.label) return null;
  const seat = Number(match[1]);
  const what = move.label.split(" - ").slice(1).join(" - ");
  const who = seat === table.view.active ? "Observe it yourself" : `Make ${name(seat)} observe it`;
  return what ? `${who}: ${what}` : who;
}

export function render(container, table, ui) {
  const view = table.view;
  const name = (seat) => (ui.name ? ui.name(seat) : table.seats[seat].name);
  const observe = new Map();
  for (const move of table.legal || []) {
    const match = /^observe (\d+)$/.exec(move.text);
    if (match) observe.set(Number(match[1]), move.id);
  }
  const chambers = view.chambers.map((chamber, seat) =>
    drawChamber(view, seat, name, observe.get(seat), ui));
  container.append(h("div", { class: "hz" },
    drawCentre(view, name, observe.size > 0),
    h("div", { class: "hz-chambers" }, chambers),
    view.last ? h("p", { class: "hz-last" }, `Last turn: ${describeLast(view.last, name)}`) : null));
}

function drawCentre(view, name, choosing) {
  let words;
  if (view.phase === "over") {
    words = view.winners.length ? `${view.winners.map(name).join(" and ")} hadronized `
      + `${Math.max(...view.hadronized)} quarks and won after ${view.turn} turns.`
      : `Over after ${view.turn} turns.`;
  } else if (view.superposition) {
    const who = view.active === null ? "" : name(view.active);
    words = `Superposed quark: ${view.superposition.join(", ")}. `
      + (choosing ? "Choose who observes it: click a chamber."
        : `${who} chooses who observes it.`);
  } else {
    words = view.phase === "deal" ? "Dealing the starting quarks..." : "A quark is appearing...";
  }
  return h("div", { class: "hz-center" },
    view.phase === "over" ? null : superposedQuark(view.superposition),
    h("p", {}, h("strong", {}, `Turn ${view.turn + (view.phase === "over" ? 0 : 1)}`),
      ` - first to ${view.goal} hadronized quarks wins. `, words));
}

function superposedQuark(flavours) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "-50 -50 100 100");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", flavours ? `superposed quark: ${flavours.join(", ")}` : "no quark yet");
  const ring = document.createElementNS(SVG, "circle");
  ring.setAttribute("r", "46");
  ring.setAttribute("fill", "#182131");
  ring.setAttribute("stroke", "#6d8fd6");
  ring.setAttribute("stroke-dasharray", flavours ? "0" : "6 6");
  ring.setAttribute("stroke-width", "3");
  svg.append(ring);
  if (!flavours) return svg;
  flavours.forEach((flavour, index) => {
    const from = (index * 120 - 90) * Math.PI / 180;
    const to = ((index + 1) * 120 - 90) * Math.PI / 180;
    const r = 42;
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", `M0 0 L${r * Math.cos(from)} ${r * Math.sin(from)} `
      + `A${r} ${r} 0 0 1 ${r * Math.cos(to)} ${r * Math.sin(to)} Z`);
    path.setAttribute("fill", COLOURS[flavour]);
    path.setAttribute("stroke", "#10151f");
    path.setAttribute("stroke-width", "2");
    svg.append(path);
    const middle = (from + to) / 2;
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", String(24 * Math.cos(middle)));
    label.setAttribute("y", String(24 * Math.sin(middle) + 6));
    label.setAttribute("text-anchor", "middle");
    label.setAttribute("font-size", "17");
    label.setAttribute("font-weight", "700");
    label.setAttribute("fill", "#fff");
    label.textContent = LETTERS[flavour];
    svg.append(label);
  });
  return svg;
}

function drawChamber(view, seat, name, action, ui) {
  const over = view.phase === "over";
  const classes = ["hz-chamber"];
  if (!over && view.active === seat) classes.push("to-move");
  if (view.winners.includes(seat)) classes.push("winner");
  const quarks = [];
  view.flavours.forEach((flavour, index) => {
    const fresh = view.last && view.last.observer === seat && view.last.flavour === flavour
      && view.last.reaction === "none";
    for (let i = 0; i < view.chambers[seat][index]; i += 1) {
      quarks.push(h("span", { class: `quark q-${flavour}${fresh && i === 0 ? " new" : ""}`,
        title: flavour }, LETTERS[flavour]));
    }
  });
  const total = view.chambers[seat].reduce((a, b) => a + b, 0);
  const done = view.hadronized[seat];
  const bar = h("span", {});
  bar.style.width = `${Math.min(100, (100 * done) / view.goal)}%`;
  const parts = [
    h("span", { class: "hz-name" }, h("span", {}, name(seat)),
      !over && view.active === seat ? h("span", { class: "tag turn" }, "to move") : null,
      view.winners.includes(seat) ? h("span", { class: "tag" }, "winner") : null),
    h("span", { class: "hz-quarks", "aria-label": describeChamber(view, seat) },
      quarks.length ? quarks : h("span", { class: "muted" }, "empty chamber")),
    h("span", { class: "hz-score" }, `hadronized ${done} of ${view.goal}, ${total} in chamber`,
      h("span", { class: "hz-bar" }, bar)),
  ];
  if (action === undefined || !ui.act) {
    return h("section", { class: classes.join(" "), "aria-label": `${name(seat)}'s chamber` }, parts);
  }
  const outcomes = view.superposition.map((flavour) => outcome(view, seat, flavour, name));
  parts.push(h("ul", { class: "hz-outcomes" }, outcomes.map((o) => h("li", { class: o.tone }, o.text))));
  // The accessible name starts with what the button shows (WCAG 2.5.3, label in name).
  const label = `${name(seat)}${!over && view.active === seat ? " to move" : ""}: `
    + `${seat === view.active ? "observe it yourself" : `make ${name(seat)} observe it`}: `
    + `${outcomes.map((o) => o.text).join("; ")}; hadronized ${done} of ${view.goal}, `
    + `${total} in chamber (${describeChamber(view, seat)})`;
  return h("button", { type: "button", class: `${classes.join(" ")} choosable`, "aria-label": label,
    dataset: { key: `chamber-${seat}`, action }, onclick: () => ui.act(action) }, parts);
}

// What a collapse into `flavour` would do if `seat` observes, for the seat to move.
function outcome(view, seat, flavour, name) {
  const held = view.chambers[seat][view.flavours.indexOf(flavour)];
  if (!held) return { text: `${flavour}: stays`, tone: "" };
  if (seat === view.active) return { text: `${flavour}: ${held + 1} hadronize`, tone: "good" };
  return { text: `${flavour}: ${held + 1} tunnel to ${name(view.active)}`, tone: "take" };
}

function describeChamber(view, seat) {
  const held = view.flavours.map((flavour, index) => [flavour, view.chambers[seat][index]])
    .filter(([, count]) => count > 0).map(([flavour, count]) => `${count} ${flavour}`);
  return held.length ? held.join(", ") : "empty";
}

function describeLast(last, name) {
  const head = last.observer === last.active ? `${name(last.active)} observed it: ${last.flavour}`
    : `${name(last.active)} made ${name(last.observer)} observe it: ${last.flavour}`;
  if (last.reaction === "hadronize") return `${head}; ${last.count} ${last.flavour} quarks hadronize.`;
  if (last.reaction === "tunnel") {
    return `${head}; ${last.count} ${last.flavour} quarks tunnel to ${name(last.active)}.`;
  }
  return `${head}; no reaction.`;
}

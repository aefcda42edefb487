// A finished game's review: started on the server (in the background, with progress), then
// drawn as a win-chance graph (SVG) and a table of decisions with their marks. Everything
// in it comes from what the reviewed seat could see (quarkade.learn.review).
import { h, loadStylesheet } from "./common.js";

await loadStylesheet(new URL("../learn.css", import.meta.url));

const root = document.getElementById("review");
const gameId = root.dataset.id;
const query = root.dataset.seat !== "" ? `?seat=${encodeURIComponent(root.dataset.seat)}` : "";
const url = `/api/games/${gameId}/review${query}`;
const el = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const COLOURS = ["#2356c7", "#d9480f", "#2b8a3e", "#7b3fc4", "#b07d00", "#c2255c"];

async function call(method) {
  const response = await fetch(url, { method, headers: { accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `${response.status}`);
  return body;
}

async function run() {
  let body = await call("POST");
  while (body.state === "running" || body.state === "none") {
    root.dataset.state = "running";
    el("status").textContent = body.total
      ? `Reviewing: ${body.done} of ${body.total} decisions judged...` : "Reviewing...";
    el("progress").max = body.total || 1;
    el("progress").value = body.done || 0;
    await new Promise((resolve) => { setTimeout(resolve, 400); });
    body = await call("GET");
  }
  el("unrated").hidden = !body.hinted.length;
  if (body.state === "failed") throw new Error(body.error);
  show(body.review);
}

function show(review) {
  root.dataset.state = "done";
  el("progress").hidden = true;
  const judged = review.decisions.filter((d) => !d.forced).length;
  el("status").textContent = `${count(judged, "decision")} judged.`;
  drawGraph(review);
  drawSummary(review);
  drawTable(review);
  const limits = Object.entries(review.marks)
    .map(([name, least]) => `${name} ${MARKS[name]} from ${Math.round(least * 100)} points`).join(", ");
  el("marks-note").textContent = `Marks by the win chance a move gave away: ${limits}. `
    + (review.budget.seconds_per_decision
      ? `Each decision had about ${review.budget.seconds_per_decision} s of search.`
      : "Each decision had a short search.");
  el("marks-note").hidden = false;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(child));
  return node;
}

function drawGraph(review) {
  const width = 800;
  const height = 260;
  const pad = { left: 44, right: 16, top: 14, bottom: 30 };
  const steps = review.decisions.map((d) => d.step);
  const first = Math.min(...steps, 0);
  const last = Math.max(...steps, 1);
  const x = (step) => pad.left + ((step - first) / Math.max(1, last - first)) * (width - pad.left - pad.right);
  const y = (chance) => pad.top + (1 - chance) * (height - pad.top - pad.bottom);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-labelledby": "graph-title" }, svg("title", { id: "graph-title" },
    "Win chance after each judged decision"));
  chart.append(svg("line", { class: "axis", x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0) }),
    svg("line", { class: "axis", x1: pad.left, x2: pad.left, y1: y(0), y2: y(1) }),
    svg("line", { class: "half", x1: pad.left, x2: width - pad.right, y1: y(0.5), y2: y(0.5) }));
  for (const level of [0, 0.5, 1]) {
    chart.append(svg("text", { x: pad.left - 6, y: y(level) + 4, "text-anchor": "end" },
      `${level * 100}%`));
  }
  chart.append(svg("text", { x: width / 2, y: height - 6, "text-anchor": "middle" }, "step"));
  Object.entries(review.graph).forEach(([seat, points], index) => {
    const colour = COLOURS[index % COLOURS.length];
    if (points.length > 1) {
      chart.append(svg("polyline", { fill: "none", stroke: colour, "stroke-width": 2,
        points: points.map(([step, chance]) => `${x(step)},${y(chance)}`).join(" ") }));
    }
    for (const decision of review.decisions.filter((d) => String(d.seat) === seat && !d.forced)) {
      const dot = svg("circle", { cx: x(decision.step), cy: y(decision.after), r: decision.mark ? 5 : 3,
        fill: decision.mark ? "#a3261b" : colour, class: decision.mark ? `dot marked ${decision.mark}` : "dot" },
      svg("title", {}, `step ${decision.step}: ${decision.move} (${Math.round(decision.after * 100)}%)`));
      chart.append(dot);
      if (decision.mark) {
        chart.append(svg("text", { class: "mark", x: x(decision.step), y: y(decision.after) - 8,
          "text-anchor": "middle" }, MARKS[decision.mark]));
      }
    }
    // Each name in its line's colour: set on the element's style, which wins over the
    // stylesheet's grey for the graph's text (a style attribute would meet the CSP).
    const legend = svg("text", { class: "legend", x: pad.left + 8 + index * 160, y: pad.top + 10 },
      `\u2014 ${review.names[Number(seat)]}`);
    legend.style.fill = colour;
    chart.append(legend);
  });
  el("graph").replaceChildren(chart);
  el("graph-box").hidden = false;
}

function drawSummary(review) {
  el("summary").replaceChildren(h("ul", { class: "summary-list" },
    Object.entries(review.summary).map(([seat, counts]) => h("li", {},
      h("strong", {}, review.names[Number(seat)]), `: ${count(counts.decisions, "decision")} judged, `,
      `${count(counts.blunder, "blunder")}, ${count(counts.mistake, "mistake")}, `,
      `${count(counts.inaccuracy, "inaccuracy", "inaccuracies")}; `,
      `on average ${count(Math.round(counts.mean_loss * 100), "point")} of win chance given away.`))));
}

function count(number, one, many = `${one}s`) {
  return `${number} ${number === 1 ? one : many}`;
}

function percent(value) {
  return value === null || value === undefined ? "" : `${Math.round(value * 100)}%`;
}

function drawTable(review) {
  const rows = review.decisions.map((d) => h("tr", { class: d.mark || null, dataset: { step: d.step } },
    h("td", { class: "num" }, d.step),
    h("td", {}, review.names[d.seat]),
    h("td", {}, d.move),
    h("td", { class: "num" }, d.forced ? "" : percent(d.before)),
    h("td", { class: "num" }, d.forced ? "" : percent(d.after)),
    h("td", {}, d.forced ? "only move" : d.loss > 0 ? `${d.best} (${percent(d.before)})` : "this one"),
    h("td", { class: "mark" }, d.mark ? `${MARKS[d.mark]} ${d.mark}` : "")));
  el("decisions").querySelector("tbody").replaceChildren(...rows);
  el("decisions").hidden = false;
}

run().catch((problem) => {
  root.dataset.state = "failed";
  el("progress").hidden = true;
  el("status").textContent = "";
  el("problem").textContent = String(problem.message || problem);
  el("problem").hidden = false;
});

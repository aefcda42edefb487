// A game's tutorial: the lessons beside the one being taken. Each lesson is a prepared table
// drawn by the game's own renderer; the moves its task asks for are highlighted in the list
// of moves. A wrong move (clicked on the table or in the list) is answered with the rule it
// breaks and nothing changes. The page keeps the goal moves made so far and sends them with
// every request: the server rebuilds the lesson from them. The last lesson is a real game.
import { drawTable, fetchJSON, h, keepFocus, loadRenderer, loadStylesheet } from "./common.js";

await loadStylesheet(new URL("../learn.css", import.meta.url));

const root = document.getElementById("learn");
const game = root.dataset.game;
const renderer = await loadRenderer(root.dataset.renderer);
const el = (id) => document.getElementById(id);

let course = null;   // GET /api/learn/<game>
let lesson = null;   // the lesson on the page (its payload)
let pending = false;

async function loadCourse(wanted) {
  course = await fetchJSON(`/api/learn/${game}`);
  drawLessons();
  await open(wanted || course.next || course.lessons[0].key);
}

async function open(key) {
  const body = await fetchJSON(`/api/learn/${game}/lessons/${encodeURIComponent(key)}`);
  lesson = body.lesson;
  feedback(null);
  drawLessons();
  if (body.final) drawFinal();
  else draw();
  el("lesson-title").focus();
}

// A move tried from the list of moves is answered beside that list (where the learner
// is looking); one tried on the table, above the table.
async function attempt(move, fromList = false) {
  if (pending || !lesson || lesson.finished) return;
  answerNear(fromList ? el("lesson-moves") : el("table"));
  pending = true;
  root.dataset.pending = "yes";
  try {
    const response = await fetch(`/api/learn/${game}/lessons/${encodeURIComponent(lesson.key)}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ moves: lesson.chosen, move }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || `${response.status}`);
    lesson = body.lesson;
    feedback(body.feedback);
    if (lesson.finished) {
      const entry = course.lessons.find((item) => item.key === lesson.key);
      if (entry) entry.done = true;
      drawLessons();
    }
  } catch (problem) {
    feedback({ accepted: false, message: String(problem.message || problem), rule: null });
  } finally {
    pending = false;
    root.dataset.pending = "no";
    draw();
  }
}

function draw() {
  root.dataset.lesson = lesson.key;
  root.dataset.task = String(lesson.task_number);
  root.dataset.finished = lesson.finished ? "yes" : "no";
  drawHead();
  el("final").hidden = true;
  el("table").hidden = false;
  el("task").textContent = lesson.finished ? "Lesson complete."
    : `Task ${lesson.task_number} of ${lesson.tasks}: ${lesson.task}`;
  keepFocus(root, () => {
    const ui = { act: lesson.finished ? null : attempt, held: lesson.table.held,
      name: (seat) => lesson.table.seats[seat].name, pending };
    drawTable(el("table"), renderer, lesson.table, ui);
    drawMoves();
  });
  const following = nextKey();
  el("next").hidden = !lesson.finished || !following;
  el("next").onclick = () => open(following);
}

function drawHead() {
  el("lesson-title").textContent = `Lesson ${lesson.number} of ${lesson.of}: ${lesson.title}`;
  el("lesson-title").tabIndex = -1;
  el("intro").textContent = lesson.intro;
  el("rules").textContent = lesson.teaches.length
    ? `Teaches: ${lesson.teaches.map((rule) => rule.name).join(", ")}.` : "";
}

function drawMoves() {
  const box = el("lesson-moves-box");
  box.hidden = lesson.finished;
  el("lesson-moves").replaceChildren(...lesson.table.legal.map((move) => h("li", {},
    h("button", { type: "button", class: move.goal ? "goal" : null, disabled: pending,
      dataset: { key: `lesson-move-${move.id}`, action: move.id, goal: move.goal ? "yes" : "no" },
      onclick: () => attempt(move.id, true) }, move.label || move.text))));
}

function drawFinal() {
  root.dataset.lesson = lesson.key;
  root.dataset.task = "";
  drawHead();
  el("task").textContent = "Play a whole game against the easy bot.";
  el("table").hidden = true;
  el("lesson-moves-box").hidden = true;
  el("next").hidden = true;
  const box = el("final");
  box.hidden = false;
  const playing = course.final_game;
  const done = course.lessons.find((item) => item.key === lesson.key).done;
  root.dataset.finished = done ? "yes" : "no";
  box.replaceChildren(...[
    done ? h("p", { class: "feedback right" }, "You have played your game: the tutorial is done.") : null,
    playing && !playing.over ? h("p", {}, h("a", { class: "button primary", href: playing.url },
      "Go on with your game")) : null,
    h("p", {}, h("button", { type: "button", id: "start-final",
      class: playing && !playing.over ? null : "primary", onclick: startFinal },
    playing ? "Start a new game" : "Start the game"))].filter(Boolean));
}

async function startFinal() {
  const response = await fetch(`/api/learn/${game}/final`, {
    method: "POST", headers: { accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) { feedback({ accepted: false, message: body.error, rule: null }); return; }
  location.href = body.url;
}

function nextKey() {
  const index = course.lessons.findIndex((item) => item.key === lesson.key);
  return index >= 0 && index + 1 < course.lessons.length ? course.lessons[index + 1].key : null;
}

function drawLessons() {
  el("lessons").replaceChildren(...course.lessons.map((item) => h("li", {
    class: [item.done ? "done" : "", lesson && lesson.key === item.key ? "current" : ""]
      .join(" ").trim() || null,
  }, h("a", { href: `#${item.key}`, dataset: { key: `lesson-${item.key}` },
    "aria-current": lesson && lesson.key === item.key ? "step" : null,
    onclick: (event) => { event.preventDefault(); open(item.key); } }, item.title))));
}

function feedback(result) {
  const box = el("feedback");
  if (!result) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  box.className = `feedback ${result.accepted ? "right" : "wrong"}`;
  box.replaceChildren(...[result.accepted ? null : h("strong", {}, "Not that. "),
    result.message || (result.accepted ? "Well done." : "")].filter(Boolean));
  root.dataset.feedback = result.accepted ? "right" : "wrong";
  box.scrollIntoView({ block: "nearest" });
}

// The answer to the next move goes just above `place` (the list of moves, or the table).
function answerNear(place) {
  const box = el("feedback");
  if (box.nextElementSibling !== place) place.before(box);
}

el("reset").addEventListener("click", async () => {
  await fetch(`/api/learn/${game}/reset`, { method: "POST" });
  await loadCourse(course.lessons[0].key);
});

loadCourse(location.hash.slice(1) || null).catch((problem) => {
  el("lesson-title").textContent = `The tutorial could not be loaded: ${problem.message}`;
});

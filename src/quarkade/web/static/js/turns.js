// The header's "Your move in N games": counted by the server when the page was made, then
// counted again whenever it may have changed: when the page comes back into view or its
// window takes the focus, when a game page sees whose turn it is change (game.js sends a
// "quarkade:turns" event), and every half minute while the page is in view (another game's
// opponent may move while this page stays open: no socket tells this page of it).
const link = document.getElementById("your-turns");
let asking = false;
let again = false;  // a change came while a count was on its way: count once more after it

async function recount() {
  if (!link) return;
  if (asking) { again = true; return; }
  asking = true;
  try {
    const response = await fetch("/api/me/turns", { headers: { Accept: "application/json" } });
    if (response.ok) show((await response.json()).your_turns);
  } catch {
    // Offline for a moment: the count stays as it was until the next change.
  } finally {
    asking = false;
    if (again) { again = false; recount(); }
  }
}

function show(count) {
  link.dataset.count = String(count);
  link.hidden = count === 0;
  link.textContent = `Your move in ${count} game${count === 1 ? "" : "s"}`;
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") recount();
});
document.addEventListener("quarkade:turns", recount);
window.addEventListener("focus", recount);
const EVERY_MS = 30_000;
setInterval(() => { if (document.visibilityState === "visible") recount(); }, EVERY_MS);

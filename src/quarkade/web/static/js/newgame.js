// The new-game form: show only as many seat choices as there are players.
const form = document.getElementById("new-game");
const players = form.elements.namedItem("option.players");

function showSeats() {
  const count = Number(players && players.value) || 0;
  for (const row of form.querySelectorAll(".seat-choice")) {
    const hidden = count > 0 && Number(row.dataset.seat) >= count;
    row.hidden = hidden;
    row.querySelector("select").disabled = hidden;
  }
}

if (players) {
  players.addEventListener("input", showSeats);
  showSeats();
}

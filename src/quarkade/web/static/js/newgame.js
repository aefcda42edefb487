// The new-game form: show only as many seat choices (and "More bots" fields) as there are
// players, and fill a deck option from a saved deck.
const form = document.querySelector("form.new-game");
const players = form.elements.namedItem("option.players");

function showSeats() {
  const count = Number(players && players.value) || 0;
  for (const row of form.querySelectorAll(".seat-choice, .bot-choice")) {
    const hidden = count > 0 && Number(row.dataset.seat) >= count;
    row.hidden = hidden;
    row.querySelector("select, input").disabled = hidden;
  }
}

if (players) {
  players.addEventListener("input", showSeats);
  players.addEventListener("change", showSeats);
  showSeats();
}

// A saved deck chosen beside a deck option shows its text in the option's field (the
// choice wins on the server even without this script).
for (const picker of form.querySelectorAll("select.saved-deck")) {
  picker.addEventListener("change", () => {
    const field = document.getElementById(picker.dataset.for);
    if (picker.value && field) field.value = picker.value;
  });
}

"""The deck builder page (its route is ``decks.builder_page``): a word's count is a
labelled number field with a button each side, the deck-building rules are checked as
you click (``/static/js/decks.js``), and without a script the form still saves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from quarkade.server.html import layout


def percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def builder(game: str, title: str, rules: Mapping[str, Any],
            saved: Sequence[Mapping[str, Any]], counts: Mapping[str, int] | None = None,
            name: str = "", message: str = "", error: str = "") -> str:
    """The builder for ``game``: its words by kind, the presets (with their measured
    strength), the owner's ``saved`` decks; ``counts``/``name`` refill the form."""
    start = counts or {}
    kinds = []
    for kind in rules["kinds"]:
        rows = []
        for word in kind["words"]:
            key = f"w-{word.replace(chr(39), '')}"
            value = int(start.get(word, 0))
            rows.append(
                f'<div class="word" data-word="{escape(word)}">'
                f'<label for="{escape(key)}">{escape(word)}</label>'
                f'<button type="button" class="less small" data-word="{escape(word)}" '
                f'aria-label="One {escape(word)} fewer" hidden>&minus;</button>'
                f'<input id="{escape(key)}" name="count.{escape(word)}" type="number" '
                f'min="0" max="{rules["max_copies"]}" value="{value}" inputmode="numeric">'
                f'<button type="button" class="more small" data-word="{escape(word)}" '
                f'aria-label="One {escape(word)} more" hidden>+</button></div>')
        total = sum(int(start.get(word, 0)) for word in kind["words"])
        kinds.append(
            f'<fieldset class="kind" data-kind="{escape(kind["name"])}"><legend>'
            f'{escape(kind["name"].capitalize())}: <span class="kind-count" '
            f'id="count-{escape(kind["name"])}">{total}</span> of {rules["per_kind"]}'
            f'</legend>{"".join(rows)}</fieldset>')
    presets = "".join(
        f'<li><button type="button" class="preset" data-deck="{escape(p["deck"])}" '
        f'data-name="{escape(p["name"])}">{escape(p["name"])}</button> '
        f'<span class="muted">wins {percent(p["strength"]["rate"])} '
        f'[{100 * p["strength"]["low"]:.1f}, {100 * p["strength"]["high"]:.1f}] against the '
        f'other presets</span><br><small>{escape(p["deck"])}</small></li>'
        for p in rules["presets"])
    mine = "".join(
        f'<li data-id="{escape(d["id"])}"><strong class="deck-name">{escape(d["name"])}</strong>'
        f'<br><small>{escape(d["deck"])}</small></li>' for d in saved)
    note = f'<p class="ok" role="status">{escape(message)}</p>' if message else ""
    problem = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    body = f"""<h1>Build a {escape(title)} deck</h1>
<p>A deck is {rules["size"]} cards: exactly {rules["per_kind"]} verbs, {rules["per_kind"]}
qualifiers and {rules["per_kind"]} nouns, and at most {rules["max_copies"]} copies of a word.
Click the buttons (or type the counts), name the deck and save it: you pick it when you take
a seat. <a href="/rules/{escape(game)}">The rules</a>.</p>
{note}{problem}
<div class="builder" id="builder" data-game="{escape(game)}" data-size="{rules["size"]}"
 data-per-kind="{rules["per_kind"]}" data-max="{rules["max_copies"]}">
<form method="post" action="/decks/{escape(game)}" id="deck-form" class="deck-form">
<div class="kinds">{"".join(kinds)}</div>
<p id="deck-check" class="deck-check" role="status" aria-live="polite"></p>
<div class="field"><label for="deck-name">Name</label>
<input id="deck-name" name="name" maxlength="40" required value="{escape(name)}"
 aria-describedby="deck-name-hint"><small id="deck-name-hint">1 to 40 characters, shown as
 you typed them</small></div>
<p class="buttons"><button type="submit" class="primary" id="save">Save the deck</button>
<button type="button" id="test" hidden>Test this deck</button></p>
</form>
<section id="test-box" class="test-box" aria-labelledby="test-title" hidden>
<h2 id="test-title">How this deck does</h2>
<p id="test-status" role="status" aria-live="polite"></p>
<progress id="test-progress" max="1" value="0" aria-labelledby="test-title"></progress>
<div class="table-scroll" tabindex="0" role="region" aria-labelledby="test-title">
<table id="test-results"><caption class="visually-hidden">This deck's win rate against each
preset</caption><thead><tr><th scope="col">Against</th><th scope="col">Games</th>
<th scope="col">This deck wins</th><th scope="col">The preset itself wins</th></tr></thead>
<tbody></tbody></table></div>
<p class="muted small-print">Both seats are played by the {escape(rules["agent"])} bot, the
deck half the games at each seat; a draw counts half. Intervals are 95% (Wilson). The
presets' own strength: each against the other presets, the same way.</p>
</section>
<section aria-labelledby="presets-title"><h2 id="presets-title">Start from a preset</h2>
<ul class="presets">{presets}</ul></section>
<section aria-labelledby="saved-title"><h2 id="saved-title">Your decks</h2>
<ul id="saved" class="saved">{mine or '<li class="muted none">No deck saved yet.</li>'}</ul>
</section></div>"""
    return layout(f"{title} deck builder", body, "/static/js/decks.js", wide=True)

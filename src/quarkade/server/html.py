"""The HTML of every page, as small functions of plain data (the routes are in ``pages``).
Every page is usable without a script except the game and replay pages, whose live parts
are ES modules from ``web/static``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from markdown_it import MarkdownIt

KIND_LABELS = {"you": "you (this device)", "hotseat": "hot-seat (also this device)",
               "friend": "a friend, by invite link"}


def layout(title: str, body: str, script: str = "", wide: bool = False) -> str:
    module = f'<script type="module" src="{escape(script)}"></script>' if script else ""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} - Quarkade</title>
<link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/">Quarkade</a>
<nav aria-label="site"><a href="/">Games</a> <a href="/learn">Learn</a>
<a href="/ladder">Ladder</a></nav></header>
<main id="main" class="{'wide' if wide else 'narrow'}">
{body}
</main>
{module}
</body>
</html>
"""


def home(games: Sequence[Mapping[str, Any]], recent: Sequence[Mapping[str, Any]],
         pictures: Mapping[str, str]) -> str:
    cards = []
    for game in games:
        name = escape(game["name"])
        cards.append(f"""<li class="game-card">
<img src="{escape(pictures[game['name']])}" alt="The {escape(game['title'])} table" width="240"
 height="150">
<div><h2>{escape(game['title'])}</h2>
<p>{escape(game['summary'])} <span class="muted">{_players(game)}.</span></p>
<p class="buttons"><a class="button primary" href="/new/{name}">New game</a>
<a class="button" href="/rules/{name}">Rules</a></p></div></li>""")
    rows = "".join(
        f'<li><a href="/games/{escape(g["id"])}">{escape(g["game"])} {escape(g["id"])}</a> '
        f'<span class="muted">{escape(g["created"])}, {"over" if g["over"] else "in play"}'
        f'</span> <a href="/games/{escape(g["id"])}/replay">replay</a></li>' for g in recent)
    recent_html = (f'<section><h2>Recent public games</h2><ul class="recent">{rows}</ul>'
                   '</section>'
                   if rows else "")
    body = f"""<h1>Play a quantum card game</h1>
<p>Against bots, with friends by invite link, or hot-seat on one device.</p>
<ul class="games">{''.join(cards)}</ul>
{recent_html}"""
    return layout("Games", body)


def new_game(game: Mapping[str, Any], others: Sequence[Mapping[str, Any]],
             values: Mapping[str, str] | None = None, error: str = "") -> str:
    """The form for a new game of ``game``; ``others`` are the other games, linked."""
    values = values or {}
    name = escape(game["name"])
    fields = []
    for option in game["options"]:
        key = f"option.{option['name']}"
        current = values.get(key, str(option["default"]))
        label = f'<label for="{escape(key)}">{escape(option["name"])}</label>'
        hint = f'<small id="{escape(key)}-hint">{escape(option["help"])}; ' \
               f'{escape(option["allowed"])}</small>'
        if option["kind"] == "bool":
            chosen = current.lower() in ("true", "yes", "on", "1")
            control = (f'<select id="{escape(key)}" name="{escape(key)}">'
                       f'<option value="true"{" selected" if chosen else ""}>yes</option>'
                       f'<option value="false"{"" if chosen else " selected"}>no</option>'
                       "</select>")
        elif option["choices"]:
            control = (f'<select id="{escape(key)}" name="{escape(key)}">' + "".join(
                f'<option{" selected" if c == current else ""}>{escape(c)}</option>'
                for c in option["choices"]) + "</select>")
        elif option["kind"] == "int":
            bounds = "".join(f' {attr}="{option[key_]}"' for attr, key_ in
                             (("min", "minimum"), ("max", "maximum"))
                             if option[key_] is not None)
            control = (f'<input id="{escape(key)}" name="{escape(key)}" type="number"'
                       f'{bounds} value="{escape(current)}" aria-describedby="{escape(key)}-hint"'
                       ' required>')
        else:
            control = (f'<input id="{escape(key)}" name="{escape(key)}" '
                       f'value="{escape(current)}">')
        fields.append(f'<div class="field">{label}{control}{hint}</div>')
    seats = []
    for seat in range(game["max_players"]):
        default = "you" if seat == 0 else f"bot:{_default_bot(game)}"
        current = values.get(f"seat{seat}", default)
        choices = "".join(
            f'<option value="{escape(kind)}"{" selected" if kind == current else ""}>'
            f'{escape(_kind_label(kind))}</option>' for kind in game["seat_kinds"])
        seats.append(f'<div class="field seat-choice" data-seat="{seat}">'
                     f'<label for="seat{seat}">Seat {seat}</label>'
                     f'<select id="seat{seat}" name="seat{seat}">{choices}</select></div>')
    shown_to = values.get("visibility", "unlisted")
    visibility = "".join(
        f'<option value="{v}"{" selected" if v == shown_to else ""}>{label}</option>'
        for v, label in (("unlisted", "only people I give its address (unlisted)"),
                         ("public", "anyone: listed under Recent public games (public)")))
    problem = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    switch = ", ".join(f'<a href="/new/{escape(o["name"])}">{escape(o["title"])}</a>'
                       for o in others)
    body = f"""<h1>New game of {escape(game['title'])}</h1>
<p>{escape(game['summary'])} <a href="/rules/{name}">Read the rules</a>.</p>
{f'<p class="muted">Or another game: {switch}.</p>' if switch else ''}
{problem}
<form method="post" action="/new/{name}" class="new-game" id="new-game">
<fieldset><legend>Options</legend>{''.join(fields)}</fieldset>
<fieldset><legend>Who sits where</legend>
<p class="muted">Seats beyond the number of players are left out.</p>{''.join(seats)}
</fieldset>
<fieldset><legend>Who can find it</legend><div class="field">
<label for="visibility">Visibility</label>
<select id="visibility" name="visibility">{visibility}</select></div></fieldset>
<p><button class="primary" type="submit">Start the game</button></p>
</form>"""
    return layout(f"New {game['title']} game", body, "/static/js/newgame.js")


def rules(game: Mapping[str, Any], markdown: str) -> str:
    rendered = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    body = f"""<article class="rules">{rendered}</article>
<p><a class="button primary" href="/new/{escape(game['name'])}">Play {escape(game['title'])}</a>
</p>"""
    return layout(f"{game['title']} rules", body)


def game(game_id: str, name: str, title: str, renderer: str, seat: str) -> str:
    body = f"""<div id="game" class="game" data-id="{escape(game_id)}" data-game="{escape(name)}"
 data-renderer="{escape(renderer)}" data-seat="{escape(seat)}">
<div class="game-head"><h1>{escape(title)}</h1>
<p class="links"><a href="/rules/{escape(name)}" target="_blank" rel="noopener">Rules</a>
<a id="replay-link" href="/games/{escape(game_id)}/replay">Replay</a></p></div>
<p id="status" class="status" role="status" aria-live="polite">Connecting...</p>
<p id="problem" class="error" role="alert" hidden></p>
<div class="game-body">
<section id="table" class="table" aria-label="The table"></section>
<aside class="side">
<section id="coach" aria-label="Hints and review" hidden></section>
<section id="moves-box" aria-labelledby="moves-title"><h2 id="moves-title">Your moves</h2>
<ol id="moves" class="moves"></ol></section>
<section id="result-box" hidden aria-labelledby="result-title"><h2 id="result-title">Result</h2>
<p id="result"></p><button id="rematch" type="button" class="primary">Rematch</button></section>
<section aria-labelledby="seats-title"><h2 id="seats-title">Seats</h2>
<ul id="seats" class="seats"></ul></section>
<section aria-labelledby="log-title"><h2 id="log-title">Log</h2>
<label class="check"><input type="checkbox" id="every-action"> every action</label>
<ol id="log" class="log" aria-live="off"></ol></section>
</aside></div></div>
<script type="module" src="/static/js/coach.js"></script>"""
    return layout(title, body, "/static/js/game.js", wide=True)


def replay(game_id: str, name: str, title: str, renderer: str, seat: str) -> str:
    body = f"""<div id="replay" class="game" data-id="{escape(game_id)}" data-game="{escape(name)}"
 data-renderer="{escape(renderer)}" data-seat="{escape(seat)}">
<div class="game-head"><h1>{escape(title)}: replay</h1>
<p class="links"><a href="/games/{escape(game_id)}">Back to the game</a>
<a id="download" href="/games/{escape(game_id)}/record" download>Download the record</a></p>
</div>
<div class="stepper" role="group" aria-label="Step through the game">
<button type="button" id="first" disabled>First</button>
<button type="button" id="back" disabled>Back</button>
<span id="where" class="where" role="status" aria-live="polite">loading</span>
<button type="button" id="forward" disabled>Forward</button>
<button type="button" id="last" disabled>Last</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="Step" disabled>
</div>
<p id="problem" class="error" role="alert" hidden></p>
<div class="game-body">
<section id="table" class="table" aria-label="The table at this step"></section>
<aside class="side"><section aria-labelledby="log-title"><h2 id="log-title">Log</h2>
<ol id="log" class="log"></ol></section></aside></div></div>"""
    return layout(f"{title} replay", body, "/static/js/replay.js", wide=True)


def error(status: int, message: str) -> str:
    body = f"""<h1>{status}: {escape(_status_word(status))}</h1>
<p class="error" role="alert">{escape(message)}</p>
<p><a class="button" href="/">Back to the games</a></p>"""
    return layout(_status_word(status), body)


def _players(game: Mapping[str, Any]) -> str:
    low, high = game["min_players"], game["max_players"]
    return f"{low}-{high} players" if high > low else f"{low} players"


def _default_bot(game: Mapping[str, Any]) -> str:
    agents = game["agents"]
    return "greedy" if "greedy" in agents else agents[0]


def _kind_label(kind: str) -> str:
    if kind.startswith("bot:"):
        return f"bot: {kind[4:]}"
    return KIND_LABELS.get(kind, kind)


def _status_word(status: int) -> str:
    return {400: "Bad request", 403: "Not yours", 404: "Not found", 405: "Not allowed",
            409: "Conflict", 413: "Too large", 422: "Not legal", 429: "Too many requests",
            503: "Try again"}.get(status, "Error")

"""The HTML of every page, as small functions of plain data (the routes are in ``pages``).
Every page is usable without a script except the game and replay pages, whose live parts
are ES modules from ``web/static``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from markdown_it import MarkdownIt

KIND_LABELS = {"you": "me", "open": "open (anyone, from the lobby)",
               "friend": "invite a friend (a link)",
               "hotseat": "hot-seat (another person on this device)"}
TIME_CONTROLS = (("none", "no clock"), ("1+0", "1 min"), ("3+2", "3 min + 2 s"),
                 ("5+5", "5 min + 5 s"), ("10+5", "10 min + 5 s"), ("30+20", "30 min + 20 s"),
                 ("corr:1", "1 day per move"), ("corr:3", "3 days per move"),
                 ("corr:7", "7 days per move"))


def layout(title: str, body: str, script: str = "", wide: bool = False) -> str:
    from quarkade.server.players import signed_in

    module = f'<script type="module" src="{escape(script)}"></script>' if script else ""
    player = signed_in.get()
    who = (f'<a id="me" href="/me" data-name="{escape(player.name)}">{escape(player.name)}'
           f'{" (guest)" if player.guest else ""}</a>' if player is not None else "")
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
<nav aria-label="site"><a href="/">Games</a> <a href="/lobby">Lobby</a>
<a href="/learn">Learn</a> <a href="/leaderboard/hadronize">Leaderboards</a>
<a href="/ladder">Ladder</a> {who}</nav></header>
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
<a class="button" href="/rules/{name}">Rules</a>{
    f' <a class="button" href="/decks/{name}">Build a deck</a>' if game.get("deck_builder")
    else ""}</p></div></li>""")
    rows = "".join(
        f'<li><a href="/games/{escape(g["id"])}">{escape(g["game"])} {escape(g["id"])}</a> '
        f'<span class="muted"><time datetime="{escape(g["created"])}">'
        f'{escape(g["created"])}</time>, {"over" if g["over"] else "in play"}'
        f'</span> <a href="/games/{escape(g["id"])}/replay">replay</a></li>' for g in recent)
    recent_html = (f'<section><h2>Recent public games</h2><ul class="recent">{rows}</ul>'
                   '</section>'
                   if rows else "")
    body = f"""<h1>Play a quantum card game</h1>
<p>Against bots, with friends by invite link, or hot-seat on one device.</p>
<ul class="games">{''.join(cards)}</ul>
{recent_html}"""
    # The dates of recent games are shown in the viewer's locale by a small script.
    return layout("Games", body, "/static/js/times.js" if rows else "")


def new_game(game: Mapping[str, Any], others: Sequence[Mapping[str, Any]],
             values: Mapping[str, str] | None = None, error: str = "",
             saved: Sequence[Mapping[str, Any]] = ()) -> str:
    """The form for a new game of ``game``; ``others`` are the other games, linked;
    ``saved`` the asker's saved decks, offered beside each deck option."""
    values = values or {}
    name = escape(game["name"])
    fields = []
    for option in game["options"]:
        key = f"option.{option['name']}"
        current = values.get(key, str(option["default"]))
        label = f'<label for="{escape(key)}">{escape(option["label"])}</label>'
        own = (" If that seat is open or invited, its player chooses it on joining."
               if option["seat"] is not None else "")
        hint = f'<small id="{escape(key)}-hint">{escape(option["help"])}; ' \
               f'{escape(option["allowed"])}.{own}</small>'
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
        if option.get("deck"):
            control += saved_deck_choice(key, option["name"], game["name"], saved,
                                    values.get(f"saved.{option['name']}", ""))
        fields.append(f'<div class="field">{label}{control}{hint}</div>')
    seats = []
    for seat in range(game["max_players"]):
        default = "you" if seat == 0 else "bot:medium"
        current = values.get(f"seat{seat}", default)
        choices = "".join(
            f'<option value="{escape(kind)}"{" selected" if kind == current else ""}>'
            f'{escape(_kind_label(kind))}</option>' for kind in game["seat_kinds"])
        seats.append(f'<div class="field seat-choice" data-seat="{seat}">'
                     f'<label for="seat{seat}">Seat {seat}</label>'
                     f'<select id="seat{seat}" name="seat{seat}">{choices}</select></div>')
    reveal = values.get("reveal", "")
    reveal_field = "" if not game.get("hides") else (
        '<fieldset><legend>After the game</legend><div class="field">'
        '<label for="reveal">Show every hidden card once the game is over</label>'
        '<select id="reveal" name="reveal" aria-describedby="reveal-hint">' + "".join(
            f'<option value="{v}"{" selected" if v == reveal else ""}>{label}</option>'
            for v, label in (("", "when a bot plays (the default)"), ("yes", "yes"),
                             ("no", "no"))) + '</select><small id="reveal-hint">Every seat '
        'is told before it joins; the final table, the replay and the record then show '
        'every card.</small></div></fieldset>')
    shown_to = values.get("visibility", "unlisted")
    visibility = "".join(
        f'<option value="{v}"{" selected" if v == shown_to else ""}>{label}</option>'
        for v, label in (("unlisted", "only people I give its address (unlisted)"),
                         ("public", "anyone: listed in the lobby (public)")))
    chosen_control = values.get("time_control", "none")
    controls = "".join(
        f'<option value="{v}"{" selected" if v == chosen_control else ""}>{label}</option>'
        for v, label in TIME_CONTROLS)
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
{_more_bots(game, values)}
</fieldset>
{reveal_field}
<fieldset><legend>Clock</legend><div class="field">
<label for="time_control">Time control</label>
<select id="time_control" name="time_control" aria-describedby="time_control-hint">{controls}
</select><small id="time_control-hint">Real-time: minutes each, plus seconds after each
move; correspondence: days for each move. Bots have no clock.</small></div></fieldset>
<fieldset><legend>Who can find it</legend><div class="field">
<label for="visibility">Visibility</label>
<select id="visibility" name="visibility">{visibility}</select></div></fieldset>
<p><button class="primary" type="submit">Start the game</button></p>
</form>"""
    return layout(f"New {game['title']} game", body, "/static/js/newgame.js")


def _more_bots(game: Mapping[str, Any], values: Mapping[str, str]) -> str:
    """"More bots": a bot with settings of the player's own for any seat, and what each
    bot's settings are (from the bots' own declarations, ``game["more_bots"]``)."""
    if not game.get("more_bots"):
        return ""
    typed = {seat: values.get(f"bot{seat}", "") for seat in range(game["max_players"])}
    fields = "".join(
        f'<div class="field bot-choice" data-seat="{seat}"><label for="bot{seat}">'
        f'Seat {seat}</label><input id="bot{seat}" name="bot{seat}" maxlength="100" '
        f'autocomplete="off" value="{escape(text)}"></div>' for seat, text in typed.items())
    listed = "".join(
        f'<dt><code>{escape(bot["name"])}</code></dt><dd>{escape(bot["about"])}<ul>' + "".join(
            f'<li><code>{escape(p["name"])}</code>: {escape(p["help"])}; '
            f'{escape(p["allowed"])} (unless set: {escape(str(p["default"]))}).</li>'
            for p in bot["parameters"]) + "</ul></dd>" for bot in game["more_bots"])
    shown = " open" if any(typed.values()) else ""
    return (f'<details class="more-bots"{shown}><summary>More bots: a bot with settings of '
            'your own</summary><p class="muted">Write a bot and its settings for a seat, '
            'such as <code>mcts:iterations=500,c=1</code>: it sits there instead of the '
            f'choice above.</p>{fields}<dl class="bots">{listed}</dl></details>')


def saved_deck_choice(key: str, option: str, game: str, saved: Sequence[Mapping[str, Any]],
                 chosen: str) -> str:
    """A choice of the asker's saved decks for a deck option (it wins over the text)."""
    link = f' <a href="/decks/{escape(game)}">Build a deck</a>'
    if not saved:
        return f'<small>No saved deck yet.{link}</small>'
    choices = "".join(
        f'<option value="{escape(d["deck"])}"{" selected" if d["deck"] == chosen else ""}>'
        f'{escape(d["name"])}</option>' for d in saved)
    return (f'<label class="sub" for="{escape(key)}-saved">or one of your saved decks</label>'
            f'<select id="{escape(key)}-saved" name="saved.{escape(option)}" class="saved-deck"'
            f' data-for="{escape(key)}"><option value="">(none: use the text above)</option>'
            f'{choices}</select><small>{link.strip()}</small>')


def rules(game: Mapping[str, Any], markdown: str) -> str:
    rendered = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    body = f"""<article class="rules">{rendered}</article>
<p><a class="button primary" href="/new/{escape(game['name'])}">Play {escape(game['title'])}</a>
</p>"""
    return layout(f"{game['title']} rules", body)


def game(game_id: str, name: str, title: str, renderer: str, seat: str,
         reveal_note: str = "") -> str:
    body = f"""<div id="game" class="game" data-id="{escape(game_id)}" data-game="{escape(name)}"
 data-renderer="{escape(renderer)}" data-seat="{escape(seat)}">
<div class="game-head"><h1>{escape(title)}</h1>
<p class="links"><a href="/rules/{escape(name)}" target="_blank" rel="noopener">Rules</a>
<a id="replay-link" href="/games/{escape(game_id)}/replay">Replay</a></p></div>
<p id="reveal-note" class="muted note"{'' if reveal_note else ' hidden'}>{escape(reveal_note)}</p>
<p id="status" class="status" role="status" aria-live="polite">Connecting...</p>
<p id="last-move" class="last-move" aria-live="polite" aria-atomic="true"></p>
<div id="clocks" class="clocks" hidden></div>
<p id="problem" class="error" role="alert" hidden></p>
<div class="game-body">
<section id="table" class="table" aria-label="The table" tabindex="-1"></section>
<aside class="side">
<section id="coach" aria-label="Hints and review" hidden></section>
<section id="moves-box" aria-labelledby="moves-title">
<details id="moves-fold" class="fold" open><summary><h2 id="moves-title">Your moves</h2></summary>
<ol id="moves" class="moves"></ol></details></section>
<section id="result-box" hidden aria-labelledby="result-title"><h2 id="result-title">Result</h2>
<p id="result"></p><table id="result-table" class="result-table"></table>
<button id="rematch" type="button" class="primary">Rematch</button></section>
<section id="actions-box" hidden aria-label="Resign or abort"><p class="buttons">
<button id="resign" type="button">Resign</button>
<button id="abort" type="button">Abort</button></p>
<p id="claims"></p></section>
<section aria-labelledby="seats-title"><h2 id="seats-title">Seats</h2>
<ul id="seats" class="seats"></ul></section>
<section id="chat-box" class="chat" aria-labelledby="chat-title">
<div class="section-head"><h2 id="chat-title">Chat</h2>
<button type="button" id="chat-toggle" class="small" aria-expanded="true"
 aria-controls="chat-body">Hide</button></div>
<div id="chat-body">
<ol id="chat" class="chat-log" aria-live="polite" aria-relevant="additions" tabindex="0"
 aria-label="Chat messages"></ol>
<form id="chat-form" class="chat-form" hidden>
<label for="chat-text" class="visually-hidden">Chat message</label>
<input id="chat-text" name="text" maxlength="300" autocomplete="off" required
 placeholder="A message (300 characters at most)">
<button type="submit">Send</button></form>
<p id="chat-note" class="muted small-print" hidden>Spectators read the chat; the players
 at the table write.</p></div></section>
<section aria-labelledby="log-title"><h2 id="log-title">Log</h2>
<label class="check"><input type="checkbox" id="every-action"> every action</label>
<label class="check"><input type="checkbox" id="sound"> sound on my turn</label>
<label class="check"><input type="checkbox" id="notify"> notify me</label>
<ol id="log" class="log" aria-live="off" tabindex="0" aria-label="Game log"></ol></section>
</aside></div>
<dialog id="confirm" class="confirm" aria-labelledby="confirm-title"
 aria-describedby="confirm-text">
<h2 id="confirm-title">Play this move?</h2><p id="confirm-text"></p>
<div class="buttons"><button type="button" id="confirm-yes" class="danger">Play it</button>
<button type="button" id="confirm-no" class="primary">Cancel</button></div></dialog>
</div>
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
<span id="where" class="where">loading</span>
<button type="button" id="forward" disabled>Forward</button>
<button type="button" id="last" disabled>Last</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="Step" disabled>
</div>
<p id="happened" class="happened" role="status" aria-live="polite" aria-atomic="true"></p>
<p id="reveal-note" class="muted note" hidden></p>
<p id="problem" class="error" role="alert" hidden></p>
<div class="game-body">
<section id="table" class="table" aria-label="The table at this step"></section>
<aside class="side"><section aria-labelledby="log-title"><h2 id="log-title">Log</h2>
<ol id="log" class="log" tabindex="0" aria-label="Game log"></ol></section></aside></div></div>"""
    return layout(f"{title} replay", body, "/static/js/replay.js", wide=True)


def error(status: int, message: str) -> str:
    body = f"""<h1>{status}: {escape(_status_word(status))}</h1>
<p class="error" role="alert">{escape(message)}</p>
<p><a class="button" href="/">Back to the games</a></p>"""
    return layout(_status_word(status), body)


def _players(game: Mapping[str, Any]) -> str:
    low, high = game["min_players"], game["max_players"]
    return f"{low}-{high} players" if high > low else f"{low} players"


def _kind_label(kind: str) -> str:
    if kind.startswith("bot:"):
        return f"bot: {kind[4:]}"
    return KIND_LABELS.get(kind, kind)


def _status_word(status: int) -> str:
    return {400: "Bad request", 403: "Not yours", 404: "Not found", 405: "Not allowed",
            409: "Conflict", 413: "Too large", 422: "Not legal", 429: "Too many requests",
            503: "Try again"}.get(status, "Error")

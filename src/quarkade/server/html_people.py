"""The HTML of the players' pages: the lobby, a seat's own options, ``/me`` and
``/players/<name>``, and a game's leaderboard. Like ``html``, functions of plain data;
every page works without a script, and the lobby's script keeps its lists live.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from quarkade.server.html import TIME_CONTROLS, layout, saved_deck_choice
from quarkade.server.players import NAME_RULE, PASSWORD_RULE
from quarkade.server.storage.players import StoredPlayer


def lobby(games: Sequence[Mapping[str, Any]], snapshot: Mapping[str, Any],
          player: StoredPlayer | None,
          saved: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> str:
    """The lobby: quick play (with the player's deck, for a game with a deck builder: a
    preset or one of their ``saved`` decks), create, open games (live over ``/ws/lobby``),
    games to watch."""
    game_options = "".join(f'<option value="{escape(g["name"])}">{escape(g["title"])}</option>'
                           for g in games)
    counts = sorted({n for g in games for n in range(g["min_players"], g["max_players"] + 1)})
    count_options = "".join(f'<option value="{n}">{n} players</option>' for n in counts)
    controls = "".join(f'<option value="{v}">{label}</option>' for v, label in TIME_CONTROLS)
    creates = " ".join(f'<a class="button" href="/new/{escape(g["name"])}">'
                       f'{escape(g["title"])}</a>' for g in games)
    body = f"""<h1>Lobby</h1>
<p class="muted">You play as <strong>{escape(player.name) if player else "a guest"}</strong>
(<a href="/me">change</a>).</p>
<section class="lobby-box" aria-labelledby="quick-title"><h2 id="quick-title">Quick play</h2>
<form id="quick" class="quick" method="post" action="/lobby/quick">
<label>Game <select name="game" id="quick-game">{game_options}</select></label>
<label>Players <select name="players" id="quick-players">{count_options}</select></label>
<label>Clock <select name="time_control" id="quick-clock">{controls}</select></label>
{_quick_decks(games, saved or {})}
<button class="primary" type="submit">Quick play</button></form>
<p class="muted">Seats you in the open game closest to your rating, or opens one and waits.
</p><p id="quick-problem" class="error" role="alert" hidden></p></section>
<section class="lobby-box" aria-labelledby="create-title"><h2 id="create-title">Create a game
</h2><p class="buttons">{creates}</p>
<p class="muted">Public or unlisted, options, the clock, and each seat: open, me, a bot level,
or a friend by invite link.</p></section>
<section class="lobby-box" aria-labelledby="open-title"><h2 id="open-title">Open games</h2>
<div id="open-games" aria-live="polite">{open_games(snapshot["open"], player)}</div></section>
<section class="lobby-box" aria-labelledby="live-title"><h2 id="live-title">Games to watch</h2>
<div id="live-games">{live_games(snapshot["live"])}</div></section>"""
    return layout("Lobby", body, "/static/js/lobby.js")


def _quick_decks(games: Sequence[Mapping[str, Any]],
                 saved: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """For quick play: your deck in each game with a deck builder (its presets, then your
    saved decks, as text); the lobby's script shows only the chosen game's."""
    fields = []
    for game in games:
        if not game.get("deck_builder"):
            continue
        name = escape(game["name"])
        presets = "".join(f'<option value="{escape(p)}">{escape(p)}</option>'
                          for p in game.get("presets", ()))
        own = "".join(f'<option value="{escape(d["deck"])}">{escape(d["name"])}</option>'
                      for d in saved.get(game["name"], ()))
        groups = (f'<optgroup label="Presets">{presets}</optgroup>' if presets else "") + (
            f'<optgroup label="Your saved decks">{own}</optgroup>' if own else "")
        fields.append(f'<label class="quick-deck" data-game="{name}">Your {escape(game["title"])}'
                      f' deck <select name="deck" id="quick-deck-{name}"><option value="">'
                      f'the default</option>{groups}</select></label>')
    return "".join(fields)


def open_games(entries: Sequence[Mapping[str, Any]], player: StoredPlayer | None) -> str:
    if not entries:
        return '<p class="muted" id="no-open">No open games right now: create one.</p>'
    rows = []
    for entry in entries:
        seats = []
        for s in entry["seats"]:
            if s["open"]:
                asks = ' data-chooses="yes"' if s.get("chooses") else ""
                seats.append(f'<form method="get" action="/games/{escape(entry["id"])}/take/'
                             f'{s["seat"]}"><button class="primary join" type="submit" '
                             f'data-game="{escape(entry["id"])}" data-seat="{s["seat"]}"'
                             f'{asks}>'
                             f'Join seat {s["seat"]}</button></form>')
            else:
                seats.append(f'<span>{_seat_text(s)}</span>')
        rows.append(f"""<li class="lobby-game" data-id="{escape(entry['id'])}">
<strong>{escape(entry['game'])}</strong> {entry['players']} players,
{escape(entry['time_control'])}{_options_text(entry)}
<div class="lobby-seats">{''.join(seats)}</div></li>""")
    return f'<ul class="lobby-list">{"".join(rows)}</ul>'


def live_games(entries: Sequence[Mapping[str, Any]]) -> str:
    if not entries:
        return '<p class="muted">No public games under way.</p>'
    rows = "".join(
        f'<li><a href="/games/{escape(e["id"])}?seat=spectator">{escape(e["game"])}: '
        f'{", ".join(_seat_text(s) for s in e["seats"])}</a> '
        f'<span class="muted">{escape(e["time_control"])}</span></li>' for e in entries)
    return f'<ul class="lobby-list">{rows}</ul>'


def _seat_text(seat: Mapping[str, Any]) -> str:
    name = escape(seat["name"])
    if seat.get("invited"):
        return f"{name} (invited)"
    if seat.get("rating") is not None:
        return f"{name} ({seat['rating']})"
    return name


def _options_text(entry: Mapping[str, Any]) -> str:
    return f'; {escape(", ".join(entry["options"]))}' if entry["options"] else ""


def seat_form(live: Any, seat: int, game: Mapping[str, Any], action: str,
              saved: Sequence[Mapping[str, Any]] = (), reveal_note: str = "") -> str:
    """Taking a seat: the options that seat chooses itself (its deck, or one of the
    player's ``saved`` decks), what the table chose about hidden cards after the game
    (``reveal_note``), then take it."""
    fields = []
    for option in game["options"]:
        if option["seat"] != seat:
            continue
        key = f"option.{option['name']}"
        picker = saved_deck_choice(key, option["name"], game["name"], saved, "") \
            if option.get("deck") else ""
        fields.append(f'<div class="field"><label for="{escape(key)}">{escape(option["label"])}'
                      f'</label><input id="{escape(key)}" name="{escape(key)}" '
                      f'value="{escape(str(option["default"]))}" aria-describedby='
                      f'"{escape(key)}-hint">{picker}<small id="{escape(key)}-hint">'
                      f'{escape(option["help"])}</small></div>')
    note = f'<p id="reveal-note" class="note">{escape(reveal_note)}</p>' if reveal_note else ""
    body = f"""<h1>Take seat {seat} of {escape(game['title'])}</h1>
{note}
<form method="post" action="{escape(action)}" class="new-game" id="take-seat">
{''.join(fields)}
<p><button class="primary" type="submit">Take the seat</button></p></form>"""
    return layout(f"Take seat {seat}", body, "/static/js/newgame.js" if saved else "")


def player_page(player: StoredPlayer, games: Sequence[Mapping[str, Any]],
                ratings: Sequence[Mapping[str, Any]], history: Sequence[Mapping[str, Any]],
                own: bool, error: str = "") -> str:
    """``/me`` (``own``: with the forms) or ``/players/<name>``."""
    in_play = [g for g in games if g["finished"] is None and g["started"] is not None]
    # Games where it is this player's turn first.
    in_play.sort(key=lambda g: g.get("to_move") not in g["mine"])
    waiting = [g for g in games if g["started"] is None and g["finished"] is None]
    finished = [g for g in games if g["finished"] is not None]
    problem = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    forms = _forms(player) if own else ""
    who = "You" if own else escape(player.name)
    body = f"""<h1>{escape(player.name)}{' <span class="tag">guest</span>' if player.guest
                                           else ''}</h1>
{problem}
<section aria-labelledby="playing-title"><h2 id="playing-title">Games in progress</h2>
{_game_list(in_play + waiting, own, finished=False)}</section>
<section aria-labelledby="ratings-title"><h2 id="ratings-title">Ratings</h2>
{_ratings(ratings)}</section>
<section aria-labelledby="rates-title"><h2 id="rates-title">Win rates</h2>
{_win_rates(finished)}</section>
<section aria-labelledby="history-title"><h2 id="history-title">Rating history</h2>
{_history(history)}</section>
<section aria-labelledby="finished-title"><h2 id="finished-title">Finished games</h2>
{_game_list(finished, own, finished=True)}</section>
{forms}"""
    # The rating history's dates are shown in the viewer's locale by a small script.
    return layout(f"{who}", body, "/static/js/times.js")


def _game_list(games: Sequence[Mapping[str, Any]], own: bool, finished: bool) -> str:
    if not games:
        return '<p class="muted">None yet.</p>'
    rows = []
    for g in games:
        seat = g["mine"][0]
        names = ", ".join(escape(s["name"]) for s in g["seats"])
        link = f'/games/{escape(g["id"])}?seat={seat}' if own else \
            f'/games/{escape(g["id"])}?seat=spectator'
        if finished:
            result = _result(g, seat)
            extra = (f' <span class="result">{escape(result)}</span> '
                     f'<a href="/games/{escape(g["id"])}/replay'
                     f'{"?seat=" + str(seat) if own else ""}">replay</a>')
        elif g["started"] is None:
            extra = ' <span class="tag">waiting for players</span>'
        else:
            mine = g.get("to_move") in g["mine"]
            extra = ' <span class="tag turn">your turn</span>' if mine and own else ""
        rows.append(f'<li data-id="{escape(g["id"])}"><a href="{link}">{escape(g["game"])}'
                    f'</a> <span class="muted">{names}</span>{extra}</li>')
    return f'<ul class="player-games">{"".join(rows)}</ul>'


def _result(game: Mapping[str, Any], seat: int) -> str:
    outcome = game.get("outcome") or {}
    result = outcome.get("result")
    ending = outcome.get("ending", "")
    if result == "aborted":
        return "aborted"
    if result == "draw" or not outcome:
        return "draw"
    won = seat in outcome.get("winners", [])
    if ending in ("resigned", "out of time", "abandoned"):  # the server's ruling
        return f"won (the other side {ending})" if won else f"lost ({ending})"
    return "won" if won else "lost"


def _win_rates(finished: Sequence[Mapping[str, Any]]) -> str:
    tally: dict[str, list[int]] = {}
    for g in finished:
        outcome = g.get("outcome") or {}
        if outcome.get("result") == "aborted":
            continue
        played = tally.setdefault(g["game"], [0, 0])
        played[1] += 1
        played[0] += g["mine"][0] in outcome.get("winners", [])
    if not tally:
        return '<p class="muted">No finished games yet.</p>'
    rows = "".join(f"<tr><td>{escape(game)}</td><td>{won}/{played}</td>"
                   f"<td>{round(100 * won / played)}%</td></tr>"
                   for game, (won, played) in sorted(tally.items()))
    return ('<table class="board"><thead><tr><th>Game</th><th>Won</th><th>Rate</th></tr>'
            f'</thead><tbody>{rows}</tbody></table>')


def _ratings(ratings: Sequence[Mapping[str, Any]]) -> str:
    if not ratings:
        return '<p class="muted">Not rated yet: rated games need a claimed name.</p>'
    rows = "".join(f'<tr><td><a href="/leaderboard/{escape(r["game"])}?players='
                   f'{r["players"]}">{escape(r["game"])}</a></td><td>{r["players"]}</td>'
                   f'<td class="rating">{r["rating"]}</td><td>&plusmn;{r["deviation"]}</td>'
                   f'<td>{r["games"]}</td></tr>' for r in ratings)
    return ('<table class="board"><thead><tr><th>Game</th><th>Players</th><th>Rating</th>'
            f'<th></th><th>Games</th></tr></thead><tbody>{rows}</tbody></table>')


def _history(history: Sequence[Mapping[str, Any]]) -> str:
    if not history:
        return '<p class="muted">No rated games yet.</p>'
    rows = "".join(
        f'<li>{escape(h["game"])} ({h["players"]} players): {h["before"]} &rarr; '
        f'<span class="rating">{h["after"]}</span> '
        f'<span class="muted"><time datetime="{_iso(h["at"])}">'
        f'{time.strftime("%Y-%m-%d", time.gmtime(h["at"]))}</time></span></li>'
        for h in history[-50:])
    return f'<ol class="history">{rows}</ol>'


def _forms(player: StoredPlayer) -> str:
    settings = {"sound": False, "notify": False, **player.settings}
    claim = ("Keep this name with a password, to log in on other devices and play rated "
             "games." if player.guest else "Change your password (logs out your other "
             "devices).")
    checks = "".join(
        f'<label class="check"><input type="checkbox" name="{key}" id="setting-{key}"'
        f'{" checked" if settings[key] else ""}> {label}</label><br>'
        for key, label in (("sound", "a sound when it becomes my turn"),
                           ("notify", "a browser notification when it becomes my turn or a "
                            "game I watch ends")))
    return f"""<section aria-labelledby="account-title"><h2 id="account-title">Your name</h2>
<form method="post" action="/me" class="inline-form" id="rename">
<input type="hidden" name="action" value="name">
<label for="name">Name</label> <input id="name" name="name" value="{escape(player.name)}"
 maxlength="20" aria-describedby="name-hint" required>
<button type="submit">Change</button><br><small id="name-hint">{escape(NAME_RULE)}.</small>
</form>
<form method="post" action="/me" class="inline-form" id="claim">
<input type="hidden" name="action" value="password">
<p class="muted">{escape(claim)}</p>
<label for="password">Password</label> <input id="password" name="password" type="password"
 minlength="8" maxlength="200" autocomplete="new-password" aria-describedby="password-hint"
 required> <button type="submit">{"Claim the name" if player.guest else "Change"}</button><br>
<small id="password-hint">{escape(PASSWORD_RULE)}.</small></form>
<form method="post" action="/me" id="settings"><input type="hidden" name="action"
 value="settings"><h3>Alerts</h3>{checks}<button type="submit">Save</button></form>
<form method="post" action="/me" class="inline-form" id="login">
<input type="hidden" name="action" value="login"><h3>Log in as another name</h3>
<label for="login-name">Name</label> <input id="login-name" name="name" autocomplete="username"
 required> <label for="login-password">Password</label> <input id="login-password"
 name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button></form>
<form method="post" action="/me" id="logout"><input type="hidden" name="action"
 value="logout"><button type="submit">Log out</button></form></section>"""


def leaderboard(game: Mapping[str, Any], players: int, board: Sequence[Mapping[str, Any]],
                games: Sequence[Mapping[str, Any]]) -> str:
    counts = " ".join(
        f'<a class="button{" primary" if n == players else ""}" href="/leaderboard/'
        f'{escape(game["name"])}?players={n}">{n} players</a>'
        for n in range(game["min_players"], game["max_players"] + 1))
    others = " ".join(f'<a href="/leaderboard/{escape(g["name"])}">{escape(g["title"])}</a>'
                      for g in games if g["name"] != game["name"])
    rows = "".join(
        f'<tr class="{"bot" if e["bot"] else "person"}"><td>{place}</td><td>'
        + (escape(e["name"]) if e["bot"] else
           f'<a href="/players/{escape(e["name"])}">{escape(e["name"])}</a>')
        + f'</td><td class="rating">{e["rating"]}</td><td>&plusmn;{e["deviation"]}</td>'
        f'<td>{"anchor" if e["games"] is None else e["games"]}</td></tr>'
        for place, e in enumerate(board, start=1))
    body = f"""<h1>{escape(game['title'])} leaderboard</h1>
<p class="buttons">{counts}</p>
<p class="muted">OpenSkill ratings; bot levels are fixed anchors. Ordered by a rating each
player is very likely above (rating minus its margin). Other games: {others}.</p>
<table class="board" id="leaderboard"><thead><tr><th>#</th><th>Player</th><th>Rating</th>
<th>Margin</th><th>Games</th></tr></thead><tbody>{rows}</tbody></table>"""
    return layout(f"{game['title']} leaderboard", body)


def _iso(seconds: float) -> str:
    """A moment as ISO 8601 in UTC, for ``<time datetime>`` (the page shows it locally)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))

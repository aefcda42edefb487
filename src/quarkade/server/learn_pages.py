"""The learning pages' HTML: the tutorials' index, a game's tutorial and a game's review.

The index works without a script; a tutorial and a review are drawn by ``learn.js`` and
``review.js`` from the JSON routes of ``quarkade.server.learning``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from quarkade.server.html import layout

STYLES = '<link rel="stylesheet" href="/static/learn.css">'


def home(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every game's tutorial with this device's progress."""
    items = []
    for row in rows:
        name = escape(row["name"])
        done = row["done"]
        state = (f"{done} of {row['lessons']} lessons done" if row["next"] else
                 "every lesson done")
        following = (f'<p>Next: {escape(row["next"])}</p>' if row["next"] else "")
        label = "Start" if done == 0 else "Go on" if row["next"] else "Take a lesson again"
        items.append(f"""<li class="course"><h2>{escape(row['title'])}</h2>
<p class="muted">{state}</p>{following}
<p><a class="button primary" href="/learn/{name}">{label}</a>
<a class="button" href="/rules/{name}">Rules</a></p></li>""")
    body = f"""{STYLES}<h1>Learn to play</h1>
<p>Short lessons on prepared tables, each teaching a rule or two, then a real game against
the easy bot. Your progress is kept on this device.</p>
<ul class="courses">{''.join(items)}</ul>"""
    return layout("Learn", body)


def course(name: str, title: str, renderer: str) -> str:
    """A game's tutorial: the lessons beside the lesson being taken (``learn.js``)."""
    body = f"""{STYLES}<div id="learn" class="learn" data-game="{escape(name)}"
 data-renderer="{escape(renderer)}" data-lesson="" data-task="" data-finished="no">
<div class="game-head"><h1>Learn {escape(title)}</h1>
<p class="links"><a href="/learn">All tutorials</a>
<a href="/rules/{escape(name)}" target="_blank" rel="noopener">Rules</a></p></div>
<div class="learn-body">
<nav class="lessons" aria-labelledby="lessons-title"><h2 id="lessons-title">Lessons</h2>
<ol id="lessons"></ol>
<button id="reset" type="button" class="quiet">Forget my progress</button></nav>
<section class="lesson" aria-labelledby="lesson-title">
<h2 id="lesson-title">Loading...</h2>
<p id="intro"></p>
<p id="rules" class="muted"></p>
<p id="task" class="task" role="status" aria-live="polite"></p>
<p id="feedback" class="feedback" aria-live="assertive" hidden></p>
<div id="table" class="table" aria-label="The lesson's table"></div>
<div id="lesson-moves-box"><h3>Moves</h3>
<p class="muted">Highlighted: the moves this task asks for. Try another to see the rule it
breaks.</p><ol id="lesson-moves" class="moves"></ol></div>
<div id="final" hidden></div>
<p><button id="next" type="button" class="primary" hidden>Next lesson</button></p>
</section></div></div>"""
    return layout(f"Learn {title}", body, "/static/js/learn.js", wide=True)


def review(game_id: str, name: str, title: str, seat: str) -> str:
    """A finished game's review (``review.js``)."""
    gid = escape(game_id)
    query = f"?seat={escape(seat)}" if seat else ""
    body = f"""{STYLES}<div id="review" class="review" data-id="{gid}" data-game="{escape(name)}"
 data-seat="{escape(seat)}" data-state="loading">
<div class="game-head"><h1>{escape(title)}: review</h1>
<p class="links"><a href="/games/{gid}{query}">Back to the game</a>
<a href="/games/{gid}/replay{query}">Replay</a></p></div>
<p id="status" role="status" aria-live="polite">Starting the review...</p>
<progress id="progress" max="1" value="0"></progress>
<p id="problem" class="error" role="alert" hidden></p>
<p id="unrated" class="muted" hidden>Hints were used in this game, so it is not rated.</p>
<figure id="graph-box" hidden><div id="graph"></div>
<figcaption>Win chance after each move, as the search judged it from what the mover could
see. Marks: ?! inaccuracy, ? mistake, ?? blunder.</figcaption></figure>
<section id="summary"></section>
<table id="decisions" class="decisions" hidden><thead><tr><th>step</th><th>seat</th>
<th>move</th><th>before</th><th>after</th><th>best move</th><th>mark</th></tr></thead>
<tbody></tbody></table>
<p id="marks-note" class="muted" hidden></p></div>"""
    return layout(f"{title} review", body, "/static/js/review.js", wide=True)

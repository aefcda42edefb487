"""Bots with settings of a player's own, on the web: the specs a server accepts and the
new-game form's "More bots" both come from the bots' own declarations (``Agent.parameters``),
so a parameter a game's bot declares needs no change to the server."""

import html

import pytest

from quarkade.core.options import Option
from quarkade.core.registry import game_parts
from quarkade.games.hadronize.bots import GreedyAgent
from tests.server.helpers import refused


class BolderGreedy(GreedyAgent):
    """Picks the observer with the best expected immediate outcome, boldly."""

    parameters = (Option("boldness", 1, "how far it leans towards risk", int, minimum=0,
                         maximum=9, server_maximum=3),)

    def __init__(self, boldness: int = 1) -> None:
        self.boldness = boldness


@pytest.fixture
def bolder(monkeypatch):
    """Hadronize's greedy bot with a new parameter, declared in the game's bot only."""
    monkeypatch.setitem(game_parts("hadronize").bots, "greedy", BolderGreedy)


def new_game(client, seats):
    return client.post("/api/games", json={"game": "hadronize", "options": {"players": 3},
                                           "seats": seats})


def test_a_parameter_declared_in_a_games_bot_is_accepted_and_offered(client, bolder):
    # A friend's seat keeps the game waiting, so no bot moves (the workers do not know
    # the new parameter: it was declared in this process only).
    made = new_game(client, ["you", "friend", "bot:greedy:boldness=3"])
    assert made.status_code == 201, made.text
    seats = client.get(f"/api/games/{made.json()['id']}").json()["seats"]
    assert seats[2]["agent"] == "greedy:boldness=3"
    refused(new_game(client, ["you", "friend", "bot:greedy:boldness=4"]), 400,
            "seat 2: bot 'greedy': parameter boldness='4' is not allowed; it takes a whole "
            "number from 0 to 3 on this server")
    page = client.get("/new/hadronize").text
    more = page.split('<details class="more-bots"', 1)[1].split("</details>", 1)[0]
    assert "<dt><code>greedy</code></dt><dd>Picks the observer with the best expected " \
           "immediate outcome, boldly." in more
    assert "<li><code>boldness</code>: how far it leans towards risk; a whole number from " \
           "0 to 3 (unless set: 1).</li>" in more


def test_a_bot_written_under_more_bots_takes_its_seat(client):
    form = {"option.players": "3", "option.goal": "10", "option.max_turns": "0",
            "seat0": "you", "seat1": "bot:random", "seat2": "friend",
            "bot1": "rollout:playouts=300,margin=1,compiled=0"}
    answer = client.post("/new/hadronize", data=form, follow_redirects=False)
    assert answer.status_code == 303
    game_id = answer.headers["location"].rsplit("/", 1)[1]
    seats = client.get(f"/api/games/{game_id}").json()["seats"]
    assert seats[1]["agent"] == "rollout:playouts=300,margin=1,compiled=0"
    bad = client.post("/new/hadronize", data={**form, "bot1": "rollout:playouts=9000"})
    assert bad.status_code == 400
    assert "playouts='9000' is not allowed; it takes a whole number from 1 to " \
           "5000 on this server" in html.unescape(bad.text)
    assert '<details class="more-bots" open>' in bad.text  # what was written is kept


@pytest.mark.parametrize("game", ["hadronize", "card-commons", "dead-cat", "decoherence"])
def test_every_level_is_a_spec_the_server_accepts(client, game):
    """The levels use parameters (rollout's playouts and margin, mcts's candidates): each
    is within what the server allows, so a visitor may ask for it by its spec too."""
    from quarkade.agents.registry import levels
    from quarkade.server.play.specs import check_spec

    for spec in levels(game).values():
        for each in ([spec] if isinstance(spec, str) else spec.values()):
            assert check_spec(game, each) == each

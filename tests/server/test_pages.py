"""The pages, for every registered game: home, rules, the new-game form, the game and replay
pages; and the static front end, which loads nothing from anywhere else."""

import re
from pathlib import Path

import pytest

from quarkade import list_games
from quarkade.core.words import rules_page
from quarkade.server.app import STATIC
from tests.server.helpers import friend_game, post_form, title


def test_home_lists_every_game_with_a_picture_and_links(client):
    page = client.get("/")
    assert page.status_code == 200
    for game in list_games():
        assert title(game) in page.text
        assert f'href="/new/{game}"' in page.text and f'href="/rules/{game}"' in page.text
        picture = re.search(rf'<img src="([^"]+)" alt="The {title(game)} table"', page.text)
        assert picture and client.get(picture.group(1)).status_code == 200


@pytest.mark.parametrize("game", list_games())
def test_rules_page_renders_the_games_own_rules(client, game):
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200
    first_heading = rules_page(game).splitlines()[0].lstrip("# ").strip()
    assert f"<h1>{first_heading}</h1>" in page.text
    assert "<script" not in page.text.split("</header>")[1]


@pytest.mark.parametrize("game", list_games())
def test_new_game_form_offers_every_option_and_seat_choice(client, game):
    catalogue = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    entry = catalogue[game]
    page = client.get(f"/new/{game}").text
    for option in entry["options"]:
        if option["name"] == "players" and entry["min_players"] == entry["max_players"]:
            assert f'{entry["min_players"]} players.' in page  # nothing to choose
            continue
        assert f'name="option.{option["name"]}"' in page
    for seat in range(entry["max_players"]):
        assert f'name="seat{seat}"' in page
    for kind in ("you", "hotseat", "friend", "bot:random"):
        assert f'value="{kind}"' in page
    for other in list_games():
        assert (f'href="/new/{other}"' in page) == (other != game)


def test_the_form_starts_a_game_and_hands_this_device_its_seats(client):
    form = {"option.players": "3", "option.goal": "10", "option.max_turns": "0",
            "seat0": "you", "seat1": "hotseat", "seat2": "friend", "seat3": "friend"}
    answer = post_form(client, "/new/hadronize", form, follow_redirects=False)
    assert answer.status_code == 303
    game_id = answer.headers["location"].rsplit("/", 1)[1]
    payload = client.get(f"/api/games/{game_id}").json()
    assert payload["held"] == [0, 1] and len(payload["seats"]) == 3
    assert [i["seat"] for i in payload["invites"]] == [2]
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")


def test_game_and_replay_pages_name_the_renderer_module(client):
    game_id = friend_game(client, "hadronize")["id"]
    for path, script in ((f"/games/{game_id}", "/static/js/game.js"),
                         (f"/games/{game_id}/replay", "/static/js/replay.js")):
        page = client.get(path)
        assert page.status_code == 200
        assert 'data-renderer="/static/games/hadronize.js"' in page.text
        assert f'<script type="module" src="{script}">' in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]


def test_every_static_file_is_served_and_nothing_comes_from_elsewhere(client):
    files = [p for p in Path(STATIC).rglob("*") if p.is_file()]
    assert {"app.css", "game.js", "replay.js", "common.js", "hadronize.js"} <= {
        p.name for p in files}
    for path in files:
        answer = client.get("/static/" + path.relative_to(STATIC).as_posix())
        assert answer.status_code == 200
        text = path.read_text(encoding="utf-8")
        # No address outside this server (the SVG namespace is a name, never fetched).
        assert not re.findall(r"(?:https?:)?//(?!www\.w3\.org/2000/svg)[a-z0-9.-]+\.[a-z]{2,}",
                              text), path
        imports = re.findall(r'(?:from|import)\s*\(?\s*"([^"]+)"', text)
        assert all(i.startswith(".") for i in imports), (path, imports)


@pytest.mark.parametrize("game", list_games())
def test_rules_page_speaks_to_players_and_links_the_tutorial(client, game):
    """Issue 25 item 19: a rules page cited docs/RULINGS.md, ruling ids and terminal
    commands, and did not link the tutorial."""
    page = client.get(f"/rules/{game}").text.split("</header>")[1]
    text = re.sub(r"<[^>]+>", " ", page)
    for developers in ("RULINGS", "docs/", "quarkade ", "`"):
        assert developers not in text, developers
    assert not re.search(r"\b[A-Z]{1,3}-\d+\b", text)  # a ruling's id
    assert f'href="/learn/{game}"' in page


def fake_checkpoint(folder: Path, game: str, options: dict) -> Path:
    """A checkpoint folder as quarkade train writes one (its network's numbers do not
    matter here: no move is asked of it)."""
    import json

    import numpy as np

    from quarkade.agents.learned import FORMAT

    folder.mkdir()
    (folder / "agent.json").write_text(json.dumps(
        {"format": FORMAT, "game": game, "options": options, "simulations": 0}))
    np.savez(folder / "params.npz", in_w=np.zeros((1, 1), np.float32))
    return folder


def test_the_seat_menu_offers_a_learned_bot_only_for_a_checkpoint_named_for_the_game(
        client, tmp_path, monkeypatch):
    """A bare "Learned bot" named no network: choosing it answered with the bot spec's
    syntax. Now each checkpoint the operator named is offered where it plays."""
    page = client.get("/new/card-commons").text
    assert 'value="bot:learned' not in page
    tutorial = fake_checkpoint(tmp_path / "tut", "card-commons",
                               {"variant": "tutorial", "torus": False})
    monkeypatch.setenv("QUARKADE_LEARNED", f"tut={tutorial};lost={tmp_path / 'none'}")
    page = client.get("/new/card-commons").text
    assert '<option value="bot:learned:name=tut">Learned bot (tut)</option>' in page
    assert "It plays only games with variant tutorial." in page
    assert "lost" not in page and 'value="bot:learned"' not in page
    assert 'value="bot:learned' not in client.get("/new/hadronize").text
    # Chosen for a Classic game (or on the torus), it is refused in words, the form kept.
    form = {"option.variant": "classic", "option.torus": "true", "seat0": "you",
            "seat1": "bot:learned:name=tut"}
    answer = post_form(client, "/new/card-commons", form, page="/new/card-commons")
    assert ("was trained for variant tutorial and torus off and plays only such games"
            in answer.text), answer.text[-2000:]
    form = {"option.variant": "classic", "seat0": "you", "seat1": "bot:learned:name=tut"}
    answer = post_form(client, "/new/card-commons", form, page="/new/card-commons")
    assert answer.status_code == 400
    assert ("Learned bot (tut) was trained for variant tutorial and plays only such games: "
            "choose those options, or another bot") in answer.text


def test_the_form_names_a_refused_seat_as_the_player_it_shows(client):
    form = {"seat0": "you", "seat1": "bot:no-such-bot"}
    answer = post_form(client, "/new/card-commons", form, page="/new/card-commons")
    assert answer.status_code == 400
    assert "Player 2: " in answer.text and "seat 1" not in answer.text

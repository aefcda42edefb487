"""The HTML report, opened in a real headless Chromium: every game's report shows its plots
and the tables of its analysis hook.

Parametrized over every registered game, so each game that lands is checked too (the
simulation issue asks for Decoherence's report in a browser).
"""

import pytest

import quarkade
from quarkade.agents import available_agents
from quarkade.sim.hooks import game_analysis
from tests.sim.helpers import EXTRA_TABLES, simulate


def agents_for(game):
    """random and one of the game's own bots (greedy where it has one)."""
    own = [name for name in available_agents(game) if name != "random"]
    return "random," + ("greedy" if "greedy" in own else own[0])


@pytest.mark.parametrize("game", quarkade.list_games())
def test_the_report_opens_in_chromium_and_shows_its_plots(game, tmp_path, browser):
    report = tmp_path / "report.html"
    simulate(game, "--agents", agents_for(game), "--games", 40, "--seed", 1, "--workers", 1,
             "--report", report, "--engine", "reference")
    page = browser.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report.as_uri())
    assert page.title() == f"Quarkade report: {game}"
    headings = page.locator("h2").all_inner_texts()
    for title in ("Win rate by agent (per seat-game)", "Win rate by seat", "Balance",
                  "Game length (decisions per game)",
                  "Ratings (Bradley-Terry, Elo scale, 95% bootstrap interval)"):
        assert title in headings
    # The game's own extras, each with its plot, and a note saying how to read it.
    extras = EXTRA_TABLES[game]
    assert headings[-len(extras):] == extras
    hook = game_analysis(game)
    for title in extras:
        heading = f"h2:text-is({title!r})"
        figure = page.locator(f"{heading} ~ figure").first
        assert figure.locator("figcaption").inner_text().startswith(title)
        note = hook.note(table_name(title))
        assert page.locator(f"{heading} + p.note").all_inner_texts() == ([note] if note else [])
    assert page.locator("p.note").count() >= len(extras) - 1  # "By players" has none
    images = page.locator("figure img")
    # agents, seats, lengths, rating ladder, and one per extra table of the game's hook
    assert images.count() == 4 + len(extras)
    for index in range(images.count()):
        image = images.nth(index)
        assert image.evaluate("img => img.complete && img.naturalWidth > 300")
        assert image.bounding_box()["height"] > 100  # laid out, visible
    captions = page.locator("figcaption").all_inner_texts()
    assert any(caption.startswith("Rating ladder") for caption in captions)
    assert any(caption.startswith("How long games last") for caption in captions)
    # Self-contained: nothing but the file itself is fetched.
    assert requests == [report.as_uri()]
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    page.close()


def table_name(title):
    """The tag or tally a table of extras is about, from its title."""
    for head in ("Win rate by ", "By "):
        if title.startswith(head):
            return title.removeprefix(head)
    return title[:1].lower() + title[1:]


def test_every_game_has_its_extras_listed():
    assert sorted(EXTRA_TABLES) == quarkade.list_games()

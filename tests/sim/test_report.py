"""The HTML report, opened in a real headless Chromium: every game's report shows its plots.

Parametrized over every registered game, so each game that lands is checked too (the
simulation issue asks for Decoherence's report in a browser).
"""

import pytest

import quarkade
from quarkade.agents import available_agents
from tests.sim.helpers import simulate


def agents_for(game):
    """random and one of the game's own bots (greedy where it has one)."""
    own = [name for name in available_agents(game) if name != "random"]
    return "random," + ("greedy" if "greedy" in own else own[0])


@pytest.mark.parametrize("game", quarkade.list_games())
def test_the_report_opens_in_chromium_and_shows_its_plots(game, tmp_path, browser):
    report = tmp_path / "report.html"
    simulate(game, "--agents", agents_for(game), "--games", 40, "--seed", 1, "--workers", 1,
             "--report", report)
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
    images = page.locator("figure img")
    # agents, seats, lengths, rating ladder, and one per extra table of the game's hook
    assert images.count() >= 4
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

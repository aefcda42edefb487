"""Plug-in bots: found through the ``quarkade.agents`` entry points of installed packages,
named like built-in bots, and refused with a reason when they cannot play."""

import sys

import pytest

from quarkade import load_game
from quarkade.agents import plugins
from quarkade.agents.contained import ContainedAgent
from quarkade.agents.registry import available_agents, make_agent, plugin_names, plugin_problems
from quarkade.core.agent import Turn
from quarkade.core.errors import AgentSpecError
from quarkade.sim import play_match
from tests.rogues import declare


def test_installed_plugins_join_the_agents_of_every_game_they_play(rogue_bots):
    assert {"steady", "lowest", "raiser"} <= set(available_agents("hadronize"))
    assert plugin_names("hadronize") == ["cheater", "dawdler", "hanger", "lowest", "raiser",
                                         "steady"]
    assert "catty" in plugin_names("dead-cat") and "catty" not in available_agents("hadronize")
    assert available_agents("hadronize")[-3:] == ["easy", "medium", "hard"]
    assert plugins.declared()["steady"].package == "rogues 0.1"


def test_a_plugin_is_made_from_its_spec_and_plays_under_containment(rogue_bots):
    agent = make_agent("steady:pick=last", "hadronize", move_time=2.5)
    assert isinstance(agent, ContainedAgent)
    assert agent.spec == "steady:pick=last" and agent.move_time == 2.5
    assert agent.inner.pick == "last"
    function_bot = make_agent("lowest", "card-commons")
    game = load_game("hadronize", players=2, max_turns=40)  # two fixed bots: cap the game
    final, record = play_match(game, [agent, function_bot], seed=3)
    assert final.is_terminal() and record.faults == []
    assert agent.inner.handed == {Turn}  # what every bot gets, nothing more
    assert [seat.agent for seat in record.seats] == ["steady:pick=last", "lowest"]


@pytest.mark.parametrize(("spec", "game", "fragments"), [
    ("steady:depth=3", "hadronize", ["no parameter 'depth'", "parameters: pick"]),
    ("steady:pick=middle", "hadronize", ["pick='middle'", "first or last"]),
    ("lowest:x=1", "hadronize", ["no parameter 'x'", "parameters: none"]),
    ("catty", "hadronize", ["plays only dead-cat"]),
    ("nobody", "hadronize", ["no agent 'nobody'", "steady"]),
])
def test_bad_plugin_specs_are_refused_with_what_is_allowed(rogue_bots, spec, game, fragments):
    with pytest.raises(AgentSpecError) as refused:
        make_agent(spec, game)
    for fragment in fragments:
        assert fragment in str(refused.value)


def test_only_the_allowed_plugins_are_offered_or_even_imported(tmp_path, monkeypatch):
    module = tmp_path / "site" / "quiet_bot.py"
    module.parent.mkdir()
    module.write_text("from tests.rogues import lowest as act\n")
    declare(tmp_path / "site", {"quiet": "quiet_bot:act", "loud": "tests.rogues:lowest"},
            package="two-bots")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    plugins.refresh()
    try:
        assert "quiet" not in available_agents("hadronize", plugins=())
        assert available_agents("hadronize", plugins=["loud"]).count("loud") == 1
        assert "quiet_bot" not in sys.modules  # never imported: not allowed
        with pytest.raises(AgentSpecError, match="installed but not allowed here"):
            make_agent("quiet", "hadronize", plugins=["loud"])
        assert "quiet_bot" not in sys.modules
        assert "quiet" in available_agents("hadronize")  # the terminal allows every one
    finally:
        sys.modules.pop("quiet_bot", None)
        plugins.refresh()


def test_unusable_plugins_are_left_out_and_each_problem_is_named(tmp_path, monkeypatch):
    site = tmp_path / "site"
    declare(site, {"gone": "no_such_module:Bot", "Bad Name": "tests.rogues:lowest",
                   "greedy": "tests.rogues:lowest", "nothing": "tests.rogues:ROGUES",
                   "lost": "tests.rogues:Steady.missing"}, package="broken")
    declare(site, {"gone": "tests.rogues:lowest"}, package="second", version="2.0")
    monkeypatch.syspath_prepend(str(site))
    plugins.refresh()
    try:
        names = available_agents("hadronize")
        assert not {"gone", "Bad Name", "nothing", "lost"} & set(names)
        assert names.count("greedy") == 1  # the built-in one
        problems = "\n".join(plugin_problems("hadronize"))
        for fragment in ["'gone' (no_such_module:Bot, from broken 0.1): cannot be loaded: "
                         "ModuleNotFoundError", "(tests.rogues:lowest, from second 2.0): the "
                         "name is taken", "'Bad Name'", "lower-case letters",
                         "'greedy' is a built-in name for hadronize", "names dict object",
                         "'lost'", "AttributeError"]:
            assert fragment in problems
        with pytest.raises(AgentSpecError, match="cannot be loaded: ModuleNotFoundError"):
            make_agent("gone", "hadronize")
    finally:
        plugins.refresh()


def test_a_plugin_whose_constructor_fails_is_refused_not_crashed(rogue_bots, monkeypatch):
    monkeypatch.setattr("tests.rogues.Steady.__init__",
                        lambda self, pick="first": 1 / 0)
    with pytest.raises(AgentSpecError, match="failed to start: ZeroDivisionError"):
        make_agent("steady", "hadronize")


def test_a_plugin_is_an_opponent_in_the_gymnasium_adapter_by_name(rogue_bots):
    from quarkade.adapters.gymnasium import QuarkadeEnv

    env = QuarkadeEnv("hadronize", opponent="steady", players=2, goal=3)
    _, info = env.reset(seed=1)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(info["action_mask"].nonzero()[0][0]))
    assert isinstance(env._agents[1], ContainedAgent) and env._agents[1].moves > 0

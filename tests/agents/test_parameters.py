"""Bots declare their parameters (``Agent.parameters``), and a spec is read through them."""

import inspect

import pytest

from quarkade import list_games
from quarkade.agents import make_agent
from quarkade.agents.registry import agent_parameters, builtin_agents
from quarkade.core.errors import AgentSpecError

BUILTIN = sorted({(name, agent) for game in list_games()
                  for name, agent in builtin_agents(game).items()},
                 key=lambda pair: (pair[0], pair[1].__module__))


@pytest.mark.parametrize(("name", "agent"), BUILTIN,
                         ids=[f"{agent.__module__}.{name}" for name, agent in BUILTIN])
def test_every_bot_declares_exactly_its_constructors_parameters(name, agent):
    """The declarations are the whole truth: each keyword argument of the constructor, in
    order, with the same default, and a line of help."""
    signature = inspect.signature(agent)
    assert [option.name for option in agent.parameters] == list(signature.parameters)
    for option in agent.parameters:
        assert option.default == signature.parameters[option.name].default, option.name
        assert option.help and option.kind in (int, float, str, bool)
        assert option.coerce(name, option.default, "parameter") == option.default
    assert (inspect.getdoc(agent) or "").strip(), f"{name} says in a line what it does"


def test_a_spec_is_converted_as_the_bot_declares():
    agent = make_agent("mcts:iterations=50,time=0.5,c=2,rollout=greedy", "hadronize")
    assert (agent.iterations, agent.time, agent.c, agent.rollout) == (50, 0.5, 2.0, "greedy")
    sleuth = make_agent("sleuth:depth=1,models=greedy+bayes", "dead-cat")
    assert sleuth.depth == 1 and sleuth.prior == (0.5, 0.5, 0.0)


@pytest.mark.parametrize(("spec", "game", "fragment"), [
    ("rollout:playouts=0", "hadronize", "playouts='0' is not allowed; it takes a whole "
                                        "number of at least 1"),
    ("rollout:margin=inf", "hadronize", "margin='inf' is not allowed; it takes a number of "
                                        "at least 0"),
    ("sleuth:depth=5", "dead-cat", "depth='5' is not allowed; it takes a whole number from "
                                   "1 to 4"),
    ("sleuth:models=greedy+smart", "dead-cat", "it takes one of greedy, bayes, random, "
                                               "greedy+bayes"),
    ("solver:cells=x", "card-commons", "cells='x' is not allowed"),
    ("greedy:depth=2", "hadronize", "agent 'greedy' has no parameter 'depth'; its "
                                    "parameters are: none"),
])
def test_a_value_a_bot_does_not_declare_is_refused_with_what_it_takes(spec, game, fragment):
    with pytest.raises(AgentSpecError, match=fragment.replace("+", r"\+")):
        make_agent(spec, game)


def test_the_parameters_of_a_bot_by_name():
    assert [o.name for o in agent_parameters("hadronize", "rollout")] == [
        "playouts", "time", "margin", "compiled"]
    assert agent_parameters("hadronize", "hard") == ()
    with pytest.raises(AgentSpecError, match="no built-in agent 'lookahead' for hadronize"):
        agent_parameters("hadronize", "lookahead")

"""Agents: generic bots and the registry of agent specs (``random``, ``greedy``, ...)."""

from quarkade.agents.registry import available_agents, make_agent, parse_spec
from quarkade.core.agent import Agent, RandomAgent, Turn, turn_for

__all__ = ["Agent", "RandomAgent", "Turn", "available_agents", "make_agent", "parse_spec",
           "turn_for"]

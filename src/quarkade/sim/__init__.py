"""Playing games between agents: single matches, and simulations of many games at once.

>>> from quarkade.sim import run_plan, simulation_plan, summary_of
>>> plan = simulation_plan("hadronize", {"players": 2, "goal": 10, "max_turns": 0},
...                        ["random", "greedy"], games=20, seed=1)
>>> outcome = run_plan(plan)  # add out="results.jsonl", workers=2, engine="auto", ...
>>> summary = summary_of(outcome.tally)  # the run's counts; keep_results=True keeps lines
>>> summary.games, sorted(summary.agents)
(20, ['greedy', 'random'])
"""

from quarkade.sim.match import MatchEvent, play_game, play_match
from quarkade.sim.plan import Plan, simulation_plan, tournament_plan
from quarkade.sim.ratings import rate
from quarkade.sim.runner import RunOutcome, run_plan
from quarkade.sim.stats import summarize, summary_of, wilson

__all__ = ["MatchEvent", "Plan", "RunOutcome", "play_game", "play_match", "rate", "run_plan",
           "simulation_plan", "summarize", "summary_of", "tournament_plan", "wilson"]

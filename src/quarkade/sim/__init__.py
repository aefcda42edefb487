"""Playing games between agents: single matches, and simulations of many games at once.

>>> from quarkade.sim import run_plan, simulation_plan, summary_of
>>> plan = simulation_plan("hadronize", {"players": 2, "goal": 10, "max_turns": 0},
...                        ["random", "greedy"], games=20, seed=1)
>>> outcome = run_plan(plan)  # add out="results.jsonl", workers=2, engine="auto", ...
>>> summary = summary_of(outcome.tally)  # the run's counts
>>> summary.games, sorted(summary.agents), len(outcome.results)
(20, ['greedy', 'random'], 20)

``run_plan(plan, keep_results=False)`` keeps only the counts (memory flat in the number
of games, as ``quarkade simulate`` runs).
"""

from quarkade.sim.match import MatchEvent, play_game, play_match
from quarkade.sim.plan import Plan, simulation_plan, tournament_plan
from quarkade.sim.ratings import rate
from quarkade.sim.runner import RunOutcome, run_plan
from quarkade.sim.stats import summarize, summary_of, wilson

__all__ = ["MatchEvent", "Plan", "RunOutcome", "play_game", "play_match", "rate", "run_plan",
           "simulation_plan", "summarize", "summary_of", "tournament_plan", "wilson"]

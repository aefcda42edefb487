"""Playing games between agents: single matches now; tournaments and statistics later."""

from quarkade.sim.match import MatchEvent, play_match

__all__ = ["MatchEvent", "play_match"]

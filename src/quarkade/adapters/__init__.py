"""Research adapters: every Quarkade game as a PettingZoo, OpenSpiel and Gymnasium
environment (the optional extra ``pip install quarkade[rl]``; see docs/RESEARCH.md).

- ``quarkade.adapters.pettingzoo``: ``env(game_name, **options)`` and ``raw_env``, AEC
  environments for any game and player count.
- ``quarkade.adapters.openspiel``: importing it registers ``quarkade_hadronize``,
  ``quarkade_card_commons``, ``quarkade_dead_cat`` and ``quarkade_decoherence`` with
  OpenSpiel as Python games.
- ``quarkade.adapters.gymnasium``: ``QuarkadeEnv``, one seat against bots, registered as
  ``quarkade/<game>-v0``.

All three drive the games through the protocol only. Observations are each game's fixed-size
encoding of a seat's view (``encode.py`` in the game's package, see ``encoding``).
"""

from quarkade.adapters.common import Encoding, Observations, encoding, render_text

__all__ = ["Encoding", "Observations", "encoding", "render_text"]

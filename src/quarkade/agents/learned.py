"""``learned``: a bot that plays a checkpoint of ``quarkade train`` (the self-play agent).

``learned:PATH`` (or ``learned:path=PATH``) plays the checkpoint in folder PATH;
``learned:name=NAME`` plays one the operator named in ``QUARKADE_LEARNED``
(``NAME=PATH`` pairs separated by ``;``), which is how the web app offers checkpoints
without letting a client name a file. ``simulations`` is the search it makes per move:
0 plays the network's policy alone (numpy: no JAX needed), more runs mctx's Gumbel
MuZero search over the JAX rules (the ``jax`` extra) from ``turn.sample_state``, as in
training; by default the checkpoint's own (``simulations`` in its ``agent.json``).
``considered`` is how many root moves that search weighs, the network's likeliest first
(the checkpoint's ``considered``; 128, nearly every legal move, for a checkpoint older
than that key). ``late`` is the search near the end of a Card Commons game, at most
four empty cells, where the search's lines reach the game's ends (by default the
search's ``PLAY_LATE``, 1,024, whatever the checkpoint; 0 searches as elsewhere).

The bot reads only its seat's turn: the observation is ``encode(turn.view)`` (the JAX
environment's observation is held equal to it), and the search starts from a state drawn
from the seat's knowledge.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quarkade.core.agent import Agent, Turn
from quarkade.core.options import Option
from quarkade.core.registry import game_part

if TYPE_CHECKING:
    import numpy as np

FORMAT = "quarkade-learned/1"
NAMED = "QUARKADE_LEARNED"
MAX_SIMULATIONS = 4096
WIDEST = 128  # the most root moves a bot's search weighs, and what a checkpoint that does
# not say (one older than ``considered``) weighed


def named_checkpoints() -> dict[str, str]:
    """The checkpoints the operator named in ``QUARKADE_LEARNED``: name -> folder."""
    found = {}
    for pair in os.environ.get(NAMED, "").split(";"):
        name, sep, path = pair.partition("=")
        if sep and name.strip() and path.strip():
            found[name.strip()] = path.strip()
    return found


def named_for(game: str) -> list[tuple[str, dict[str, Any]]]:
    """The named checkpoints that play ``game``, each with the options it was trained on
    (read from its agent.json alone; a folder that holds no readable one is left out)."""
    found = []
    for name, folder in sorted(named_checkpoints().items()):
        try:
            about = json.loads((Path(folder).expanduser() / "agent.json").read_text())
        except (OSError, ValueError):
            continue
        if isinstance(about, dict) and about.get("format") == FORMAT \
                and about.get("game") == game:
            found.append((name, dict(about.get("options", {}))))
    return found


def untrained(trained: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The options a checkpoint was ``trained`` with that a game's ``options`` differ from
    (a checkpoint plays only games without any)."""
    return {key: value for key, value in trained.items() if options.get(key) != value}


def option_words(options: dict[str, Any]) -> str:
    """Options as players read them: "variant tutorial and torus off"."""
    return " and ".join(f"{key.replace('_', ' ')} "
                        f"{('on' if value else 'off') if isinstance(value, bool) else value}"
                        for key, value in options.items())


def _named(name: str) -> str:
    """``name`` if the operator named a checkpoint so (or "", none), else ``ValueError``
    naming those."""
    folders = named_checkpoints()
    if name.strip() and name.strip() not in folders:
        named = ", ".join(sorted(folders)) or "none"
        raise ValueError(f"no checkpoint is named {name.strip()!r} here; named: {named}")
    return name.strip()


def read_checkpoint(folder: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(what the checkpoint says about itself, its parameters); ``ValueError`` says why a
    folder is not one."""
    import numpy as np

    if not folder.is_dir():
        raise ValueError(f"there is no folder {str(folder)!r}: give the folder that "
                         "quarkade train wrote (--out)")
    for name in ("agent.json", "params.npz"):
        if not (folder / name).is_file():
            raise ValueError(f"{str(folder)!r} holds no checkpoint of quarkade train: it has "
                             f"no {name} (a checkpoint folder has agent.json and params.npz)")
    try:
        about = json.loads((folder / "agent.json").read_text())
    except (OSError, ValueError):
        raise ValueError(f"{str(folder)!r} holds no checkpoint of quarkade train: its "
                         "agent.json cannot be read as JSON") from None
    try:
        with np.load(folder / "params.npz") as data:
            params = {key: data[key].astype(np.float32) for key in data.files}
    except (OSError, ValueError):
        raise ValueError(f"{str(folder)!r} holds no checkpoint of quarkade train: its "
                         "params.npz cannot be read as saved arrays") from None
    if not isinstance(about, dict) or about.get("format") != FORMAT:
        raise ValueError(f"{str(folder)!r} holds no checkpoint of quarkade train ({FORMAT})")
    return about, params


class LearnedAgent(Agent):
    """Plays a network trained by self-play (quarkade train), alone or leading a search."""

    spec = "learned"
    about = ("Plays with a network that taught itself the game in games against itself, "
             "alone or guiding a search.")
    parameters = (
        Option("path", "", "the folder of a checkpoint of quarkade train (learned:PATH)",
               str, local_only=True),
        Option("name", "", "a checkpoint this site's operator named", str, check=_named),
        Option("simulations", -1, "searches a move makes: 0 plays the network alone; -1 "
               "the number it was trained with", int, minimum=-1, maximum=MAX_SIMULATIONS,
               server_maximum=256),
        Option("symmetric", -1, "average the network over the moves of the field that keep "
               "the rules (Card Commons): 1 yes, 0 no, -1 as the checkpoint says", int,
               minimum=-1, maximum=1, local_only=True),
        Option("considered", -1, "moves the search weighs at the root, those the network "
               "likes best first; -1 as the checkpoint says", int, minimum=-1,
               maximum=WIDEST, local_only=True),
        Option("late", -1, "searches a move makes near the end of a Card Commons game (at "
               "most 4 empty cells); 0 as many as elsewhere; -1 the default, 1024",
               int, minimum=-1, maximum=MAX_SIMULATIONS, local_only=True),
    )

    def __init__(self, path: str = "", name: str = "", simulations: int = -1,
                 symmetric: int = -1, considered: int = -1, late: int = -1) -> None:
        if bool(path) == bool(name):
            named = ", ".join(sorted(named_checkpoints())) or "none is named"
            raise ValueError("learned takes a checkpoint folder (learned:PATH) or the name "
                             f"of one the operator named (learned:name=NAME; named: {named})")
        if name:
            path = named_checkpoints()[_named(name)]
        self.folder = Path(str(path)).expanduser()
        try:
            self.checkpoint, self.params = read_checkpoint(self.folder)
        except ImportError as missing:
            raise ValueError(f"the learned bot needs the jax extra ({missing.name} is "
                             "missing): pip install 'quarkade[jax]'") from None
        chosen = int(self.checkpoint.get("simulations", 0)) if simulations == -1 else simulations
        if not 0 <= chosen <= MAX_SIMULATIONS:  # a checkpoint's own, or a direct caller
            raise ValueError(f"simulations is 0 (the policy alone) to {MAX_SIMULATIONS}, "
                             f"not {simulations}")
        self.simulations = chosen
        self.symmetric = (bool(self.checkpoint.get("symmetric", False)) if symmetric == -1
                          else bool(symmetric))
        self.considered = (int(self.checkpoint.get("considered", WIDEST)) if considered == -1
                           else considered)
        if not 1 <= self.considered <= WIDEST:
            raise ValueError(f"considered is 1 to {WIDEST} root moves, not {self.considered}")
        if not -1 <= late <= MAX_SIMULATIONS:  # a direct caller; a spec is checked before
            raise ValueError(f"late is 0 to {MAX_SIMULATIONS} simulations, or -1 for the "
                             f"default, not {late}")
        self.late = late  # -1: the search's default (``quarkade.jax.search.PLAY_LATE``)
        self.game_name = str(self.checkpoint["game"])
        self._encode = game_part(self.game_name, "encode").encode

    def plays(self, game: Any) -> str | None:
        """Why this checkpoint cannot play ``game`` (a reference Game), or None."""
        mine = self.checkpoint.get("options", {})
        if game.name != self.game_name or untrained(mine, game.options):
            shown = ", ".join(f"{k}={v}" for k, v in mine.items())
            return (f"the checkpoint in {str(self.folder)!r} plays {self.game_name} "
                    f"({shown}), not this game")
        return None

    def act(self, turn: Turn, rng: random.Random) -> int:
        problem = self.plays(turn.game)
        if problem:
            raise ValueError(problem)
        if self.simulations == 0 or len(turn.legal_actions) == 1:
            return self.policy_action(turn)
        return self.search(turn.game).choose(turn.sample_state(rng), self.simulations,
                                             rng.getrandbits(31), turn.legal_actions)

    def search(self, game: Any) -> Any:
        """The searcher for ``game`` (``quarkade.jax.search.Searcher``), set to search as
        this bot does: its symmetry, how many root moves it weighs and how long it
        searches near the end."""
        from quarkade.jax.search import PLAY_LATE

        found = searcher(self.folder, game, self.params)
        found.symmetric, found.considered = self.symmetric, self.considered
        found.late = PLAY_LATE if self.late == -1 else self.late
        return found

    def policy_action(self, turn: Turn) -> int:
        """The network's most likely legal action, from the seat's view alone."""
        import numpy as np

        logits, _ = self.guess(turn.view, turn.game.options)
        legal = turn.legal_actions
        return legal[int(np.argmax(logits[legal]))]

    def guess(self, view: dict[str, Any], options: dict[str, Any]) -> tuple[np.ndarray, float]:
        """The network's log-probabilities of every action and its value for the seat whose
        ``view`` it is (averaged over the rules' symmetries when the bot averages)."""
        import numpy as np

        from quarkade.jax.network import numpy_forward

        observation = np.asarray(self._encode(view), np.float32)
        maps: list[Any] = [None]
        if self.symmetric and self.game_name == "card-commons":
            from quarkade.games.card_commons import symmetry

            maps = list(symmetry.symmetries(options))
        total = np.zeros(len(self.params["policy_b"]), np.float32)
        values = 0.0
        for cells in maps:  # the position seen through each map, its moves brought back
            seen = observation if cells is None else symmetry.map_observation(observation,
                                                                              cells)
            if len(self.params["in_w"]) > len(seen):  # it reads the game's features too
                seen = features_of(self.game_name).extend(seen)
            logits, value = numpy_forward(self.params, seen)
            logits = logits - logits.max()
            logits = logits - np.log(np.exp(logits).sum())
            total += logits if cells is None else logits[symmetry.action_map(cells)]
            values += value
        return total / len(maps), values / len(maps)


def features_of(game_name: str) -> Any:
    """The module of the features a network reads besides the observation
    (``quarkade.jax.alphazero.Config.features``): Card Commons' alone has them."""
    if game_name != "card-commons":
        raise ValueError(f"the checkpoint reads features {game_name} does not have")
    from quarkade.games.card_commons import features

    return features


_SEARCHERS: dict[tuple[str, str], Any] = {}


def searcher(folder: Path, game: Any, params: dict[str, np.ndarray]) -> Any:
    """The process's searcher for a checkpoint and game (compiled once: the simulator
    hands every game a fresh copy of the bot)."""
    key = (str(folder.resolve()), repr(sorted(game.options.items())))
    if key not in _SEARCHERS:
        from quarkade.jax.search import Searcher

        _SEARCHERS[key] = Searcher(game, params)
    return _SEARCHERS[key]


__all__ = ["LearnedAgent", "named_checkpoints", "named_for", "option_words", "read_checkpoint",
           "untrained"]

"""Every field of a Decoherence state but its history, to compare two states exactly."""

from quarkade.games.decoherence.rules import DecoherenceState

FIELDS = tuple(name for name in DecoherenceState.__slots__ if name not in ("_history", "game"))


def internals(state: DecoherenceState) -> tuple:
    return tuple((name, getattr(state, name)) for name in FIELDS)

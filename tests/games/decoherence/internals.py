"""Every field of a Decoherence state but its history, to compare two states exactly."""

from quarkade.games.decoherence.rules import DecoherenceState

FIELDS = tuple(name for name in DecoherenceState.__slots__ if name not in ("_history", "game"))


def _knowledge(cache: dict | None) -> object:
    """The resample cache by what it holds (it is an object per viewer): it must be as
    free of hidden cards as the rest."""
    if cache is None:
        return None
    return {viewer: (p.base, p.proofs, p.variables, p.slot_ids,
                     [(s.seat, s.seen, s.slots, s.known, s.hands, s.hand_odds)
                      for s in p.seats])
            for viewer, p in cache.items()}


def internals(state: DecoherenceState) -> tuple:
    return tuple((name, _knowledge(state._prepared) if name == "_prepared"
                  else getattr(state, name)) for name in FIELDS)

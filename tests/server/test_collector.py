"""A server process's collector: what a full collection leaves is frozen, so the next one
walks only what came since; once a period (an injected clock) it is all thawed, and cycles
among the old objects are collected then."""

import gc

from quarkade.server.collector import Collector


class Node:
    def __init__(self):
        self.me = self  # a cycle: only the collector frees it


def test_survivors_are_frozen_and_thawed_once_a_period():
    now = [0.0]
    collector = Collector(thaw_seconds=600.0, clock=lambda: now[0])
    gc.callbacks.append(collector)
    try:
        gc.unfreeze()
        old = Node()
        gc.collect()  # a full collection: everything left is frozen
        assert gc.get_freeze_count() > 0
        del old  # garbage now, but frozen: a full collection does not walk it
        assert gc.collect() == 0
        young = Node()
        del young
        assert gc.collect() >= 1  # what came since the freeze is walked
        now[0] = 601.0
        gc.collect()  # past the period: thawed after it ...
        assert gc.get_freeze_count() == 0
        assert gc.collect() >= 1  # ... so the next full collection frees the old cycle
        assert gc.get_freeze_count() > 0  # and freezes again
    finally:
        gc.callbacks.remove(collector)
        gc.unfreeze()

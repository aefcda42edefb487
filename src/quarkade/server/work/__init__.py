"""The server's CPU work off the event loop: the worker processes that run jobs (``pool``)
and the scheduler that shares them fairly between clients (``scheduler``). Each domain
says what its jobs compute: ``play.botmove``, ``learn.searches``, ``decks.plays``."""

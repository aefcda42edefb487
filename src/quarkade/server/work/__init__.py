"""The server's CPU work off the event loop: jobs (``jobs``), the worker processes that run
them (``pool``) and the scheduler that shares them fairly between clients (``scheduler``)."""

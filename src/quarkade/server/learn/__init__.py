"""Learning on the web: hints during a game against bots (``hints``) and reviews of
finished games (``reviews``), both computed in the worker processes; the routes and the
tutorials' pages are ``quarkade.server.web.learning``."""

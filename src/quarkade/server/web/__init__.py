"""The web face of the server: the routes (``pages``, ``api``, ``sockets``, ``decks``,
``learning``, ``ladder``), thin over the domains; what they share (``asking``, ``site``);
and the pages' templates (``rendering``, ``templates/``)."""

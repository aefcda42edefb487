"""Play: a game in play (``session``), what each seat sees (``views``, ``logbook``), its
pages (``audience``) and bots (``bots``), the games this process holds (``hub``), the way
into a game (``seating``, ``seats``), chat, clocks and the endings the server decides."""

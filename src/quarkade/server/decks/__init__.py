"""Decks: the games that have a deck builder (``games``), saved decks (``saved``) and
"test this deck" (``testing``, its games in ``plays``)."""

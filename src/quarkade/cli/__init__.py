"""The ``quarkade`` command."""

"""``python -m quarkade``: the ``quarkade`` command (for an environment without its script)."""

from quarkade.cli.main import main

main()

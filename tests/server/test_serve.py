"""`quarkade serve` starts the app and prints the URL to open; a busy port is one clear line."""

import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

from typer.testing import CliRunner

from quarkade.cli.main import app
from quarkade.server.run import bind
from quarkade.server.storage import migrate

QUARKADE = [sys.executable, "-c", "from quarkade.cli.main import main; main()"]


def test_serve_prints_the_url_and_answers_it(tmp_path):
    process = subprocess.Popen([*QUARKADE, "serve", "--port", "0"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = process.stdout.readline()
        url = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", line)
        assert url, line + process.stderr.read()
        # The socket is bound before the URL is printed, so the request waits in its
        # queue until the app answers: no polling needed.
        with urllib.request.urlopen(url.group(1), timeout=60) as page:
            assert page.status == 200 and b"Hadronize" in page.read()
        assert (Path(tmp_path) / "quarkade.db").is_file()  # SQLite in the working directory
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_a_busy_port_is_one_clear_line():
    busy = bind("127.0.0.1", 0)
    try:
        port = busy.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port)])
    finally:
        busy.close()
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}")
    assert "Traceback" not in result.output


def test_a_database_that_cannot_be_opened_is_one_clear_line(tmp_path):
    for given, shown, fragment in (
            (f"{tmp_path}/no/such/dir/q.db", f"sqlite:///{tmp_path}/no/such/dir/q.db",
             "unable to open"),
            ("nonsense://x", "nonsense://x", "Can't load plugin")):
        result = CliRunner().invoke(app, ["serve", "--port", "0", "--db", given])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"error: cannot open the database {shown}: ")
        assert fragment in result.stderr and "Traceback" not in result.output


def test_db_takes_a_plain_path_and_never_prints_a_password(tmp_path):
    """Defect 8: `--db game.db` is a SQLite file; a URL's password is never printed."""
    result = CliRunner().invoke(app, ["migrate", "--db", str(tmp_path / "game.db")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "game.db").is_file() and f"-> {migrate.head()}" in result.output
    for url in ("postgresql+nosuchdriver://quark:hunter2@127.0.0.1/q",
                "postgresql+psycopg://quark:hunter2@127.0.0.1:1/q"):
        for command in (["serve", "--port", "0", "--db", url], ["migrate", "--db", url]):
            result = CliRunner().invoke(app, command)
            assert result.exit_code == 2, result.output
            assert "hunter2" not in result.output, result.output
            assert "quark:***@127.0.0.1" in result.output, result.output


def test_workers_need_a_broker():
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--workers", "2"])
    assert result.exit_code == 2 and "needs --broker" in result.stderr

"""From nothing to a running plug-in bot: `quarkade new-bot` writes a package, pip installs
it from its folder (no network) into a throwaway environment, and the bot plays by name in
`quarkade agents`, `play`, `simulate`, its own test, and the web app with `--allow-bots`.

The environment: a venv made for this test (``--without-pip``) that sees the project's own
environment through a ``.pth`` file (``site.addsitedir``), so pip, setuptools (the build
backend, installed by the dev extra) and quarkade come from there, and the bot is installed
into the venv alone: nothing is left in the project's environment, and other tests never
see the bot. The venv is deleted with the test's temporary folder.
"""

import json
import os
import re
import subprocess
import sys
import sysconfig
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from quarkade.cli.main import app


def run(python, *args, cwd, env=None, check=True):
    result = subprocess.run([str(python), *args], cwd=cwd, capture_output=True, text=True,
                            timeout=300, env=env)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A throwaway environment with a bot made by `quarkade new-bot` pip-installed into it."""
    root = tmp_path_factory.mktemp("new-bot")
    made = CliRunner().invoke(app, ["new-bot", "tiny-bot", "--path", str(root)])
    assert made.exit_code == 0, made.output
    assert "pip install -e" in made.output
    env_dir = root / "env"
    run(sys.executable, "-m", "venv", "--without-pip", str(env_dir), cwd=root)
    python = env_dir / "bin" / "python"
    own = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
              cwd=root).stdout.strip()
    parent = sysconfig.get_paths()["purelib"]
    Path(own, "project-environment.pth").write_text(f"import site; site.addsitedir({parent!r})\n")
    run(python, "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-deps",
        "--disable-pip-version-check", "-q", str(root / "tiny-bot"), cwd=root)
    assert (Path(own) / "tiny_bot" / "bot.py").is_file()  # in the throwaway environment only
    return root, python


def test_the_installed_bot_is_listed_and_plays_a_terminal_game(installed):
    root, python = installed
    listed = run(python, "-m", "quarkade", "agents", "hadronize", cwd=root).stdout
    assert "tiny-bot  (plug-in from tiny-bot 0.1.0)" in listed.splitlines()
    played = run(python, "-m", "quarkade", "play", "hadronize", "--seat", "0=tiny-bot",
                 "--seat", "1=random", "--seed", "5", "--record", "game.json", cwd=root).stdout
    assert "  Tiny-bot: " in played and "Game over: " in played and "returns" not in played
    assert "flagged" not in played and "stopped" not in played
    record = json.loads((root / "game.json").read_text())
    assert record["seats"][0]["agent"] == "tiny-bot" and "faults" not in record
    # The project's own environment never saw it.
    assert "tiny-bot" not in CliRunner().invoke(app, ["agents", "hadronize"]).output


def test_the_installed_bot_is_simulated_and_its_own_test_passes(installed):
    root, python = installed
    out = root / "runs.jsonl"
    simulated = run(python, "-m", "quarkade", "simulate", "dead-cat", "--agents",
                    "tiny-bot,greedy", "--games", "6", "--seed", "1", "--workers", "1",
                    "--out", str(out), cwd=root)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 6 and {spec for r in lines for spec in r["seats"]} == {"tiny-bot",
                                                                                "greedy"}
    assert not any("faults" in line for line in lines)
    assert "tiny-bot" in simulated.stdout
    tested = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests",
                 cwd=root / "tiny-bot")
    assert re.search(r"\b4 passed\b", tested.stdout), tested.stdout  # one per game


def test_the_web_app_plays_the_bot_only_when_allowed(installed, rogue_bots):
    root, python = installed
    env = {**os.environ, "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join([str(rogue_bots), str(Path(__file__).parents[2])])}
    server = subprocess.Popen([str(python), "-m", "quarkade", "serve", "--port", "0",
                               "--bot-delay", "0", "--allow-bots", "tiny-bot",
                               "--db", f"sqlite:///{root / 'web.db'}"],
                              cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        line = server.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/)", line)
        assert found, line + server.stderr.read()
        url = found.group(1)
        catalogue = get_json(url + "api/games")
        kinds = next(g for g in catalogue["games"] if g["name"] == "hadronize")["seat_kinds"]
        assert "bot:tiny-bot" in kinds and "bot:steady" not in kinds  # installed, not allowed
        refused = post_json(url + "api/games", {"game": "hadronize",
                                                "seats": ["bot:steady", "bot:random"]})
        assert refused[0] == 400 and "installed but not allowed here" in refused[1]["error"]
        status, created = post_json(url + "api/games", {"game": "hadronize",
                                                        "seats": ["bot:tiny-bot", "bot:greedy"]})
        assert status == 201, created
        socket_url = url.replace("http", "ws") + f"ws/games/{created['id']}?seat=spectator"
        with connect(socket_url, open_timeout=60) as page:
            while True:
                message = json.loads(page.recv(timeout=120))
                if message["type"] == "state" and message["over"]:
                    break
        assert message["seats"][0]["agent"] == "tiny-bot" and message["flagged"] == []
        assert any(entry["player"] == 0 for entry in message["log"])  # the bot moved
        assert sorted(message["returns"]) == [-1.0, 1.0]
    finally:
        server.terminate()
        server.wait(timeout=30)


def get_json(url):
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())


def post_json(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())

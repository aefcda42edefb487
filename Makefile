# Quarkade: `make play` to play in a browser, `make test` to run the tests. Works on a fresh
# Debian machine with Python 3.11+ (as root, missing system packages are installed).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check -q
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: play play-terminal test bench lint screenshots chromium services clean reference-stats

# The web app on http://127.0.0.1:8000/ (it prints the URL); games are kept in quarkade.db.
play: $(RUN_STAMP)
	$(BIN)/quarkade serve

play-terminal: $(RUN_STAMP)
	$(BIN)/quarkade play hadronize --players 3

# Browser tests share one worker (--dist loadgroup), so the run holds one Chromium. The
# server tests start their own PostgreSQL and redis-server (tests/server/services.py). The
# compiled engines are compiled first, once (about a minute on a fresh clone; kept on disk),
# rather than by each test worker at once. The JAX tests (tests/jaxenv) run in workers of
# their own: JAX starts threads, and a worker that forks after it (the simulator's pools)
# could deadlock; tests that share a compiled function share a worker (their conftest).
test: $(DEV_STAMP) chromium services
	$(BIN)/quarkade compile
	$(BIN)/python -m pytest -n auto --dist loadgroup -q --ignore=tests/jaxenv
	$(BIN)/python -m pytest -n auto --dist loadgroup -q tests/jaxenv

bench: $(DEV_STAMP)
	$(BIN)/quarkade compile
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_search.py
	$(BIN)/python bench/bench_sim.py
	$(BIN)/python bench/bench_adapters.py
	$(BIN)/python bench/decoherence_resample.py
	$(BIN)/python bench/bench_server.py
	$(BIN)/python bench/server_cpu.py
	$(BIN)/python bench/bench_review.py
	$(BIN)/python bench/bench_hints.py
	$(BIN)/python bench/bench_compiled.py
	$(BIN)/python bench/card_commons_solve.py greedy --positions 20 --empty 12
	$(BIN)/python bench/bench_decoherence.py
	$(BIN)/python bench/bench_jax.py
	$(BIN)/python bench/bench_jax_search.py

# The reference engines' side of the distribution tests (tests/sim/reference_stats.json):
# hours of CPU from scratch; --stale replays each configuration's first stored games and
# plays again only those the reference engine no longer plays the same way.
reference-stats: $(DEV_STAMP)
	$(BIN)/python -m tests.sim.distribution --write --stale

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

# docs/screenshots/*.png, taken with the same headless Chromium as the browser tests. The
# compiled engines are compiled first (as for make test): the hint panel's search and the
# bots run on them, and a worker that had to compile them would miss the hint's deadline.
screenshots: $(DEV_STAMP) chromium
	$(BIN)/quarkade compile
	$(BIN)/python -m tests.server.browser.screenshots

# Debian's Chromium, for the browser tests (Playwright drives it; it never downloads one).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -q && apt-get install -y -q chromium; \
		else echo "the browser tests need Debian's chromium: sudo apt-get install -y chromium" >&2; \
			exit 1; fi; }

# Debian's PostgreSQL and Redis servers: the server tests start private ones on free ports.
# Debian's nginx and openssl: the deployment test (tests/server/test_deployment.py) starts a
# private nginx with a self-signed certificate in front of two server processes.
services:
	@{ ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v redis-server \
		>/dev/null 2>&1 && { command -v nginx || test -x /usr/sbin/nginx; } >/dev/null 2>&1 \
		&& command -v openssl >/dev/null 2>&1; } || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -q && \
			apt-get install -y -q postgresql redis-server nginx openssl; \
		else echo "the server tests need PostgreSQL, Redis and nginx: sudo apt-get install \
			-y postgresql redis-server nginx openssl" >&2; exit 1; fi; }

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Quarkade needs Python 3.11+"'
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || \
		(apt-get update -q && apt-get install -y -q python3-venv)
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[web,solve]'
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[dev,web,postgres,redis,sim,ray,rl,solve,jax]'
	touch $@ $(RUN_STAMP)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build src/*.egg-info \
		test-artifacts

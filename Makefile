# Quarkade: `make play` to play, `make test` to run the tests. Works on a fresh Debian
# machine with Python 3.11+ (as root, missing system packages are installed).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check -q
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: play test bench lint clean chromium

play: $(RUN_STAMP)
	$(BIN)/quarkade play hadronize --players 3

test: $(DEV_STAMP) chromium
	$(BIN)/python -m pytest -n auto -q

bench: $(DEV_STAMP)
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_sim.py

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Quarkade needs Python 3.11+"'
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || \
		(apt-get update -q && apt-get install -y -q python3-venv)
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) install -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[dev,sim,ray]'
	touch $@ $(RUN_STAMP)

# Headless Chromium for the browser tests: Debian's package (Playwright's own browser
# downloads are never used). Does nothing when chromium is already installed.
chromium:
	@command -v chromium >/dev/null 2>&1 || \
		(apt-get update -q && apt-get install -y -q chromium)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build src/*.egg-info

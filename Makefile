# Two commands do all the set-up on a fresh machine:
#   make demo   — the main job on the embedded default
#   make test   — the test suite (what CI runs)
#   make test-fast — the inner loop: every test not marked slow, stopping at the first failure
# Both spread the tests over one process per core (pytest-xdist), a test file to a process.
VENV ?= .venv
PY := $(VENV)/bin/python
STATEBOX := $(VENV)/bin/statebox

.PHONY: demo test test-fast lint setup browser sandbox

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev,openenv,parquet,inspect,ray]"
	touch $@

setup: $(VENV)/.installed

demo: setup
	$(STATEBOX) demo

# The HTML report's browser test needs Debian's Chromium (no browser downloads).
browser:
	@test -x /usr/bin/chromium || (apt-get update -qq && apt-get install -y -qq chromium fonts-liberation >/dev/null)

# Custom checks of ThinkingBox-Bench run inside Debian's bubblewrap (their escape tests need it).
sandbox:
	@test -x /usr/bin/bwrap || (apt-get update -qq && apt-get install -y -qq bubblewrap >/dev/null)

test: setup browser sandbox
	$(VENV)/bin/ruff check --no-cache src tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -p no:cacheprovider -n auto --dist loadfile

test-fast: setup
	$(VENV)/bin/pytest -p no:cacheprovider -n auto --dist loadfile -m "not slow" -x

lint: setup
	$(VENV)/bin/ruff check --no-cache src tests benchmarks
	$(VENV)/bin/mypy

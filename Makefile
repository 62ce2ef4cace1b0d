# Two commands do all the set-up on a fresh machine:
#   make demo   — the main job on the embedded default
#   make test   — the test suite (what CI runs)
#   make test-fast — the inner loop: every test not marked slow, stopping at the first failure
# Both spread the tests over one process per core (pytest-xdist), a test file to a process.
VENV ?= .venv
PY := $(VENV)/bin/python
STATEBOX := $(VENV)/bin/statebox

.PHONY: demo test test-fast lint setup browser sandbox sanitize

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# torch pinned to the CPU build this kind of machine keeps on disk (a bare `torch` would fetch a CUDA build)
	$(PY) -m pip install -q -e ".[dev,openenv,parquet,inspect,ray,train]" "torch==2.13.0"
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
	$(VENV)/bin/ruff check --no-cache src tests benchmarks examples
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -p no:cacheprovider -n auto --dist loadfile

test-fast: setup
	$(VENV)/bin/pytest -p no:cacheprovider -n auto --dist loadfile -m "not slow" -x

lint: setup
	$(VENV)/bin/ruff check --no-cache src tests benchmarks examples
	$(VENV)/bin/mypy

# The world tests with the copy-on-write VFS built under AddressSanitizer and UndefinedBehaviorSanitizer
# (leaks checked at exit): a shadow of the package in build/sanitize, links to the sources but for the
# sanitized extension, comes first on PYTHONPATH. Python allocates with malloc so ASan sees it all.
SAN_DIR := build/sanitize
SAN_RT = $(shell gcc -print-file-name=libasan.so) $(shell gcc -print-file-name=libubsan.so)
sanitize: setup
	rm -rf $(SAN_DIR) && mkdir -p $(SAN_DIR) && cp -rs $(CURDIR)/src/statebox $(SAN_DIR)/statebox
	find $(SAN_DIR) \( -name __pycache__ -o -name '_cowvfs*.so' \) -prune -exec rm -rf {} +
	gcc -shared -fPIC -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fvisibility=hidden -Wall -Wextra -Werror -I"$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
		src/statebox/world/_cowvfs.c -ldl \
		-o $(SAN_DIR)/statebox/world/_cowvfs$$($(PY) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
	LD_PRELOAD="$(SAN_RT)" ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/world/sanitize.supp:print_suppressions=0 \
		UBSAN_OPTIONS=print_stacktrace=1 PYTHONMALLOC=malloc PYTHONPATH=$(SAN_DIR) $(PY) -c \
		'from statebox.world import _cowvfs, cow; assert "/$(SAN_DIR)/" in _cowvfs.__file__ and cow.available(), cow.status()'
	LD_PRELOAD="$(SAN_RT)" ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/world/sanitize.supp:print_suppressions=0 \
		UBSAN_OPTIONS=print_stacktrace=1 PYTHONMALLOC=malloc PYTHONPATH=$(SAN_DIR) \
		$(VENV)/bin/pytest -p no:cacheprovider --capture=sys tests/world

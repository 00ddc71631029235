# Tablée: two set-up commands (see README.md).
#   make serve   installs what is missing, vendors the runtime, serves http://localhost:$(PORT)/
#   make test    installs the test tools in .venv, finds Chromium, runs tests/ and e2e/
#                (one pytest call over every core: JOBS=1 runs it in one process)
#   make test-fast   the same, but only the unit tests not marked `slow` and one journey per
#                engine (marked `journey`): a loop of under 3 minutes while changing code
PORT ?= 8000
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
PYTEST_ARGS ?=
# pytest-xdist workers for `make test`: one more than the cores (each browser-test worker has its
# own Chromium; a browser test waits on its pages and timers for part of its time, when another
# worker's test can use the core). JOBS=1 runs everything in one process.
JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
XDIST = $(if $(filter 1,$(JOBS)),-p no:xdist,-n $(JOBS) --dist worksteal)
BENCH_ARGS ?=
# ESLint (eslint.config.mjs) on the project's own JavaScript: the app, the service worker, the
# Node scripts of the tests and tools. npm ci (tools/vendor.py, or the rule below) installs it
# with the other devDependencies pinned in package-lock.json.
ESLINT_PATHS := static/js sw.js tests tools e2e eslint.config.mjs

.PHONY: serve test test-fast setup system-deps browser unit e2e lint bench clean durations

serve: setup
	$(PYTHON) tools/serve.py --port $(PORT)

setup: system-deps
	$(PYTHON) tools/vendor.py

system-deps:
	@bash tools/system-deps.sh

$(VENV)/.installed: requirements-test.txt requirements-runtime.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -r requirements-test.txt
	touch $@

browser: $(VENV)/.installed
	@bash tools/browser.sh $(VPY)

test: setup $(VENV)/.installed browser lint
	$(VPY) -m pytest $(XDIST) tests e2e $(PYTEST_ARGS)

test-fast: setup $(VENV)/.installed browser lint
	$(VPY) -m pytest $(XDIST) -m "journey or not (slow or browser)" tests e2e $(PYTEST_ARGS)

unit: $(VENV)/.installed
	$(VPY) -m pytest $(XDIST) tests $(PYTEST_ARGS)

e2e: setup $(VENV)/.installed browser
	$(VPY) -m pytest $(XDIST) e2e $(PYTEST_ARGS)

# After a whole `make test`: e2e/durations.json, the longest-first order a fresh clone (CI) starts
# from, written again from the durations that run measured (tools/durations.py).
durations:
	$(VPY) tools/durations.py

lint: $(VENV)/.installed node_modules/.package-lock.json
	$(VPY) -m ruff check py tests e2e tools conftest.py
	$(VPY) -m mypy
	node_modules/.bin/eslint $(ESLINT_PATHS)

# npm writes node_modules/.package-lock.json at each install: newer than the lock file when
# node_modules holds what the lock file pins (tools/vendor.py reads the same stamp).
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts

# make bench BENCH_ARGS="--readme"  also rewrites README.md's Performance figures (Chromium);
# tools/bench_engines.py then gives engine ready cold and warm in Firefox and WebKitGTK.
bench: setup $(VENV)/.installed browser
	$(VPY) tools/bench.py $(BENCH_ARGS)
	$(VPY) tools/bench_engines.py

clean:
	rm -rf static/vendor node_modules $(VENV) .pytest_cache .hypothesis

# Two commands on a fresh machine: `make demo` (the main job) and `make test`.
# Each installs what it needs on first use: the Debian packages (tools/system-deps.sh:
# Python's venv module, and for the tests Chromium and its driver), then the virtual
# environment .venv from the lock file, whose hashes pin every package.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements-dev.lock

.PHONY: demo test test-slow test-browser browser-deps system-deps screenshots lock explore \
	bench clean

system-deps:
	@PYTHON=$(PYTHON) tools/system-deps.sh

$(STAMP): pyproject.toml $(LOCK) | system-deps
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Refresh the lock after changing pyproject.toml's dependencies (pip-tools, in a
# throwaway environment so that it does not land in the project's).
lock:
	$(PYTHON) -m venv /tmp/robinwood-lock
	/tmp/robinwood-lock/bin/python -m pip install --quiet pip-tools
	/tmp/robinwood-lock/bin/pip-compile --quiet --extra dev --generate-hashes --strip-extras \
		--allow-unsafe --no-emit-index-url --no-emit-find-links --no-emit-trusted-host \
		--upgrade -o $(LOCK) pyproject.toml

# The main job: solve the default variant and write its report. The exact solve of a
# reduced deck (rspx, turn cap 6) gets the full report; then a short Monte Carlo CFR run
# on the printed 12-card game is measured against every bot, league, held-out player, the
# sound default alone and the local best response (robinwood exploit), and gets its own
# (sampled) report, which opens with those measurements. Play-time search (robinwood
# search, docs/search.md) is no longer part of it: its rollouts play the strategy, now the
# sound default at every claim and response, whose belief costs about 4x the old
# fallback's time a decision, and 200 rounds against 12 opponents did not fit the demo. Reports land in reports/<run name>/ (index.html, report.md, PNGs, CSVs).
# Every step stops on iterations, never on time, and every random draw is seeded, so a
# fresh clone reproduces the committed reports' numbers (only the timings differ): the
# exact solve measures exploitability every 5 iterations and stops at the first
# measurement under 1e-3; Monte Carlo CFR runs 9,600 traversals per seat (about 3
# minutes on 2 cores). Most of the time is `exploit`'s local best response, whose self-play
# and rollouts play the sound default at every decision; its belief fills the exchangeable
# positions at once (1.9x less CPU for the step), and the whole demo is estimated at about
# 26 minutes on 2 idle cores (docs/performance.md, "make demo, step by step").
DEMO_EXACT := runs/demo-rspx6
DEMO_FULL := runs/demo-standard
demo: $(STAMP)
	rm -rf $(DEMO_EXACT) $(DEMO_FULL)
	$(BIN)/robinwood solve --deck rspx --max-turns 6 --algo dcfr --target-exploitability 1e-3 \
		--eval-every-iterations 5 --out $(DEMO_EXACT)
	$(BIN)/robinwood report $(DEMO_EXACT)
	$(BIN)/robinwood solve --deck standard --algo mccfr --iterations 9600 --seed 0 --out $(DEMO_FULL)
	$(BIN)/robinwood exploit $(DEMO_FULL) --rounds 5000 --lbr-rounds 500 --seed 0
	$(BIN)/robinwood report $(DEMO_FULL) --seed 0

test: $(STAMP) browser-deps
	$(BIN)/python -m pytest -n 2 -q

# The explorer's browser test drives Debian's Chromium with Selenium: as root on Debian
# this installs the browser and its matching driver when they are missing.
browser-deps:
	@PYTHON=$(PYTHON) tools/system-deps.sh --browser

test-browser: $(STAMP) browser-deps
	$(BIN)/python -m pytest -n 0 -q tests/test_explorer_browser.py

# The docs' screenshots (docs/explorer.png, docs/play.png), from the browser test; a plain
# test run writes them to a temporary folder.
screenshots: $(STAMP) browser-deps
	ROBINWOOD_SCREENSHOTS=docs $(BIN)/python -m pytest -n 0 -q tests/test_explorer_browser.py

# The strategy explorer on the demo's exact run (make demo writes it).
explore: $(STAMP)
	$(BIN)/robinwood explore $(DEMO_EXACT) --open

test-slow: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m slow

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_core.py

clean:
	rm -rf $(VENV) build *.egg-info .numba-cache

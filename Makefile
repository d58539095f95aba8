# Two commands on a fresh machine: `make demo` (the main job) and `make test`.
# Each creates the virtual environment .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-slow test-browser browser-deps explore bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The main job: solve the default variant and write its report. The exact solve of a
# reduced deck (rspx, turn cap 6) gets the full report; then a short Monte Carlo CFR run
# on the printed 12-card game is measured against every bot, league player and the local
# best response (robinwood exploit), then played with play-time search against the same
# opponents (robinwood search, docs/search.md), and gets its own (sampled) report, which
# opens with those measurements. Reports land in reports/<run name>/ (index.html, report.md, PNGs, CSVs).
# Every step stops on iterations, never on time, and every random draw is seeded, so a
# fresh clone reproduces the committed reports' numbers (only the timings differ): the
# exact solve measures exploitability every 5 iterations and stops at the first
# measurement under 1e-3; Monte Carlo CFR runs 9,600 traversals per seat (about 3
# minutes on 2 cores).
DEMO_EXACT := runs/demo-rspx6
DEMO_FULL := runs/demo-standard
demo: $(STAMP)
	rm -rf $(DEMO_EXACT) $(DEMO_FULL)
	$(BIN)/robinwood solve --deck rspx --max-turns 6 --algo dcfr --target-exploitability 1e-3 \
		--eval-every-iterations 5 --out $(DEMO_EXACT)
	$(BIN)/robinwood report $(DEMO_EXACT)
	$(BIN)/robinwood solve --deck standard --algo mccfr --iterations 9600 --seed 0 --out $(DEMO_FULL)
	$(BIN)/robinwood exploit $(DEMO_FULL) --rounds 5000 --lbr-rounds 500 --seed 0
	$(BIN)/robinwood search $(DEMO_FULL) --rounds 200 --seed 0
	$(BIN)/robinwood report $(DEMO_FULL) --seed 0

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

# The explorer's browser test drives Debian's Chromium with Selenium; as root on Debian
# this installs the browser and its matching driver when they are missing.
browser-deps:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
		apt-get update && apt-get install -y chromium chromium-driver; \
	fi

test-browser: $(STAMP) browser-deps
	$(BIN)/python -m pytest -n 0 -q tests/test_explorer_browser.py

# The strategy explorer on the demo's exact run (make demo writes it).
explore: $(STAMP)
	$(BIN)/robinwood explore $(DEMO_EXACT) --open

test-slow: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m slow

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_core.py

clean:
	rm -rf $(VENV) build *.egg-info .numba-cache

# Two commands on a fresh machine: `make demo` (the main job) and `make test`.
# Each creates the virtual environment .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-slow bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The main job: solve a default reduced variant exactly, print what its equilibrium does,
# then play the full 12-card game at random for rule statistics.
DEMO_RUN := runs/demo-rspx6
demo: $(STAMP)
	rm -rf $(DEMO_RUN)
	$(BIN)/robinwood solve --deck rspx --max-turns 6 --algo dcfr --target-exploitability 1e-3 --out $(DEMO_RUN)
	$(BIN)/robinwood stats $(DEMO_RUN)
	$(BIN)/robinwood simulate --deck standard --rounds 200000 --seed 0

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

test-slow: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m slow

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_core.py

clean:
	rm -rf $(VENV) build *.egg-info

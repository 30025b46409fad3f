# make play: set up .venv when missing and launch the suite.
# make test: set up .venv (with the dev extra) when missing, then ruff, mypy and pytest.
# make bench: run the benchmarks in tests/bench and print their figures.
PYTHON ?= python3
PIP = PYTHONWARNINGS=ignore PIP_DISABLE_PIP_VERSION_CHECK=1 $(BIN)/python -m pip
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
SDL_DUMMY := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy

.PHONY: play test bench lint typecheck clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e .
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e ".[dev]"
	touch $@ $(STAMP_RUN)

play: $(STAMP_RUN)
	$(BIN)/suite

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check --quiet .

typecheck: $(STAMP_DEV)
	$(BIN)/mypy suite/core $(wildcard suite/*/rules)

test: lint typecheck
	$(SDL_DUMMY) $(BIN)/python -m pytest -q

bench: $(STAMP_DEV)
	$(SDL_DUMMY) $(BIN)/python -m pytest -q -s tests/bench -p no:cacheprovider

clean:
	rm -rf $(VENV) build dist *.egg-info

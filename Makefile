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

# The install compiles setup.py's COMPILED modules in place (mypyc), so it is redone when
# the packages they are built against change: stale binaries would shadow the sources.
COMPILED_FROM := setup.py $(wildcard suite/core/*.py suite/worldwar/rules/*.py)

$(STAMP_RUN): pyproject.toml $(COMPILED_FROM) | $(BIN)/python
	$(PIP) install --quiet -e .
	touch $@

$(STAMP_DEV): pyproject.toml $(COMPILED_FROM) | $(BIN)/python
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
	find . -name '*.so' -not -path './$(VENV)/*' -delete

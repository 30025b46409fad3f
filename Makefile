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

.PHONY: play test bench lint typecheck web clean

# The web client (web/): npm installs its build tools from the committed lock file, and
# tools/build_web.py bundles it into the package data folder the server serves
# (suite/net/server/webroot, not checked in: built here, shipped by `pip install .`).
WEB_MODULES := web/node_modules/.installed
WEB_BUILT := suite/net/server/webroot/index.html
WEB_SOURCES := $(wildcard web/src/*.ts web/src/*.css) web/index.html web/tsconfig.json

$(WEB_MODULES): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(WEB_BUILT): $(WEB_SOURCES) tools/build_web.py $(WEB_MODULES) | $(BIN)/python
	$(BIN)/python tools/build_web.py

web: $(WEB_BUILT)

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

play: $(STAMP_RUN) $(WEB_BUILT)
	$(BIN)/suite

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check --quiet .

typecheck: $(STAMP_DEV) $(WEB_MODULES)
	$(BIN)/mypy suite/core $(wildcard suite/*/rules)
	cd web && node_modules/.bin/tsc --noEmit -p .

test: lint typecheck $(WEB_BUILT)
	$(SDL_DUMMY) $(BIN)/python -m pytest -q

bench: $(STAMP_DEV) $(WEB_BUILT)
	$(SDL_DUMMY) $(BIN)/python -m pytest -q -s tests/bench -p no:cacheprovider

clean:
	rm -rf $(VENV) build dist *.egg-info web/node_modules suite/net/server/webroot
	find . -name '*.so' -not -path './$(VENV)/*' -delete

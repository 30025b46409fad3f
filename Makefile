# make play: set up .venv when missing and launch the suite.
# make test: set up .venv (with the dev extra) when missing, then ruff, mypy and pytest
#   (one test process per core).
# make bench: run the benchmarks in tests/bench and print their figures.
# make bundle: build the downloadable app (one folder with its own Python) and its archive
#   in dist/ (packaging/warsuite.spec, docs/bundle.md).
PYTHON ?= python3
PIP = PYTHONWARNINGS=ignore PIP_DISABLE_PIP_VERSION_CHECK=1 $(BIN)/python -m pip
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
STAMP_BUNDLE := $(VENV)/.installed-bundle
SDL_DUMMY := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy

.PHONY: play test bench bundle lint typecheck x-tools web clean

# The web client (web/): npm installs its build tools from the committed lock file, and
# tools/build_web.py bundles it into the package data folder the server serves
# (suite/net/server/webroot, not checked in: built here, shipped by `pip install .`).
WEB_MODULES := web/node_modules/.installed
WEB_BUILT := suite/net/server/webroot/index.html
WEB_SOURCES := $(shell find web/src -name "*.ts" -o -name "*.css") web/index.html web/tsconfig.json

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

# The dev extra includes the bundle extra.
$(STAMP_DEV): pyproject.toml $(COMPILED_FROM) | $(BIN)/python
	$(PIP) install --quiet -e ".[dev]"
	touch $@ $(STAMP_RUN) $(STAMP_BUNDLE)

$(STAMP_BUNDLE): pyproject.toml $(COMPILED_FROM) | $(BIN)/python
	$(PIP) install --quiet -e ".[bundle]"
	touch $@ $(STAMP_RUN)

bundle: $(STAMP_BUNDLE) $(WEB_BUILT)
	$(BIN)/python tools/build_bundle.py --out dist

# The bundle test (tests/bundle) shows the app on a real X server: Xvfb, xdotool and
# ImageMagick's `import`, installed here with apt-get when missing (CI runs as root on
# Debian); elsewhere the window tests skip, naming what is missing.
X_TOOLS := Xvfb xdotool import
x-tools:
	@for tool in $(X_TOOLS); do command -v $$tool >/dev/null || missing=1; done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing xvfb, xdotool and imagemagick for the bundle test"; \
		apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install \
			-y -qq --no-install-recommends xvfb xdotool imagemagick >/dev/null; \
	fi

play: $(STAMP_RUN) $(WEB_BUILT)
	$(BIN)/suite

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check --quiet .

typecheck: $(STAMP_DEV) $(WEB_MODULES)
	$(BIN)/mypy suite/core $(wildcard suite/*/rules)
	cd web && node_modules/.bin/tsc --noEmit -p .

# One test process per core (pytest-xdist): most tests wait on servers, sockets or frames.
test: lint typecheck x-tools $(WEB_BUILT)
	$(SDL_DUMMY) $(BIN)/python -m pytest -q -n auto

bench: $(STAMP_DEV) x-tools $(WEB_BUILT)
	$(SDL_DUMMY) $(BIN)/python -m pytest -q -s tests/bench -p no:cacheprovider

clean:
	rm -rf $(VENV) build dist *.egg-info web/node_modules suite/net/server/webroot
	find . -name '*.so' -not -path './$(VENV)/*' -delete

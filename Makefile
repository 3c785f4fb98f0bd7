# The README's two commands are `make serve` (or `make site`) and `make test`;
# each sets up what it needs first, so both work on a fresh clone.

# The project needs Python 3.11 (pyproject.toml's requires-python; CI uses 3.11):
# python3.11 if there is one, else python3 if it is 3.11. `make PYTHON=...` overrides.
PYTHON ?= $(shell for candidate in python3.11 python3; do \
	$$candidate -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null \
	&& command -v $$candidate && break; done)
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
ALL_EXTRAS = $(shell $(BIN)/python -c "import tomllib; \
	print(','.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']))")
CHROMIUM := /usr/bin/chromium

.PHONY: setup site serve notebook screenshots test test-fast lint bench bench-experiment bench-site bench-playground lock clean

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || test -n "$(PYTHON)" || { \
	  echo "No Python 3.11 found (looked for python3.11, then python3 of version 3.11)." >&2; \
	  echo "Install Python 3.11 with its venv module, for example" >&2; \
	  echo "  Debian 12:  apt-get install python3 python3-venv" >&2; \
	  echo "  elsewhere:  pyenv install 3.11  or  uv python install 3.11" >&2; \
	  echo "then run make again, or name it: make PYTHON=/path/to/python3.11 test" >&2; \
	  exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[site,test]"
	touch $@

# Debian's Chromium for the browser tests (Playwright cannot download browsers here).
$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core

## Build the site into site/ with a fresh experiment run.
site: setup
	$(BIN)/mkdocs build --strict

## Preview on http://127.0.0.1:8000 ; re-runs the experiment when its code changes.
serve: setup
	$(BIN)/mkdocs serve --livereload

## Open the companion notebook in JupyterLab, with the project's environment: every
## language is written to notebooks/ and the default language's opens, or the one of
## `lang` (make notebook lang=CODE, a language of locales/). JupyterLab is an extra of
## its own: the site does not need it.
# lang, not LANG: LANG is the locale, which make would take from the environment.
lang ?=
LANGUAGES = $(basename $(notdir $(wildcard locales/*.toml)))
NOTEBOOK_STAMP := $(VENV)/.notebook-installed
# A translation's notebook has its code (docs/notebook.CODE.md); the default's has none.
NOTEBOOK = notebooks/notebook$(if $(wildcard docs/notebook.$(lang).md),.$(lang)).ipynb
notebook: $(NOTEBOOK_STAMP)
	@test -z "$(lang)" -o -n "$(filter $(lang),$(LANGUAGES))" || { echo "No notebook in the language lang=$(lang): $(LANGUAGES)." >&2; exit 1; }
	$(BIN)/python -m sitebuild.notebook notebooks
	@test -f $(NOTEBOOK) || { echo "No notebook $(NOTEBOOK) was written." >&2; exit 1; }
	NOTEBOOK_LANGUAGE=$(lang) $(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) $(NOTEBOOK)

$(NOTEBOOK_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[site,test,notebook]"
	touch $@

## Screenshots of every page (languages, schemes, desktop and phone) in artifacts/screenshots/,
## from a fresh build: for a person to look at.
screenshots: site $(CHROMIUM)
	$(BIN)/python tools/screenshots.py --site site --out artifacts/screenshots

## Every test: lint, experiment, site build, browser (two pytest-xdist workers).
test: setup $(CHROMIUM)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder

## Tests without the full run, the site builds and the browser.
test-fast: setup
	$(BIN)/python -m pytest -m "not slow and not browser"

lint: setup
	$(BIN)/ruff check .

bench: bench-experiment bench-site bench-playground

# The benchmarks' own packages (the bench extra), on top of setup's.
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[site,test,bench]"
	touch $@

bench-experiment: $(BENCH_STAMP)
	$(BIN)/python benchmarks/bench_experiment.py

bench-site: $(BENCH_STAMP)
	$(BIN)/python benchmarks/bench_site.py

bench-playground: $(BENCH_STAMP)
	$(BIN)/python benchmarks/bench_playground.py

## Re-pin every package to what the current .venv has (after a deliberate upgrade),
## with every extra of pyproject.toml installed, then check that constraints.txt pins
## what pyproject.toml needs and nothing else (a package no longer required must
## leave the .venv first: pip uninstall).
lock: setup
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[$(ALL_EXTRAS)]"
	$(BIN)/python -m pip freeze --exclude-editable | grep -v -E '^(pip|setuptools)==' \
		| sed 's/^torch==\(.*\)+cpu$$/torch==\1/' > constraints.txt
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_packaging.py

clean:
	rm -rf site notebooks .cache .pytest_cache

# The README's two commands are `make serve` (or `make site`) and `make test`;
# each sets up what it needs first, so both work on a fresh clone.

PYTHON ?= python3.11
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: setup site serve notebook test test-fast lint bench bench-experiment bench-site lock clean

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
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

## Open the companion notebook (every language, in notebooks/) in JupyterLab, with
## the project's environment. JupyterLab is an extra of its own: the site does not need it.
NOTEBOOK_STAMP := $(VENV)/.notebook-installed
notebook: $(NOTEBOOK_STAMP)
	$(BIN)/python -m sitebuild.notebook_download notebooks
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/notebook.ipynb

$(NOTEBOOK_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[site,test,notebook]"
	touch $@

## Every test: lint, experiment, site build, browser.
test: setup $(CHROMIUM)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

## Tests without the full run, the site builds and the browser.
test-fast: setup
	$(BIN)/python -m pytest -m "not slow and not browser"

lint: setup
	$(BIN)/ruff check .

bench: bench-experiment bench-site

bench-experiment: setup
	$(BIN)/python benchmarks/bench_experiment.py

bench-site: setup
	$(BIN)/python benchmarks/bench_site.py

## Re-pin every package to what the current .venv has (after a deliberate upgrade).
lock: setup
	$(BIN)/python -m pip freeze --exclude-editable | grep -v -E '^(pip|setuptools)==' \
		| sed 's/^torch==\(.*\)+cpu$$/torch==\1/' > constraints.txt

clean:
	rm -rf site notebooks .cache .pytest_cache

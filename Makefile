# storrepro — `make reproduce` runs every notebook; `make test` runs the test suite.
# Both create .venv and install the package into it when it is missing or pyproject.toml changed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

PROFILE ?= full
NOTEBOOKS ?=
ARGS ?=

.DEFAULT_GOAL := reproduce
.PHONY: reproduce test site lab bench clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

## reproduce: execute the notebooks (PROFILE=full|quick, NOTEBOOKS="00_simulator_validation ...",
##            ARGS="-p seed=1 --workers 2"); the full profile with default parameters writes
##            figures/ and results/, any other run build/runs/<run>/
reproduce: $(STAMP)
	$(PY) -m storrepro reproduce --profile $(PROFILE) $(if $(strip $(NOTEBOOKS)),--only $(NOTEBOOKS)) $(ARGS)

## test: lint, unit tests and every notebook in the quick profile
test: $(STAMP)
	$(PY) -m ruff check lib tests notebooks
	$(PY) -m pytest -n auto

## site: build build/site/index.html (a page per paper, rendered notebooks) from the committed
##       results of the last full run (Sphinx + myst-nb; runs no notebook)
site: $(STAMP)
	$(PY) -m storrepro site

## lab: open the notebooks in JupyterLab
lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

## bench: time devices, notebooks (quick and full), scaling and 2-worker speedup (~45 min);
##        writes results/BENCH.md and results/bench.json
bench: $(STAMP)
	$(PY) -m storrepro bench

## clean: remove build output and caches (keeps .venv and the committed figures/ and results/)
clean:
	rm -rf build .pytest_cache .ruff_cache
	find . -name __pycache__ -not -path './.venv/*' -prune -exec rm -rf {} +

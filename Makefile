# storrepro — `make` alone lists the targets; `make reproduce` runs every notebook; `make test`
# runs the test suite. Each creates .venv and installs the package into it when it is missing or
# pyproject.toml changed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

PROFILE ?= full
NOTEBOOKS ?=
ARGS ?=
FRESH ?=

.DEFAULT_GOAL := help
.PHONY: help reproduce test site lab bench clean

## help: list the targets (the default: `make reproduce` rewrites every committed figure and
##       result, and needs the CRAN data, so it is never run by accident)
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

# Two makes started at once (`make lab` beside `make reproduce` in a fresh checkout) would both
# install: the install holds $(VENV)/.install.lock (flock, of util-linux), so the second waits,
# then finds the stamp made and installs nothing. Without flock (macOS) it says so and installs
# unlocked.
$(STAMP): pyproject.toml
	@mkdir -p $(VENV)
	@set -e; exec 9> $(VENV)/.install.lock; \
	if ! command -v flock > /dev/null; then \
	  echo "flock not found: installing $(VENV) unlocked; run one make at a time until it is done"; \
	elif ! flock -n 9; then \
	  echo "waiting for another make installing $(VENV) (lock $(VENV)/.install.lock)"; flock 9; \
	fi; \
	if [ $(STAMP) -nt pyproject.toml ]; then echo "$(VENV): installed by the other make"; exit 0; fi; \
	test -x $(PY) || $(PYTHON) -m venv $(VENV); \
	echo "installing storrepro and its dependencies into $(VENV)"; \
	$(PY) -m pip install --quiet --upgrade pip; \
	$(PY) -m pip install --quiet -e '.[dev]'; \
	touch $(STAMP)

## reproduce: execute the notebooks (PROFILE=full|quick, NOTEBOOKS="00_simulator_validation ...",
##            ARGS="-p seed=1 --workers 2"); the full profile with default parameters writes
##            figures/ and results/, any other run build/runs/<run>/
reproduce: $(STAMP)
	$(PY) -m storrepro reproduce --profile $(PROFILE) $(if $(strip $(NOTEBOOKS)),--only $(NOTEBOOKS)) $(ARGS)

## test: lint, unit tests and every notebook in the quick profile
test: $(STAMP)
	$(PY) -m ruff check lib tests notebooks templates
	$(PY) -m pytest -n auto

## site: build build/site/index.html (a page per paper, rendered notebooks) from the committed
##       results of the last full run (Sphinx + myst-nb; runs no notebook)
site: $(STAMP)
	$(PY) -m storrepro site

## lab: JupyterLab on working copies in build/lab/notebooks/ (git-ignored; your edits and
##      saves stay there, notebooks/ is never touched); FRESH="01_precise_period" resets a copy;
##      ARGS="--no-browser --port 8899" go to JupyterLab
lab: $(STAMP)
	$(PY) -m storrepro lab $(if $(strip $(FRESH)),--fresh $(FRESH)) $(ARGS)

## bench: time devices, notebooks (quick and full), scaling and 2-worker speedup (~45 min);
##        writes results/BENCH.md and results/bench.json
bench: $(STAMP)
	$(PY) -m storrepro bench

## clean: remove build output and caches (keeps .venv, the committed figures/ and results/, and
##        your JupyterLab working copies in build/lab/notebooks/)
clean:
	rm -rf .pytest_cache .ruff_cache
	[ ! -d build ] || find build -mindepth 1 -maxdepth 1 ! -name lab -exec rm -rf {} +
	[ ! -d build/lab ] || find build/lab -mindepth 1 -maxdepth 1 ! -name notebooks -exec rm -rf {} +
	find . -name __pycache__ -not -path './.venv/*' -prune -exec rm -rf {} +

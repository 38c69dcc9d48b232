# The project's vocabulary: `make run` and `make test` are the two set-up commands.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
DEV_INSTALLED := $(VENV)/.dev-installed

MINIMUM := .venv-minimum

.PHONY: run test lint types unit minimum browser fonts bench fuzz golden docs sample clean

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_INSTALLED): $(INSTALLED)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

## run: install, then print the standings of the sample event
run: $(INSTALLED)
	$(BIN)/duplicate standings sample_data/big2_event.csv

## test: lint, types, the whole test suite, and the fast suite on the minimum versions
test: lint types unit minimum

lint: $(DEV_INSTALLED)
	$(BIN)/ruff check duplicate tests sample_data
	$(BIN)/ruff format --check duplicate tests sample_data

types: $(DEV_INSTALLED)
	$(BIN)/mypy

# worksteal: a page of examples or a property test takes tens of seconds; a worker with
# nothing left takes queued tests from a busy one.
unit: $(DEV_INSTALLED) browser fonts
	$(BIN)/python -m pytest -n auto --dist worksteal

## minimum: the declared minimum versions of every dependency, and the fast tests on them
minimum: $(MINIMUM)/.installed fonts
	$(MINIMUM)/bin/python -m pytest -n auto --dist worksteal -q -m "not slow" -p no:cacheprovider \
	  --ignore=tests/test_dask_engine.py --ignore=tests/test_report_browser.py

$(MINIMUM)/.installed: pyproject.toml tests/minimum_constraints.py
	rm -rf $(MINIMUM)
	$(PYTHON) -m venv $(MINIMUM)
	$(MINIMUM)/bin/python -m pip install --quiet --upgrade pip
	$(PYTHON) tests/minimum_constraints.py > $(MINIMUM)/constraints.txt
	$(MINIMUM)/bin/python -m pip install --quiet -c $(MINIMUM)/constraints.txt -e . pytest pytest-xdist hypothesis pypdfium2
	touch $@

## browser: Debian's chromium and chromedriver (and a CJK font) for the report's browser tests
## (DUPLICATE_NO_BROWSER=1: none installed, and those tests are skipped)
browser:
	@if [ -n "$$DUPLICATE_NO_BROWSER" ]; then \
	  echo "DUPLICATE_NO_BROWSER is set: no browser installed, its tests skipped"; \
	elif [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq \
	    chromium chromium-driver fonts-wqy-zenhei >/dev/null; \
	fi

## fonts: Debian's fonts-wqy-zenhei, the Chinese TrueType font `duplicate print` embeds
## in its PDFs (elsewhere: a Chinese TrueType font of the system, or `print --font FILE`)
fonts:
	@if [ ! -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ]; then \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq fonts-wqy-zenhei >/dev/null; \
	fi

## bench: validate, score (against DuckDB and a read-and-write floor), standings and seat on four input shapes (ROWS=1000000, best of REPEAT=3)
ROWS ?= 1000000
REPEAT ?= 3
bench: $(INSTALLED)
	$(BIN)/python -m pip install --quiet duckdb  # for comparison only; not a dependency
	$(BIN)/python tests/bench/bench_score.py --rows $(ROWS) --repeat $(REPEAT)

## fuzz: the hostile-input suite with many more examples than `make test` runs (FUZZ_EXAMPLES=2000), and event folders under a fault at every step
FUZZ_EXAMPLES ?= 2000
fuzz: $(DEV_INSTALLED)
	DUPLICATE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -q -p no:cacheprovider $(wildcard tests/test_fuzz*.py) tests/test_event_faults.py

## golden: rewrite the expected outputs in tests/golden on purpose, then review the diff
golden: $(INSTALLED)
	$(BIN)/python tests/golden/regenerate.py
	$(BIN)/python tests/golden_games/regenerate.py

## docs: rewrite docs/problems.md (the problem catalog) and docs/commands.md (every command and option) from the program
docs: $(INSTALLED)
	$(BIN)/python tests/write_docs.py

## sample: regenerate sample_data/ from its generator
sample: $(INSTALLED)
	$(BIN)/python sample_data/generate.py

clean:
	rm -rf $(VENV) $(MINIMUM) .mypy_cache .ruff_cache .pytest_cache

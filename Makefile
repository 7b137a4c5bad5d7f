# Two entry points (see README): `make demo` runs gmserver on the embedded defaults,
# `make test` installs what the tests need and runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test setup test-services bench clean

demo: setup
	$(BIN)/gmserver demo

test: setup test-services
	$(BIN)/python -m pytest -q

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "gmserver needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

test-services:
	@bash scripts/install-test-services.sh

bench: setup test-services
	$(BIN)/python benchmarks/bench_loop.py

clean:
	rm -rf $(VENV) demo-data .pytest_cache

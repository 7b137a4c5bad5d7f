# Two entry points (see README): `make demo` runs gmserver on the embedded defaults,
# `make test` installs what the tests need and runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test setup test-services bench reliability clean

demo: setup
	$(BIN)/gmserver demo

# pytest-xdist workers, each with its own Dovecot, databases and ports; 2 is what the suite's
# timings were measured with (2 CPUs); `make test WORKERS=auto` uses one per CPU. worksteal: the
# default split gave the first worker every e2e test (a quarter of the tests at a time, in order).
WORKERS ?= 2

# PYTHONDONTWRITEBYTECODE (set on some machines) would stop pytest caching the test modules it
# rewrites: every run, and every worker, then rewrites and compiles them all again (collection:
# 10 s of CPU instead of 3.5 s).
test: setup test-services
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n $(WORKERS) --dist worksteal

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

# The full-size proof runs of docs/reliability.md (about an hour on 2 cores; PostgreSQL needed):
# each prints its figures and exits 1 if an invariant broke; every run goes on, the target fails at the end.
RELIABILITY_RUNS := "soak.py --database sqlite --kills 200" "soak.py --database postgresql --kills 200" \
	"fuzz.py --count 100000 --workers 2" "two_daemons.py --games 1000"

reliability: setup
	@status=0; for run in $(RELIABILITY_RUNS); do \
		echo "== scripts/reliability/$$run"; $(BIN)/python scripts/reliability/$$run || status=1; \
	done; exit $$status

clean:
	rm -rf $(VENV) demo-data .pytest_cache

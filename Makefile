# perfdb: thin wrappers. Every target installs what it needs (uv, pinned and locked packages).
SHELL := /bin/bash
PYTHON ?= python3
UV_VERSION := 0.13.8
UV := $(shell command -v uv 2>/dev/null || echo $(HOME)/.local/bin/uv)
HOME_DIR ?= perfdb_home
VENV := .venv
SUPERSET_VENV := $(or $(PERFDB_SUPERSET_VENV),.venv-superset)
# `make up`: settings the environment does not set are read from ENV_FILE; Superset listens on PORT
ENV_FILE ?= .env
PORT ?= 8088
# `make test` runs the test files on TEST_WORKERS processes (pytest-xdist, each file whole on one of them):
# most of a test's time is one single-threaded dbt, Airflow or Superset process, so two share two cores well;
# the files of slow tests are handed out first (tests/conftest.py), so both workers finish together
TEST_WORKERS ?= 2
# Install bytecode with the packages: where PYTHONDONTWRITEBYTECODE is set, every process would
# otherwise recompile pandas, dbt and Airflow from source at start (about a second each time).
export UV_COMPILE_BYTECODE := 1

.PHONY: help uv venv spark-venv superset-venv chromium java demo test bench up clean

help:
	@echo "make demo    generate demo data, ingest, build, check, publish, print the threshold report"
	@echo "make test    the full test suite (what CI runs)"
	@echo "make bench   throughput benchmarks (bench/)"
	@echo "make up      start Superset on the published warehouse (http://localhost:8088)"

uv:
	@command -v uv >/dev/null 2>&1 || test -x $(HOME)/.local/bin/uv || \
		$(PYTHON) -m pip install --quiet --user "uv==$(UV_VERSION)" || \
		$(PYTHON) -m pip install --quiet --break-system-packages --user "uv==$(UV_VERSION)"

# --inexact: `make up` or `make demo` inside a test run keeps the Spark extra that `make test` installed
venv: uv
	$(UV) sync --frozen --inexact --extra dev --python 3.11

# the Spark target's packages (dbt-spark, pyspark: large, so only for tests and Spark users, not `make demo`)
spark-venv: uv
	$(UV) sync --frozen --extra dev --extra spark --python 3.11

superset-venv: uv
	$(UV) venv --quiet --allow-existing --python 3.11 $(SUPERSET_VENV)
	$(UV) pip sync --quiet --python $(SUPERSET_VENV)/bin/python dashboards/requirements.lock

chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

# Spark 4 needs Java 17+; Debian's headless JRE is enough (a JRE from PyPI cannot run Spark)
java:
	@java -version >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless)

demo: venv
	$(VENV)/bin/perfdb --home $(HOME_DIR) demo

test: spark-venv superset-venv chromium java
	$(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# each bench exits non-zero when it misses a target; run them all regardless ("-")
bench: venv
	-$(VENV)/bin/python bench/bench_measure_ingest.py
	-$(VENV)/bin/python bench/bench_smf_ingest.py
	-$(VENV)/bin/python bench/bench_commands_ingest.py

# needs SUPERSET_SECRET_KEY and SUPERSET_ADMIN_PASSWORD: exported in the environment, or in ENV_FILE (.env),
# which fills in only what the environment does not set; gunicorn with SUPERSET_WORKERS (default 2) workers
up: venv superset-venv
	PERFDB_SUPERSET_VENV=$(SUPERSET_VENV) $(VENV)/bin/perfdb --home $(HOME_DIR) serve --env-file $(ENV_FILE) --port $(PORT)

clean:
	rm -rf $(HOME_DIR) .pytest_cache

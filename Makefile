# The two commands a newcomer needs: `make run` and `make test`. Everything else supports them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# uv may be missing on a fresh machine: install it from PyPI and run it as a module.
UV := $(shell command -v uv 2>/dev/null || echo "python3 -m uv")
BACKEND := backend
FRONTEND := frontend
RUN := cd $(BACKEND) && $(UV) run --frozen

.PHONY: help install deps-python deps-web deps-browser deps-haproxy build run cluster test lint typecheck \
        test-api test-api-sqlite test-api-postgres test-schema test-web test-e2e api-types check-api-types clean

help:
	@echo "make run    - install what is missing, build the SPA, migrate, seed demo data, serve on :8000"
	@echo "make test   - lint, type checks, API tests (SQLite + PostgreSQL), Vitest, browser journeys"
	@echo "make cluster - three nodes behind HAProxy on PostgreSQL, media in a local S3 server, on :8080"

install: deps-python deps-web

deps-python:
	@command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install -q uv
	cd $(BACKEND) && $(UV) sync --frozen -q

deps-web:
	@if [ ! -d $(FRONTEND)/node_modules ] || [ $(FRONTEND)/package-lock.json -nt $(FRONTEND)/node_modules/.package-lock.json ]; then \
		cd $(FRONTEND) && npm ci --no-audit --no-fund; fi

deps-browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium (needs root)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }

# HAProxy for `make cluster` and the cluster test (tests/test_cluster.py), as Debian packages it.
deps-haproxy:
	@command -v haproxy >/dev/null 2>&1 || { \
		echo "Installing Debian's haproxy (needs root)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; }

# The SPA is rebuilt only when a file under frontend/ (outside node_modules and dist) is newer than
# the stamp the last build left, so a second `make run` starts in seconds.
WEB_SOURCES := $(shell find $(FRONTEND) \( -path $(FRONTEND)/node_modules -o -path $(FRONTEND)/dist \) -prune -o -type f -print)
WEB_STAMP := $(FRONTEND)/dist/.build-stamp

build: install $(WEB_STAMP)

$(WEB_STAMP): $(WEB_SOURCES)
	cd $(FRONTEND) && npm run build
	touch $@

# DATA_DIR defaults to ./data at the repository root.
run: build
	$(RUN) env DATA_DIR="$${DATA_DIR:-$(CURDIR)/data}" tradeideas serve

# Three `tradeideas serve` nodes (:8001-8003), HAProxy running deploy/haproxy.cfg (:8080, statistics on :8404) and
# moto's S3 server (:9000), on the PostgreSQL server at 127.0.0.1:5432 (database tradeideas_cluster, made afresh
# with the demo data). CLUSTER_ADMIN_URL names another server; Ctrl+C stops everything.
cluster: build deps-haproxy
	$(RUN) python -m tests.cluster

# Regenerate the front end's API types from the backend's OpenAPI document.
api-types: install
	$(RUN) python -m tradeideas.openapi > openapi.json
	cd $(FRONTEND) && npm run gen:api

check-api-types: install
	$(RUN) python -m tradeideas.openapi > openapi.json
	cd $(FRONTEND) && npm run check:api

lint: install
	$(RUN) ruff check . ../e2e ../bench
	$(RUN) ruff format --check . ../e2e ../bench
	$(RUN) lint-imports
	cd $(FRONTEND) && npm run lint

typecheck: install
	$(RUN) mypy tradeideas tests ../e2e ../bench
	cd $(FRONTEND) && npm run typecheck

test-api-sqlite: install
	$(RUN) env TEST_DB=sqlite pytest -q tests

# PostgreSQL at 127.0.0.1:5432 (database `test`) is required: a missing server fails the run. HAProxy is installed
# for the cluster tests (tests/test_cluster.py, tests/test_cluster_chaos.py).
test-api-postgres: install deps-haproxy
	$(RUN) env TEST_DB=postgres pytest -q tests

test-api: test-api-sqlite test-api-postgres

# Part of both API runs above; this runs only the schemathesis conformance check (on SQLite).
test-schema: install
	$(RUN) env TEST_DB=sqlite pytest -q tests/test_openapi_conformance.py

test-web: install
	cd $(FRONTEND) && npm test

test-e2e: build deps-browser
	$(RUN) pytest -q ../e2e

test: lint typecheck check-api-types test-api test-web test-e2e

clean:
	rm -rf $(FRONTEND)/dist $(BACKEND)/.venv $(FRONTEND)/node_modules

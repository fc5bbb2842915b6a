# VERA: `make run` installs everything and starts the app on the bundled samples;
# `make test` installs the test needs (Python packages, Debian's chromium, postgresql and nginx) and runs the tests.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501
STREAMLIT_ARGS ?=
DEPS_STAMP := $(VENV)/.deps-$(shell cat requirements.txt constraints.txt | sha256sum | cut -c1-12)
TEST_STAMP := $(VENV)/.test-deps-$(shell cat requirements-test.txt | sha256sum | cut -c1-12)

.PHONY: install install-test run test bench samples clean-store

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(DEPS_STAMP): $(BIN)/python requirements.txt constraints.txt pyproject.toml
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -r requirements.txt -c constraints.txt
	$(BIN)/pip install --quiet --no-deps -e .
	rm -f $(VENV)/.deps-* && touch $@

install: $(DEPS_STAMP)

$(TEST_STAMP): $(DEPS_STAMP) requirements-test.txt
	$(BIN)/pip install --quiet -r requirements-test.txt -c constraints.txt
	rm -f $(VENV)/.test-deps-* && touch $@

install-test: $(TEST_STAMP)
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	[ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages for the tests:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

run: install
	$(BIN)/vera migrate >/dev/null
	$(BIN)/vera ingest --quiet data/samples
	$(BIN)/streamlit run app.py --server.port $(PORT) $(STREAMLIT_ARGS)

test: install-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install
	$(BIN)/vera bench ingest

samples: install
	$(BIN)/python scripts/make_samples.py

clean-store:
	rm -rf data/store

# The two commands of the README:
#   make run    start the whole service (web on 127.0.0.1:8000, Celery worker and beat); Ctrl-C stops all
#   make test   run the whole test suite on PostgreSQL
# Both create .venv if it is missing and (re)install the project when pyproject.toml changed.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Stamp file, newer than pyproject.toml once `pip install` succeeded.
INSTALLED := $(VENV)/.installed
# Extra pytest arguments, or the paths to run: make test ARGS="-k store -x",
# make test ARGS=tests/rules/test_match.py (without a path pytest runs tests/, its testpaths)
ARGS ?=

.PHONY: run test

$(INSTALLED): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@

run: $(INSTALLED)
	$(PY) manage.py migrate --noinput
	exec deploy/run-local.sh

test: $(INSTALLED)
	@$(PY) -m tavla_project.dbcheck
	@$(PY) -m pytest $(ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests; that is a failure"; fi; \
	  exit $$rc

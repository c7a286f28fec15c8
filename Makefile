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

# Web, worker and beat under supervisord (deploy/supervisord.conf): one that dies is restarted,
# Ctrl-C stops all. BIND=host:port to serve elsewhere. collectstatic: with DEBUG=false the web
# client's files are served from STATIC_ROOT only.
run: $(INSTALLED)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	BIND=$${BIND:-127.0.0.1:8000} TAVLA_VAR_DIR=$${TAVLA_VAR_DIR:-$(CURDIR)/var} \
	  exec $(VENV)/bin/supervisord -c deploy/supervisord.conf

test: $(INSTALLED)
	@$(PY) -m tavla_project.dbcheck
	@$(PY) -m pytest $(ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests; that is a failure"; fi; \
	  exit $$rc

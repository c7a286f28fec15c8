# The two commands of the README:
#   make run    start the whole service (web on 127.0.0.1:8000, Celery worker and beat); Ctrl-C stops all
#   make test   run the whole test suite on PostgreSQL
# Both create .venv if it is missing and install into it exactly what the lock files say, with
# their hashes (again whenever a lock file or pyproject.toml changed).
#   make lock   upgrade the locks: the newest versions pyproject.toml's ranges allow, with hashes

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Stamp file, newer than pyproject.toml and the locks once `pip install` succeeded.
INSTALLED := $(VENV)/.installed
# The locks (made by `make lock`, never by hand): requirements.lock the runtime dependencies
# (deploy/Dockerfile), requirements-dev.lock those and the `dev` extra (this Makefile). Both
# pin setuptools, the build backend, so that the project itself installs without fetching it.
LOCK := requirements.lock
DEV_LOCK := requirements-dev.lock
# Extra pytest arguments, or the paths to run: make test ARGS="-k store -x",
# make test ARGS=tests/rules/test_match.py (without a path pytest runs tests/, its testpaths)
ARGS ?=

.PHONY: run test lock

$(INSTALLED): pyproject.toml $(LOCK) $(DEV_LOCK)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r $(DEV_LOCK)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $@

# `make lock`: resolve pyproject.toml again with uv (from PyPI, whatever pip's configuration
# says), every version at the newest its range allows, every file's hash, for Python 3.11 and
# later on any platform; the dev lock keeps the runtime lock's versions. `make lock UPGRADE=`
# keeps the versions already locked where they still fit (after adding a dependency). Then
# `make test` (tests/test_private_internals.py says what to check again: docs/private-internals.md).
UPGRADE ?= --upgrade
UV_COMPILE = $(PY) -m uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command 'make lock' $(UPGRADE)
BUILD_REQUIRES = $(PY) -c "import tomllib; \
	print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'], sep='\n')"

lock:
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m uv --version >/dev/null 2>&1 || $(PY) -m pip install --quiet uv
	$(BUILD_REQUIRES) | $(UV_COMPILE) pyproject.toml - -o $(LOCK)
	$(BUILD_REQUIRES) | $(UV_COMPILE) pyproject.toml - --extra dev -c $(LOCK) -o $(DEV_LOCK)

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

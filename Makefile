# gpurent: every check is one command. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PG_URL ?= postgres://postgres@127.0.0.1:5432/gpurent

.PHONY: help setup db run test test-fast test-postgres test-browser test-chains lint format typecheck check-deploy lint-migrations messages compilemessages bench bench-http clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  make %-14s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --upgrade pip
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) ## Create the virtualenv and install the pinned dependencies

db: setup compilemessages ## Migrate the SQLite database and load the demo catalog
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo

run: db ## Set up everything and serve the shop on http://127.0.0.1:8000
	@echo ""
	@echo "  Shop:        http://127.0.0.1:8000/"
	@echo "  Back office: http://127.0.0.1:8000/backoffice/  (operator@example.com / demo-operator-passphrase)"
	@echo "  API docs:    http://127.0.0.1:8000/api/v1/docs"
	@echo "  (the background worker and the sweep run alongside, started again if they exit; Ctrl-C stops all three)"
	@echo ""
	@trap 'kill 0' EXIT; \
	  bash scripts/respawn.sh $(PY) manage.py worker --interval 1 & \
	  bash scripts/respawn.sh $(PY) manage.py sweep --loop 60 > /dev/null & \
	  $(PY) manage.py runserver 127.0.0.1:8000

# Measured with the estimator engine, each gated on its own (decision 0483), by their own tests and the estimator
# form's: the rest of the suite runs without the tracer, which doubled its time (decision 0550).
MONEY_APPS := ledger payments orders chains
COVERED_TESTS := vramcalc gpurent/sizing $(addprefix gpurent/,$(MONEY_APPS))
# Python writes its bytecode caches (git-ignored __pycache__/) during the tests even where the environment says not to:
# without them every pytest process compiles and rewrites each test module again (18 s of a 2-core machine's CPU per
# collection instead of 9) and every server or command a test starts compiles the project again (decision 0599).
unexport PYTHONDONTWRITEBYTECODE
# Every run uses two pytest-xdist processes, which take tests one batch at a time in pytest-django's order (decision
# 0592): on one process a 2-core machine ran the suite on one core while the other waited.
WORKERS := -n 2

test: setup compilemessages ## Run the whole suite on SQLite: unit, API fuzz, chain nodes, then browser tests
	bash scripts/ensure-chain-nodes.sh
	$(PY) -m pytest -m "not browser" $(WORKERS) --cov --cov-report= $(COVERED_TESTS)
	$(PY) -m coverage report --include='vramcalc/*' --fail-under=100  # the estimator engine: every line and branch
	status=0; for app in $(MONEY_APPS); do \
	  $(PY) -m coverage report --include="gpurent/$$app/*" --fail-under=95 || status=1; \
	done; exit $$status  # each money app: 95 % of its lines and branches
	$(PY) -m pytest -m "not browser" $(WORKERS) $(addprefix --ignore=,$(COVERED_TESTS))
	bash scripts/ensure-chromium.sh
	$(PY) -m pytest -m browser $(WORKERS) tests/browser

test-fast: setup compilemessages ## The suite without the browser tests
	$(PY) -m pytest -m "not browser" $(WORKERS)

test-postgres: setup compilemessages ## The suite (without browser tests) on PostgreSQL: PG_URL=postgres://...
	bash scripts/ensure-chain-nodes.sh
	DATABASE_URL=$(PG_URL) $(PY) -m pytest -m "not browser" $(WORKERS)

test-browser: setup compilemessages ## Only the browser tests (headless Debian Chromium)
	bash scripts/ensure-chromium.sh
	$(PY) -m pytest -m browser $(WORKERS) tests/browser

test-chains: setup ## Only the chain watcher tests against local nodes (litecoind regtest, ganache)
	bash scripts/ensure-chain-nodes.sh
	$(PY) -m pytest -m chain_node -rs

lint: setup ## ruff lint and format check
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: setup ## Apply ruff's fixes and formatting
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

typecheck: setup ## mypy (django-stubs on the apps, --strict on vramcalc)
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --strict vramcalc bench/estimator_accuracy.py

check-deploy: setup lint-migrations ## Django's deployment checks with the production settings, and lint-migrations
	DJANGO_SETTINGS_MODULE=config.settings.production SECRET_KEY="$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(64))')" \
	  ALLOWED_HOSTS=shop.example.com DATABASE_URL=$(PG_URL) CACHE_URL=redis://127.0.0.1:6379/0 \
	  $(PY) manage.py check --deploy --fail-level WARNING  # several web processes share Redis (decision 0405)
	$(PY) manage.py makemigrations --check --dry-run

lint-migrations: setup ## Migrations the previous release can keep serving beside (django-migration-linter; PG_URL=postgres://...)
	DJANGO_SETTINGS_MODULE=config.settings.migration_lint DATABASE_URL=$(PG_URL) $(PY) manage.py lintmigrations

# The back office's desks stay English (decision 0160), its dashboard is translated (decision 0418): every back-office
# module and template is left out but the dashboard's (gpurent/backoffice/dashboard/, templates/backoffice/dashboard*).
BACKOFFICE_ENGLISH = --ignore='gpurent/backoffice/[!dt]*' --ignore='gpurent/backoffice/templates/backoffice/[!d]*' \
  --ignore=gpurent/payments/templates/emails/backoffice

messages: setup ## Extract translatable strings into locale/*.po (the i18n owner then translates them)
	$(PY) manage.py makemessages -a --no-obsolete --ignore=.venv --ignore=vramcalc --ignore=artifacts $(BACKOFFICE_ENGLISH) --ignore=admin.py --ignore=admin --ignore=tests --ignore=node_modules

compilemessages: setup ## Compile locale/*.po into the .mo files Django reads (gettext's msgfmt; not in git)
	@command -v msgfmt >/dev/null || { echo "msgfmt not found: install gettext (apt-get install gettext)"; exit 1; }
	$(PY) manage.py compilemessages --ignore=.venv --ignore=artifacts

bench: setup ## Benchmarks (ratios against a baseline measured in the same run)
	$(PY) bench/catalog_pages.py
	$(PY) bench/estimator_accuracy.py

bench-http: setup ## HTTP benchmark under gunicorn on PostgreSQL (PG_SERVER=postgres://postgres@127.0.0.1:5432)
	$(PY) bench/http_bench.py --server $(or $(PG_SERVER),postgres://postgres@127.0.0.1:5432)

clean: ## Remove the virtualenv, the SQLite database and collected files
	rm -rf $(VENV) db.sqlite3* staticfiles artifacts .pytest_cache .mypy_cache .ruff_cache .hypothesis

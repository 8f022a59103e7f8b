# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# make test's pytest processes (pytest-xdist): the suite waits on servers and browsers as much
# as it computes, so two left the two cores idle 40 % of the run; three finished it 11 % sooner
# (on a slower machine, no sooner than two: docs/configuration.md). PYTEST_WORKERS=0: one process,
# no xdist.
PYTEST_WORKERS ?= 3

.PHONY: run test test-js setup dev-setup node-tools lint messages compile-messages
.DEFAULT_GOAL := run

# Each stamp is remade when one of its requirement files changes. pip is not quiet: a first
# install takes a minute or two and shows what it fetches.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# What running needs (make run).
$(BIN)/.installed-run: requirements.txt | $(BIN)/python
	@echo "Installing what the site needs to run (first time only: a minute or two)..."
	$(BIN)/pip install --progress-bar on -r requirements.txt
	touch $@

# Running plus tests, benchmarks and lint (make test, CI).
$(BIN)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	@echo "Installing what the site and its tests need (first time only: a few minutes)..."
	$(BIN)/pip install --progress-bar on -r requirements-dev.txt
	touch $@ $(BIN)/.installed-run

setup: $(BIN)/.installed-run compile-messages

dev-setup: $(BIN)/.installed-dev compile-messages

# The site's languages (settings.LANGUAGES): the catalogs of locale/ are in the repository,
# compiled here (GNU gettext's msgfmt, installed where missing).
LOCALES := sv da nb de fr es
MESSAGES_IGNORE := --ignore .venv --ignore node_modules --ignore var --ignore tests \
	--ignore benchmarks --ignore docs
compile-messages: $(BIN)/.installed-run
	scripts/ensure-gettext
	$(BIN)/python manage.py compilemessages $(MESSAGES_IGNORE) -v 0

# After marking strings: every language's catalogs brought up to date with the sources (new
# entries come untranslated; tests/i18n fails until each is translated).
messages: | $(BIN)/python
	$(BIN)/python manage.py makemessages $(addprefix -l ,$(LOCALES)) $(MESSAGES_IGNORE) \
		--add-location=file -d django
	$(BIN)/python manage.py makemessages $(addprefix -l ,$(LOCALES)) $(MESSAGES_IGNORE) \
		--add-location=file -d djangojs

# Test and benchmark tools from npm, at the versions of package-lock.json: axe-core (the browser
# suite's accessibility check) and Lighthouse (benchmarks/lighthouse.py). The site needs none.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

node-tools: node_modules/.package-lock.json

# The strategy tables of the optimal computer player are built once, in the background (about
# a minute for yahtzee, three for yatzy, first run only); a room whose computer player waits
# for one shows its progress. Ctrl-C stops the server and the build alike.
run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/python manage.py build_strategy --rules all --missing --progress-lines & \
	exec $(BIN)/daphne -b $(HOST) -p $(PORT) yahtzee_site.asgi:application

lint: dev-setup
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The whole pytest run writes the JavaScript tests' fixture; a run narrowed by PYTEST_ARGS may
# not, so then it is written first.
ifeq ($(strip $(PYTEST_ARGS)),)
JS_AFTER_PYTEST = node --test tests/js/
else
JS_AFTER_PYTEST = $(MAKE) test-js
endif

test: dev-setup
	scripts/ensure-services
	$(MAKE) node-tools
	$(MAKE) lint
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)
	$(JS_AFTER_PYTEST)

# The pages' JavaScript (Node's own test runner, no packages): its fixture, whole games played
# over the websocket, is written by a Python test first (make test's pytest run writes it).
test-js: dev-setup
	$(BIN)/python -m pytest -q tests/js/test_room_frames.py
	node --test tests/js/

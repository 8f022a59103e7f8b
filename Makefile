# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup lint
.DEFAULT_GOAL := run

$(BIN)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

setup: $(BIN)/.installed

run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/daphne -b $(HOST) -p $(PORT) yahtzee_site.asgi:application

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

test: setup
	scripts/ensure-services
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PYTEST_ARGS)

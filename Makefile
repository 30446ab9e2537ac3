# The two commands of the README's quick start:
#   make run    installs the app into ./.venv and launches `gns3-copilot`
#   make test   installs everything the tests need (system packages too, when root) and runs the suite
PYTHON ?= python3

.PHONY: run install test lint bench screenshots bundle clean

run: install
	.venv/bin/gns3-copilot

install:
	@PYTHON=$(PYTHON) bash packaging/bootstrap.sh app

test:
	@PYTHON=$(PYTHON) bash tests/tools/run_suite.sh

lint:
	@PYTHON=$(PYTHON) bash packaging/bootstrap.sh dev
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy

bench:
	@PYTHON=$(PYTHON) bash packaging/bootstrap.sh dev
	.venv/bin/python -m bench

bundle:
	@PYTHON=$(PYTHON) bash packaging/build.sh

clean:
	rm -rf .venv build dist .mypy_cache .ruff_cache .pytest_cache

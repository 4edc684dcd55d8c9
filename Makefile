# The two set-up commands of the README. Each does its own set-up on a fresh machine.
#   make demo   main job: venv, install, synthesis -> analysis roundtrip on the default device
#   make test   test suite: venv, test extras, system drivers/tools when missing, pytest on
#               every core (one test file per worker: module fixtures compile once)
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: demo test venv test-deps

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

venv: $(PY)
	$(PY) -m pip install -q '.[compile]'

demo: venv
	cd /tmp && $(abspath $(PY)) -m ireesht demo

# torch-harmonics: the independent reference of tests/integration/test_torch.py; 0.9.3 asks
# for torch 2.14 in its metadata but runs on 2.13, so it comes without its dependencies
test-deps: $(PY)
	$(PY) -m pip install -q -e '.[test]'
	$(PY) -m pip install -q --no-deps torch-harmonics==0.9.3
	bash tools/install_test_deps.sh

test: test-deps
	$(PY) -m pytest -q -n auto --dist loadfile $(PYTEST_ARGS)

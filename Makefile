# Two commands do all setup on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
TESTED := $(VENV)/.test-stamp

.PHONY: all venv system-deps demo-deps test lint demo bench clean

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

# The test suite's own Python packages (pytest, hypothesis, ruff) and the optional
# extras whose code it tests (Dask distributed for `count --cluster`): not the demo's.
$(TESTED): $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,cluster]'
	touch $@

venv: $(STAMP)

# Debian packages, installed only when missing: the demo's alone (Xvfb, Chromium,
# fonts), or those and what the end-to-end tests drive besides (Simon Tatham's
# puzzles, Picmi, xdotool, tmux, twm).
demo-deps:
	tools/ensure-system-deps demo

system-deps:
	tools/ensure-system-deps test

lint: $(TESTED)
	$(BIN)/ruff check .

test: $(TESTED) system-deps lint
	$(BIN)/python -m pytest

demo: $(STAMP) demo-deps
	$(BIN)/autoplayer demo

bench: $(STAMP)
	$(BIN)/pip install --quiet -r bench/requirements.txt
	$(BIN)/python -m bench.run_all

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache

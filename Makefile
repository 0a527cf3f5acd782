# Two commands do all setup on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: all venv system-deps test lint demo bench clean

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

venv: $(STAMP)

# Debian packages the end-to-end tests and the demo drive (Xvfb, Chromium,
# Simon Tatham's puzzles); installed only when missing.
system-deps:
	tools/ensure-system-deps

lint: $(STAMP)
	$(BIN)/ruff check .

test: $(STAMP) system-deps lint
	$(BIN)/python -m pytest

demo: $(STAMP) system-deps
	$(BIN)/autoplayer demo

bench: $(STAMP)
	$(BIN)/pip install --quiet -r bench/requirements.txt
	$(BIN)/python -m bench.run_all

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache

# The two commands of the README: `make run` and `make test`. Each installs what it
# needs on a fresh Debian or Ubuntu machine first (apt packages, Python test tools,
# tauri-driver), then does its job.

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
VENV := .tools/venv
APT_BUILD := build-essential pkg-config curl python3-venv python3-pip libssl-dev \
  libwebkit2gtk-4.1-dev libayatana-appindicator3-dev librsvg2-dev libxdo-dev libdbus-1-dev
APT_CHECK := nodejs npm
APT_E2E := xvfb dbus dbus-x11 dunst webkit2gtk-driver imagemagick x11-utils xdotool

.PHONY: run test check deps-build deps-e2e build-tests test-rust test-python test-e2e bench

## Start the desktop app (tray, notifications, the question window, the socket).
run: deps-build
	cargo run --release -p user-questions-desktop

## Every test: the core and socket in Rust, the CLI and MCP through real clients,
## and the desktop app end to end under Xvfb.
test: deps-build deps-e2e check test-rust test-python test-e2e

## Format, lint and type-check: part of `make test`, so of CI. The window's JS is
## checked by the TypeScript compiler (JSDoc types, no emit) and Prettier, pinned in
## tests/ui.
check: deps-build tests/ui/node_modules/.installed
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	tests/ui/node_modules/.bin/prettier --check "ui/**/*.{js,css,html,json,ts}"
	tests/ui/node_modules/.bin/tsc --noEmit -p ui

tests/ui/node_modules/.installed: tests/ui/package-lock.json
	@command -v npm >/dev/null || { echo "installing: $(APT_CHECK)"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_CHECK); }
	cd tests/ui && npm ci --silent --no-audit --no-fund
	touch $@

deps-build:
	@missing=$$(for p in $(APT_BUILD); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing: $$missing"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

deps-e2e: $(VENV)/.installed .tools/bin/tauri-driver
	@missing=$$(for p in $(APT_E2E); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing: $$missing"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

$(VENV)/.installed: tests/python/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q -r tests/python/requirements.txt
	touch $@

.tools/bin/tauri-driver:
	cargo install tauri-driver --locked --root .tools

## One build serves every test: `cargo test` builds `userq` and the app's binary too
## (their integration tests run them), with the same features, so nothing is compiled
## twice; the Python and end-to-end tests drive those binaries.
build-tests:
	cargo test --workspace --all-targets --no-run

test-rust: build-tests
	cargo test --workspace --all-targets

test-python: $(VENV)/.installed build-tests
	$(VENV)/bin/python -m pytest -q tests/python

test-e2e: deps-e2e build-tests
	tests/e2e/run

## Benchmarks: the in-process ask (criterion), memory per pending ask, socket round
## trips, MCP start-up against the peer server, the desktop app's latency and memory,
## and an agent's hook from spawn to its question on screen.
bench: $(VENV)/.installed .tools/peer/.installed deps-e2e
	cargo bench --bench ask --bench pending_memory --bench socket
	cargo build --release --bin userq
	cargo build --release -p user-questions-desktop
	$(VENV)/bin/python benches/mcp_startup.py
	tests/e2e/session $(VENV)/bin/python benches/desktop_figures.py
	tests/e2e/session $(VENV)/bin/python benches/window_cycles.py
	tests/e2e/session $(VENV)/bin/python benches/hook_figures.py

## The peer MCP server the start-up and memory figures compare against.
.tools/peer/.installed:
	python3 -m venv .tools/peer
	.tools/peer/bin/pip install -q mcp-feedback-enhanced==2.8.5
	touch $@

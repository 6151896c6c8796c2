# The two commands of the README: `make run` and `make test`. Each installs what it
# needs on a fresh Debian or Ubuntu machine first (apt packages, Python test tools,
# tauri-driver), then does its job.

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
VENV := .tools/venv
APT_BUILD := build-essential pkg-config curl python3-venv python3-pip libssl-dev \
  libwebkit2gtk-4.1-dev libayatana-appindicator3-dev librsvg2-dev libxdo-dev libdbus-1-dev
APT_CHECK := nodejs npm
# What the Python tests start themselves: a real sshd on a loopback port (userq ssh).
APT_TEST := openssh-server openssh-client nats-server openssl strace bubblewrap
APT_E2E := xvfb dbus dbus-x11 dunst webkit2gtk-driver imagemagick x11-utils xdotool fonts-noto-cjk

.PHONY: fuzz test-fuzz run test check test-judge deps-build deps-test deps-e2e build-tests test-rust test-system test-python test-e2e bench bindings \
  release package test-package install uninstall

## Start the desktop app (tray, notifications, the question window, the socket).
run: deps-build
	cargo run --release -p user-questions-desktop

## Install for this user from source: both binaries in ~/.local/bin, the launcher
## entry and icons under ~/.local/share; nothing outside the home folder, no root.
## `make uninstall` takes exactly those files away (your history and settings stay).
PREFIX ?= $(HOME)/.local
DATA_HOME ?= $(PREFIX)/share
ICON_SIZES := 32 64 128 256
INSTALLED := $(PREFIX)/bin/userq $(PREFIX)/bin/user-questions \
  $(DATA_HOME)/applications/user-questions.desktop \
  $(foreach s,$(ICON_SIZES),$(DATA_HOME)/icons/hicolor/$(s)x$(s)/apps/user-questions.png)

install: release
	install -D -m 755 target/release/userq $(PREFIX)/bin/userq
	install -D -m 755 target/release/user-questions $(PREFIX)/bin/user-questions
	$(foreach s,$(ICON_SIZES),install -D -m 644 icons/$(s)x$(s).png $(DATA_HOME)/icons/hicolor/$(s)x$(s)/apps/user-questions.png;)
	sed 's|^Exec=.*|Exec=$(PREFIX)/bin/user-questions|' packaging/user-questions.desktop > packaging/.desktop.tmp
	install -D -m 644 packaging/.desktop.tmp $(DATA_HOME)/applications/user-questions.desktop && rm packaging/.desktop.tmp
	@echo "installed: $(PREFIX)/bin/userq, $(PREFIX)/bin/user-questions and the launcher entry"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on your PATH";; esac

uninstall:
	rm -f $(INSTALLED)
	@echo "removed User Questions from $(PREFIX) (history and settings are kept)"

release: deps-build
	cargo build --release -p user-questions --bin userq -p user-questions-desktop

## The Debian and RPM packages, made by the Tauri bundler (pinned in packaging/):
## target/package/user-questions_<version>_amd64.deb and the .rpm beside it.
TRIPLE := $(shell rustc -vV 2>/dev/null | sed -n 's/^host: //p')
package: deps-build packaging/node_modules/.installed
	cargo build --release --bin userq
	mkdir -p target/package
	cp target/release/userq target/package/userq-$(TRIPLE)
	cd src-tauri && ../packaging/node_modules/.bin/tauri build --ci --bundles deb,rpm \
	  --config ../packaging/tauri.package.json
	cp "target/release/bundle/deb/User Questions_$(VERSION)_amd64.deb" target/package/user-questions_$(VERSION)_amd64.deb
	cp "target/release/bundle/rpm/User Questions-$(VERSION)-1.x86_64.rpm" target/package/user-questions-$(VERSION)-1.x86_64.rpm
	@ls -l target/package/*.deb target/package/*.rpm

VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)

packaging/node_modules/.installed: packaging/package-lock.json
	@command -v npm >/dev/null || { echo "installing: $(APT_CHECK)"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_CHECK); }
	cd packaging && npm ci --silent --no-audit --no-fund
	touch $@

## The package installed into a clean Debian 12 root (debootstrap), used through the
## installed binaries, then removed; and `make install` into an empty home.
test-package: package
	$(SUDO) packaging/test-package target/package/user-questions_$(VERSION)_amd64.deb
	packaging/test-install

## Every test: the core and socket in Rust, the CLI and MCP through real clients,
## the desktop app end to end under Xvfb, and the reader of shell commands fuzzed.
test: deps-build deps-e2e check test-rust test-system test-fuzz test-judge test-python test-e2e

## Format, lint and type-check: part of `make test`, so of CI. The window's JS is
## checked by the TypeScript compiler (JSDoc types, strict, no emit) against the shapes
## generated from the Rust types (ui/bindings.d.ts, which must not be stale), and by
## Prettier, pinned in pins/ui-check. The bindings are checked in the whole workspace's
## build, which the tests use next: a build of the window crate alone would compile the
## Matrix SDK once more, with other features.
check: deps-build pins/ui-check/node_modules/.installed
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --test judge --test foreign -- -D warnings
	cargo test -q --workspace --all-targets bindings
	pins/ui-check/node_modules/.bin/prettier --check "ui/**/*.{js,css,html,json,ts}" "!ui/bindings.d.ts"
	pins/ui-check/node_modules/.bin/tsc --noEmit -p ui

## Writes ui/bindings.d.ts again from the Rust types the window receives.
bindings:
	UPDATE_BINDINGS=1 cargo test -q -p user-questions-window bindings

pins/ui-check/node_modules/.installed: pins/ui-check/package-lock.json
	@command -v npm >/dev/null || { echo "installing: $(APT_CHECK)"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_CHECK); }
	cd pins/ui-check && npm ci --silent --no-audit --no-fund
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

## A Matrix homeserver for the bridge's tests (Synapse from PyPI), in a venv of its own:
## its dependencies never meet the test tools'.
SYNAPSE := .tools/synapse
$(SYNAPSE)/.installed: pins/synapse/requirements.txt
	python3 -m venv $(SYNAPSE)
	$(SYNAPSE)/bin/pip install -q -r pins/synapse/requirements.txt
	touch $@

.tools/bin/tauri-driver:
	cargo install tauri-driver --locked --root .tools

## The agents' own CLIs (pins/agent-clis/package.json pins them), for the tests that
## drive them with a scripted model.
AGENTS := .tools/agents
$(AGENTS)/.installed: pins/agent-clis/package.json pins/agent-clis/package-lock.json
	@command -v npm >/dev/null || { echo "installing: $(APT_CHECK)"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_CHECK); }
	mkdir -p $(AGENTS)
	cp pins/agent-clis/package.json pins/agent-clis/package-lock.json $(AGENTS)/
	# `npm install` from the lock, not `npm ci`: npm leaves other platforms' optional
	# packages out of a lock file, and `npm ci` then calls it out of sync. Tried twice:
	# a registry that drops a download once does not fail the run.
	cd $(AGENTS) && { npm install --loglevel=error --no-audit --no-fund || \
	  npm install --loglevel=error --no-audit --no-fund; }
	touch $@

## The phone of the Matrix bridge's tests: matrix-js-sdk (pins/phone), on the agents' Node 22.
PHONE := .tools/phone
$(PHONE)/.installed: pins/phone/package.json pins/phone/package-lock.json $(AGENTS)/.installed
	mkdir -p $(PHONE)
	cp pins/phone/package.json pins/phone/package-lock.json $(PHONE)/
	cd $(PHONE) && { npm install --loglevel=error --no-audit --no-fund || \
	  npm install --loglevel=error --no-audit --no-fund; }
	touch $@

## One build serves every test: `cargo test` builds `userq` and the app's binary too
## (their integration tests run them), with the same features, so nothing is compiled
## twice; the Python and end-to-end tests drive those binaries.
build-tests:
	cargo test --workspace --all-targets --no-run

test-rust: build-tests
	cargo test --workspace --all-targets

## Tests that play a second user (tests/foreign.rs) need root: run as root, or
## through sudo. A plain `cargo test` leaves them out and changes nothing outside
## temporary folders.
test-system: deps-build
	cargo test --workspace --test foreign \
	  $(if $(SUDO),--config 'target.$(TRIPLE).runner="sudo"')

## Bash judges the policy: every command it allows, from the corpus of attacks and
## from commands generated out of the read-only set's grammars, run in bubblewrap
## under strace; what bash did must be what the rules allow; and every patch it allows,
## applied by Codex's own apply_patch from the pinned CLIs (tests/judge.rs).
test-judge: deps-build deps-test $(AGENTS)/.installed
	cargo test --workspace --test judge -- --nocapture

deps-test:
	@missing=$$(for p in $(APT_TEST); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing: $$missing"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

test-python: deps-test $(VENV)/.installed $(AGENTS)/.installed $(SYNAPSE)/.installed $(PHONE)/.installed build-tests
	$(VENV)/bin/python -m pytest -q -n 2 tests/python

test-e2e: deps-e2e $(SYNAPSE)/.installed $(AGENTS)/.installed $(PHONE)/.installed build-tests
	tests/e2e/run

## The reader of shell commands under libFuzzer for FUZZ_SECONDS: no panic, no hang,
## no crash in the parser beneath it. Part of `make test` (FUZZ_SECONDS=60). The target
## is cargo-fuzz's (`cargo fuzz run shell_reader` works too); it is built here with the
## flags cargo-fuzz passes for coverage without a sanitizer, all stable, so neither a
## nightly toolchain nor cargo-fuzz is needed, and as a crate of its own it builds in
## about a minute. It starts from the attacks of tests/judge/corpus.txt; inputs that
## found new paths are kept in fuzz/corpus between runs, and the judge (test-judge,
## after it in `make test`) runs every one of them the policy allows.
FUZZ_SECONDS ?= 120
test-fuzz:
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60
FUZZ_FLAGS := -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks
fuzz: deps-build
	RUSTFLAGS="$(FUZZ_FLAGS)" cargo build -q --release --manifest-path fuzz/Cargo.toml --target $(TRIPLE) --bin shell_reader
	mkdir -p fuzz/corpus/shell_reader fuzz/seeds/shell_reader
	awk '!/^#/ && NF { f = sprintf("fuzz/seeds/shell_reader/%04d", NR); printf "%s", $$0 > f; close(f) }' tests/judge/corpus.txt
	fuzz/target/$(TRIPLE)/release/shell_reader -max_total_time=$(FUZZ_SECONDS) -timeout=10 -max_len=4096 -print_final_stats=1 \
	  fuzz/corpus/shell_reader fuzz/seeds/shell_reader 2>&1 | grep -E '^(stat::number_of_executed_units|Done|==|SUMMARY|Test unit written|.*(panicked|deadly signal|ERROR))' ; \
	  test $${PIPESTATUS[0]} -eq 0

## Benchmarks: the in-process ask (criterion), memory per pending ask, socket round
## trips, MCP start-up against the peer server, a question left over a channel, the desktop app's latency and memory,
## an agent's hook from spawn to its question on screen, a long code review, the relay.
bench: $(VENV)/.installed $(AGENTS)/.installed $(SYNAPSE)/.installed $(PHONE)/.installed .tools/peer/.installed deps-e2e deps-test
	cargo bench --bench ask --bench pending_memory --bench socket --bench policy --bench pick
	cargo build --release --bin userq
	cargo build --release -p user-questions-desktop
	$(VENV)/bin/python benches/mcp_startup.py
	$(VENV)/bin/python benches/channel_figures.py
	tests/e2e/session $(VENV)/bin/python benches/desktop_figures.py
	tests/e2e/session $(VENV)/bin/python benches/window_cycles.py
	tests/e2e/session $(VENV)/bin/python benches/hook_figures.py
	tests/e2e/session $(VENV)/bin/python benches/review_figures.py
	USERQ_BIN=target/release/userq $(VENV)/bin/python benches/relay_figures.py
	USERQ_BIN=target/release/userq $(VENV)/bin/python benches/matrix_figures.py
	$(VENV)/bin/python benches/agent_hooks.py

## The peer MCP server the start-up and memory figures compare against.
.tools/peer/.installed:
	python3 -m venv .tools/peer
	.tools/peer/bin/pip install -q mcp-feedback-enhanced==2.8.5
	touch $@


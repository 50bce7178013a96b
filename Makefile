# The two commands of the README:
#   make run    install system packages, build, and open the app on the demo profile
#   make test   install test tools, then run every check and test (what CI runs)
#
# Builds go to one target dir outside the clone, reused between runs (Tauri builds
# are slow on small machines); override with CARGO_TARGET_DIR.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/aas-browser/target
export CARGO_TERM_COLOR ?= never
DEBUG := $(CARGO_TARGET_DIR)/debug

.PHONY: run test lint docs unit ui-unit smoke e2e bench-smoke package fuzz-replay package-windows test-windows package-aasmd

run:
	scripts/install-deps.sh run
	cargo build -p aas-browser
	$(DEBUG)/aas-browser

test: 
	scripts/install-deps.sh test
	$(MAKE) lint docs unit ui-unit smoke e2e bench-smoke fuzz-replay
	@echo "all checks and tests passed"

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	# The advisories check needs a git download these machines cannot reach: not run here.
	cargo deny check licenses bans sources
	python3 scripts/module-cycles.py
	scripts/check-layers.sh

# The book (docs/, mdBook; docs/book.toml) built outside the clone, then every link and
# image of the book and the README checked: files, headings, chapters in SUMMARY.md,
# README.md at most 250 lines (scripts/check-book.py).
docs:
	mdbook build docs -d $(abspath $(CARGO_TARGET_DIR))/book
	python3 scripts/check-book.py

unit:
	npm ci --prefix tests/oidc --no-audit --no-fund --loglevel=error
	cargo test --workspace
	# The keychain tests, against a real GNOME Keyring in a private D-Bus session.
	# The filter must match them: two tests passing, not zero.
	scripts/with-keyring.sh cargo test -p aas-app -p aas-cli -- --ignored keychain \
	  > $(CARGO_TARGET_DIR)/keychain-tests.log 2>&1 || { cat $(CARGO_TARGET_DIR)/keychain-tests.log; exit 1; }
	cat $(CARGO_TARGET_DIR)/keychain-tests.log
	test "$$(grep -c '^test .*keychain.* \.\.\. ok$$' $(CARGO_TARGET_DIR)/keychain-tests.log)" -ge 2

ui-unit:
	node --test tests/ui

smoke:
	cargo build -p aas-cli
	scripts/curl-smoke.sh $(DEBUG)/aasmd

# The app built with its test hooks (src-tauri/Cargo.toml, feature e2e-hooks): make run
# builds it again without them.
e2e:
	# axe-core, which test_accessibility.py runs inside the window.
	npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error
	cargo build -p aas-browser -p aas-cli --features aas-browser/e2e-hooks
	scripts/e2e.sh $(DEBUG)/aas-browser

# Every bench of bench/ once, small, one round, on the debug builds (the app as e2e builds
# it): that each still runs to its end against today's app and aasmd. No figure is judged;
# the reports go to $(CARGO_TARGET_DIR)/bench-smoke, not bench/*RESULTS.md (bench/smoke.sh).
bench-smoke:
	bench/smoke.sh

# Each fuzz target over its saved corpus once, no new inputs: what was found and fixed
# stays fixed. Nightly Rust and cargo-fuzz, own target dir (fuzz/README.md).
FUZZ_TARGET_DIR ?= $(HOME)/.cache/aas-browser/fuzz-target
fuzz-replay:
	targets=$$(cargo +nightly fuzz list) && [ -n "$$targets" ] || \
	  { echo "cargo fuzz list failed or found no fuzz target" >&2; exit 1; }; \
	for t in $$targets; do \
	  CARGO_TARGET_DIR=$(FUZZ_TARGET_DIR) cargo +nightly fuzz run \
	    --target-dir $(FUZZ_TARGET_DIR) $$t -- -runs=0 || exit 1; \
	done

# The .deb (Tauri's bundler), in $(CARGO_TARGET_DIR)/release/bundle/deb/; scripts/test-deb.sh
# installs and tries it.
package:
	scripts/install-deps.sh package
	cargo tauri build --bundles deb

# aasmd alone with the systemd units of the scheduled takes, for a server
# (docs/scheduled-takes.md): $(CARGO_TARGET_DIR)/release/aasmd_VERSION_ARCH.deb;
# scripts/test-deb-aasmd.sh installs and tries it.
package-aasmd:
	scripts/package-aasmd.sh

# Windows (issue 29): aas-browser.exe and aasmd.exe cross-built in release for
# x86_64-pc-windows-gnu in their own target dir ($(CARGO_TARGET_DIR)-windows), an NSIS
# installer and a portable zip in dist/windows/ (scripts/package-windows.sh says why
# makensis runs on our own script rather than Tauri's bundler).
package-windows:
	scripts/install-deps.sh windows
	scripts/package-windows.sh

# The Windows build tried under Wine, headless: not part of `make test` (a cold release
# cross-build takes ≈15 min on 2 cores). The Linux aasmd is the reference for the crawl.
test-windows: package-windows
	cargo build -p aas-cli
	scripts/test-windows.sh $(DEBUG)/aasmd

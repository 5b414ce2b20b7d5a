# Catalog: two commands do all set-up on a fresh Debian machine.
#   make run    install what is missing, build, create catalog.sqlite with the demo catalogs, serve
#               them at http://localhost:8080 (PORT=… to change; Ctrl-C stops)
#   make test   install what is missing, build, check that the client library's closure builds on
#               Apple platforms (scripts/check-darwin.py) and that its Getting started page builds
#               as written in a fresh package (scripts/getting-started-check.sh), run every test (Swift tests, the OpenAPI
#               conformance run with schemathesis against a live server, /metrics parsed by the
#               Prometheus client library (scripts/metrics-check.sh), the PostgreSQL parts on
#               a throwaway cluster, `catalog browse` under tmux, the client library's documentation
#               built with its samples compiled, every example of the README and docs/ run and
#               checked against the program by scripts/docs-tests.py, then the browser tests in
#               headless Chromium, the main screens checked with axe-core)
#   make bench  every benchmark figure beside its peer (catalog-bench: import, re-imports, JSON and
#               CSV import, the CATALOG_PROFILE breakdown, search beside FTS5 and Tantivy, sections;
#               postgres-bench.sh: PostgreSQL beside SQLite; deployment-bench.sh: the README's three
#               deployments side by side; client-bench; server-bench.sh beside nginx and Datasette;
#               attack-bench.sh), files in BENCH_DIR (/tmp/catalog-bench);
#               exits 0 when the measurements ran, goals met or not
#   make bench-postgres  the PostgreSQL figures alone
#   make browser-bench  the browser tests on a release build, with the keystroke-to-results
#               measurement on a 1,000,000-record catalog
#   make deb    the Debian package catalog_VERSION_ARCH.deb in this folder (scripts/build-deb.sh)
#   make test-deb  the package built, checked with lintian, installed, its unit's command run as the
#               catalog user, purged (scripts/test-deb.sh: as root; it installs a system package)
#   make fuzz   the libFuzzer targets (XML, JSON, CSV, SQLite cells, search queries, record JSON, feed bodies),
#               FUZZ_SECONDS (60) each; make test runs them FUZZ_CI_SECONDS (5) each
export PATH := /opt/swift/usr/bin:$(PATH)

SWIFT ?= swift
DB ?= catalog.sqlite
PORT ?= 8080
HOST ?= 127.0.0.1
BIN := .build/release/catalog
# Release builds link the Swift runtime statically, as the Debian package does: the same binary
# that ships is the one measured, and calls into the runtime (every retain and release) skip the
# shared library's indirection (an import of 1,000,000 records: 27.3-28.8 s dynamic, 22.8 s static).
RELEASE := -c release --static-swift-stdlib
FUZZ_SECONDS ?= 60
FUZZ_CI_SECONDS ?= 5
BENCH_DIR ?= /tmp/catalog-bench

.PHONY: check-assets run build test deps deps-test deb test-deb bench bench-10m bench-postgres bench-server bench-attack bench-client browser-bench docs fuzz fuzz-ci format lint clean

run: deps build
	@if [ ! -f "$(DB)" ]; then $(BIN) demo --db "$(DB)"; fi
	@$(BIN) catalogs --db "$(DB)"
	@for id in $$($(BIN) catalogs --db "$(DB)" | awk '{print $$1}'); do \
		echo; echo "== $$id: sections"; $(BIN) sections --catalog $$id --db "$(DB)" | awk -F'\t' '{printf "%s (%s)  ", $$1, $$2}'; echo; \
	done
	@echo
	exec $(BIN) serve --db "$(DB)" --host $(HOST) --port $(PORT)

deps:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

build:
	$(SWIFT) build $(RELEASE) --product catalog

test: deps-test lint check-assets
	$(SWIFT) build --build-tests
	scripts/check-darwin.py --self-test .build/debug
	scripts/check-darwin.py .build/debug
	scripts/getting-started-check.sh
	scripts/build-docs.sh .build/debug
	$(SWIFT) test --skip-build
	Fuzz/run-fuzzers.sh --seconds $(FUZZ_CI_SECONDS)
	scripts/api-conformance.sh .build/debug/catalog
	scripts/metrics-check.sh .build/debug/catalog
	scripts/test-postgres.sh .build/debug/catalog
	scripts/terminal-tests.sh .build/debug/catalog
	scripts/docs-tests.py .build/debug/catalog
	CATALOG_BROWSER_1M=0 scripts/browser-tests.sh .build/debug/catalog
	scripts/test-deb.sh

deb:
	@scripts/install-deps.sh deb
	scripts/build-deb.sh

test-deb: deps-test
	scripts/test-deb.sh

browser-bench: deps-test
	$(SWIFT) build $(RELEASE) --product catalog
	CATALOG_BROWSER_1M=1 scripts/browser-tests.sh .build/release/catalog

bench:
	@scripts/install-deps.sh bench
	$(SWIFT) build $(RELEASE) --product catalog
	cd Benchmarks && $(SWIFT) build $(RELEASE)
	@echo "make bench: started $$(date -u '+%F %T') UTC, load average $$(cut -d' ' -f1-3 /proc/loadavg), $$(nproc) cores"
	Benchmarks/.build/release/catalog-bench --catalog-binary .build/release/catalog --dir $(BENCH_DIR) $(BENCH_ARGS)
	Benchmarks/server/postgres-bench.sh --catalog-binary .build/release/catalog --dir $(BENCH_DIR) $(BENCH_ARGS)
	Benchmarks/server/deployment-bench.sh --catalog-binary .build/release/catalog $(DEPLOYMENT_BENCH_ARGS)
	Benchmarks/.build/release/client-bench --catalog-binary .build/release/catalog --dir $(BENCH_DIR) $(CLIENT_BENCH_ARGS)
	Benchmarks/server/server-bench.sh --catalog-binary .build/release/catalog --db $(BENCH_DIR)/bench.sqlite $(SERVER_BENCH_ARGS)
	Benchmarks/server/attack-bench.sh --catalog-binary .build/release/catalog --db $(BENCH_DIR)/bench.sqlite $(ATTACK_BENCH_ARGS)
	@echo "make bench: ended $$(date -u '+%F %T') UTC, load average $$(cut -d' ' -f1-3 /proc/loadavg)"

# Not part of `make bench` (which stays within an hour): 1,000,000 and then 10,000,000 records,
# the larger beside the smaller (Benchmarks/server/scale-bench.sh; SCALE_ARGS="--items 2000000" etc.).
bench-10m:
	@scripts/install-deps.sh bench
	$(SWIFT) build $(RELEASE) --product catalog
	cd Benchmarks && $(SWIFT) build $(RELEASE) --product catalog-bench
	Benchmarks/server/scale-bench.sh --catalog-binary .build/release/catalog $(SCALE_ARGS)

bench-postgres:
	@scripts/install-deps.sh bench
	$(SWIFT) build $(RELEASE) --product catalog
	cd Benchmarks && $(SWIFT) build $(RELEASE)
	Benchmarks/server/postgres-bench.sh --catalog-binary .build/release/catalog $(BENCH_ARGS)

bench-client:
	@scripts/install-deps.sh bench
	$(SWIFT) build $(RELEASE) --product catalog
	cd Benchmarks && $(SWIFT) build $(RELEASE) --product client-bench
	Benchmarks/.build/release/client-bench --catalog-binary .build/release/catalog --dir $(BENCH_DIR) $(CLIENT_BENCH_ARGS)

bench-server:
	@scripts/install-deps.sh bench
	$(SWIFT) build $(RELEASE) --product catalog
	Benchmarks/server/server-bench.sh --catalog-binary .build/release/catalog $(SERVER_BENCH_ARGS)
	Benchmarks/server/attack-bench.sh --catalog-binary .build/release/catalog $(ATTACK_BENCH_ARGS)

bench-attack:
	@scripts/install-deps.sh bench
	$(SWIFT) build $(RELEASE) --product catalog
	Benchmarks/server/attack-bench.sh --catalog-binary .build/release/catalog $(ATTACK_BENCH_ARGS)

docs:
	$(SWIFT) build --target CatalogClient
	scripts/build-docs.sh .build/debug

fuzz: deps
	Fuzz/run-fuzzers.sh --seconds $(FUZZ_SECONDS)

fuzz-ci: deps
	Fuzz/run-fuzzers.sh --seconds $(FUZZ_CI_SECONDS)

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks/Sources Fuzz/Sources Plugins Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks/Sources Fuzz/Sources Plugins

# The embedded web assets are real files: the script must parse, the JSON files must be JSON.
check-assets:
	@for file in Sources/CatalogServer/Web/Scripts/*.js; do node --check "$$file" || exit 1; done
	@for file in Sources/CatalogServer/Web/Scripts/*.js; do \
		lines=$$(wc -l < "$$file"); [ "$$lines" -le 400 ] || { echo "$$file has $$lines lines (at most 400)"; exit 1; }; done
	@for file in Sources/CatalogServer/Web/Assets/*.js; do node --check "$$file" || exit 1; done
	@for file in Sources/CatalogServer/API/openapi.json Sources/CatalogServer/Web/Assets/*.json Sources/CatalogServer/Web/Assets/*.webmanifest; do \
		[ -f "$$file" ] || continue; python3 -m json.tool "$$file" >/dev/null || { echo "$$file is not JSON"; exit 1; }; done

clean:
	rm -rf .build Benchmarks/.build Fuzz/.build

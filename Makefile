# gramc — run `make help` for the targets.
GO       ?= go
FUZZTIME ?= 1m
BENCHTIME ?= 1x
PKGS     := ./...

.PHONY: all help build install test test-main test-temporal lint gramfmt bench fuzz demo clean vscode-package playground playground-serve playground-test-setup

all: build

help:
	@echo "make build  - build bin/gramc"
	@echo "make install - go install ./cmd/gramc (into $$(go env GOBIN) or $$(go env GOPATH)/bin)"
	@echo "make test   - vet, gofmt check and all tests, the temporal module's included (what CI runs)"
	@echo "make test-temporal - only the temporal module's tests (durable runs on a real Temporal server)"
	@echo "make lint   - go vet, gofmt -l, staticcheck when installed"
	@echo "make bench  - run the benchmarks (BENCHTIME=$(BENCHTIME))"
	@echo "make fuzz   - run every fuzz target for FUZZTIME=$(FUZZTIME)"
	@echo "make demo   - check, schema, gen and run the bundled examples"
	@echo "make playground - write the playground's static site to playground/dist (docs/playground.md)"
	@echo "make playground-serve - build it and serve it on http://127.0.0.1:8039/"
	@echo "make vscode-package - build editors/vscode/gram-<version>.vsix (npm and network; not part of make test)"

build:
	@echo "== building bin/gramc (the first build compiles every dependency: under a minute on 2 cores)"
	$(GO) build -buildvcs=auto -o bin/gramc ./cmd/gramc

install:
	$(GO) install -buildvcs=auto ./cmd/gramc

lint:
	@echo "== go vet, gofmt -l"
	$(GO) vet $(PKGS)
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@if command -v staticcheck >/dev/null 2>&1; then staticcheck $(PKGS); fi

# gramfmt: the project's own .gram files are in the canonical layout, as its
# Go files are gofmt'd (./... skips testdata directories, as the go command does).
gramfmt:
	@echo "== gramc fmt -l ./... (the project's .gram files are canonical)"
	@out="$$($(GO) run ./cmd/gramc fmt -l ./...)" || exit 1; \
	  if [ -n "$$out" ]; then echo "gramc fmt would change:"; echo "$$out"; exit 1; fi

test: lint gramfmt mcpts mcpconformance gents
	@echo "== generated Go is fresh"
	$(GO) run ./cmd/gramc gen --check ./examples/hello
	$(GO) run ./cmd/gramc gen --check ./examples/triage
	@$(MAKE) --no-print-directory playground-test-setup
	@echo "== go test of the main module and of the temporal module, side by side (each one's output when it ends)"
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-main test-temporal

# test-main: the main module's tests (a cold cache compiles the test
# binaries first: about half a minute on 2 cores).
test-main:
	$(GO) test -count=1 $(PKGS)

# The npm packages of the Node tests, each directory's from its committed
# lock: npm ci, again only when package.json or package-lock.json changes.
# Without npm, or offline, the tests skip, saying so (and fail where
# .ci/run makes them required).
#   mcpts: the official TypeScript MCP SDK's clients that cli's
#     TestTypeScriptSDKClient drives gramc mcp with (GRAMC_MCPTS_TEST);
#   mcpconformance: the official MCP conformance suite that cli's
#     TestMCPConformance runs against gramc mcp --http
#     (GRAMC_MCPCONFORMANCE_TEST);
#   gents: what codegen/typescript's tests compile and run the generated
#     TypeScript with: tsc, Zod 4, Ajv, the MCP SDK,
#     json-schema-to-typescript (GRAMC_TS_TEST).
MCPTS := cli/testdata/mcpts
MCPCONF := cli/testdata/mcpconformance
GENTS := codegen/typescript/testdata/node
.PHONY: mcpts mcpconformance gents
mcpts:
	$(call npm_ci,$(MCPTS),TestTypeScriptSDKClient)
mcpconformance:
	$(call npm_ci,$(MCPCONF),TestMCPConformance)
gents:
	$(call npm_ci,$(GENTS),codegen/typescript's TypeScript tests)

# npm_ci DIR,TESTS: DIR's node_modules, or why TESTS will skip.
define npm_ci
@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(1)/node_modules/.package-lock.json; \
  else echo "== npm not found: $(2) will be skipped"; fi
endef

%/node_modules/.package-lock.json: %/package.json %/package-lock.json
	@echo "== npm ci in $*"
	@(cd $* && npm ci --no-audit --no-fund --loglevel=error) || \
	  echo "== npm ci failed in $* (offline?), so its tests skip (or fail where .ci/run makes them required)"

# test-temporal: the temporal/ module (its own go.mod, so the main module never
# downloads Temporal): unit tests with the SDK's test suite and an end-to-end
# test against a real Temporal server started in the test.
test-temporal:
	@echo "== temporal module (a cold cache compiles the Temporal server first, for gramc-temporal-dev and the tests: about 8 CPU-minutes, at least 4 minutes on 2 cores)"
	cd temporal && $(GO) vet ./... && $(GO) test -count=1 ./...

# playground: the static site of docs/playground.md (the WebAssembly module
# of the compiler core, the page, the examples); any static file server
# serves playground/dist.
playground:
	$(GO) run ./playground/build -o playground/dist

playground-serve:
	$(GO) run ./playground/build -o playground/dist -serve 127.0.0.1:8039

# playground-test-setup: the browser test's npm packages (playwright-core,
# mermaid), from the committed lock, when a Chromium is there to drive;
# without one, or offline, TestBrowser skips and says why.
BROWSER_TEST_DIR := playground/site/testdata/browser
playground-test-setup:
	@if ! command -v chromium >/dev/null 2>&1 && [ -z "$$GRAMC_CHROMIUM" ]; then \
	  echo "== browser test: no chromium on PATH, so playground/site's TestBrowser skips (apt-get install chromium)"; \
	elif [ -d $(BROWSER_TEST_DIR)/node_modules/playwright-core ] && [ -d $(BROWSER_TEST_DIR)/node_modules/mermaid ]; then \
	  echo "== browser test: chromium and $(BROWSER_TEST_DIR)/node_modules are there"; \
	elif ! command -v npm >/dev/null 2>&1; then \
	  echo "== browser test: no npm, so TestBrowser skips (it needs playwright-core and mermaid from $(BROWSER_TEST_DIR)/package-lock.json)"; \
	else \
	  echo "== browser test: npm ci in $(BROWSER_TEST_DIR) (playwright-core, mermaid)"; \
	  (cd $(BROWSER_TEST_DIR) && npm ci --no-audit --no-fund --loglevel=error) || \
	    echo "== browser test: npm ci failed (offline?), so TestBrowser skips"; \
	fi

bench:
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) $(PKGS)

# FUZZ_PKGS are the main module's packages with a Fuzz function in their
# tests, found from the tests themselves so that a new one is never left out.
# (temporal/ is its own module, with none.)
FUZZ_PKGS = $(shell grep -rl --include='*_test.go' --exclude-dir=node_modules --exclude-dir=temporal --exclude-dir=.git '^func Fuzz' . | xargs -n1 dirname | sort -u)

fuzz:
	@set -e; for p in $(FUZZ_PKGS); do \
	  for t in $$($(GO) test -list='^Fuzz' $$p | grep '^Fuzz'); do \
	    echo "== $$p $$t ($(FUZZTIME))"; \
	    $(GO) test -run='^$$' -fuzz="^$$t\$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=10s $$p; \
	  done; \
	done

demo: build
	@bash scripts/demo.sh

# vscode-package: the VS Code extension as a .vsix (needs Node, npm and the
# npm registry; make test checks the extension offline in editors/editors_test.go).
vscode-package:
	cd editors/vscode && npm install --no-audit --no-fund && npx --yes @vscode/vsce package

clean:
	rm -rf bin playground/dist

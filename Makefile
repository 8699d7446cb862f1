# gramc — run `make help` for the targets.
GO       ?= go
FUZZTIME ?= 1m
BENCHTIME ?= 1x
PKGS     := ./...

.PHONY: all help build test lint bench fuzz demo clean

all: build

help:
	@echo "make build  - build bin/gramc"
	@echo "make test   - vet, gofmt check and all tests (what CI runs)"
	@echo "make lint   - go vet, gofmt -l, staticcheck when installed"
	@echo "make bench  - run the benchmarks (BENCHTIME=$(BENCHTIME))"
	@echo "make fuzz   - run every fuzz target for FUZZTIME=$(FUZZTIME)"
	@echo "make demo   - check, schema, gen and run the bundled examples"

build:
	$(GO) build -o bin/gramc ./cmd/gramc

lint:
	$(GO) vet $(PKGS)
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@if command -v staticcheck >/dev/null 2>&1; then staticcheck $(PKGS); fi

test: lint
	$(GO) run ./cmd/gramc gen --check ./examples/hello
	$(GO) test -count=1 $(PKGS)

bench:
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) $(PKGS)

fuzz:
	@set -e; for p in ./fuzz ./syntax ./ast; do \
	  for t in $$($(GO) test -list='^Fuzz' $$p | grep '^Fuzz'); do \
	    echo "== $$p $$t ($(FUZZTIME))"; \
	    $(GO) test -run='^$$' -fuzz="^$$t\$$" -fuzztime=$(FUZZTIME) $$p; \
	  done; \
	done

demo: build
	@bash scripts/demo.sh

clean:
	rm -rf bin

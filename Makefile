# mediaspec: a mock server and conformance harness for the media-asset API.
# Every tool a target needs comes through the Go module proxy.

GO          ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHTIME   ?= 1s
BENCHCOUNT  ?= 1

.DEFAULT_GOAL := help

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## Build bin/mediaspec.
	$(GO) build -o bin/mediaspec ./cmd/mediaspec

.PHONY: run
run: ## Start the mock server with its defaults (http://127.0.0.1:2283/api, key mediaspec-dev-key).
	$(GO) run ./cmd/mediaspec serve

.PHONY: test
test: ## Check formatting and vet, then run every test with the race detector.
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

.PHONY: lint
lint: ## gofmt, go vet and staticcheck.
	@test -z "$$(gofmt -l .)" || { gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

.PHONY: bench
bench: ## Run the benchmarks (BENCHTIME, BENCHCOUNT to tune).
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -count $(BENCHCOUNT) ./...

.PHONY: conformance
conformance: ## Run the conformance features against the built-in mock (ARGS="--target URL ..." for another server).
	$(GO) run ./cmd/mediaspec check $(ARGS)

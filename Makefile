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

# make run: the built binary, not `go run`, which exits 1 when interrupted. On a terminal the
# server runs as a job of its own (set -m), the terminal's foreground job: Ctrl-C reaches it
# alone, it stops and exits 0, and make with it (make that receives a SIGINT itself dies of it).
.PHONY: run
run: build ## Start the mock server with its defaults (http://127.0.0.1:2283/api, key mediaspec-dev-key; ARGS="--latency 300ms" for more).
	@if [ -t 0 ]; then set -m; fi; ./bin/mediaspec serve $(ARGS)

# A package's tests may take minutes under the race detector on two cores
# (the conformance runs against the mock); go test's own ten minutes are
# too close. Every request the tests make has its own deadline.
TEST_TIMEOUT ?= 30m

# Packages whose tests run at once. Many tests wait on purpose (deadlines, stalled clients,
# settling pictures): with two at a time, as go test's default on two cores, a third of the
# CPU stood idle.
TEST_PACKAGES ?= 4

# The race detector watches every package of mediaspec and every library that shares memory
# between goroutines. The libraries of pure computation on pictures and passwords are compiled
# without its watch: the standard library's image codecs (image/...), image scaling
# (golang.org/x/image), WebP encoding and Argon2. Each works on buffers one goroutine owns, and
# their pixel and block loops, watched, took most of make test's time: one run of the whole spec
# against the mock took 81 s watched, 29 s with the last three unwatched, 22 s with all four.
RACE_UNWATCHED ?= image/... golang.org/x/image/... github.com/HugoSmits86/nativewebp golang.org/x/crypto/argon2
RACE_FLAGS     := -race $(foreach p,$(RACE_UNWATCHED),-gcflags=$(p)=-race=false)

# The seed sweep (seeds 1-200 against the listing's rules) finds faults of data, not of
# concurrency: under the race detector it runs one seed in ten, and make test runs it whole
# without the detector, beside the race run.
UNWATCHED_TESTS := ^TestEverySeedHoldsTheRules$$

# The race detector needs cgo, and so a C compiler: without one (go env CGO_ENABLED says 0
# then) the tests run without -race, and make test says so.
.PHONY: test
test: ## Check formatting and vet, then run every test with the race detector (without it if there is no C compiler).
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	@if [ "$$($(GO) env CGO_ENABLED)" != 1 ]; then \
		echo "make test: no C compiler (cgo is off), so the tests run without the race detector"; \
		echo "$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./..."; exec $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...; fi; \
	echo "$(GO) test -count=1 -run '$(UNWATCHED_TESTS)' ./conformance &  # beside the race run"; \
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '$(UNWATCHED_TESTS)' ./conformance & sweep=$$!; \
	echo "$(GO) test $(RACE_FLAGS) -p $(TEST_PACKAGES) -count=1 -timeout $(TEST_TIMEOUT) ./..."; \
	$(GO) test $(RACE_FLAGS) -p $(TEST_PACKAGES) -count=1 -timeout $(TEST_TIMEOUT) ./...; status=$$?; \
	wait $$sweep || status=1; exit $$status

.PHONY: lint
lint: ## gofmt, go vet and staticcheck.
	@test -z "$$(gofmt -l .)" || { gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

.PHONY: bench
# make bench: the Go benchmarks, then the floor table (scripts/perf floor): the listing and uploads
# of mediaspec serve against a bare net/http server that writes the same listing bytes and only
# hashes upload bodies (runs alternating, medians), what keeping uploads costs, idle memory, a
# large upload's peak, and --links 20000. FLOOR_ROUNDS, FLOOR_DURATION to tune.
FLOOR_ROUNDS   ?= 3
FLOOR_DURATION ?= 3s

bench: ## Run the benchmarks (BENCHTIME, BENCHCOUNT to tune), then the floor table (FLOOR_ROUNDS, FLOOR_DURATION).
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -count $(BENCHCOUNT) ./...
	@tmp="$$(mktemp -d)" && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/mediaspec" ./cmd/mediaspec && $(GO) build -o "$$tmp/perf" ./scripts/perf && \
	"$$tmp/perf" floor --mediaspec "$$tmp/mediaspec" --workdir "$$tmp" --rounds $(FLOOR_ROUNDS) --duration $(FLOOR_DURATION)

# make compare: Stoplight Prism, the mock server people use for OpenAPI documents, pinned to one
# version and installed with npm into a cache folder outside the repo. Prism ignores the /api
# prefix of the document's server, so it serves a copy of openapi/openapi.yaml whose paths carry
# /api (scripts/perf writes it); both servers then answer the same URLs. The same load (list,
# then upload, each after a warm-up) runs against Prism and then against mediaspec serve, and
# the table shows both and the ratios. scripts/perf stops both servers at the end, on an error
# and on Ctrl-C; the trap removes the temporary folder.
PRISM_VERSION       := 5.16.0
PRISM_DIR           ?= $(HOME)/.cache/mediaspec/prism-$(PRISM_VERSION)
COMPARE_DURATION    ?= 10s
COMPARE_CONCURRENCY ?= 16
COMPARE_UPLOAD_SIZE ?= 102400
SOAK_DURATION       ?= 60s
SOAK_ATTACK_SCALE   ?= 5
SOAK_UPLOAD_FILES   ?= 20000

.PHONY: compare
compare: ## Load Prism (pinned, cached in ~/.cache) and mediaspec serve alike, print both and the ratios (COMPARE_DURATION=10s).
	@if [ "$$($(PRISM_DIR)/node_modules/.bin/prism --version 2>/dev/null)" != "$(PRISM_VERSION)" ]; then \
		echo "Installing @stoplight/prism-cli@$(PRISM_VERSION) into $(PRISM_DIR)"; \
		mkdir -p "$(PRISM_DIR)" && \
		npm install --prefix "$(PRISM_DIR)" --save-exact --no-audit --no-fund --loglevel=error @stoplight/prism-cli@$(PRISM_VERSION); \
	fi
	@tmp="$$(mktemp -d)" && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/mediaspec" ./cmd/mediaspec && $(GO) build -o "$$tmp/perf" ./scripts/perf && \
	"$$tmp/perf" compare --mediaspec "$$tmp/mediaspec" --workdir "$$tmp" \
		--prism "$(PRISM_DIR)/node_modules/.bin/prism" --prism-version $(PRISM_VERSION) \
		--duration $(COMPARE_DURATION) --concurrency $(COMPARE_CONCURRENCY) --upload-size $(COMPARE_UPLOAD_SIZE)

# make soak: hostile clients (half-sent uploads, unread bodies, endless headers, unread
# listings and datasets: 84 connections per SOAK_ATTACK_SCALE) run through every phase. A
# mixed warm-up stores the SOAK_UPLOAD_FILES files the uploads go round; list-only load then
# (the RSS must not grow more than 8 MiB), 15 s of mixed load not judged (the heap climbs back to
# the level the list-only load let it fall from), then SOAK_DURATION of mixed load (4 lists : 1
# upload, every upload now a duplicate) with the RSS read from /proc every 2 s: the median of
# its last quarter must lie within 10% of the first quarter's (the collector moves single
# samples by more). It fails on more, and on any request error.
# SOAK_UPLOAD_FILES=0 makes every upload new: the RSS is then judged per asset stored.
.PHONY: soak
soak: ## Run mixed load on mediaspec serve for SOAK_DURATION (60s) and check that its memory stays flat.
	@tmp="$$(mktemp -d)" && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/mediaspec" ./cmd/mediaspec && $(GO) build -o "$$tmp/perf" ./scripts/perf && \
	"$$tmp/perf" soak --mediaspec "$$tmp/mediaspec" --workdir "$$tmp" --duration $(SOAK_DURATION) --attack-scale $(SOAK_ATTACK_SCALE) --upload-files $(SOAK_UPLOAD_FILES)

# make test-live: the live-event test with the upstream's own client, socket.io-client (pinned,
# installed with npm into a cache folder outside the repo, as for make compare) under node. go
# test alone downloads nothing: without the folder it skips that test, saying why.
SOCKETIO_VERSION := 4.7.5
SOCKETIO_DIR     ?= $(HOME)/.cache/mediaspec/socket.io-client-$(SOCKETIO_VERSION)

.PHONY: test-live
test-live: ## Run the live-event test with socket.io-client under node (pinned, cached in ~/.cache).
	@if [ "$$(cat "$(SOCKETIO_DIR)/node_modules/socket.io-client/package.json" 2>/dev/null | grep -o '"version": *"[^"]*"')" != '"version": "$(SOCKETIO_VERSION)"' ]; then \
		echo "Installing socket.io-client@$(SOCKETIO_VERSION) into $(SOCKETIO_DIR)"; \
		mkdir -p "$(SOCKETIO_DIR)" && \
		npm install --prefix "$(SOCKETIO_DIR)" --save-exact --no-audit --no-fund --loglevel=error socket.io-client@$(SOCKETIO_VERSION); \
	fi
	MEDIASPEC_SOCKETIO_CLIENT="$(SOCKETIO_DIR)" $(GO) test -count=1 -v -run '^TestLiveWithSocketIOClient$$' ./mockserver/

.PHONY: conformance
conformance: ## Run the conformance features against the built-in mock (ARGS=--reference-shapes: in the reference's shapes; ARGS="--target URL ..." for another server).
	$(GO) run ./cmd/mediaspec check $(ARGS)

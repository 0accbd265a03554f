# vaultgraph — make targets. `make help` lists them.
GO        ?= go
BIN       ?= bin/vaultgraph
FUZZTIME  ?= 10s
BENCHTIME ?= 2s
VAULT     ?= testvault

.PHONY: help build test lint deps fuzz bench demo clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

build: ## build bin/vaultgraph (pure Go, CGO_ENABLED=0)
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/vaultgraph

# Single-threaded tests that run thousands of SQLite queries: -race slows
# them tenfold and finds nothing in them, so they run without it.
NORACE := ^(TestHostile|TestCrash|TestSearchEval|TestKeywordLimitKeepsTheBest|TestRankTopKSameAsSQL|TestNarrowedReadsSameAsSQL)

test: lint deps ## vet, gofmt, import rules, all tests with -race (the hostile-input, crash, search-evaluation and ranking tests without it: they are single-threaded and slow under it); every fuzz target runs its seed corpus (testdata/fuzz), no random fuzzing
	$(GO) test -race -count=1 -timeout 20m -skip '$(NORACE)' ./...
	$(GO) test -count=1 -timeout 20m -run '$(NORACE)' . ./cmd/vaultgraph ./internal/store

lint: ## gofmt and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

deps: ## check that imports flow one way (graph: stdlib only; core never imports mcp or cmd)
	@./scripts/check-deps.sh

fuzz: ## random fuzzing of every fuzz target (parsers, rewriters, frontmatter editor, canvas, TOON, model loader, tokenizer, keyword search, snippets) for FUZZTIME each (FUZZTIME=5m make fuzz); run it before submitting a change to a parser or rewriter
	./scripts/fuzz.sh $(FUZZTIME)

bench: build ## parse throughput, response tokens per format, 10k-note load, graph queries, search; search recall@5/MRR; index times, size, peak RSS, watcher latency, builtin embedding throughput, search latency (10k, 100k notes)
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./vault ./graph ./embed
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 5x .
	$(GO) test -count=1 -run '^TestResponseTokens$$' -v ./mcp | grep 'tokens '
	@echo "search quality before fields, stems, anchor text and prior (testdata/search-eval/before.txt), then now:"
	@cat testdata/search-eval/before.txt
	$(GO) test -count=1 -run '^TestSearchEval$$' -v . | grep 'eval vault='
	$(BIN) bench --notes 10000,100000 --cold --search

PROFILE_NOTES ?= 10000

.PHONY: profile
profile: build ## CPU and allocation profiles of a cold `index` with the builtin embedder on a generated vault (PROFILE_NOTES=10000): bin/cpu.pprof, bin/heap.pprof and the top of each (any command writes them with VAULTGRAPH_CPUPROFILE / VAULTGRAPH_HEAPPROFILE)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(BIN) gen "$$tmp/vault" --notes $(PROFILE_NOTES) --seed 1 >/dev/null && \
	VAULTGRAPH_CPUPROFILE=bin/cpu.pprof VAULTGRAPH_HEAPPROFILE=bin/heap.pprof $(BIN) index "$$tmp/vault" --index "$$tmp/index.db" && \
	$(GO) tool pprof -top -nodecount=25 $(BIN) bin/cpu.pprof && \
	$(GO) tool pprof -sample_index=alloc_space -top -nodecount=25 $(BIN) bin/heap.pprof

PROFILE_READ_NOTES ?= 10000 100000

.PHONY: profile-read
profile-read: build ## CPU and heap profiles of a cold index (--embed none), a one-shot get-node and a serve start (initialize, one get_node) on generated vaults of PROFILE_READ_NOTES notes (10000 100000): bin/{cpu,heap}-{index,read,serve}-N.prof
	./scripts/profile.sh $(BIN) bin "$(PROFILE_READ_NOTES)"

REALVAULTS ?= ../shared/vaults

.PHONY: realvaults
realvaults: build ## real vaults (skipped without ../shared/vaults): kepano-obsidian checked against its hand-checked broken links, syntax, rename round trips; a 10,000-note generated vault; then the vault table (kepano, 10k, 100k: notes, links, broken, index time, peak RSS)
	@if [ ! -d "$(REALVAULTS)" ]; then echo "realvaults: $(REALVAULTS) is absent: skipped"; exit 0; fi; \
	status=0; \
	VAULTGRAPH_REALVAULTS="$(REALVAULTS)" $(GO) test -count=1 -timeout 60m -run '^TestRealVaults' -v . || status=1; \
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(BIN) bench --vault "$(REALVAULTS)/kepano-obsidian" --dir "$$tmp" || status=1; \
	for n in 10000 100000; do \
	  { $(BIN) gen "$$tmp/generated-$$n" --notes $$n --seed 1 && $(BIN) bench --vault "$$tmp/generated-$$n" --dir "$$tmp"; } || status=1; \
	  rm -rf "$$tmp/generated-$$n"; \
	done; \
	exit $$status

demo: build ## index testvault and run a few read commands
	$(BIN) vault-status --vault $(VAULT)
	$(BIN) get-node Home --vault $(VAULT) --depth 1
	$(BIN) get-hubs --metric pagerank --limit 5 --vault $(VAULT)
	$(BIN) find-path "Deep Note" "東京 Trip" --vault $(VAULT)

.PHONY: load
load: build ## load test: serve --http on a 10,000-note vault, 32 MCP clients mixing reads, searches and writes for 30 s while files change on disk; checks no errors, no lost writes, index equal to a fresh one (LOAD_ARGS="-load.duration 60s")
	@$(GO) test -tags load -count=1 -timeout 30m -run '^TestLoad$$' -v ./cmd/vaultgraph -args $(LOAD_ARGS) > bin/load.log 2>&1; rc=$$?; \
	  grep -E '^(\s+load_test.go:[0-9]+: load|\s+load_test.go:[0-9]+:|--- |ok|FAIL|panic)' bin/load.log; exit $$rc

CHROMIUM ?= /usr/bin/chromium

.PHONY: e2e e2e-web e2e-perf web-vendor
e2e: build ## official clients: MCP Inspector CLI on the server, reference TOON decoder on every read command (pinned Node and npm packages into e2e/.cache); the web app in headless Chromium (e2e-web)
	BIN=$(BIN) ./e2e/inspector.sh
	BIN=$(BIN) ./e2e/toon-roundtrip.sh
	$(MAKE) e2e-web

e2e-web: build ## the web app in headless Chromium ($(CHROMIUM)): search, note, wikilink, backlinks, graph pixels, path, hubs, tags, live edits, the XSS note on testvault; on a generated 10,000-note vault the global graph drawn, moved, held, hovered and clicked, a note page, a search and a path (timings reported, not checked); screenshots in e2e/out/
	cd e2e/web && BIN=$(abspath $(BIN)) CHROMIUM=$(CHROMIUM) $(GO) test -tags e2e -count=1 -timeout 15m -run '^(TestWebApp|TestWebGraph10k)$$' -v .

e2e-perf: build ## TestWebGraph10k with its timings checked: first drawing within 2 s, pan/zoom at 30 fps or more (run it on a quiet machine; e2e/out/perf-10k.txt)
	cd e2e/web && E2E_PERF_LIMITS=1 BIN=$(abspath $(BIN)) CHROMIUM=$(CHROMIUM) $(GO) test -tags e2e -count=1 -timeout 20m -run '^TestWebGraph10k$$' -v .

web-vendor: ## refresh web/assets/vendor/graph.js (sigma.js, graphology, ForceAtlas2) and its licences from npm at the versions web/vendor/package.json pins
	./web/vendor/build.sh

clean: ## remove build output
	rm -rf bin

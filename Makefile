# mbopt — see README.md. Every target works on a fresh machine with Go installed.
GO ?= go
MODULE_EXAMPLE := example.com/tinytsdb
PROFILES := testdata/profiles/example

.PHONY: all build demo demo-offline test test-short bench lint golden profiles clean

all: lint test

build:
	$(GO) build ./...

## demo: profile the bundled example module (its application workload and every
## benchmark) and print coverage, the minimal suite and recommendations
demo:
	$(GO) run ./cmd/mbopt run testdata/example \
		--app-cmd 'go run ./cmd/appbench -duration 10s -cpuprofile {profile}' \
		--recommend 5

## demo-offline: the same analysis on the committed profiles, in a second
demo-offline:
	$(GO) run ./cmd/mbopt analyze \
		--app $(PROFILES)/app.pprof \
		--micro $(PROFILES)/micro \
		--module $(MODULE_EXAMPLE) \
		--recommend 5

## test: the whole test suite (what CI runs)
test:
	$(GO) test -count=1 -timeout 45m ./...

## test-short: the test suite without the slow tests (-short: compare's A/A
## over 20 seeds and --until-stable comparison, the sharded collections)
test-short:
	$(GO) test -count=1 -short ./...

## bench: performance figures (synthetic graphs, end-to-end decoding and
## mbopt analyze against the decoding floor; the time to a verdict of mbopt
## compare on the example module; coverage collection against sampled
## collection; an instructions compare of 3 benchmarks of about 1 ms/op
## against go test -bench -count 10 on both revisions; the cost and MDEs of
## an A/A instructions compare of 3 benchmarks of 40-150 us/op against go
## test -bench -count 1 on both revisions)
bench:
	bash scripts/bench.sh
	bash scripts/bench-compare.sh
	bash scripts/bench-collect.sh
	bash scripts/bench-instructions.sh
	bash scripts/bench-aa.sh

## lint: gofmt, go vet and staticcheck (pinned; go run fetches it from the
## module proxy on first use, about 45 seconds, then about 25)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

## golden: rewrite every golden file after an intended output change: the
## Golden tests of each package whose tests use testkit/golden, with -update
golden:
	$(GO) test -count=1 $$($(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | awk '/ github.com\/mbopt\/mbopt\/testkit\/golden( |$$)/ {print $$1}') -run Golden -update

## profiles: re-collect the example's profiles (about two minutes)
profiles:
	bash testdata/example/collect-profiles.sh

clean:
	rm -f mbopt

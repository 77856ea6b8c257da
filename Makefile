# Shrink — `make run` (build release, thumbnail a default photo) and `make test` (build, run all tests).
# Both install missing Debian packages first (scripts/install-deps).

SWIFT ?= swift
RELEASE_FLAGS = -c release --static-swift-stdlib
BIN = .build/release/shrink
DEFAULT_INPUT = /usr/share/wallpapers/FallenLeaf/contents/images/2560x1600.jpg
INPUT ?= $(DEFAULT_INPUT)
SIZE ?= 400

.PHONY: run test build deps bench quality clean fuzz check-dependents

FUZZ_SECONDS ?= 600

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# The main job: what the default photo would cost decoded naively versus what Shrink held.
run: build
	@mkdir -p out
	$(BIN) info $(INPUT)
	$(BIN) thumbnail $(INPUT) --size $(SIZE) -o out/thumbnail.jpg

# Unit and end-to-end tests (the end-to-end tests run the release CLI built by `build`).
test: build
	$(SWIFT) build --build-tests
	SHRINK_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build --parallel
	scripts/check-quality
	scripts/check-png
	scripts/check-regions
	scripts/check-corrupt
	scripts/check-agreement
	scripts/check-formats
	scripts/check-inputs
	scripts/check-progressive
	scripts/check-colour
	scripts/fuzz 5
	scripts/check-sanitizers

# An app depending on Shrink and Hummingbird builds and runs (CI runs it after `make test`).
check-dependents: deps
	scripts/check-dependents

# A fuzz campaign: every libFuzzer harness for FUZZ_SECONDS (600 by default), after replaying the regressions.
fuzz: deps
	scripts/fuzz $(FUZZ_SECONDS)

bench: build
	scripts/bench
	scripts/bench-montage
	scripts/bench-progressive
	scripts/bench-inputs
	scripts/bench-formats

clean:
	rm -rf .build .build-fuzz .build-dependents out

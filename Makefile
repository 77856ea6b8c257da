# Shrink — `make run` (build release, thumbnail a default photo) and `make test` (build, run all tests).
# Both install missing Debian packages first (scripts/install-deps).

SWIFT ?= swift
# Release builds start fast: the Swift runtime is linked in (--static-swift-stdlib), and so is the C++ library it
# needs (a directory holding only libstdc++.a is searched before the compiler's own, so -lstdc++ finds the
# archive: loading libstdc++.so cost 0.6 ms of CPU at every start); no $ORIGIN run path either, which made the
# loader try the binary's directory for every library first (23 failed opens).
STATIC_CXX = $(CURDIR)/.build/static-libstdc++
# Linked by the toolchain's lld with the relative relocations packed (DT_RELR, read by glibc 2.36 and later): the
# loader applies the binary's 42,000 of them from an 8 KiB table instead of a 1 MB one, 0.1 ms less CPU at every
# start. Without an ld.lld beside swift, or with an older glibc, the default linker and relocations stay.
RELR_FLAGS := $(shell lld="$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/ld.lld"; \
	glibc=$$(getconf GNU_LIBC_VERSION 2>/dev/null | cut -d' ' -f2); \
	[ -x "$$lld" ] && [ -n "$$glibc" ] && [ "$$(printf '2.36\n%s\n' "$$glibc" | sort -V | head -n1)" = 2.36 ] \
	&& echo "-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs")
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xlinker -L$(STATIC_CXX) $(RELR_FLAGS)
# The release CLI for `make run` and the end-to-end checks leaves the server out (Hummingbird and swift-nio take
# 6–8 minutes to build in release on 2 cores); `make serve` and the server benchmarks build it with the server.
LIGHT_FLAGS = --disable-default-traits -debug-info-format none
BIN = .build/release/shrink
SERVE_ROOT ?= $(if $(wildcard ../shared/corpus/MANIFEST.tsv),../shared/corpus,/usr/share/wallpapers)
SERVE_BIND ?= 127.0.0.1:8080
SERVE_BUDGET ?= 256M
DEFAULT_INPUT = /usr/share/wallpapers/FallenLeaf/contents/images/2560x1600.jpg
INPUT ?= $(DEFAULT_INPUT)
SIZE ?= 400
PREFIX ?= /usr/local

.PHONY: run test fuzz-prebuild test-no-corpus build build-server install docs serve deps bench bench-serve soak-serve cluster-test quality clean fuzz check-examples

FUZZ_SECONDS ?= 600

deps:
	@scripts/install-deps
	@mkdir -p "$(STATIC_CXX)"; archive=; \
	for compiler in "$$(dirname "$$(command -v $(SWIFT))")/clang" clang cc; do \
	  candidate=$$("$$compiler" -print-file-name=libstdc++.a 2>/dev/null) && [ -f "$$candidate" ] && { archive=$$candidate; break; }; \
	done; \
	if [ -n "$$archive" ]; then ln -sf "$$archive" "$(STATIC_CXX)/libstdc++.a"; \
	else echo "make: no libstdc++.a found; the release binary links libstdc++.so (a slower start)" >&2; fi

build: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(LIGHT_FLAGS) --product shrink

# The release CLI with `shrink serve` and `shrink sign`.
build-server: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product shrink

# The CLI with the server under $(PREFIX) (/usr/local by default; DESTDIR for packaging): bin/shrink, its man page
# (generated from the binary) and bash, zsh and fish completions.
install: build-server
	scripts/install $(PREFIX) $(CURDIR)/$(BIN)

# The image server on $(SERVE_BIND) over $(SERVE_ROOT), signing off (it warns), with the gallery at /_/browse/: try
#   curl -o t.jpg http://$(SERVE_BIND)/insecure/rs:fit:300:300/plain/local:///jpeg/…
serve: build-server
	@echo "gallery: open http://$(SERVE_BIND)/_/browse/ (loopback only)"
	$(BIN) serve --bind $(SERVE_BIND) --root $(SERVE_ROOT) --budget $(SERVE_BUDGET) --gallery

# The main job: what the default photo would cost decoded naively versus what Shrink held.
run: build
	@mkdir -p out
	$(BIN) info $(INPUT)
	$(BIN) thumbnail $(INPUT) --size $(SIZE) -o out/thumbnail.jpg

# `make test`'s steps keep their output in $(LOGS) (shown as they run too) for scripts/test-summary, which ends the
# run with what ran, what was skipped and why, the corpus files each check read and each step's wall time (from its
# `STEP.start` stamp to its log's last write).
SHELL := /bin/bash
LOGS = .build/test-output/logs
logged = set -o pipefail; touch $(LOGS)/$(1).start; $(2) 2>&1 | tee $(LOGS)/$(1).log
# A step of the background lane: its output only in its log, shown whole when it fails.
quietly = touch $(LOGS)/$(1).start; $(2) > $(LOGS)/$(1).log 2>&1 || { cat $(LOGS)/$(1).log; echo "make: $(1) failed"; exit 1; }
SWIFT_TEST = SHRINK_BIN=$(CURDIR)/$(BIN) SHRINK_DEBUG_BIN=$(CURDIR)/.build/debug/shrink $(SWIFT) test --skip-build --parallel
GALLERY = SHRINK_SERVER_BIN=$(CURDIR)/.build/debug/shrink scripts/check-gallery
# The checks that read the corpus: ../shared/corpus (or SHRINK_CORPUS), else the generated one
# (scripts/generated_corpus.py), which `make test-no-corpus` makes them read.
CORPUS_CHECKS = check-quality check-png check-regions check-corrupt check-agreement check-formats check-animation check-progressive check-colour check-smartcrop
# The steps that keep one core busy (DocC, one process at a time, a browser) run in `make test` as a lane beside the
# corpus checks, which keep about 1.8 of two cores busy with their worker pools, so the other core does not idle.
POOLED_CHECKS = $(filter-out check-animation,$(CORPUS_CHECKS))
SERIAL_LANE = $(call quietly,docs,scripts/docs); $(call quietly,check-animation,scripts/check-animation); \
	$(call quietly,check-gallery,$(GALLERY)); $(call quietly,check-clients,scripts/check-clients)

# Unit and end-to-end tests (the end-to-end tests run the release CLI built by `build`; the server's tests
# run the debug build, server included, that `--build-tests` makes).
# (No debug info in the test build: it is not read here, and it costs time in every clean build. The index store
# stays: test discovery on Linux reads it.)
# The fuzz harnesses' sanitizer build (.build-fuzz/, a scratch path of its own) starts in the background before the
# release and debug builds, filling the cores they leave idle; the fuzz pass and the sanitizer sweep wait for it and
# use what it built (SHRINK_FUZZ_PREBUILT: scripts/fuzz --prebuild).
fuzz-prebuild: deps
	@mkdir -p .build-fuzz && (scripts/fuzz --prebuild > .build-fuzz/prebuild.log 2>&1 &)

test: fuzz-prebuild build
	@rm -rf $(LOGS) && mkdir -p $(LOGS) && touch $(LOGS)/started
	$(SWIFT) build --build-tests -debug-info-format none
	@touch $(LOGS)/debug-build.stamp
	$(call logged,swift-test,$(SWIFT_TEST))
	$(call logged,check-format,scripts/check-format)
	$(call logged,check-inputs,scripts/check-inputs)
	$(call logged,check-install,scripts/check-install)
	$(call logged,check-manifest,scripts/check-manifest)
	@echo "make: docs, check-animation, check-gallery and check-clients run beside the corpus checks (logs in $(LOGS))"
	@( $(SERIAL_LANE) ) & lane=$$!; \
	for check in $(POOLED_CHECKS); do $(call logged,$$check,scripts/$$check) || { kill $$lane; exit 1; }; done; \
	wait $$lane
	$(call logged,fuzz,SHRINK_FUZZ_PREBUILT=1 scripts/fuzz 2)
	$(call logged,check-sanitizers,SHRINK_FUZZ_PREBUILT=1 scripts/check-sanitizers)
	@scripts/test-summary $(LOGS)

# `make test` as a user's clone without the corpus runs it (SHRINK_CORPUS=none), over the steps that mode changes:
# the Swift tests (their corpus traits skip, by name), every check that reads the corpus (on generated inputs), the
# gallery, the fuzz pass (generated seeds) and the sanitizer sweep. It reuses `make test`'s builds (run that first);
# the summary fails the pass if a step neither ran on generated inputs nor said why it skipped. CI runs it.
test-no-corpus: LOGS = .build/test-output/no-corpus-logs
test-no-corpus: export SHRINK_CORPUS = none
test-no-corpus:
	@rm -rf $(LOGS) && mkdir -p $(LOGS) && touch $(LOGS)/started
	$(call logged,swift-test,$(SWIFT_TEST))
	@for check in $(CORPUS_CHECKS); do $(call logged,$$check,scripts/$$check) || exit 1; done
	$(call logged,check-gallery,$(GALLERY))
	$(call logged,fuzz,SHRINK_FUZZ_PREBUILT=1 scripts/fuzz 2)
	$(call logged,check-sanitizers,SHRINK_FUZZ_PREBUILT=1 scripts/check-sanitizers)
	@scripts/test-summary --no-corpus $(LOGS)

# The library's DocC archive in .build/docs/Shrink.doccarchive: fails on any DocC warning and on any public symbol
# without a doc comment (scripts/docs; `make test` runs it too).
docs: deps
	scripts/docs

# An app depending on Shrink and Hummingbird builds and runs (CI runs it after `make test`).
check-examples: deps
	scripts/check-examples

# A fuzz campaign: every libFuzzer harness for FUZZ_SECONDS (600 by default), after replaying the regressions.
fuzz: deps
	scripts/fuzz $(FUZZ_SECONDS)

# shrink serve against thumbor 7.8 under wrk (loopback only); needs the server build.
bench-serve: build-server
	scripts/bench-serve

# Three nodes behind Debian's nginx (deploy/nginx/shrink.conf) on 127.0.0.1: load, a node killed and restarted,
# a thundering herd; prints one JSON line (docs/SCALING.md). About 2 minutes after the server build; CI runs it.
# First the deployment files are checked against the binary (scripts/check-deploy).
cluster-test: build-server
	scripts/check-deploy
	scripts/cluster

# 30 minutes of c=16 over mixed formats: resident memory and descriptors must not grow (see the script).
soak-serve: build-server
	scripts/soak-serve

bench: build
	scripts/bench
	scripts/bench-montage
	scripts/bench-progressive
	scripts/bench-inputs
	scripts/bench-formats

clean:
	rm -rf .build .build-fuzz .build-examples .build-examples-custom out

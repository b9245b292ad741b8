# icnsim: the two commands a newcomer needs (see README.md).
#   make run   - install missing Debian packages, build (Release), run the main job
#   make test  - install missing Debian packages, build (Release), run the test suite
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: run test test-sanitize fuzz format-check build build-simulator deps deps-plots bench clean

deps:
	bash scripts/install-deps.sh

deps-plots:
	bash scripts/install-deps.sh --with-plots

# Installs what compiling needs, then compiles while apt installs the rest (scripts/build.sh).
build:
	bash scripts/build.sh $(BUILD) $(JOBS)

# The simulator and its Python package without the test suite: what the main job needs.
build-simulator:
	bash scripts/build.sh $(BUILD) $(JOBS) simulator

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer (clang, -O1), in the
# build the fuzz targets share (scripts/fuzz.sh configures it the same way).
test-sanitize: deps
	FUZZ_BUILD=$(BUILD)-asan bash scripts/fuzz.sh --configure-only
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && ctest --output-on-failure -j $(JOBS)

# The C++ files changed since .clang-format was added are formatted by it.
format-check:
	bash scripts/install-deps.sh --with-format
	bash scripts/check-format.sh

# The libFuzzer targets over every reader of user input, one minute each (clang).
fuzz:
	FUZZ_BUILD=$(BUILD)-asan bash scripts/fuzz.sh 30

run: build-simulator
	BIN=$(BUILD)/icnsim bash scripts/run-main.sh

bench: build
	$(BUILD)/icnsim bench

clean:
	rm -rf $(BUILD) $(BUILD)-asan out

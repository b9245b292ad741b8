# icnsim: the two commands a newcomer needs (see README.md).
#   make run   - install missing Debian packages, build (Release), run the main job
#   make test  - install missing Debian packages, build (Release), run the test suite
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: run test test-sanitize fuzz format-check build deps deps-plots bench clean

deps:
	bash scripts/install-deps.sh

deps-plots:
	bash scripts/install-deps.sh --with-plots

build: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer (Debug build).
test-sanitize: deps
	cmake -S . -B $(BUILD)-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DICNSIM_SANITIZE=ON
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && ctest --output-on-failure -j $(JOBS)

# The C++ files changed since .clang-format was added are formatted by it.
format-check:
	bash scripts/install-deps.sh --with-format
	bash scripts/check-format.sh

# The libFuzzer target over the configuration loader and validate, one minute (clang).
fuzz:
	bash scripts/fuzz.sh 60

run: deps-plots build
	BIN=$(BUILD)/icnsim bash scripts/run-main.sh

bench: build
	$(BUILD)/icnsim bench

clean:
	rm -rf $(BUILD) $(BUILD)-asan build-fuzz out

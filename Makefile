# pmubench build.  `make` builds, `make check` runs every test, `make demo`
# runs the shipped demo scenario.  See README.md.

CC ?= cc
CFLAGS ?= -O2 -g
STD := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN := -Wall -Wextra -Werror
EXTRA ?=
BUILD ?= build
ALL_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(EXTRA) -I.
LDFLAGS_ALL = $(EXTRA)

LIB_SRCS := $(sort $(wildcard pmu/*.c bench/*.c))
CLI_SRCS := $(sort $(wildcard cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
LIB := $(BUILD)/libpmubench.a
BIN := $(BUILD)/pmubench
NEED := sh tools/need-packages.sh

.PHONY: all check unit-tests test-deps demo asan memcheck coverage clang-check fuzz clean

all: $(BIN) $(LIB)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJS) $(LIB)

$(BUILD)/tests/%: tests/unit/%.c $(LIB) | test-deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDFLAGS_ALL) -lcmocka

test-deps:
	@$(NEED) /usr/include/cmocka.h libcmocka-dev

unit-tests: $(UNIT_BINS)

# The tests: cmocka unit tests, then every bench script against its
# expected output.  RUN_WRAPPER runs each under valgrind for memcheck.
check: all unit-tests clang-check
	@sh tests/run_tests.sh $(BUILD) $(RUN_WRAPPER)

# Warning-free under clang as well as gcc: the library, the CLI, the tests.
clang-check: test-deps
	@$(NEED) clang clang
	@clang $(STD) $(WARN) -I. -fsyntax-only $(LIB_SRCS) $(CLI_SRCS) $(UNIT_SRCS) tests/fuzz/*.c

demo: $(BIN)
	$(BIN) run tests/bench/demo.pmu --vcd $(BUILD)/demo.vcd
	@echo "waveform: $(BUILD)/demo.vcd (open it with gtkwave)"

asan:
	$(MAKE) BUILD=build/asan CC=clang CFLAGS="-O1 -g" \
	    EXTRA="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" check

memcheck:
	@$(NEED) valgrind valgrind
	$(MAKE) BUILD=build/memcheck RUN_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full \
	    --show-leak-kinds=all --errors-for-leak-kinds=all" check

# Line coverage per directory with gcov (part of gcc).
coverage:
	rm -rf build/coverage
	$(MAKE) BUILD=build/coverage CFLAGS="-O0 -g" EXTRA="--coverage" check
	@sh tests/coverage_report.sh build/coverage

# libFuzzer on the script parser, seeded with the bench scripts.
FUZZ_SECONDS ?= 60
fuzz:
	@$(NEED) clang clang "$$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" libclang-rt-14-dev
	$(MAKE) BUILD=build/fuzz CC=clang CFLAGS="-O1 -g" \
	    EXTRA="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" build/fuzz/libpmubench.a
	clang $(STD) $(WARN) -I. -g -fsanitize=fuzzer,address,undefined tests/fuzz/fuzz_script.c \
	    build/fuzz/libpmubench.a -o build/fuzz/fuzz_script
	@mkdir -p build/fuzz/corpus
	cp tests/bench/*.pmu tests/bench/errors/*.pmu build/fuzz/corpus/ 2>/dev/null || true
	build/fuzz/fuzz_script -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build/fuzz/corpus

clean:
	rm -rf build

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)

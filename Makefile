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

LIB_SRCS := $(sort $(wildcard util/*.c pmu/*/*.c bench/*.c traces/*.c isa/*.c sim/*/*.c apps/*/*.c charts/*.c))
CLI_SRCS := $(sort $(wildcard cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
LIB := $(BUILD)/libpmubench.a
BIN := $(BUILD)/pmubench
# The x86 decoder builds on capstone (docs/isa.md).
LIBS := -lcapstone

.DEFAULT_GOAL := all

# ---- What each goal needs.  tools/need.sh tries each capability (links a
# program, runs a tool) and installs the Debian packages of the missing ones
# before anything is built (as a non-root user it prints the apt-get line
# and make stops).  The check runs once, in the make the user started (a
# recursive make inherits NEEDS_CHECKED), and not for make -n or -q.
# M32=no builds without 32-bit programs (no gcc-multilib): the recorder's
# x86 tool, the wc study and the paper's programs are then 64-bit.
M32 ?= yes
# A kernel without IA-32 emulation runs no 32-bit program: the build is
# then M32=no's, said in one line (tools/need.sh tries the kernel with a
# 32-bit program of its own, before gcc-multilib would be installed).
ifneq ($(M32),no)
ifneq ($(origin M32),command line)
ifeq ($(NEEDS_CHECKED),)
ifneq ($(shell sh tools/need.sh --try i386 && echo yes),yes)
$(info make: this kernel runs no 32-bit (i386) programs: building as with M32=no)
M32 := no
endif
endif
endif
endif
NEEDS_all := capstone valgrind $(if $(filter no,$(M32)),,m32)
NEEDS_demo := $(NEEDS_all)
NEEDS_paper := $(NEEDS_all) objdump
# as --32 and ld -m elf_i386 (binutils, which objdump's capability tries)
NEEDS_validate := $(NEEDS_all) objdump
NEEDS_unit-tests := capstone cmocka
NEEDS_libpfm4-diff := capstone libpfm4
NEEDS_objdump-check := capstone objdump
NEEDS_clang-check := capstone cmocka libpfm4 libpng clang
NEEDS_png-pixels := libpng
NEEDS_pipeview-check :=
NEEDS_check-layers :=
NEEDS_accuracy-deps := $(if $(filter no,$(M32)),,m32)
NEEDS_emulate-programs := $(if $(filter no,$(M32)),,m32)
# rsvg, libpng: tests/cli_plot.sh renders each SVG the commands write;
# parallel: tests/cli_sweep.sh runs a sweep through GNU parallel;
# msrtools: tests/cli_emulate.sh runs msr-tools' wrmsr and rdmsr emulated.
NEEDS_check := $(NEEDS_all) cmocka libpfm4 objdump clang rsvg libpng parallel msrtools
NEEDS_coverage := $(NEEDS_check)
NEEDS_bench := $(NEEDS_check) time
NEEDS_asan := $(NEEDS_check) asan
NEEDS_memcheck := $(NEEDS_check)
NEEDS_fuzz := capstone clang fuzzer
NEEDS_clean :=
NEEDS_demo-pmu := capstone
needs_of = $(if $(filter undefined,$(origin NEEDS_$(1))),$(NEEDS_all),$(NEEDS_$(1)))
NEEDS := $(sort $(foreach goal,$(or $(MAKECMDGOALS),all),$(call needs_of,$(goal))))
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))$(findstring q,$(firstword -$(MAKEFLAGS)))
ifeq ($(NEEDS_CHECKED)$(DRY_RUN),)
ifneq ($(NEEDS),)
ifneq ($(shell CC='$(CC)' VG_LIBDIR='$(VG_LIBDIR)' sh tools/need.sh $(NEEDS) >&2 && echo ok),ok)
$(error tools/need.sh: missing packages (the line above says which))
endif
endif
endif
export NEEDS_CHECKED := yes
export M32
# -m32 when the compiler builds static 32-bit programs, else nothing; the
# programs built with it depend on M32_STAMP, which changes with it, so
# that they are rebuilt when it does (after gcc-multilib is installed).
M32_FLAG := $(if $(filter no,$(M32)),,$(shell CC='$(CC)' sh tools/need.sh --try m32 && echo -m32))
M32_STAMP := $(BUILD)/m32-flag
ifneq ($(NEEDS),)
$(shell mkdir -p $(BUILD) && [ "$$(cat $(M32_STAMP) 2>/dev/null)" = "m32=$(M32_FLAG)" ] || \
    echo "m32=$(M32_FLAG)" >$(M32_STAMP))
endif

include traces/recorder/recorder.mk
include traces/wc/wc.mk
include traces/paper/paper.mk
include tests/validate/validate.mk
include tests/emulate/emulate.mk

.PHONY: accuracy-deps paper validate emulate-programs
.PHONY: all check unit-tests libpfm4-diff objdump-check bench demo demo-pmu \
    asan memcheck coverage clang-check check-layers fuzz clean

all: $(BIN) $(LIB) recorder

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJS) $(LIB) $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.c,$^) $(LIB) $(LDFLAGS_ALL) -lcmocka $(LIBS)

# Unit-test helpers, compiled into the tests that use them: the models'
# hand-made traces; a machine by name and a folder's entries.
UNIT_HELPER_SRCS := tests/unit/model_trace.c tests/unit/unit_helpers.c
MODEL_TRACE_TESTS := $(addprefix $(BUILD)/tests/,test_nb_model test_nb_model_ht \
    test_nb_model_tagging test_nb_model_memory test_nb_model_bounds test_nb_model_routing test_nb_model_timing \
    test_nb_pipeview \
    test_p5_model \
    test_machine test_stat_passes test_stat_interval test_sample_run test_pmu_waveform)
$(MODEL_TRACE_TESTS): tests/unit/model_trace.c tests/unit/model_trace.h
UNIT_HELPER_TESTS := $(addprefix $(BUILD)/tests/,test_machine test_stat_events test_p5mon_command \
    test_stat_record test_pmu_waveform)
$(UNIT_HELPER_TESTS): tests/unit/unit_helpers.c tests/unit/unit_helpers.h
# The CLI's progress line (not in the library) into its test, with the
# CLI's messages (its warning).
$(BUILD)/tests/test_progress_line: cli/progress.c cli/progress.h cli/exit_status.c cli/exit_status.h

# The unit tests are every tests/unit/test_*.c; the binary of one renamed
# or removed would still run in tests/run_tests.sh, so it goes: the
# executables only, whose names have no dot (not the coverage files beside
# them, test_x-test_x.gcno...).
STALE_UNIT_BINS = $(foreach f,$(filter-out $(UNIT_BINS),$(wildcard $(BUILD)/tests/test_*)),\
    $(if $(findstring .,$(notdir $(f))),,$(f)))
unit-tests: $(UNIT_BINS)
	@rm -f $(STALE_UNIT_BINS)

# The differential test against libpfm4's NetBurst encoder (docs/events.md).
DIFF_BIN := $(BUILD)/tests/libpfm4_diff
libpfm4-diff: $(DIFF_BIN)

$(DIFF_BIN): tests/diff/libpfm4_diff.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDFLAGS_ALL) -lpfm $(LIBS)

# The decoder against objdump on libc's whole text (docs/isa.md).
OBJDUMP_CHECK := $(BUILD)/tests/objdump_check
objdump-check: $(OBJDUMP_CHECK)
$(OBJDUMP_CHECK): tests/isa/objdump_check.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDFLAGS_ALL) $(LIBS)

# tests/cli_plot.sh: the pixels of the SVGs rsvg-convert renders.
PNG_PIXELS := $(BUILD)/tests/png_pixels
.PHONY: png-pixels
png-pixels: $(PNG_PIXELS)
$(PNG_PIXELS): tests/plot/png_pixels.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDFLAGS_ALL) -lpng

# tests/cli_pipeview.sh: the checker of the O3PipeView format.
PIPEVIEW_CHECK := $(BUILD)/tests/pipeview_check
.PHONY: pipeview-check
pipeview-check: $(PIPEVIEW_CHECK)
$(PIPEVIEW_CHECK): tests/pipeview/pipeview_check.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDFLAGS_ALL)

# tests/traces/accuracy.sh: the single-stepping reference counter and the
# 32-bit static compute kernel (no $(EXTRA): a 32-bit static program has no
# sanitizer runtime, and the counter is a reference, not code under test).
ACCURACY_BINS := $(BUILD)/tests/stepcount $(if $(M32_FLAG),$(BUILD)/tests/kernel32)
accuracy-deps: $(ACCURACY_BINS)

$(BUILD)/tests/stepcount: tests/traces/stepcount.c traces/trace.h traces/cpu_view.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ $< $(LIB) $(LIBS) $(LDFLAGS_ALL)

$(BUILD)/tests/kernel32: tests/traces/kernel.c
	@mkdir -p $(dir $@)
	$(CC) -m32 -static $(STD) $(WARN) -O2 -o $@ $<

# The tests: cmocka unit tests, then every bench script against its
# expected output.  RUN_WRAPPER runs each under valgrind for memcheck.
check: check-layers all unit-tests libpfm4-diff objdump-check recorder clang-check accuracy-deps wc \
    png-pixels pipeview-check emulate-programs
	@sh tests/run_tests.sh $(BUILD) $(RUN_WRAPPER)

# Figures, not tests: the speed and memory table on a 100 M-instruction
# trace (tests/perf/bench.sh: reading against cat, the models against
# cachegrind, record against valgrind --tool=none and lackey), encoding
# speed against libpfm4, the allocator's planning time, then each part's
# own figures.
bench: $(BIN) $(LIB) recorder wc
	@mkdir -p $(BUILD)/perf
	sh tests/perf/bench.sh $(BUILD)
	$(CC) $(ALL_CFLAGS) -O2 -o $(BUILD)/perf/bench_encode tests/perf/bench_encode.c $(LIB) -lpfm $(LIBS)
	$(CC) $(ALL_CFLAGS) -O2 -o $(BUILD)/perf/bench_alloc tests/perf/bench_alloc.c $(LIB) $(LIBS)
	$(BUILD)/perf/bench_encode
	$(BUILD)/perf/bench_alloc
	sh tests/perf/bench_record.sh $(BUILD)
	$(CC) $(ALL_CFLAGS) -O2 -o $(BUILD)/perf/synthetic_trace tests/perf/synthetic_trace.c $(LIB) $(LIBS)
	sh tests/perf/bench_p5.sh $(BUILD)
	$(CC) $(ALL_CFLAGS) -O2 -o $(BUILD)/perf/bench_netburst tests/perf/bench_netburst.c $(LIB) $(LIBS)
	sh tests/perf/bench_netburst.sh $(BUILD)
	sh tests/perf/callgrind_models.sh $(BUILD)

# The folders' include order (docs/architecture.md): every include of a
# project header goes to the including file's layer or one below it.
check-layers:
	@sh tools/check_layers.sh

# Warning-free under clang as well as gcc: the library, the CLI, the tests.
clang-check:
	@clang $(STD) $(WARN) -I. -fsyntax-only $(LIB_SRCS) $(CLI_SRCS) $(UNIT_SRCS) $(UNIT_HELPER_SRCS) \
	    tests/fuzz/*.c tests/diff/*.c tests/perf/*.c tests/isa/*.c tests/plot/*.c tests/pipeview/*.c \
	    tests/traces/stepcount.c tests/traces/kernel.c traces/wc/*.c traces/paper/*.c \
	    tests/validate/*.c tests/emulate/*.c

# The wc case study of Safford 1997 (section 5.6; traces/wc/README.md).
demo: all wc emulate-programs
	sh traces/wc/study.sh $(BUILD)
	@echo "== A program from elsewhere, unmodified, on the simulated Pentium 4 (docs/emulate.md):"
	@echo "== prfcnt's test programs nine counters through /dev/cpu/0/msr and prints them"
	$(BIN) emulate --ht -- $(BUILD)/emulate/prfcnt64

# The Sprunt paper's results on the NetBurst model, beside the paper's
# (traces/paper/README.md, docs/netburst-model.md "The paper reproduced").
paper: all paper-programs
	sh traces/paper/paper.sh $(BUILD)

# The PMU alone: the bench scenario of tests/bench/demo.pmu and its waveform.
demo-pmu: $(BIN)
	$(BIN) run tests/bench/demo.pmu --vcd $(BUILD)/demo.vcd
	@echo "waveform: $(BUILD)/demo.vcd (open it with gtkwave $(BUILD)/demo.vcd $(BUILD)/demo.gtkw)"

asan:
	$(MAKE) BUILD=build/asan CC=clang CFLAGS="-O1 -g" \
	    EXTRA="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" check

# A forked child that fails to exec (any program util/spawn.h starts: the
# recorder's valgrind, stat's program, compare's and sweep's) ends with
# _exit and owns nothing: valgrind stays silent there.
memcheck:
	$(MAKE) BUILD=build/memcheck RUN_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full \
	    --show-leak-kinds=all --errors-for-leak-kinds=all --child-silent-after-fork=yes" check

# Line coverage per directory with gcov (part of gcc).
coverage:
	rm -rf build/coverage
	$(MAKE) BUILD=build/coverage CFLAGS="-O0 -g" EXTRA="--coverage" check
	@sh tests/coverage_report.sh build/coverage

# libFuzzer on the parsers of untrusted input: bench scripts (seeded with
# tests/bench), event strings, experiment files, traces, lackey text, PARMS
# files, count sets, ELF symbol tables, sweep specs, a sweep's results
# directory (the merge) and the line reader of the text inputs (against a
# plain split of the input); and on the timing models: the
# P5's and the NetBurst's (one trace and two) through stat's library path,
# and sample's PEBS and IEBS sampling, over traces made from the input
# (seeded with tests/fuzz/corpus_*).
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -fsanitize=fuzzer,address,undefined
FUZZ_CORPORA := event_spec experiment trace_reader lackey parms count_set elf_symbols line_stream \
    p5_model nb_model nb_model_ht sample sweep_spec sweep_merge
fuzz:
	$(MAKE) BUILD=build/fuzz CC=clang CFLAGS="-O1 -g" \
	    EXTRA="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" build/fuzz/libpmubench.a
	@mkdir -p build/fuzz/corpus_script $(FUZZ_CORPORA:%=build/fuzz/corpus_%)
	cp tests/bench/*.pmu tests/bench/errors/*.pmu build/fuzz/corpus_script/
	for corpus in $(FUZZ_CORPORA); do \
	    cp tests/fuzz/corpus_$$corpus/* build/fuzz/corpus_$$corpus/ || exit 1; \
	done
	for target in script $(FUZZ_CORPORA); do \
	    clang $(STD) $(WARN) -I. -g $(FUZZ_FLAGS) tests/fuzz/fuzz_$$target.c \
	        build/fuzz/libpmubench.a $(LIBS) -o build/fuzz/fuzz_$$target && \
	    build/fuzz/fuzz_$$target -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
	        build/fuzz/corpus_$$target || exit 1; \
	done

clean:
	rm -rf build

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)

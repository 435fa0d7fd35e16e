# `make emulate-programs`: the programs of tests/emulate for `pmubench
# emulate` (tests/emulate/README.md), static, into $(BUILD)/emulate/:
# NAME64 always, NAME32 too when the compiler builds static 32-bit programs
# (M32_FLAG: tools/need.sh's m32, which compiles a program including
# <errno.h>, as these do).  No $(EXTRA): a static program has no sanitizer
# runtime, and these are programs the emulator runs, not code under test.
# Included by the Makefile.

EMULATE := tests/emulate
EMULATE_PROGRAMS := selfmon selfmon_p5 branch_threshold errors tsc fileops work rdpmc
EMULATE_BINS := $(EMULATE_PROGRAMS:%=$(BUILD)/emulate/%64) \
    $(if $(M32_FLAG),$(EMULATE_PROGRAMS:%=$(BUILD)/emulate/%32))
# prfcnt (tests/emulate/prfcnt/README.md): a program from elsewhere,
# unmodified, built as its Makefile would on a Pentium 4 Xeon; its own
# code, so not with the project's warnings as errors.
PRFCNT := $(EMULATE)/prfcnt
PRFCNT_BINS := $(BUILD)/emulate/prfcnt64 $(if $(M32_FLAG),$(BUILD)/emulate/prfcnt32)
PRFCNT_SOURCES := $(PRFCNT)/prfcnt-test.c $(PRFCNT)/prfcnt.h $(PRFCNT)/prfcnt_xeon.h \
    $(PRFCNT)/prfcnt_common.h
emulate-programs: $(EMULATE_BINS) $(PRFCNT_BINS)

$(BUILD)/emulate/prfcnt64: $(PRFCNT_SOURCES)
	@mkdir -p $(dir $@)
	$(CC) -static -O2 -DCPU_XEON -o $@ $(PRFCNT)/prfcnt-test.c
$(BUILD)/emulate/prfcnt32: $(PRFCNT_SOURCES) $(M32_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -m32 -static -O2 -DCPU_XEON -o $@ $(PRFCNT)/prfcnt-test.c

emulate_bins = $(foreach p,$(1),$(BUILD)/emulate/$(p)64 $(BUILD)/emulate/$(p)32)
$(call emulate_bins,selfmon selfmon_p5 branch_threshold): $(EMULATE)/loop_counter.c $(EMULATE)/loop_counter.h
$(call emulate_bins,selfmon selfmon_p5 branch_threshold tsc work): $(EMULATE)/counted_loop.c \
    $(EMULATE)/counted_loop.h
$(call emulate_bins,selfmon selfmon_p5 branch_threshold errors tsc fileops): $(EMULATE)/msr_file.c \
    $(EMULATE)/msr_file.h
$(BUILD)/emulate/%64: $(EMULATE)/%.c
	@mkdir -p $(dir $@)
	$(CC) -static $(STD) $(WARN) -O2 -o $@ $(filter %.c,$^)
$(BUILD)/emulate/%32: $(EMULATE)/%.c $(M32_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -m32 -static $(STD) $(WARN) -O2 -o $@ $(filter %.c,$^)

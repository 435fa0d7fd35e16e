# The benchmark programs of Sprunt's Pentium 4 paper (Sprunt 2002,
# section 4; traces/paper/README.md).  Included by the Makefile, or run
# alone: `make -f traces/paper/paper.mk BUILD=... paper-programs`.  It
# builds $(BUILD)/paper/NAME for each program: static, 32-bit when
# `$(CC) -m32 -static` links (gcc-multilib; the paper's machine was
# 32-bit), else 64-bit.
BUILD ?= build
CC ?= cc
PAPER_NAMES := fp_add_latency l1_miss pebs_target l1_miss_profile
PAPER_BINS := $(PAPER_NAMES:%=$(BUILD)/paper/%)
PAPER_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -I.
# M32_FLAG and M32_STAMP (which changes with it) come from the Makefile;
# run alone, the same capability test and no stamp.
M32_FLAG ?= $(shell CC='$(CC)' sh tools/need.sh --try m32 && echo -m32)
M32_STAMP ?=

.PHONY: paper-programs
paper-programs: $(PAPER_BINS)

$(BUILD)/paper/%: traces/paper/%.c traces/paper/paper_common.h traces/pmubench_region.h $(M32_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(M32_FLAG) -static $(PAPER_CFLAGS) -o $@ $<

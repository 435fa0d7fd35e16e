# The wc case study of Safford 1997 (section 5.6; traces/wc/README.md), included
# by the Makefile: `make BUILD=... wc` builds $(BUILD)/wc/wc, a static
# program (32-bit unless M32=no, as the thesis's machine was) reading with
# getc_unlocked, inline as the thesis's getc macro was; $(BUILD)/wc/wc-getc,
# the same with glibc's getc (a function call); and $(BUILD)/wc/input.txt,
# the 4036-line, 105196-character input.
WC_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -I.

.PHONY: wc
wc: $(BUILD)/wc/wc $(BUILD)/wc/wc-getc $(BUILD)/wc/input.txt

$(BUILD)/wc/wc: traces/wc/wc.c traces/pmubench_region.h $(M32_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(M32_FLAG) -static $(WC_CFLAGS) -o $@ traces/wc/wc.c

$(BUILD)/wc/wc-getc: traces/wc/wc.c traces/pmubench_region.h $(M32_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(M32_FLAG) -static $(WC_CFLAGS) -DWC_LOCKED_GETC -o $@ traces/wc/wc.c

$(BUILD)/wc/make_input: traces/wc/make_input.c
	@mkdir -p $(dir $@)
	$(CC) $(WC_CFLAGS) -o $@ traces/wc/make_input.c

$(BUILD)/wc/input.txt: $(BUILD)/wc/make_input
	$(BUILD)/wc/make_input $@.tmp && mv $@.tmp $@

# The wc case study of seed 001 section 5.6 (traces/wc/README.md), included
# by the Makefile: `make BUILD=... wc` builds $(BUILD)/wc/wc, a static
# program (32-bit when gcc-multilib is there, as the thesis's machine was),
# and $(BUILD)/wc/input.txt, the 4036-line, 105196-character input.
WC_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -I.

.PHONY: wc
wc: $(BUILD)/wc/wc $(BUILD)/wc/input.txt

$(BUILD)/wc/wc: traces/wc/wc.c traces/pmubench_region.h | isa-deps
	@mkdir -p $(dir $@)
	if echo 'int main(void){return 0;}' | $(CC) -m32 -static -x c - -o /dev/null 2>/dev/null; then \
	    $(CC) -m32 -static $(WC_CFLAGS) -o $@ traces/wc/wc.c; \
	else \
	    $(CC) -static $(WC_CFLAGS) -o $@ traces/wc/wc.c; \
	fi

$(BUILD)/wc/make_input: traces/wc/make_input.c
	@mkdir -p $(dir $@)
	$(CC) $(WC_CFLAGS) -o $@ traces/wc/make_input.c

$(BUILD)/wc/input.txt: $(BUILD)/wc/make_input
	$(BUILD)/wc/make_input $@.tmp && mv $@.tmp $@

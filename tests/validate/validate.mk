# `make validate` (docs/validate.md): microbenchmarks generated from the P5
# and NetBurst timing tables, recorded once per table with the 32-bit
# recorder and simulated on every preset; published against simulated per
# row, a summary per preset, and a failure when a preset has fewer than
# 90% of its measured rows within 10%.  The generated programs, traces and
# the report (validate.txt) are in $(BUILD)/validate/.  Included by the
# Makefile.

VALIDATE_DIR := $(BUILD)/validate
VALIDATE_BIN := $(VALIDATE_DIR)/validate
# The suite's pieces without its main, also linked into its unit test.
VALIDATE_PARTS := tests/validate/vgen.c tests/validate/vprog.c tests/validate/vprint.c \
    tests/validate/vsim.c
VALIDATE_HEADERS := $(wildcard tests/validate/*.h)

validate: $(VALIDATE_BIN) $(BIN) recorder
	@test -n "$(M32_FLAG)" || \
	    { echo "validate: needs the 32-bit recorder (gcc -m32; not with M32=no)" >&2; exit 2; }
	$(VALIDATE_BIN) $(BIN) $(VALIDATE_DIR)

$(VALIDATE_BIN): tests/validate/validate.c $(VALIDATE_PARTS) $(VALIDATE_HEADERS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/validate/validate.c $(VALIDATE_PARTS) $(LIB) $(LDFLAGS_ALL) $(LIBS)

# Its unit test links the pieces, and the models' hand-made traces.
$(BUILD)/tests/test_validate: $(VALIDATE_PARTS) $(VALIDATE_HEADERS) tests/unit/model_trace.c \
    tests/unit/model_trace.h

/* Dinero IV's din format (docs/traces.md, "Importing traces"). */
#include <string.h>

#include "import.h"
#include "import_common.h"

enum din_label { DIN_READ, DIN_WRITE, DIN_FETCH, DIN_ESCAPE, DIN_FLUSH };

/* The sizes of a line without one, as Dinero's din reader has them. */
static const char din_data_size[] = "4", din_fetch_size[] = "1";

static bool parse_din_line(struct import *import, char *line)
{
    char *cursor = line;
    char *label = import_next_field(&cursor);
    char *address = import_next_field(&cursor);
    char *size = import_next_field(&cursor); /* the rest is a comment, as in Dinero */
    uint64_t label_value, address_value;
    if (!address)
        return import_fail(import, "expected 'LABEL ADDRESS [SIZE]'");
    if (!import_parse_number(label, 16, &label_value) || label_value > DIN_FLUSH)
        return import_fail(import, "unknown label '%.40s' (expected 0 read, 1 write, "
                                   "2 instruction fetch, 3 escape or 4 flush)", label);
    if (!import_parse_hex(address, &address_value))
        return import_fail(import, "bad address '%.40s' (expected a hexadecimal number)",
                           address);
    switch ((enum din_label)label_value) {
    case DIN_READ:
    case DIN_WRITE:
        return import_access(import, label_value == DIN_READ ? TRACE_LOAD : TRACE_STORE,
                             address_value, size ? size : din_data_size);
    case DIN_FETCH:
        return import_instruction(import, address_value, size ? size : din_fetch_size);
    case DIN_ESCAPE:
    case DIN_FLUSH:
        break;
    }
    return true;
}

static const struct import_format din_format = {parse_din_line, 16};

bool trace_import_dinero(FILE *in, const char *path, struct trace_writer *w, char *error,
                         size_t size)
{
    return import_run(in, path, w, error, size, &din_format);
}

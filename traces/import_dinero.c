/* Dinero IV's din format (docs/traces.md, "Importing traces"). */
#include <string.h>

#include "import.h"
#include "import_common.h"

enum din_label { DIN_READ, DIN_WRITE, DIN_FETCH, DIN_ESCAPE, DIN_FLUSH };

enum { DIN_DATA_SIZE = 4, DIN_FETCH_SIZE = 1 };

/* A hexadecimal field, with or without a leading 0x. */
static bool parse_hex_field(const char *text, uint64_t *value)
{
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        text += 2;
    return import_parse_number(text, 16, value);
}

static bool parse_din_line(struct import *import, char *line)
{
    char *cursor = line;
    char *label = import_next_field(&cursor);
    char *address = import_next_field(&cursor);
    char *size = import_next_field(&cursor); /* the rest is a comment, as in Dinero */
    uint64_t label_value, address_value, size_value = 0;
    if (!address)
        return import_fail(import, "expected 'LABEL ADDRESS [SIZE]'");
    if (!import_parse_number(label, 16, &label_value) || label_value > DIN_FLUSH)
        return import_fail(import, "unknown label '%.40s' (expected 0 read, 1 write, "
                                   "2 instruction fetch, 3 escape or 4 flush)", label);
    if (!parse_hex_field(address, &address_value))
        return import_fail(import, "bad address '%.40s' (expected a hexadecimal number)",
                           address);
    if (size && !parse_hex_field(size, &size_value))
        return import_fail(import, "bad size '%.40s' (expected a hexadecimal number)", size);
    switch ((enum din_label)label_value) {
    case DIN_READ:
    case DIN_WRITE:
        return import_access(import, label_value == DIN_READ ? TRACE_LOAD : TRACE_STORE,
                             address_value, size ? size_value : DIN_DATA_SIZE);
    case DIN_FETCH:
        return import_instruction(import, address_value, size ? size_value : DIN_FETCH_SIZE);
    case DIN_ESCAPE:
    case DIN_FLUSH:
        break;
    }
    return true;
}

bool trace_import_dinero(FILE *in, const char *path, struct trace_writer *w, char *error,
                         size_t size)
{
    return import_run(in, path, w, error, size, parse_din_line);
}

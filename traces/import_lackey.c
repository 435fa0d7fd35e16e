/* valgrind lackey --trace-mem=yes output (docs/traces.md, "Importing
 * traces"). */
#include <ctype.h>
#include <string.h>

#include "import.h"
#include "import_common.h"

static const char expected_line[] =
    "expected 'I  ADDR,SIZE', ' L ADDR,SIZE', ' S ADDR,SIZE' or ' M ADDR,SIZE'";

/* The access kind of a data line's letter; 0 for an instruction or an
 * unknown letter. */
static enum trace_access_kind access_kind(char letter)
{
    switch (letter) {
    case 'L':
        return TRACE_LOAD;
    case 'S':
        return TRACE_STORE;
    case 'M':
        return TRACE_MODIFY;
    default:
        return 0;
    }
}

static bool parse_lackey_line(struct import *import, char *line)
{
    if (strncmp(line, "==", 2) == 0)
        return true; /* valgrind's own messages */
    char letter = line[0];
    enum trace_access_kind kind = access_kind(letter);
    if ((letter != 'I' && !kind) || !isblank((unsigned char)line[1]))
        return import_fail(import, "%s", expected_line);
    char *comma = strchr(line, ',');
    if (!comma)
        return import_fail(import, "%s", expected_line);
    *comma = '\0';
    char *address = import_trim(line + 1);
    char *size = import_trim(comma + 1);
    uint64_t address_value;
    if (!import_parse_number(address, 16, &address_value))
        return import_fail(import, "bad address '%.40s' (expected a hexadecimal number)",
                           address);
    if (letter == 'I')
        return import_instruction(import, address_value, size);
    return import_access(import, kind, address_value, size);
}

static const struct import_format lackey_format = {parse_lackey_line, 10};

bool trace_import_lackey(FILE *in, const char *path, struct trace_writer *w, char *error,
                         size_t size)
{
    return import_run(in, path, w, error, size, &lackey_format);
}

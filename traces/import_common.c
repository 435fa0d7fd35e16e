#include "import_common.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

void trace_import_header(struct trace_header *header, enum trace_import_format format)
{
    memset(header, 0, sizeof *header);
    header->isa = TRACE_ISA_64;
    header->lengths_known = format == TRACE_IMPORT_LACKEY;
    snprintf(header->recorder, sizeof header->recorder, "pmubench trace import %s",
             format == TRACE_IMPORT_LACKEY ? "--lackey" : "--dinero");
}

bool import_fail(struct import *import, const char *format, ...)
{
    int used = snprintf(import->error, import->error_size, "%s:%lu: ", import->path,
                        import->line);
    va_list ap;
    va_start(ap, format);
    if (used >= 0 && (size_t)used < import->error_size)
        vsnprintf(import->error + used, import->error_size - (size_t)used, format, ap);
    va_end(ap);
    return false;
}

static bool write_failed(struct import *import)
{
    snprintf(import->error, import->error_size, "cannot write the trace (importing %s, line %lu)",
             import->path, import->line);
    return false;
}

static bool write_pending(struct import *import)
{
    if (import->have_insn && !trace_write_insn(import->writer, &import->insn))
        return write_failed(import);
    import->have_insn = false;
    return true;
}

bool import_instruction(struct import *import, uint64_t address, uint64_t length)
{
    if (length < 1 || length > TRACE_MAX_INSN_LENGTH)
        return import_fail(import, "instruction size %llu (expected 1-%d)",
                           (unsigned long long)length, TRACE_MAX_INSN_LENGTH);
    if (!write_pending(import))
        return false;
    struct trace_insn *insn = &import->insn;
    memset(insn, 0, offsetof(struct trace_insn, accesses));
    insn->address = address;
    insn->length = (uint8_t)length;
    insn->cpl = 3;
    insn->branch = TRACE_NOT_BRANCH;
    import->have_insn = true;
    import->insn_line = import->line;
    return true;
}

bool import_access(struct import *import, enum trace_access_kind kind, uint64_t address,
                   uint64_t size)
{
    if (!import->have_insn)
        return import_fail(import, "a data access before any instruction");
    if (!trace_access_size_valid(size))
        return import_fail(import, "data access size %llu (expected 1-%d)",
                           (unsigned long long)size, TRACE_MAX_ACCESS_SIZE);
    struct trace_insn *insn = &import->insn;
    if (insn->n_accesses == TRACE_MAX_ACCESSES)
        return import_fail(import, "more than %d data accesses for the instruction of line %lu",
                           TRACE_MAX_ACCESSES, import->insn_line);
    insn->accesses[insn->n_accesses++] = (struct trace_access){kind, (uint32_t)size, address};
    return true;
}

static int digit_value(char c, int base)
{
    int value = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : base;
    return value < base ? value : -1;
}

bool import_parse_number(const char *text, int base, uint64_t *value)
{
    *value = 0;
    if (!*text)
        return false;
    for (const char *p = text; *p; p++) {
        int digit = digit_value(*p, base);
        if (digit < 0 || *value > (UINT64_MAX - (uint64_t)digit) / (uint64_t)base)
            return false;
        *value = *value * (uint64_t)base + (uint64_t)digit;
    }
    return true;
}

char *import_trim(char *text)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t length = strlen(text);
    while (length > 0 && isspace((unsigned char)text[length - 1]))
        text[--length] = '\0';
    return text;
}

char *import_next_field(char **cursor)
{
    char *field = *cursor;
    while (isspace((unsigned char)*field))
        field++;
    if (*field == '\0')
        return NULL;
    char *end = field;
    while (*end && !isspace((unsigned char)*end))
        end++;
    *cursor = *end ? end + 1 : end;
    *end = '\0';
    return field;
}

/* Removes the line break (LF or CRLF); returns the remaining length. */
static size_t strip_line_end(char *line, size_t length)
{
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
        line[--length] = '\0';
    return length;
}

static bool finish(struct import *import)
{
    if (!write_pending(import))
        return false;
    struct trace_end end = {trace_writer_instructions(import->writer), TRACE_EXITED, 0};
    return trace_write_end(import->writer, &end) || write_failed(import);
}

static bool parse_input_line(struct import *import, char *line, size_t length,
                             import_line_parser *parse_line)
{
    import->line++;
    length = strip_line_end(line, length);
    if (strlen(line) != length)
        return import_fail(import, "a NUL byte in the line (expected text)");
    char *text = import_trim(line);
    return *text == '\0' || parse_line(import, text);
}

bool import_run(FILE *in, const char *path, struct trace_writer *writer, char *error,
                size_t error_size, import_line_parser *parse_line)
{
    struct import import = {.path = path, .writer = writer, .error = error,
                            .error_size = error_size};
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    bool ok = true;
    while (ok && (length = getline(&line, &capacity, in)) >= 0)
        ok = parse_input_line(&import, line, (size_t)length, parse_line);
    free(line);
    if (ok && ferror(in)) {
        snprintf(error, error_size, "%s: cannot read: %s", path, strerror(errno));
        return false;
    }
    return ok && finish(&import);
}

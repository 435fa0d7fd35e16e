#include "import_common.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/error_line.h"
#include "import.h"
#include "util/line_stream.h"

void trace_import_header(struct trace_header *header, enum trace_import_format format)
{
    memset(header, 0, sizeof *header);
    header->isa = TRACE_ISA_64;
    header->lengths_known = format == TRACE_IMPORT_LACKEY;
    snprintf(header->recorder, sizeof header->recorder, "pmubench trace import %s",
             format == TRACE_IMPORT_LACKEY ? "--lackey" : "--dinero");
}

bool trace_import(enum trace_import_format format, FILE *in, const char *path, FILE *out,
                  const char *out_path, char *error, size_t size)
{
    struct trace_header header;
    trace_import_header(&header, format);
    char message[512];
    struct trace_writer *writer = trace_writer_open(out, &header, message, sizeof message);
    if (!writer) {
        int failure = errno == ENOMEM ? ENOMEM : EIO;
        snprintf(error, size, "%s: %s", out_path, message);
        errno = failure;
        return false;
    }
    errno = 0;
    bool imported = format == TRACE_IMPORT_LACKEY
                        ? trace_import_lackey(in, path, writer, error, size)
                        : trace_import_dinero(in, path, writer, error, size);
    int import_errno = errno;
    bool closed = trace_writer_close(writer);
    if (ferror(out) || (imported && !closed)) {
        snprintf(error, size, "%s: cannot write", out_path);
        errno = EIO;
        return false;
    }
    errno = import_errno;
    return imported;
}

bool import_fail(struct import *import, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_at_vline(EINVAL, import->error, import->error_size, import->path, import->line,
                   format, ap);
    va_end(ap);
    return false;
}

static bool write_failed(struct import *import)
{
    snprintf(import->error, import->error_size, "cannot write the trace (importing %s, line %lu)",
             import->path, import->line);
    errno = EIO;
    return false;
}

static bool write_pending(struct import *import)
{
    if (import->have_insn && !trace_write_insn(import->writer, &import->insn))
        return write_failed(import);
    import->have_insn = false;
    return true;
}

/* The size `text` in the format's base. */
static bool parse_size(struct import *import, const char *text, uint64_t *value)
{
    if (import->format->size_base == 16 ? import_parse_hex(text, value)
                                        : import_parse_number(text, 10, value))
        return true;
    return import_fail(import, "bad size '%.40s' (expected a %s number)", text,
                       import->format->size_base == 16 ? "hexadecimal" : "decimal");
}

/* A size out of 1 to `max`, refused as the input wrote it (`what`:
 * "instruction size", "data access size"), the range in the same base. */
static bool size_out_of_range(struct import *import, const char *what, const char *text,
                              unsigned max)
{
    if (import->format->size_base == 16)
        return import_fail(import, "%s %.40s (expected 1-%x, hexadecimal)", what, text, max);
    return import_fail(import, "%s %.40s (expected 1-%u)", what, text, max);
}

bool import_instruction(struct import *import, uint64_t address, const char *length_text)
{
    uint64_t length;
    if (!parse_size(import, length_text, &length))
        return false;
    if (length < 1 || length > TRACE_MAX_INSN_LENGTH)
        return size_out_of_range(import, "instruction size", length_text, TRACE_MAX_INSN_LENGTH);
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
                   const char *size_text)
{
    uint64_t size;
    if (!import->have_insn)
        return import_fail(import, "a data access before any instruction");
    if (!parse_size(import, size_text, &size))
        return false;
    if (!trace_access_size_valid(size))
        return size_out_of_range(import, "data access size", size_text, TRACE_MAX_ACCESS_SIZE);
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

bool import_parse_hex(const char *text, uint64_t *value)
{
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        text += 2;
    return import_parse_number(text, 16, value);
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

static bool finish(struct import *import)
{
    if (!write_pending(import))
        return false;
    struct trace_end end = {trace_writer_instructions(import->writer), TRACE_EXITED, 0};
    return trace_write_end(import->writer, &end) || write_failed(import);
}

bool import_run(FILE *in, const char *path, struct trace_writer *writer, char *error,
                size_t error_size, const struct import_format *format)
{
    struct import import = {.path = path, .format = format, .writer = writer, .error = error,
                            .error_size = error_size};
    struct line_stream lines;
    line_stream_init(&lines, in, path, IMPORT_MAX_LINE);
    enum line_result result;
    bool ok = true;
    while (ok && (result = line_stream_next(&lines, error, error_size)) == LINE_READ) {
        import.line = lines.line;
        char *text = import_trim(lines.text);
        ok = *text == '\0' || format->parse_line(&import, text);
    }
    line_stream_free(&lines);
    return ok && result == LINE_END && finish(&import);
}

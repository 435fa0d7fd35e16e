#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "code_cache.h"
#include "trace.h"
#include "trace_encoding.h"

/* Records read ahead to find a taken branch's target (the next
 * instruction); region markers between them wait here. */
enum { MAX_PENDING = TRACE_MAX_MARKERS + 1 };

/* The reader takes bytes from its own buffer: a function call per byte
 * (getc) was a third of the time of a simulation. */
enum { READ_BUFFER_SIZE = 1 << 16 };

struct trace_reader {
    FILE *in;
    char path[PATH_MAX];
    uint64_t offset;          /* bytes consumed */
    struct trace_header header;
    struct code_cache *code;
    uint64_t next_address, last_access;
    uint8_t thread, cpl;
    uint64_t instructions;
    bool ended, failed;
    struct trace_record pending[MAX_PENDING];
    int n_pending, first_pending;
    char error[512];
    size_t buffer_pos, buffer_fill;
    uint8_t buffer[READ_BUFFER_SIZE];
};

__attribute__((format(printf, 2, 3))) static bool fail(struct trace_reader *r, const char *fmt,
                                                       ...)
{
    if (r->failed)
        return false;
    int used = snprintf(r->error, sizeof r->error, "%s: byte offset %llu: ", r->path,
                        (unsigned long long)r->offset);
    va_list ap;
    va_start(ap, fmt);
    if (used >= 0 && (size_t)used < sizeof r->error)
        vsnprintf(r->error + used, sizeof r->error - (size_t)used, fmt, ap);
    va_end(ap);
    r->failed = true;
    return false;
}

/* Whether a byte is available (refilling the buffer when it is empty). */
static bool have_byte(struct trace_reader *r)
{
    if (r->buffer_pos < r->buffer_fill)
        return true;
    r->buffer_pos = 0;
    r->buffer_fill = fread(r->buffer, 1, sizeof r->buffer, r->in);
    return r->buffer_fill > 0;
}

static bool get_byte(struct trace_reader *r, uint8_t *byte, const char *expected)
{
    *byte = 0;
    if (!have_byte(r))
        return fail(r, "truncated: expected %s", expected);
    r->offset++;
    *byte = r->buffer[r->buffer_pos++];
    return true;
}

/* Copies up to `n` bytes into `out`; how many there were. */
static size_t get_block(struct trace_reader *r, void *out, size_t n)
{
    size_t done = 0;
    while (done < n && have_byte(r)) {
        size_t chunk = r->buffer_fill - r->buffer_pos;
        if (chunk > n - done)
            chunk = n - done;
        memcpy((uint8_t *)out + done, r->buffer + r->buffer_pos, chunk);
        r->buffer_pos += chunk;
        r->offset += chunk;
        done += chunk;
    }
    return done;
}

static bool get_varint(struct trace_reader *r, uint64_t *value, const char *expected)
{
    *value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        uint8_t byte;
        if (!get_byte(r, &byte, expected))
            return false;
        if (shift == 63 && byte > 1)
            return fail(r, "a number above 2^64 where %s was expected", expected);
        *value |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return fail(r, "a number longer than 10 bytes where %s was expected", expected);
}

static bool get_string(struct trace_reader *r, char *out, const char *what)
{
    uint64_t length;
    if (!get_varint(r, &length, what))
        return false;
    if (length >= TRACE_MAX_TEXT)
        return fail(r, "%s of %llu bytes (at most %d)", what, (unsigned long long)length,
                    TRACE_MAX_TEXT - 1);
    if (get_block(r, out, length) != length)
        return fail(r, "truncated: expected %s", what);
    out[length] = '\0';
    if (memchr(out, '\0', length))
        return fail(r, "%s holds a NUL byte", what);
    return true;
}

static bool read_header(struct trace_reader *r)
{
    char magic[TRACE_MAGIC_SIZE];
    size_t got = get_block(r, magic, sizeof magic);
    r->offset = 0;
    if (got != sizeof magic || memcmp(magic, TRACE_MAGIC, sizeof magic) != 0)
        return fail(r, "not a pmubench trace (expected the magic \"%s\")", TRACE_MAGIC);
    r->offset = sizeof magic;
    uint64_t version, flags;
    if (!get_varint(r, &version, "the format version"))
        return false;
    if (version != TRACE_VERSION)
        return fail(r, "trace format version %llu; this pmubench reads version %d",
                    (unsigned long long)version, TRACE_VERSION);
    if (!get_varint(r, &flags, "the header flags"))
        return false;
    if (flags & ~(uint64_t)(TRACE_FLAG_ISA64 | TRACE_FLAG_LENGTHS_UNKNOWN))
        return fail(r, "unknown header flags 0x%llx", (unsigned long long)flags);
    r->header.isa = (flags & TRACE_FLAG_ISA64) ? TRACE_ISA_64 : TRACE_ISA_32;
    r->header.lengths_known = !(flags & TRACE_FLAG_LENGTHS_UNKNOWN);
    return get_string(r, r->header.program, "the program name") &&
           get_string(r, r->header.args, "the arguments") &&
           get_string(r, r->header.recorder, "the recorder's name");
}

struct trace_reader *trace_reader_open(FILE *in, const char *path, char *error,
                                       size_t error_size)
{
    struct trace_reader *r = calloc(1, sizeof *r);
    if (r)
        r->code = code_cache_create();
    if (!r || !r->code) {
        snprintf(error, error_size, "%s: out of memory", path);
        if (r)
            free(r);
        return NULL;
    }
    r->in = in;
    r->cpl = 3;
    snprintf(r->path, sizeof r->path, "%s", path);
    if (!read_header(r)) {
        snprintf(error, error_size, "%s", r->error);
        trace_reader_close(r);
        return NULL;
    }
    return r;
}

const struct trace_header *trace_reader_header(const struct trace_reader *r)
{
    return &r->header;
}

const char *trace_reader_error(const struct trace_reader *r)
{
    return r->error;
}

void trace_reader_close(struct trace_reader *r)
{
    if (!r)
        return;
    code_cache_free(r->code);
    free(r);
}

/* ---- records */

static bool read_accesses(struct trace_reader *r, struct trace_insn *insn)
{
    uint64_t n;
    if (!get_varint(r, &n, "the number of data accesses"))
        return false;
    if (n == 0 || n > TRACE_MAX_ACCESSES)
        return fail(r, "%llu data accesses in one instruction (expected 1-%d)",
                    (unsigned long long)n, TRACE_MAX_ACCESSES);
    insn->n_accesses = (int)n;
    for (int i = 0; i < insn->n_accesses; i++) {
        struct trace_access *a = &insn->accesses[i];
        uint8_t byte;
        uint64_t size, delta;
        if (!get_byte(r, &byte, "a data access"))
            return false;
        if ((byte & 3) == 0)
            return fail(r, "data access of kind 0 (expected load, store or modify)");
        a->kind = (enum trace_access_kind)(byte & 3);
        size = byte >> 2;
        if (size == ACCESS_SIZE_ESCAPE && !get_varint(r, &size, "an access size"))
            return false;
        if (size == 0 || size > UINT32_MAX)
            return fail(r, "data access of %llu bytes", (unsigned long long)size);
        a->size = (uint32_t)size;
        if (!get_varint(r, &delta, "a data address"))
            return false;
        a->address = r->last_access + (uint64_t)unzigzag(delta);
        r->last_access = a->address;
    }
    return true;
}

static bool read_bytes(struct trace_reader *r, struct trace_insn *insn, bool present)
{
    if (present) {
        if (get_block(r, insn->bytes, insn->length) != insn->length)
            return fail(r, "truncated: expected %u code bytes", insn->length);
        insn->has_bytes = true;
        if (!code_cache_put(r->code, insn->address, insn->length, insn->bytes))
            return fail(r, "out of memory");
        return true;
    }
    const uint8_t *cached = code_cache_find(r->code, insn->address, insn->length);
    insn->has_bytes = cached != NULL;
    if (cached)
        memcpy(insn->bytes, cached, insn->length);
    return true;
}

static bool read_insn(struct trace_reader *r, uint8_t tag, enum trace_branch branch,
                      struct trace_insn *insn)
{
    memset(insn, 0, offsetof(struct trace_insn, accesses));
    insn->length = tag & TAG_LENGTH_MASK;
    if (insn->length == 0)
        return fail(r, "instruction of length 0 (expected 1-15)");
    insn->address = r->next_address;
    uint64_t delta;
    if ((tag & TAG_JUMP) && !get_varint(r, &delta, "an instruction address"))
        return false;
    if (tag & TAG_JUMP)
        insn->address += (uint64_t)unzigzag(delta);
    insn->thread = r->thread;
    insn->cpl = r->cpl;
    insn->branch = branch;
    if (!read_bytes(r, insn, tag & TAG_BYTES))
        return false;
    if ((tag & TAG_ACCESSES) && !read_accesses(r, insn))
        return false;
    r->next_address = insn->address + insn->length;
    r->instructions++;
    return true;
}

static bool read_end(struct trace_reader *r, struct trace_end *end)
{
    uint64_t count, code;
    uint8_t status;
    if (!get_varint(r, &count, "the instruction count") ||
        !get_byte(r, &status, "the exit status kind") || !get_varint(r, &code, "the exit code"))
        return false;
    if (count != r->instructions)
        return fail(r, "the END record counts %llu instructions, the trace holds %llu",
                    (unsigned long long)count, (unsigned long long)r->instructions);
    if (status > TRACE_KILLED || code > UINT32_MAX)
        return fail(r, "bad END record (status %u, code %llu)", status, (unsigned long long)code);
    if (have_byte(r))
        return fail(r, "data after the END record");
    end->instructions = count;
    end->status = (enum trace_end_status)status;
    end->code = (uint32_t)code;
    r->ended = true;
    return true;
}

static bool read_small(struct trace_reader *r, uint8_t *value, unsigned max, const char *what)
{
    if (!get_byte(r, value, what))
        return false;
    if (*value > max)
        return fail(r, "%s %u (expected 0-%u)", what, *value, max);
    return true;
}

/* Reads one record as stored, applying thread/CPL/branch controls. */
static bool read_stored(struct trace_reader *r, struct trace_record *rec)
{
    enum trace_branch branch = TRACE_NOT_BRANCH;
    for (;;) {
        uint8_t tag;
        uint64_t region;
        if (!get_byte(r, &tag, "a record (a trace ends with an END record)"))
            return false;
        if (!(tag & TAG_CONTROL)) {
            rec->kind = TRACE_RECORD_INSN;
            return read_insn(r, tag, branch, &rec->insn);
        }
        if (branch != TRACE_NOT_BRANCH)
            return fail(r, "record 0x%02x between a branch marker and its instruction", tag);
        switch (tag) {
        case CONTROL_BRANCH_NOT_TAKEN:
        case CONTROL_BRANCH_TAKEN:
            branch = tag == CONTROL_BRANCH_TAKEN ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
            break;
        case CONTROL_THREAD:
            if (!read_small(r, &r->thread, 1, "thread"))
                return false;
            break;
        case CONTROL_CPL:
            if (!read_small(r, &r->cpl, 3, "CPL"))
                return false;
            break;
        case CONTROL_REGION_BEGIN:
        case CONTROL_REGION_END:
            if (!get_varint(r, &region, "a region number"))
                return false;
            if (region > UINT32_MAX)
                return fail(r, "region number %llu", (unsigned long long)region);
            rec->kind = tag == CONTROL_REGION_BEGIN ? TRACE_RECORD_REGION_BEGIN
                                                    : TRACE_RECORD_REGION_END;
            rec->region = (uint32_t)region;
            return true;
        case CONTROL_END:
            rec->kind = TRACE_RECORD_END;
            return read_end(r, &rec->end);
        default:
            return fail(r, "unknown record tag 0x%02x", tag);
        }
    }
}

/* A taken branch's target is the next instruction: read ahead to it,
 * keeping region markers in between for later. */
static bool find_target(struct trace_reader *r, struct trace_insn *branch)
{
    while (!r->ended) {
        if (r->n_pending == MAX_PENDING)
            return fail(r, "more than %d region markers after a branch", TRACE_MAX_MARKERS);
        struct trace_record *next = &r->pending[r->n_pending];
        if (!read_stored(r, next))
            return false;
        r->n_pending++;
        if (next->kind == TRACE_RECORD_INSN) {
            branch->target = next->insn.address;
            return true;
        }
    }
    return true; /* the trace ended on the branch: no target */
}

/* A record without its unused access slots (a whole one is over 1 KB). */
static void copy_record(struct trace_record *to, const struct trace_record *from)
{
    to->kind = from->kind;
    to->region = from->region;
    to->end = from->end;
    memcpy(&to->insn, &from->insn, offsetof(struct trace_insn, accesses));
    memcpy(to->insn.accesses, from->insn.accesses,
           (size_t)from->insn.n_accesses * sizeof from->insn.accesses[0]);
}

enum trace_status trace_read(struct trace_reader *r, struct trace_record *rec)
{
    if (r->failed)
        return TRACE_ERROR;
    if (r->first_pending < r->n_pending) {
        copy_record(rec, &r->pending[r->first_pending++]);
        if (r->first_pending == r->n_pending)
            r->first_pending = r->n_pending = 0;
    } else if (r->ended) {
        fail(r, "read past the END record");
        return TRACE_ERROR;
    } else if (!read_stored(r, rec)) {
        return TRACE_ERROR;
    }
    /* A taken branch read ahead by find_target() still lacks its target
     * (0: no user-mode code sits at address 0). */
    bool taken = rec->kind == TRACE_RECORD_INSN && rec->insn.branch == TRACE_BRANCH_TAKEN;
    if (taken && rec->insn.target == 0 && !find_target(r, &rec->insn))
        return TRACE_ERROR;
    return TRACE_OK;
}

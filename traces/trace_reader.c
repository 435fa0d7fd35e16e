#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "code_cache.h"
#include "util/error_line.h"
#include "util/input_file.h"
#include "trace.h"
#include "trace_block.h"
#include "trace_encoding.h"

/* Records read ahead to find a taken branch's target (the next
 * instruction); region markers between them wait too. */
enum { MAX_PENDING = TRACE_MAX_MARKERS + 1 };

/* Records are read into a ring and handed out in place (trace_next()):
 * the pending ones (the common records are read ahead in batches), the
 * one returned last and the one before it, which a caller may still
 * hold. */
enum { RING_SIZE = 32 };
_Static_assert(RING_SIZE >= MAX_PENDING + 2, "the ring holds the pending and the held records");

/* The reader takes bytes from its own buffer: a function call per byte
 * (getc) was a third of the time of a simulation. */
enum { READ_BUFFER_SIZE = 1 << 16 };

struct trace_reader {
    FILE *in;
    /* The descriptor of a FILE on a pipe, read directly: a refill takes
     * what the writer has written so far and returns, where fread would
     * wait for a full buffer -- so that a reader of a trace being written
     * gets each record once it is flushed (docs/emulate.md); -1 for other
     * files, read with fread. */
    int pipe_fd;
    FILE *copy;               /* every chunk read is written here; NULL: none */
    char path[PATH_MAX];
    uint64_t buffer_offset;   /* of buffer[0] in the file */
    struct trace_header header;
    struct code_cache *code;
    uint64_t next_address, last_access;
    uint8_t thread, cpl;
    uint64_t instructions;
    bool ended, failed;
    int error_number;         /* the failure's errno: ENOMEM (the code cache or block table
                               * could not grow), a read's own; 0 for the trace's content */
    int read_errno;           /* the errno of a read that failed, or 0 */
    uint64_t regs[TRACE_MAX_REGS]; /* as of the last register record (initially 0) */
    struct trace_record ring[RING_SIZE];
    uint64_t records_read, records_returned; /* ring[n % RING_SIZE] */
    uint64_t version;
    /* Blocks (trace_next_block()): those seen, by id; the one being built
     * (version 1) or defined (version 2). */
    struct block_table blocks;
    struct block_builder builder;
    const struct trace_record *held; /* version 1: the record after the block returned */
    uint64_t block_regs[TRACE_MAX_REGS]; /* the registers of the block returned */
    /* Version 2: each thread's last block (at first its start). */
    struct block_entry *last_block[2];
    struct block_entry start[2];
    uint32_t run;                    /* executions of successor 0 still to hand out */
    uint64_t last_defined_access;    /* the last address of the last definition's accesses */
    /* Version 2 with MSR accesses: the traces of the processes of a run
     * (docs/traces.md, "Processes").  The processes whose traces enclose
     * the one being read, innermost last; the block tables of those whose
     * traces have ended, kept until the reader closes (a caller may still
     * hold a block); block ids handed out, unique over all the traces; the
     * instructions of the traces ended. */
    struct process_state *enclosing;
    uint32_t depth, enclosing_capacity;
    struct block_table *ended_tables;
    uint32_t n_ended_tables;
    uint32_t next_block_id;
    uint64_t ended_instructions;
    enum trace_isa code_isa;         /* the current process's */
    struct trace_record control;     /* the region or END record returned */
    const struct trace_block *expanding; /* version 2 read by records: its instructions */
    uint32_t expanded;                   /* ... handed out so far */
    char error[512];
    size_t buffer_pos, buffer_fill;
    uint8_t buffer[READ_BUFFER_SIZE];
};

/* What a process's trace has set so far (version 2): saved while the
 * trace of a process it started is read.  last_block[t] NULL: the thread's
 * start. */
struct process_state {
    enum trace_isa isa;
    struct block_table blocks;
    struct block_entry *last_block[2];
    struct block_entry start[2];
    uint64_t last_defined_access, instructions;
    uint8_t thread, cpl;
    uint64_t regs[TRACE_MAX_REGS];
};

static bool vfail_at(struct trace_reader *r, uint64_t offset, const char *fmt, va_list ap)
{
    if (r->failed)
        return false;
    /* A read that failed is the file's failure, not a truncated trace. */
    if (r->read_errno) {
        error_line(0, r->error, sizeof r->error, "%s: cannot read: %s", r->path,
                   strerror(r->read_errno));
        r->error_number = r->read_errno;
    } else {
        error_at_voffset(0, r->error, sizeof r->error, r->path, offset, fmt, ap);
    }
    r->failed = true;
    r->run = 0; /* a run pending is never handed out */
    return false;
}

/* Fails at the byte offset reached (the bytes consumed). */
__attribute__((format(printf, 2, 3))) static bool fail(struct trace_reader *r, const char *fmt,
                                                       ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(r, r->buffer_offset + r->buffer_pos, fmt, ap);
    va_end(ap);
    return false;
}

__attribute__((format(printf, 3, 4))) static bool fail_at(struct trace_reader *r,
                                                          uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(r, offset, fmt, ap);
    va_end(ap);
    return false;
}

/* The chunk just read, to the copy: once a write failed, the copy's
 * error flag is set and the rest is not written (its owner tells). */
static void copy_chunk(struct trace_reader *r)
{
    if (r->buffer_fill > 0 && !ferror(r->copy))
        fwrite(r->buffer, 1, r->buffer_fill, r->copy);
}

/* Whether a byte is available (refilling the buffer when it is empty). */
static bool have_byte(struct trace_reader *r)
{
    if (r->buffer_pos < r->buffer_fill)
        return true;
    r->buffer_offset += r->buffer_fill;
    r->buffer_pos = 0;
    if (r->pipe_fd < 0) {
        errno = 0;
        r->buffer_fill = fread(r->buffer, 1, sizeof r->buffer, r->in);
        if (r->buffer_fill == 0 && ferror(r->in))
            r->read_errno = errno ? errno : EIO;
    } else {
        ssize_t n;
        while ((n = read(r->pipe_fd, r->buffer, sizeof r->buffer)) < 0 && errno == EINTR)
            ;
        if (n < 0)
            r->read_errno = errno ? errno : EIO;
        r->buffer_fill = n > 0 ? (size_t)n : 0;
    }
    if (r->copy)
        copy_chunk(r);
    return r->buffer_fill > 0;
}

static bool get_byte_refilling(struct trace_reader *r, uint8_t *byte, const char *expected)
{
    *byte = 0;
    if (!have_byte(r))
        return fail(r, "truncated: expected %s", expected);
    *byte = r->buffer[r->buffer_pos++];
    return true;
}

static inline bool get_byte(struct trace_reader *r, uint8_t *byte, const char *expected)
{
    if (r->buffer_pos == r->buffer_fill)
        return get_byte_refilling(r, byte, expected);
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
        done += chunk;
    }
    return done;
}

/* Decodes a varint of at most 9 bytes at `p` (10 bytes readable); its
 * length, or 0 for a longer one (the careful path checks the limit). */
static inline size_t decode_varint(const uint8_t *p, uint64_t *value)
{
    if (p[0] < 0x80) {
        *value = p[0];
        return 1;
    }
    if (p[1] < 0x80) {
        *value = (p[0] & 0x7fu) | (uint64_t)p[1] << 7;
        return 2;
    }
    uint64_t v = 0;
    for (int i = 0; i < 9; i++) {
        v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *value = v;
            return (size_t)i + 1;
        }
    }
    return 0;
}

/* Bytes that hold any varint the fast paths decode. */
enum { VARINT_ROOM = 10 };

/* A varint wholly inside the buffer, decoded without per-byte checks; false
 * (nothing consumed) when it may not be: the careful path then decides. */
static inline bool get_varint_fast(struct trace_reader *r, uint64_t *value)
{
    if (r->buffer_fill - r->buffer_pos < VARINT_ROOM)
        return false;
    size_t used = decode_varint(r->buffer + r->buffer_pos, value);
    r->buffer_pos += used;
    return used != 0;
}

static bool get_varint_slow(struct trace_reader *r, uint64_t *value, const char *expected)
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

static inline bool get_varint(struct trace_reader *r, uint64_t *value, const char *expected)
{
    return get_varint_fast(r, value) || get_varint_slow(r, value, expected);
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

/* The header's CPU view (docs/traces.md, "Header"). */
static bool get_cpu_view(struct trace_reader *r, struct cpu_view *view)
{
    char name[TRACE_MAX_TEXT];
    uint64_t n;
    if (!get_string(r, name, "the CPU view's name"))
        return false;
    if (!name[0] || strlen(name) >= sizeof view->name)
        return fail(r, "a CPU view's name of %zu bytes (expected 1-%d)", strlen(name),
                    CPU_VIEW_MAX_NAME - 1);
    if (!get_varint(r, &n, "the CPU view's number of leaves"))
        return false;
    if (n == 0 || n > CPU_VIEW_MAX_LEAVES)
        return fail(r, "a CPU view of %llu leaves (expected 1-%d)", (unsigned long long)n,
                    CPU_VIEW_MAX_LEAVES);
    memcpy(view->name, name, strlen(name) + 1);
    view->n = (uint32_t)n;
    for (uint32_t i = 0; i < view->n; i++) {
        uint32_t words[6];
        for (int k = 0; k < 6; k++) {
            uint64_t v;
            if (!get_varint(r, &v, "a CPUID leaf of the CPU view"))
                return false;
            if (v > UINT32_MAX)
                return fail(r, "a CPUID value of %llu in the CPU view (at most 2^32 - 1)",
                            (unsigned long long)v);
            words[k] = (uint32_t)v;
        }
        view->leaves[i] = (struct cpuid_leaf){words[0], words[1],
                                              {words[2], words[3], words[4], words[5]}};
    }
    char why[256];
    return cpu_view_valid(view, why, sizeof why) || fail(r, "%s", why);
}

/* A trace's header into `header`, its version into *version. */
static bool read_header_into(struct trace_reader *r, struct trace_header *header,
                             uint64_t *version_read)
{
    char magic[TRACE_MAGIC_SIZE];
    uint64_t at = r->buffer_offset + r->buffer_pos;
    size_t got = get_block(r, magic, sizeof magic);
    if (got != sizeof magic || memcmp(magic, TRACE_MAGIC, sizeof magic) != 0)
        return fail_at(r, at, "not a pmubench trace (expected the magic \"%s\")", TRACE_MAGIC);
    uint64_t version, flags;
    if (!get_varint(r, &version, "the format version"))
        return false;
    if (version != 1 && version != TRACE_VERSION)
        return fail(r, "trace format version %llu; this pmubench reads versions 1 and %d",
                    (unsigned long long)version, TRACE_VERSION);
    *version_read = version;
    if (!get_varint(r, &flags, "the header flags"))
        return false;
    if (flags & ~(uint64_t)(TRACE_FLAG_ISA64 | TRACE_FLAG_LENGTHS_UNKNOWN | TRACE_FLAG_REGISTERS |
                            TRACE_FLAG_CPU_VIEW | TRACE_FLAG_MSR))
        return fail(r, "unknown header flags 0x%llx", (unsigned long long)flags);
    if (version == 1 && (flags & TRACE_FLAG_CPU_VIEW))
        return fail(r, "header flag 0x%x (a CPU view) in a version 1 trace",
                    (unsigned)TRACE_FLAG_CPU_VIEW);
    if (version == 1 && (flags & TRACE_FLAG_MSR))
        return fail(r, "header flag 0x%x (MSR accesses) in a version 1 trace",
                    (unsigned)TRACE_FLAG_MSR);
    header->msr_accesses = (flags & TRACE_FLAG_MSR) != 0;
    header->isa = (flags & TRACE_FLAG_ISA64) ? TRACE_ISA_64 : TRACE_ISA_32;
    header->lengths_known = !(flags & TRACE_FLAG_LENGTHS_UNKNOWN);
    header->registers = (flags & TRACE_FLAG_REGISTERS) != 0;
    return get_string(r, header->program, "the program name") &&
           get_string(r, header->args, "the arguments") &&
           get_string(r, header->recorder, "the recorder's name") &&
           (!(flags & TRACE_FLAG_CPU_VIEW) || get_cpu_view(r, &header->cpu));
}

static bool read_header(struct trace_reader *r)
{
    if (!read_header_into(r, &r->header, &r->version))
        return false;
    r->code_isa = r->header.isa;
    return true;
}

struct trace_reader *trace_reader_open(FILE *in, const char *path, char *error,
                                       size_t error_size)
{
    return trace_reader_open_copying(in, path, NULL, error, error_size);
}

struct trace_reader *trace_reader_open_copying(FILE *in, const char *path, FILE *copy,
                                               char *error, size_t error_size)
{
    struct trace_reader *r = calloc(1, sizeof *r);
    if (r && !block_table_init(&r->blocks)) {
        free(r);
        r = NULL;
    }
    if (r)
        r->code = code_cache_create();
    if (!r || !r->code) {
        snprintf(error, error_size, "%s: out of memory", path);
        trace_reader_close(r);
        errno = ENOMEM;
        return NULL;
    }
    for (int t = 0; t < 2; t++) {
        block_start_init(&r->start[t]);
        r->last_block[t] = &r->start[t];
    }
    r->in = in;
    r->copy = copy;
    struct stat st;
    r->pipe_fd = fileno(in) >= 0 && fstat(fileno(in), &st) == 0 && S_ISFIFO(st.st_mode)
                     ? fileno(in) : -1;
    r->cpl = 3;
    snprintf(r->path, sizeof r->path, "%s", path);
    if (!read_header(r)) {
        snprintf(error, error_size, "%s", r->error);
        int error_number = r->error_number;
        trace_reader_close(r);
        errno = error_number;
        return NULL;
    }
    return r;
}

const struct trace_header *trace_reader_header(const struct trace_reader *r)
{
    return &r->header;
}

bool trace_read_header(const char *path, struct trace_header *header, char *error,
                       size_t error_size)
{
    FILE *in = input_open(path, error, error_size);
    if (!in)
        return false;
    struct trace_reader *reader = trace_reader_open(in, path, error, error_size);
    if (reader) {
        *header = reader->header;
        trace_reader_close(reader);
    }
    fclose(in);
    return reader != NULL;
}

const char *trace_reader_error(const struct trace_reader *r)
{
    return r->error;
}

uint64_t trace_reader_record_number(const struct trace_reader *r)
{
    return r->records_returned;
}

int trace_reader_error_number(const struct trace_reader *r)
{
    return r->error_number;
}

void trace_reader_close(struct trace_reader *r)
{
    if (!r)
        return;
    code_cache_free(r->code);
    block_table_free(&r->blocks);
    for (uint32_t i = 0; i < r->depth; i++)
        block_table_free(&r->enclosing[i].blocks);
    for (uint32_t i = 0; i < r->n_ended_tables; i++)
        block_table_free(&r->ended_tables[i]);
    free(r->enclosing);
    free(r->ended_tables);
    free(r);
}

/* ---- records */

/* A data access's kind and size (its address is 0 here). */
static bool read_access_shape(struct trace_reader *r, struct trace_access *a)
{
    uint8_t byte;
    uint64_t size;
    if (!get_byte(r, &byte, "a data access"))
        return false;
    if ((byte & 3) == 0)
        return fail(r, "data access of kind 0 (expected load, store or modify)");
    a->kind = (enum trace_access_kind)(byte & 3);
    size = byte >> 2;
    if (size == ACCESS_SIZE_ESCAPE && !get_varint(r, &size, "an access size"))
        return false;
    if (!trace_access_size_valid(size))
        return fail(r, "data access of %llu bytes (expected 1-%d)", (unsigned long long)size,
                    TRACE_MAX_ACCESS_SIZE);
    a->size = (uint32_t)size;
    a->address = 0;
    return true;
}

/* An instruction's number of data accesses, 1-TRACE_MAX_ACCESSES. */
static bool read_access_count(struct trace_reader *r, uint64_t *n)
{
    if (!get_varint(r, n, "the number of data accesses"))
        return false;
    if (*n == 0 || *n > TRACE_MAX_ACCESSES)
        return fail(r, "%llu data accesses in one instruction (expected 1-%d)",
                    (unsigned long long)*n, TRACE_MAX_ACCESSES);
    return true;
}

static bool read_accesses(struct trace_reader *r, struct trace_insn *insn)
{
    uint64_t n;
    if (!read_access_count(r, &n))
        return false;
    insn->n_accesses = (int)n;
    for (int i = 0; i < insn->n_accesses; i++) {
        struct trace_access *a = &insn->accesses[i];
        uint64_t delta;
        if (!read_access_shape(r, a) || !get_varint(r, &delta, "a data address"))
            return false;
        a->address = r->last_access + (uint64_t)unzigzag(delta);
        r->last_access = a->address;
    }
    return true;
}

/* Code bytes stored in the trace (the first time an address is seen). */
static bool read_stored_bytes(struct trace_reader *r, struct trace_insn *insn)
{
    memset(insn->bytes, 0, sizeof insn->bytes);
    if (get_block(r, insn->bytes, insn->length) != insn->length)
        return fail(r, "truncated: expected %u code bytes", insn->length);
    insn->has_bytes = true;
    if (code_cache_put(r->code, insn->address, insn->length, insn->bytes))
        return true;
    fail(r, "out of memory");
    r->error_number = ENOMEM;
    return false;
}

/* The code bytes, stored or cached; 0 past the length. */
static inline bool read_bytes(struct trace_reader *r, struct trace_insn *insn, bool present)
{
    if (present)
        return read_stored_bytes(r, insn);
    const uint8_t *cached = code_cache_find(r->code, insn->address, insn->length);
    insn->has_bytes = cached != NULL;
    if (cached) /* all of them: past the length they are 0 too */
        memcpy(insn->bytes, cached, CODE_CACHE_BYTES);
    else
        memset(insn->bytes, 0, sizeof insn->bytes);
    return true;
}

static bool read_insn(struct trace_reader *r, uint8_t tag, enum trace_branch branch,
                     struct trace_insn *insn)
{
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
    /* The fields from the target on start at 0 (zeroing only those: the
     * earlier ones are all set here). */
    memset(&insn->target, 0, offsetof(struct trace_insn, accesses) - offsetof(struct trace_insn, target));
    if (!read_bytes(r, insn, tag & TAG_BYTES))
        return false;
    if ((tag & TAG_ACCESSES) && !read_accesses(r, insn))
        return false;
    r->next_address = insn->address + insn->length;
    r->instructions++;
    return true;
}

/* An END record's fields (its tag read), the count checked against the
 * instructions of the trace it ends. */
static bool read_end_fields(struct trace_reader *r, struct trace_end *end)
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
    end->instructions = count;
    end->status = (enum trace_end_status)status;
    end->code = (uint32_t)code;
    return true;
}

/* The END record of the trace (its tag read), the last of the file. */
static bool read_end(struct trace_reader *r, struct trace_end *end)
{
    if (!read_end_fields(r, end))
        return false;
    if (have_byte(r))
        return fail(r, "data after the END record");
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

/* A region marker's number (a varint that fits 32 bits). */
static bool get_region(struct trace_reader *r, uint64_t *region)
{
    if (!get_varint(r, region, "a region number"))
        return false;
    if (*region > UINT32_MAX)
        return fail(r, "region number %llu", (unsigned long long)*region);
    return true;
}

/* A register record (docs/traces.md, "Registers"): a mask of the registers
 * that changed since the last one, then their signed deltas, lowest index
 * first; the values belong to the next instruction. */
static bool read_registers(struct trace_reader *r)
{
    if (!r->header.registers)
        return fail(r, "a register record in a trace without the registers header flag");
    int n = r->header.isa == TRACE_ISA_64 ? TRACE_MAX_REGS : TRACE_REGS_32;
    uint64_t mask;
    if (!get_varint(r, &mask, "a register mask"))
        return false;
    if (mask >> n)
        return fail(r, "register mask 0x%llx (a %d-bit trace has registers 0-%d)",
                    (unsigned long long)mask, (int)r->header.isa, n - 1);
    for (int i = 0; i < n; i++) {
        uint64_t delta;
        if (!(mask & (uint64_t)1 << i))
            continue;
        if (!get_varint(r, &delta, "a register value"))
            return false;
        uint64_t value = r->regs[i] + (uint64_t)unzigzag(delta);
        if (n == TRACE_REGS_32 && value > UINT32_MAX)
            return fail(r, "register %d holds 0x%llx, above 32 bits in a 32-bit trace", i,
                        (unsigned long long)value);
        r->regs[i] = value;
    }
    return true;
}

/* An instruction's registers, after a register record (read_insn() clears
 * has_registers). */
static bool attach_registers(struct trace_reader *r, struct trace_insn *insn, bool present)
{
    if (present) {
        insn->has_registers = true;
        memcpy(insn->regs, r->regs, sizeof insn->regs);
    }
    return true;
}

/* Reads one record as stored, applying thread/CPL/branch controls. */
static bool read_stored(struct trace_reader *r, struct trace_record *rec)
{
    enum trace_branch branch = TRACE_NOT_BRANCH;
    bool registers = false; /* a register record for the next instruction was read */
    for (;;) {
        uint8_t tag;
        uint64_t region;
        if (!get_byte(r, &tag, "a record (a trace ends with an END record)"))
            return false;
        if (!(tag & TAG_CONTROL)) {
            rec->kind = TRACE_RECORD_INSN;
            return read_insn(r, tag, branch, &rec->insn) &&
                   attach_registers(r, &rec->insn, registers);
        }
        if (branch != TRACE_NOT_BRANCH)
            return fail(r, "record 0x%02x between a branch marker and its instruction", tag);
        if (registers && (tag == CONTROL_REGISTERS || tag == CONTROL_REGION_BEGIN ||
                          tag == CONTROL_REGION_END || tag == CONTROL_END))
            return fail(r, "record 0x%02x between a register record and its instruction", tag);
        switch (tag) {
        case CONTROL_REGISTERS:
            if (!read_registers(r))
                return false;
            registers = true;
            break;
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
            if (!get_region(r, &region))
                return false;
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

static struct trace_record *ring_slot(struct trace_reader *r, uint64_t n)
{
    return &r->ring[n % RING_SIZE];
}

/* Reads the next stored record into the ring, carefully. */
static bool read_into_ring(struct trace_reader *r)
{
    if (!read_stored(r, ring_slot(r, r->records_read)))
        return false;
    r->records_read++;
    return true;
}

/* ---- the fast path: the common records decoded in a batch */

/* Bytes a common record's tag and address take at most: a branch marker,
 * the tag, the address delta. */
enum { COMMON_HEAD_ROOM = 2 + VARINT_ROOM };
/* ... and each of its data accesses: the kind and size byte, the address. */
enum { COMMON_ACCESS_ROOM = 1 + VARINT_ROOM };

/* The data accesses of a common record from `p` (before `end`), into
 * `insn` with r->last_access in *last_access; NULL when anything is
 * unusual (the careful path then reads the record and judges it). */
static const uint8_t *decode_common_accesses(const uint8_t *p, const uint8_t *end,
                                             struct trace_insn *insn, uint64_t *last_access)
{
    uint64_t n;
    size_t used = end - p >= VARINT_ROOM ? decode_varint(p, &n) : 0;
    if (!used || n == 0 || n > TRACE_MAX_ACCESSES)
        return NULL;
    p += used;
    insn->n_accesses = (int)n;
    for (int i = 0; i < insn->n_accesses; i++) {
        struct trace_access *a = &insn->accesses[i];
        uint64_t delta;
        if (end - p < COMMON_ACCESS_ROOM || (p[0] & 3) == 0 || (p[0] >> 2) == 0 ||
            (p[0] >> 2) == ACCESS_SIZE_ESCAPE || !(used = decode_varint(p + 1, &delta)))
            return NULL;
        a->kind = (enum trace_access_kind)(p[0] & 3);
        a->size = p[0] >> 2;
        *last_access += (uint64_t)unzigzag(delta);
        a->address = *last_access;
        p += 1 + used;
    }
    return p;
}

/* A common record, decoded in place: an instruction whose code bytes are
 * cached (not stored), after a branch marker or not.  False, with nothing
 * consumed, for anything else: the careful path reads that. */
static inline bool read_common(struct trace_reader *r, struct trace_record *rec)
{
    const uint8_t *p = r->buffer + r->buffer_pos, *end = r->buffer + r->buffer_fill;
    if (end - p < COMMON_HEAD_ROOM)
        return false;
    bool marked = p[0] == CONTROL_BRANCH_TAKEN || p[0] == CONTROL_BRANCH_NOT_TAKEN;
    uint8_t tag = p[marked];
    if ((tag & (TAG_CONTROL | TAG_BYTES)) || !(tag & TAG_LENGTH_MASK))
        return false;
    struct trace_insn *insn = &rec->insn;
    insn->branch = !marked                        ? TRACE_NOT_BRANCH
                   : p[0] == CONTROL_BRANCH_TAKEN ? TRACE_BRANCH_TAKEN
                                                  : TRACE_BRANCH_NOT_TAKEN;
    p += 1 + marked;
    insn->address = r->next_address;
    if (tag & TAG_JUMP) {
        uint64_t delta;
        size_t used = decode_varint(p, &delta);
        if (!used)
            return false;
        insn->address += (uint64_t)unzigzag(delta);
        p += used;
    }
    uint64_t last_access = r->last_access;
    insn->n_accesses = 0;
    if ((tag & TAG_ACCESSES) && !(p = decode_common_accesses(p, end, insn, &last_access)))
        return false;
    insn->length = tag & TAG_LENGTH_MASK;
    insn->thread = r->thread;
    insn->cpl = r->cpl;
    insn->target = 0;
    insn->has_registers = false;
    read_bytes(r, insn, false);
    rec->kind = TRACE_RECORD_INSN;
    r->buffer_pos = (size_t)(p - r->buffer);
    r->last_access = last_access;
    r->next_address = insn->address + insn->length;
    r->instructions++;
    return true;
}

/* Reads ahead the common records that follow into the ring, up to the
 * slot of record `held`, which the caller may still hold, and the ones
 * after it. */
static void read_common_records(struct trace_reader *r, uint64_t held)
{
    uint64_t limit = held + RING_SIZE;
    while (r->records_read < limit && read_common(r, ring_slot(r, r->records_read)))
        r->records_read++;
}

/* A taken branch's target is the next instruction: the first one read
 * after it, reading ahead when there is none yet (region markers in
 * between wait in the ring).  Out of line, like read_ahead(), so that
 * trace_next() stays small. */
__attribute__((noinline)) static bool find_target(struct trace_reader *r, uint64_t branch_index,
                                                  struct trace_insn *branch)
{
    for (uint64_t n = branch_index + 1;; n++) {
        if (n == r->records_read) {
            if (r->ended)
                return true; /* the trace ended on the branch: no target */
            if (n - branch_index - 1 == MAX_PENDING)
                return fail(r, "more than %d region markers after a branch", TRACE_MAX_MARKERS);
            read_common_records(r, branch_index - 1);
            if (n == r->records_read && !read_into_ring(r))
                return false;
        }
        const struct trace_record *next = ring_slot(r, n);
        if (next->kind == TRACE_RECORD_INSN) {
            branch->target = next->insn.address;
            return true;
        }
    }
}

/* Records into the empty ring: the common ones that follow, or the next
 * one read carefully. */
__attribute__((noinline)) static bool read_ahead(struct trace_reader *r)
{
    if (r->ended)
        return fail(r, "read past the END record");
    read_common_records(r, r->records_returned - 1);
    return r->records_returned != r->records_read || read_into_ring(r);
}

static inline enum trace_status next_record_v1(struct trace_reader *r,
                                              const struct trace_record **record)
{
    if (r->failed || (r->records_returned == r->records_read && !read_ahead(r)))
        return TRACE_ERROR;
    uint64_t index = r->records_returned++;
    struct trace_record *rec = ring_slot(r, index);
    /* A taken branch's target waits for the next instruction (0: no
     * user-mode code sits at address 0). */
    bool taken = rec->kind == TRACE_RECORD_INSN && rec->insn.branch == TRACE_BRANCH_TAKEN;
    if (taken && rec->insn.target == 0 && !find_target(r, index, &rec->insn))
        return TRACE_ERROR;
    *record = rec;
    return TRACE_OK;
}

/* A record without its unused access slots (a whole one is over 1 KB). */
static void copy_record(struct trace_record *to, const struct trace_record *from)
{
    to->kind = from->kind;
    to->region = from->region;
    to->end = from->end;
    to->msr = from->msr;
    to->isa = from->isa;
    memcpy(&to->insn, &from->insn, offsetof(struct trace_insn, accesses));
    memcpy(to->insn.accesses, from->insn.accesses,
           (size_t)from->insn.n_accesses * sizeof from->insn.accesses[0]);
    if (from->insn.has_registers)
        memcpy(to->insn.regs, from->insn.regs, sizeof to->insn.regs);
}

enum trace_status trace_read(struct trace_reader *r, struct trace_record *rec)
{
    const struct trace_record *next;
    if (trace_next(r, &next) != TRACE_OK)
        return TRACE_ERROR;
    copy_record(rec, next);
    return TRACE_OK;
}

/* ---- blocks of a version-1 trace: built from its records */

/* The block built, found in the table or added to it, with this
 * execution's addresses, thread, CPL and registers. */
static enum trace_status finish_block(struct trace_reader *r, const struct trace_block **block)
{
    struct block_builder *b = &r->builder;
    struct block_entry *e = block_table_find_after(&r->blocks, r->last_block[b->thread], b);
    if (!e)
        e = block_table_add(&r->blocks, b);
    if (!e) {
        fail(r, "out of memory");
        r->error_number = ENOMEM;
        return TRACE_ERROR;
    }
    for (uint32_t i = 0; i < b->n_accesses; i++)
        e->accesses[i].address = b->accesses[i].address;
    block_note_successor(r->last_block[b->thread], e);
    r->last_block[b->thread] = e;
    e->block.thread = b->thread;
    e->block.cpl = b->cpl;
    e->block.regs = NULL;
    if (b->has_registers) {
        memcpy(r->block_regs, b->regs, sizeof r->block_regs);
        e->block.regs = r->block_regs;
    }
    block_builder_clear(b);
    *block = &e->block;
    return TRACE_OK;
}

__attribute__((noinline)) static enum trace_status
next_block_v1(struct trace_reader *r, const struct trace_block **block,
              const struct trace_record **record)
{
    struct block_builder *b = &r->builder;
    *block = NULL;
    *record = NULL;
    for (;;) {
        const struct trace_record *rec = r->held;
        r->held = NULL;
        if (!rec && next_record_v1(r, &rec) != TRACE_OK)
            return TRACE_ERROR;
        bool joins = rec->kind == TRACE_RECORD_INSN &&
                     (b->n_insns == 0 || block_builder_continues(b, &rec->insn));
        if (joins)
            block_builder_add(b, &rec->insn, true);
        if (joins && !b->closed)
            continue;
        if (!joins && b->n_insns == 0) {
            *record = rec;
            return TRACE_OK;
        }
        if (!joins)
            r->held = rec; /* valid through the next call to next_record_v1() */
        return finish_block(r, block);
    }
}

/* ---- version 2: blocks as stored */

/* An instruction's data accesses in a definition: a count, then shapes. */
static bool read_insn_accesses(struct trace_reader *r, struct block_builder *b,
                               struct trace_block_insn *bi)
{
    uint64_t n;
    if (!read_access_count(r, &n))
        return false;
    if (b->n_accesses + n > TRACE_MAX_BLOCK_ACCESSES)
        return fail(r, "more than %d data accesses in a block", TRACE_MAX_BLOCK_ACCESSES);
    bi->n_accesses = (uint16_t)n;
    for (uint64_t i = 0; i < n; i++)
        if (!read_access_shape(r, &b->accesses[b->n_accesses++]))
            return false;
    return true;
}

/* Instruction `i` of `n` of a definition, at `address`. */
static bool read_block_insn(struct trace_reader *r, struct block_builder *b, uint32_t i,
                            uint32_t n, uint64_t address)
{
    struct trace_block_insn *bi = &b->insns[i];
    uint8_t flags;
    memset(bi, 0, sizeof *bi);
    if (!get_byte(r, &flags, "an instruction of a block definition"))
        return false;
    bi->address = address;
    bi->length = flags & DEFINE_LENGTH_MASK;
    if (bi->length == 0)
        return fail(r, "instruction of length 0 (expected 1-15)");
    unsigned branch = (flags & DEFINE_BRANCH_MASK) >> DEFINE_BRANCH_SHIFT;
    if (branch > TRACE_BRANCH_TAKEN || (branch != TRACE_NOT_BRANCH && i + 1 != n))
        return fail(r, "branch kind %u of instruction %u of %u in a block definition "
                       "(expected a branch only at the end)", branch, i + 1, n);
    bi->branch = (enum trace_branch)branch;
    bi->first_access = (uint16_t)b->n_accesses;
    bi->has_bytes = (flags & DEFINE_BYTES) != 0;
    if (bi->has_bytes && get_block(r, bi->bytes, bi->length) != bi->length)
        return fail(r, "truncated: expected %u code bytes", bi->length);
    return !(flags & DEFINE_ACCESSES) || read_insn_accesses(r, b, bi);
}

/* The first execution's addresses, after a definition: each a delta from
 * the one before (the first from the last one of the latest definition
 * that had accesses). */
static bool read_first_addresses(struct trace_reader *r, struct block_builder *b)
{
    for (uint32_t i = 0; i < b->n_accesses; i++) {
        uint64_t delta;
        if (!get_varint(r, &delta, "a data address"))
            return false;
        r->last_defined_access += (uint64_t)unzigzag(delta);
        b->accesses[i].address = r->last_defined_access;
    }
    return true;
}

/* A block definition (after its tag): the new block, executed once. */
__attribute__((noinline)) static struct block_entry *read_definition(struct trace_reader *r)
{
    struct block_builder *b = &r->builder;
    struct block_entry *last = r->last_block[r->thread];
    uint64_t delta, n;
    block_builder_clear(b);
    if (!get_varint(r, &delta, "a block's address") ||
        !get_varint(r, &n, "the number of instructions of a block"))
        return NULL;
    if (n == 0 || n > TRACE_MAX_BLOCK_INSNS) {
        fail(r, "a block of %llu instructions (expected 1-%d)", (unsigned long long)n,
             TRACE_MAX_BLOCK_INSNS);
        return NULL;
    }
    uint64_t address = last->block.next_address + (uint64_t)unzigzag(delta);
    for (uint32_t i = 0; i < n; i++, b->n_insns++) {
        if (!read_block_insn(r, b, i, (uint32_t)n, address))
            return NULL;
        address += b->insns[i].length;
    }
    b->next_address = address;
    if (b->insns[n - 1].branch == TRACE_BRANCH_TAKEN) {
        if (!get_varint(r, &delta, "a branch target"))
            return NULL;
        b->next_address += (uint64_t)unzigzag(delta);
    }
    if (!read_first_addresses(r, b))
        return NULL;
    uint32_t same = block_table_find(&r->blocks, b);
    if (same != BLOCK_NONE) {
        fail(r, "a block defined again (block %u)", same);
        return NULL;
    }
    struct block_entry *e = block_table_add(&r->blocks, b);
    if (!e) {
        fail(r, "out of memory");
        r->error_number = ENOMEM;
    } else {
        e->block.id = r->next_block_id++; /* unique over the processes' traces */
    }
    return e;
}

static inline void predict_addresses(struct block_entry *e)
{
    uint32_t n = e->block.n_accesses;
    for (uint32_t i = 0; i < n; i++)
        e->accesses[i].address += e->strides[i];
}

/* Whether an access mask fits a block of `n` accesses. */
static inline bool mask_valid(uint64_t mask, uint32_t n)
{
    return mask != 0 && (n == 64 || mask >> n == 0);
}

static inline void correct_address(struct block_entry *e, int i, uint64_t delta)
{
    e->accesses[i].address += (uint64_t)unzigzag(delta);
    e->strides[i] += (uint64_t)unzigzag(delta);
}

/* The corrections to the predicted addresses: a mask of the accesses not
 * as predicted, then a delta for each, which corrects its stride too. */
static inline bool read_deltas(struct trace_reader *r, struct block_entry *e)
{
    uint64_t mask, delta;
    if (!get_varint(r, &mask, "an access mask"))
        return false;
    if (!mask_valid(mask, e->block.n_accesses))
        return fail(r, "access mask 0x%llx for a block of %u data accesses",
                    (unsigned long long)mask, e->block.n_accesses);
    for (; mask; mask &= mask - 1) {
        if (!get_varint(r, &delta, "a data address"))
            return false;
        correct_address(e, __builtin_ctzll(mask), delta);
    }
    return true;
}

/* The block a tag names by id, or NULL. */
__attribute__((noinline)) static struct block_entry *block_by_id(struct trace_reader *r)
{
    uint64_t id;
    if (!get_varint(r, &id, "a block id"))
        return NULL;
    if (id < r->blocks.n)
        return r->blocks.entries[id];
    if (r->blocks.n)
        fail(r, "unknown block id %llu (expected 0-%u)", (unsigned long long)id,
             r->blocks.n - 1);
    else
        fail(r, "unknown block id %llu (no block defined yet)", (unsigned long long)id);
    return NULL;
}

__attribute__((noinline)) static struct block_entry *no_successor(struct trace_reader *r,
                                                                  uint8_t tag)
{
    fail(r, "a reference to successor %u of a block that has none (tag 0x%02x)",
         tag & EXEC_BLOCK_MASK, tag);
    return NULL;
}

/* The block an execution tag names: successor 0 or 1 of the thread's last
 * block, one by id, or a new one. */
static inline struct block_entry *tagged_block(struct trace_reader *r, uint8_t tag)
{
    unsigned which = tag & EXEC_BLOCK_MASK;
    if (which > EXEC_SUCCESSOR_1)
        return which == EXEC_ID ? block_by_id(r) : read_definition(r);
    struct block_entry *e = r->last_block[r->thread]->successors[which];
    return e ? e : no_successor(r, tag);
}

/* Hands out block `e` executed by the current thread. */
static inline const struct trace_block *executed(struct trace_reader *r, struct block_entry *e,
                                                 const uint64_t *regs)
{
    block_note_successor(r->last_block[r->thread], e);
    r->last_block[r->thread] = e;
    r->instructions += e->block.n_insns;
    e->block.thread = r->thread;
    e->block.cpl = r->cpl;
    e->block.regs = regs;
    return &e->block;
}

/* Whether an execution tag is well formed: a run only of successor 0 with
 * the addresses predicted, no address mask after a definition. */
static inline bool exec_tag_valid(uint8_t tag)
{
    unsigned which = tag & EXEC_BLOCK_MASK;
    if (tag >> EXEC_RUN_SHIFT)
        return which == EXEC_SUCCESSOR_0 && !(tag & EXEC_ADDRESSES);
    return which != EXEC_DEFINE || !(tag & EXEC_ADDRESSES);
}

/* A block execution record (its tag read); `regs` the registers of a
 * register record before it, or NULL. */
static inline const struct trace_block *read_execution(struct trace_reader *r, uint8_t tag,
                                                       const uint64_t *regs)
{
    if (!exec_tag_valid(tag)) {
        fail(r, "bad block tag 0x%02x", tag);
        return NULL;
    }
    struct block_entry *e = tagged_block(r, tag);
    if (!e)
        return NULL;
    if (regs && e->block.n_insns != 1) {
        fail(r, "a register record before a block of %u instructions (expected 1)",
             e->block.n_insns);
        return NULL;
    }
    if ((tag & EXEC_BLOCK_MASK) != EXEC_DEFINE) {
        predict_addresses(e);
        if ((tag & EXEC_ADDRESSES) && !read_deltas(r, e))
            return NULL;
    }
    r->run = tag >> EXEC_RUN_SHIFT;
    return executed(r, e, regs);
}

/* The next block of a run (successor 0, addresses as predicted). */
static inline const struct trace_block *run_on(struct trace_reader *r)
{
    r->run--;
    struct block_entry *e = r->last_block[r->thread]->successors[0];
    if (!e) {
        fail(r, "a run of successors through a block that has none");
        return NULL;
    }
    predict_addresses(e);
    return executed(r, e, NULL);
}

/* An MSR access record's fields (its tag read). */
static bool read_msr(struct trace_reader *r, struct trace_msr *msr)
{
    uint8_t op;
    uint64_t number;
    if (!get_byte(r, &op, "an MSR access's operation"))
        return false;
    if ((op & 3) > TRACE_MSR_RDTSC || op >> 3)
        return fail(r, "MSR access operation 0x%02x", op);
    if (!get_varint(r, &number, "an MSR number"))
        return false;
    if (number > UINT32_MAX)
        return fail(r, "MSR number %llu", (unsigned long long)number);
    *msr = (struct trace_msr){.op = (enum trace_msr_op)(op & 3), .cpu = (uint8_t)(op >> 2 & 1),
                              .msr = (uint32_t)number};
    return msr->op != TRACE_MSR_WRITE || get_varint(r, &msr->value, "the value written");
}

static const struct trace_record *region_record(struct trace_reader *r, uint8_t tag,
                                                uint64_t region)
{
    r->control.kind = tag == CONTROL_REGION_BEGIN ? TRACE_RECORD_REGION_BEGIN
                                                   : TRACE_RECORD_REGION_END;
    r->control.region = (uint32_t)region;
    return &r->control;
}

/* ---- the processes of a run (docs/traces.md, "Processes") */

static void save_process(const struct trace_reader *r, struct process_state *to)
{
    to->isa = r->code_isa;
    to->blocks = r->blocks;
    for (int t = 0; t < 2; t++) {
        to->start[t] = r->start[t];
        to->last_block[t] = r->last_block[t] == &r->start[t] ? NULL : r->last_block[t];
    }
    to->last_defined_access = r->last_defined_access;
    to->instructions = r->instructions;
    to->thread = r->thread;
    to->cpl = r->cpl;
    memcpy(to->regs, r->regs, sizeof to->regs);
}

static void restore_process(struct trace_reader *r, const struct process_state *from)
{
    r->code_isa = from->isa;
    r->blocks = from->blocks;
    for (int t = 0; t < 2; t++) {
        r->start[t] = from->start[t];
        r->last_block[t] = from->last_block[t] ? from->last_block[t] : &r->start[t];
    }
    r->last_defined_access = from->last_defined_access;
    r->instructions = from->instructions;
    r->thread = from->thread;
    r->cpl = from->cpl;
    memcpy(r->regs, from->regs, sizeof r->regs);
}

/* The block table of a trace that has ended, kept until the reader
 * closes. */
static bool keep_ended_table(struct trace_reader *r)
{
    struct block_table *more =
        realloc(r->ended_tables, (r->n_ended_tables + 1) * sizeof *r->ended_tables);
    if (!more) {
        r->error_number = ENOMEM;
        return fail(r, "out of memory");
    }
    r->ended_tables = more;
    r->ended_tables[r->n_ended_tables++] = r->blocks;
    memset(&r->blocks, 0, sizeof r->blocks);
    return true;
}

/* The current process's state pushed under the one that begins. */
static bool push_process(struct trace_reader *r)
{
    if (r->depth == r->enclosing_capacity) {
        uint32_t capacity = r->enclosing_capacity ? 2 * r->enclosing_capacity : 4;
        struct process_state *more = realloc(r->enclosing, capacity * sizeof *more);
        if (!more) {
            r->error_number = ENOMEM;
            return fail(r, "out of memory");
        }
        r->enclosing = more;
        r->enclosing_capacity = capacity;
    }
    save_process(r, &r->enclosing[r->depth++]);
    memset(&r->blocks, 0, sizeof r->blocks);
    return true;
}

/* After the current process changed from one whose code was of `isa`:
 * a record of its instruction set when that is another. */
static void isa_record(struct trace_reader *r, enum trace_isa isa,
                       const struct trace_record **record)
{
    if (r->code_isa == isa)
        return;
    r->control.kind = TRACE_RECORD_ISA;
    r->control.isa = r->code_isa;
    *record = &r->control;
}

/* A CONTROL_PROCESS record (its tag read): the trace of another process
 * follows, header first, read from a state of its own: nested in the
 * current process's (`nested`, which goes on after its END record) or
 * after it (the current one ended).  Its header must be as the first's but
 * for the program, its arguments, its CPU view and its instruction set
 * (then *record is set, a TRACE_RECORD_ISA). */
static bool begin_process(struct trace_reader *r, bool nested, const struct trace_record **record)
{
    if (!(nested ? push_process(r) : keep_ended_table(r)))
        return false;
    if (!block_table_init(&r->blocks)) {
        r->error_number = ENOMEM;
        return fail(r, "out of memory");
    }
    for (int t = 0; t < 2; t++) {
        block_start_init(&r->start[t]);
        r->last_block[t] = &r->start[t];
    }
    r->last_defined_access = 0;
    r->instructions = 0;
    r->thread = 0;
    r->cpl = 3;
    memset(r->regs, 0, sizeof r->regs);
    struct trace_header header;
    uint64_t version;
    if (!read_header_into(r, &header, &version))
        return false;
    if (version != r->version || header.registers != r->header.registers ||
        header.lengths_known != r->header.lengths_known || !header.msr_accesses)
        return fail(r, "a process's trace (%s) of another version or header flags than the "
                       "first's", header.program);
    enum trace_isa before = r->code_isa;
    r->code_isa = header.isa;
    isa_record(r, before, record);
    return true;
}

/* An END record (version 2; its tag read).  A nested trace's ends its
 * process, and its parent's trace goes on; the outermost's is followed by
 * the next program's trace or is the last record, handed out with the
 * instructions of every trace. */
static bool read_end_v2(struct trace_reader *r, const struct trace_record **record)
{
    struct trace_end end;
    if (!read_end_fields(r, &end))
        return false;
    r->ended_instructions += end.instructions;
    if (r->depth) {
        if (!keep_ended_table(r))
            return false;
        enum trace_isa before = r->code_isa;
        restore_process(r, &r->enclosing[--r->depth]);
        isa_record(r, before, record);
        return true;
    }
    if (r->header.msr_accesses && have_byte(r) && r->buffer[r->buffer_pos] == CONTROL_PROCESS) {
        r->buffer_pos++;
        return begin_process(r, false, record);
    }
    if (have_byte(r))
        return fail(r, "data after the END record");
    end.instructions = r->ended_instructions;
    r->ended = true;
    r->control.kind = TRACE_RECORD_END;
    r->control.end = end;
    *record = &r->control;
    return true;
}

/* A control record (its tag read); false for a failure, *record set for a
 * record to hand out. */
static bool read_control(struct trace_reader *r, uint8_t tag, const struct trace_record **record)
{
    uint64_t region;
    switch (tag) {
    case CONTROL_THREAD:
        return read_small(r, &r->thread, 1, "thread");
    case CONTROL_CPL:
        return read_small(r, &r->cpl, 3, "CPL");
    case CONTROL_REGION_BEGIN:
    case CONTROL_REGION_END:
        if (!get_region(r, &region))
            return false;
        *record = region_record(r, tag, region);
        return true;
    case CONTROL_MSR:
        if (!r->header.msr_accesses)
            return fail(r, "unknown record tag 0x%02x", tag); /* as before the flag */
        r->control.kind = TRACE_RECORD_MSR;
        *record = &r->control;
        return read_msr(r, &r->control.msr);
    case CONTROL_PROCESS:
        if (!r->header.msr_accesses)
            return fail(r, "unknown record tag 0x%02x", tag);
        return begin_process(r, true, record);
    case CONTROL_END:
        return read_end_v2(r, record);
    default:
        return fail(r, "unknown record tag 0x%02x", tag);
    }
}

/* Control records from `tag` on, up to the next block or record to hand
 * out.  Out of line: the hot path is a block's tag. */
__attribute__((noinline)) static enum trace_status
read_controls(struct trace_reader *r, uint8_t tag, const struct trace_block **block,
              const struct trace_record **record)
{
    bool registers = false;
    while (tag & TAG_CONTROL) {
        if (registers) {
            fail(r, "record 0x%02x between a register record and its block", tag);
            return TRACE_ERROR;
        }
        if (tag == CONTROL_REGISTERS)
            registers = read_registers(r);
        else if (!read_control(r, tag, record))
            return TRACE_ERROR;
        if (*record)
            return TRACE_OK;
        if (r->failed || !get_byte(r, &tag, "a record (a trace ends with an END record)"))
            return TRACE_ERROR;
    }
    *block = read_execution(r, tag, registers ? r->regs : NULL);
    return *block ? TRACE_OK : TRACE_ERROR;
}

__attribute__((noinline)) static enum trace_status not_readable(struct trace_reader *r)
{
    if (!r->failed)
        fail(r, "read past the END record");
    return TRACE_ERROR;
}

static inline enum trace_status next_block_v2(struct trace_reader *r,
                                              const struct trace_block **block,
                                              const struct trace_record **record)
{
    *record = NULL;
    if (r->run) { /* (never after a failure or the END) */
        *block = run_on(r);
        return *block ? TRACE_OK : TRACE_ERROR;
    }
    if (r->failed || r->ended)
        return not_readable(r);
    uint8_t tag;
    *block = NULL;
    if (!get_byte(r, &tag, "a record (a trace ends with an END record)"))
        return TRACE_ERROR;
    if (tag & TAG_CONTROL)
        return read_controls(r, tag, block, record);
    *block = read_execution(r, tag, NULL);
    return *block ? TRACE_OK : TRACE_ERROR;
}

/* Version 2 read by records: the blocks' instructions one by one, into
 * two ring slots in turn (a caller may hold the one before). */
static enum trace_status next_record_v2(struct trace_reader *r,
                                        const struct trace_record **record)
{
    struct trace_record *slot = &r->ring[r->records_returned & 1];
    if (!r->expanding || r->expanded == r->expanding->n_insns) {
        const struct trace_record *control;
        r->expanding = NULL;
        if (next_block_v2(r, &r->expanding, &control) != TRACE_OK)
            return TRACE_ERROR;
        r->expanded = 0;
        if (control)
            copy_record(slot, control);
    }
    if (r->expanding) {
        slot->kind = TRACE_RECORD_INSN;
        trace_block_insn_expand(r->expanding, r->expanded++, &slot->insn);
    }
    r->records_returned++;
    *record = slot;
    return TRACE_OK;
}

enum trace_status trace_next(struct trace_reader *r, const struct trace_record **record)
{
    if (r->version == 1)
        return next_record_v1(r, record);
    return next_record_v2(r, record);
}

enum trace_status trace_next_block(struct trace_reader *r, const struct trace_block **block,
                                   const struct trace_record **record)
{
    if (r->version == TRACE_VERSION)
        return next_block_v2(r, block, record);
    return next_block_v1(r, block, record);
}

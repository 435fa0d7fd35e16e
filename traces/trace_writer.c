#include <stdlib.h>
#include <string.h>

#include "code_cache.h"
#include "trace.h"
#include "trace_encoding.h"

struct trace_writer {
    FILE *out;
    struct code_cache *code;
    uint64_t next_address;    /* where a sequential instruction would start */
    uint64_t last_access;     /* the previous data access's address */
    uint8_t thread, cpl;
    uint64_t instructions;
    bool after_taken_branch;  /* region markers may follow, up to a limit */
    int markers_after_branch;
    bool ended, failed;
    int n_regs;               /* registers of the ISA; 0: the trace has none */
    uint64_t regs[TRACE_MAX_REGS]; /* as of the last register record (initially 0) */
};

static void put_byte(struct trace_writer *w, unsigned byte)
{
    if (putc((int)byte, w->out) == EOF)
        w->failed = true;
}

static void put_varint(struct trace_writer *w, uint64_t value)
{
    while (value >= 0x80) {
        put_byte(w, (unsigned)(value & 0x7f) | 0x80);
        value >>= 7;
    }
    put_byte(w, (unsigned)value);
}

static void put_string(struct trace_writer *w, const char *text)
{
    size_t length = strnlen(text, TRACE_MAX_TEXT - 1);
    put_varint(w, length);
    if (fwrite(text, 1, length, w->out) != length)
        w->failed = true;
}

struct trace_writer *trace_writer_open(FILE *out, const struct trace_header *header, char *error,
                                       size_t error_size)
{
    struct trace_writer *w = calloc(1, sizeof *w);
    if (w)
        w->code = code_cache_create();
    if (!w || !w->code) {
        snprintf(error, error_size, "out of memory");
        if (w)
            free(w);
        return NULL;
    }
    w->out = out;
    w->cpl = 3;
    w->n_regs = !header->registers ? 0 : header->isa == TRACE_ISA_64 ? TRACE_MAX_REGS
                                                                      : TRACE_REGS_32;
    fwrite(TRACE_MAGIC, 1, TRACE_MAGIC_SIZE, out);
    put_varint(w, TRACE_VERSION);
    put_varint(w, (header->isa == TRACE_ISA_64 ? TRACE_FLAG_ISA64 : 0) |
                      (header->lengths_known ? 0 : TRACE_FLAG_LENGTHS_UNKNOWN) |
                      (header->registers ? TRACE_FLAG_REGISTERS : 0));
    put_string(w, header->program);
    put_string(w, header->args);
    put_string(w, header->recorder);
    return w;
}

static void put_accesses(struct trace_writer *w, const struct trace_insn *insn)
{
    put_varint(w, (uint64_t)insn->n_accesses);
    for (int i = 0; i < insn->n_accesses; i++) {
        const struct trace_access *a = &insn->accesses[i];
        uint32_t size_code = a->size < ACCESS_SIZE_ESCAPE ? a->size : ACCESS_SIZE_ESCAPE;
        put_byte(w, (unsigned)a->kind | size_code << 2);
        if (size_code == ACCESS_SIZE_ESCAPE)
            put_varint(w, a->size);
        put_varint(w, zigzag((int64_t)(a->address - w->last_access)));
        w->last_access = a->address;
    }
}

/* The registers that changed since the last register record: a mask, then
 * their zigzag deltas, lowest index first. */
static void put_registers(struct trace_writer *w, const struct trace_insn *insn)
{
    uint64_t mask = 0;
    for (int i = 0; i < w->n_regs; i++)
        if (insn->regs[i] != w->regs[i])
            mask |= (uint64_t)1 << i;
    put_byte(w, CONTROL_REGISTERS);
    put_varint(w, mask);
    for (int i = 0; i < w->n_regs; i++)
        if (mask & (uint64_t)1 << i) {
            put_varint(w, zigzag((int64_t)(insn->regs[i] - w->regs[i])));
            w->regs[i] = insn->regs[i];
        }
}

/* Registers a writer can store: those of the ISA (32-bit values in a
 * 32-bit trace), the others 0. */
static bool registers_valid(const struct trace_writer *w, const struct trace_insn *insn)
{
    if (!insn->has_registers)
        return true;
    if (w->n_regs == 0)
        return false;
    for (int i = 0; i < TRACE_MAX_REGS; i++)
        if ((i >= w->n_regs && insn->regs[i]) ||
            (w->n_regs == TRACE_REGS_32 && insn->regs[i] > UINT32_MAX))
            return false;
    return true;
}

/* Thread and CPL changes, the registers, then the branch outcome precede
 * the record. */
static void put_controls(struct trace_writer *w, const struct trace_insn *insn)
{
    if (insn->thread != w->thread) {
        put_byte(w, CONTROL_THREAD);
        put_byte(w, insn->thread);
        w->thread = insn->thread;
    }
    if (insn->cpl != w->cpl) {
        put_byte(w, CONTROL_CPL);
        put_byte(w, insn->cpl);
        w->cpl = insn->cpl;
    }
    if (insn->has_registers)
        put_registers(w, insn);
    if (insn->branch != TRACE_NOT_BRANCH)
        put_byte(w, insn->branch == TRACE_BRANCH_TAKEN ? CONTROL_BRANCH_TAKEN
                                                       : CONTROL_BRANCH_NOT_TAKEN);
}

/* The bytes are stored the first time an address is seen, and again when
 * they change there (self-modifying code). */
static bool bytes_needed(struct trace_writer *w, const struct trace_insn *insn)
{
    if (!insn->has_bytes)
        return false;
    const uint8_t *cached = code_cache_find(w->code, insn->address, insn->length);
    if (cached && memcmp(cached, insn->bytes, insn->length) == 0)
        return false;
    if (!code_cache_put(w->code, insn->address, insn->length, insn->bytes))
        w->failed = true;
    return true;
}

static bool accesses_valid(const struct trace_insn *insn)
{
    if (insn->n_accesses < 0 || insn->n_accesses > TRACE_MAX_ACCESSES)
        return false;
    for (int i = 0; i < insn->n_accesses; i++) {
        const struct trace_access *a = &insn->accesses[i];
        if (!trace_access_size_valid(a->size) || a->kind < TRACE_LOAD || a->kind > TRACE_MODIFY)
            return false;
    }
    return true;
}

bool trace_write_insn(struct trace_writer *w, const struct trace_insn *insn)
{
    if (w->ended || insn->length < 1 || insn->length > TRACE_MAX_INSN_LENGTH ||
        !accesses_valid(insn) || insn->thread > 1 || insn->cpl > 3 ||
        !registers_valid(w, insn))
        return false;
    put_controls(w, insn);
    bool jump = insn->address != w->next_address;
    bool bytes = bytes_needed(w, insn);
    put_byte(w, insn->length | (jump ? TAG_JUMP : 0) | (insn->n_accesses ? TAG_ACCESSES : 0) |
                    (bytes ? TAG_BYTES : 0));
    if (jump)
        put_varint(w, zigzag((int64_t)(insn->address - w->next_address)));
    if (bytes && fwrite(insn->bytes, 1, insn->length, w->out) != insn->length)
        w->failed = true;
    if (insn->n_accesses)
        put_accesses(w, insn);
    w->next_address = insn->address + insn->length;
    w->instructions++;
    w->after_taken_branch = insn->branch == TRACE_BRANCH_TAKEN;
    w->markers_after_branch = 0;
    return !w->failed;
}

bool trace_write_region(struct trace_writer *w, bool begin, uint32_t region)
{
    /* A reader holds the markers between a taken branch and its target. */
    if (w->ended || (w->after_taken_branch && ++w->markers_after_branch > TRACE_MAX_MARKERS))
        return false;
    put_byte(w, begin ? CONTROL_REGION_BEGIN : CONTROL_REGION_END);
    put_varint(w, region);
    return !w->failed;
}

bool trace_write_end(struct trace_writer *w, const struct trace_end *end)
{
    if (w->ended)
        return false;
    put_byte(w, CONTROL_END);
    put_varint(w, w->instructions);
    put_byte(w, end->status);
    put_varint(w, end->code);
    w->ended = true;
    return !w->failed;
}

uint64_t trace_writer_instructions(const struct trace_writer *w)
{
    return w->instructions;
}

bool trace_writer_close(struct trace_writer *w)
{
    bool ok = !w->failed && w->ended && !ferror(w->out);
    code_cache_free(w->code);
    free(w);
    return ok;
}

/* The instructions a trace executed that its CPU lacks (stat_features.h). */
#include "apps/stat/stat_features.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/common/block_table.h"
#include "sim/common/trace_driver.h"

/* A block's memo: the features its lacking instructions need, in order
 * (a block's static part is the same every time its id comes back,
 * traces/trace.h). */
struct lacking_memo {
    uint32_t n;
    uint8_t features[];  /* enum x86_feature */
};

/* The memo of every block without lacking instructions (never written). */
static struct lacking_memo none_lacking;

struct features_pass {
    struct stat_features *out;
    struct x86_decoder *decoder;
    bool code_known;                   /* the header's lengths_known */
    bool lacks[X86_FEATURE_COUNT];     /* !x86_feature_present(f, view), once */
    struct lacking_memo **memos;       /* by block id; NULL: not seen yet */
    uint32_t capacity;
};

static bool fail(char *error, size_t size, const char *text)
{
    snprintf(error, size, "%s", text);
    return false;
}

/* The feature the view lacks that `bi` needs (decoded into *insn), or
 * X86_FEATURE_NONE: also for an instruction without code bytes or whose
 * bytes do not decode (the models report those). */
static enum x86_feature lacking_feature(const struct features_pass *p,
                                        const struct trace_block_insn *bi, struct x86_insn *insn)
{
    if (!p->code_known || !bi->has_bytes ||
        !x86_decoder_decode(p->decoder, bi->bytes, bi->length, bi->address, insn))
        return X86_FEATURE_NONE;
    return p->lacks[insn->feature] ? (enum x86_feature)insn->feature : X86_FEATURE_NONE;
}

static void note_first(struct stat_features *out, const struct x86_insn *insn)
{
    out->first_address = insn->address;
    memcpy(out->first_mnemonic, insn->mnemonic, sizeof out->first_mnemonic);
    out->first_feature = (enum x86_feature)insn->feature;
}

/* The block's memo, made the first time its id comes: the first lacking
 * instruction of the trace is in it when none came before (its first
 * execution is being counted). NULL when out of memory. */
static struct lacking_memo *make_memo(struct features_pass *p, const struct trace_block *block)
{
    uint8_t features[TRACE_MAX_BLOCK_INSNS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < block->n_insns; i++) {
        struct x86_insn insn;
        enum x86_feature f = lacking_feature(p, &block->insns[i], &insn);
        if (f == X86_FEATURE_NONE)
            continue;
        if (n == 0 && p->out->lacking == 0)
            note_first(p->out, &insn);
        features[n++] = (uint8_t)f;
    }
    if (n == 0)
        return &none_lacking;
    struct lacking_memo *memo = malloc(sizeof *memo + n);
    if (memo) {
        memo->n = n;
        memcpy(memo->features, features, n);
    }
    return memo;
}

static const struct lacking_memo *memo_of(struct features_pass *p,
                                          const struct trace_block *block)
{
    if (block->id < p->capacity && p->memos[block->id])
        return p->memos[block->id];
    struct lacking_memo **memos =
        block_table_reserve(p->memos, &p->capacity, block->id, sizeof *memos);
    if (!memos)
        return NULL;
    p->memos = memos;
    return memos[block->id] = make_memo(p, block);
}

static void free_memos(struct features_pass *p)
{
    for (uint32_t id = 0; id < p->capacity; id++)
        if (p->memos[id] != &none_lacking)
            free(p->memos[id]);
    free(p->memos);
}

static bool count_blocks(struct features_pass *p, struct trace_reader *reader, char *error,
                         size_t size)
{
    struct stat_features *out = p->out;
    for (;;) {
        const struct trace_block *block;
        const struct trace_record *record;
        if (trace_next_block(reader, &block, &record) != TRACE_OK)
            return fail(error, size, trace_reader_error(reader));
        if (record) {
            if (record->kind == TRACE_RECORD_END)
                return true;
            continue;
        }
        const struct lacking_memo *memo = memo_of(p, block);
        if (!memo)
            return fail(error, size, "out of memory (the feature check's block memos)");
        out->instructions += block->n_insns;
        out->lacking += memo->n;
        for (uint32_t i = 0; i < memo->n; i++)
            out->by_feature[memo->features[i]]++;
    }
}

bool stat_features_read(struct trace_reader *reader, struct stat_features *out, char *error,
                        size_t error_size)
{
    const struct trace_header *header = trace_reader_header(reader);
    memset(out, 0, sizeof *out);
    if (header->cpu.n == 0)
        return true;
    out->has_view = true;
    memcpy(out->cpu, header->cpu.name, sizeof out->cpu);
    struct features_pass p = {.out = out, .code_known = header->lengths_known};
    for (int f = 0; f < X86_FEATURE_COUNT; f++)
        p.lacks[f] = !x86_feature_present((enum x86_feature)f, &header->cpu);
    p.decoder = x86_decoder_create(header->isa == TRACE_ISA_64 ? X86_MODE_64 : X86_MODE_32);
    bool ok = p.decoder ? count_blocks(&p, reader, error, error_size)
                        : fail(error, error_size, "out of memory (the feature check's decoder)");
    free_memos(&p);
    x86_decoder_destroy(p.decoder);
    return ok;
}

bool stat_features_count(const char *path, struct stat_features *out, char *error,
                         size_t error_size)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return true; /* a FIFO: read once, by the simulation */
    struct driver_failure failure = {error, error_size, 0};
    struct driver_trace trace;
    bool ok = driver_trace_open(&trace, path, NULL, &failure) &&
              stat_features_read(trace.reader, out, error, error_size);
    driver_trace_close(&trace);
    return ok;
}

/* What the timing models' libFuzzer targets share (fuzz_p5_model.c,
 * fuzz_nb_model.c, fuzz_nb_model_ht.c, fuzz_sample.c): a trace made from
 * the fuzz input with the trace writer, so that its format is valid and
 * its content arbitrary (addresses, access kinds and sizes, code bytes,
 * branches, threads, CPLs, registers, regions, the END record), written to
 * an in-memory file (memfd) that the models open by its /proc path.
 *
 * The work per input is bounded (struct fuzz_bound): at most so many
 * records and bytes of data accesses a trace.  A run of the NetBurst model
 * ticks every cycle, and each line an access misses, each code line
 * fetched in build mode, costs a memory latency: a target that makes
 * latencies long asks for the small bound. */
#ifndef TESTS_FUZZ_FUZZ_MODEL_H
#define TESTS_FUZZ_FUZZ_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pmu/programming/alloc.h"
#include "sim/machine/machine.h"
#include "apps/stat/stat_run.h"
#include "traces/trace.h"

/* The most a trace may hold: records, and bytes of data accesses. */
struct fuzz_bound {
    int records;
    uint64_t access_bytes;
};

static const struct fuzz_bound fuzz_usual = {160, 1 << 14};
static const struct fuzz_bound fuzz_slow = {2, 64}; /* a memory latency of 17,000 cycles */

/* The fuzz input, read a byte at a time (zeros past its end). */
struct fuzz_input {
    const uint8_t *data;
    size_t size, at;
};

static inline uint8_t fuzz_byte(struct fuzz_input *in)
{
    return in->at < in->size ? in->data[in->at++] : 0;
}

static inline bool fuzz_done(const struct fuzz_input *in)
{
    return in->at >= in->size;
}

/* `n` bytes (at most 8), little-endian. */
static inline uint64_t fuzz_bytes(struct fuzz_input *in, int n)
{
    uint64_t value = 0;
    for (int i = 0; i < n; i++)
        value |= (uint64_t)fuzz_byte(in) << (8 * i);
    return value;
}

/* Instructions the decoder knows (valid in 32- and 64-bit code), so that
 * most records reach the models' timing; a record may also carry raw
 * bytes from the input. */
static const struct {
    uint8_t length;
    const char *bytes;
} fuzz_code[] = {
    {1, "\x90"},                 /* nop */
    {3, "\x83\xc0\x01"},         /* add eax, 1 */
    {2, "\x8b\x06"},             /* mov eax, [esi]: a load */
    {2, "\x89\x07"},             /* mov [edi], eax: a store */
    {2, "\x01\x03"},             /* add [ebx], eax: a modify */
    {2, "\x75\xf8"},             /* jne: a conditional branch */
    {2, "\xeb\x02"},             /* jmp */
    {5, "\xe8\x00\x00\x00\x00"}, /* call */
    {1, "\xc3"},                 /* ret */
    {2, "\xff\xe0"},             /* jmp eax: indirect */
    {2, "\xff\xd0"},             /* call eax: indirect */
    {2, "\xd8\xc1"},             /* fadd st, st(1) */
    {2, "\xd9\x06"},             /* fld dword [esi] */
    {2, "\xd9\x1b"},             /* fstp dword [ebx] */
    {2, "\x0f\xa2"},             /* cpuid: microcode ROM */
    {2, "\xf3\xa4"},             /* rep movsb */
    {2, "\xf7\xf1"},             /* div ecx */
    {3, "\x0f\x58\x06"},         /* addps xmm0, [esi] */
    {4, "\x66\x0f\xfe\xc1"},     /* paddd xmm0, xmm1 */
    {3, "\x0f\xfe\xc1"},         /* paddd mm0, mm1 */
    {4, "\xf2\x0f\x58\xc1"},     /* addsd xmm0, xmm1 */
    {3, "\xf0\x01\x03"},         /* lock add [ebx], eax */
    {2, "\x8e\xd8"},             /* mov ds, ax */
    {2, "\xcd\x80"},             /* int 0x80 */
    {2, "\x0f\x05"},             /* syscall */
    {2, "\xc1\xe0"},             /* shl eax, (imm8 follows: 3 bytes) */
};
enum { FUZZ_CODES = sizeof fuzz_code / sizeof fuzz_code[0] };

/* The state of a trace being made. */
struct fuzz_trace {
    struct trace_writer *writer;
    struct trace_header header;
    uint64_t next;              /* the sequential address */
    uint64_t last_data;         /* the last access's address */
    uint64_t budget;            /* access bytes left */
    uint8_t thread, cpl;
    uint64_t regs[TRACE_MAX_REGS];
};

/* An address near the last one (most accesses) or anywhere. */
static inline uint64_t fuzz_address(struct fuzz_input *in, uint64_t near)
{
    uint8_t how = fuzz_byte(in);
    if (how < 160)
        return near + (uint64_t)(int8_t)fuzz_byte(in) * 8;
    if (how < 240)
        return near + (uint64_t)fuzz_bytes(in, 2) * 64;
    return fuzz_bytes(in, 8);
}

/* An access size: mostly 1-16 bytes, sometimes any the format allows,
 * within the budget left. */
static inline uint32_t fuzz_size(struct fuzz_input *in, struct fuzz_trace *t)
{
    uint8_t how = fuzz_byte(in);
    uint64_t size = how < 224 ? 1u + how % 16u : 1 + fuzz_bytes(in, 2) % TRACE_MAX_ACCESS_SIZE;
    if (size > t->budget)
        size = 1u + how % 8u;
    t->budget -= size < t->budget ? size : t->budget;
    return (uint32_t)size;
}

static inline void fuzz_accesses(struct fuzz_input *in, struct fuzz_trace *t,
                                 struct trace_insn *insn)
{
    uint8_t n = fuzz_byte(in);
    insn->n_accesses = n < 128 ? n % 3 : n % (TRACE_MAX_ACCESSES + 1);
    for (int i = 0; i < insn->n_accesses; i++) {
        enum trace_access_kind kind = (enum trace_access_kind)(1 + fuzz_byte(in) % 3);
        uint32_t size = fuzz_size(in, t);
        t->last_data = fuzz_address(in, t->last_data);
        insn->accesses[i] = (struct trace_access){kind, size, t->last_data};
    }
}

/* The registers after the instruction: a few changed (a 32-bit trace's
 * are 32-bit values of registers 0-8). */
static inline void fuzz_registers(struct fuzz_input *in, struct fuzz_trace *t,
                                  struct trace_insn *insn)
{
    int n = t->header.isa == TRACE_ISA_64 ? TRACE_MAX_REGS : TRACE_REGS_32;
    for (int k = fuzz_byte(in) % 3; k > 0; k--) {
        int r = fuzz_byte(in) % n;
        t->regs[r] = fuzz_bytes(in, n == TRACE_MAX_REGS ? 8 : 4);
    }
    insn->has_registers = true;
    memcpy(insn->regs, t->regs, sizeof insn->regs);
}

/* The code of an instruction: known bytes, raw bytes or none. */
static inline void fuzz_code_bytes(struct fuzz_input *in, struct trace_insn *insn)
{
    uint8_t how = fuzz_byte(in);
    insn->has_bytes = how < 240;
    if (how < 224) {
        insn->length = fuzz_code[how % FUZZ_CODES].length;
        memcpy(insn->bytes, fuzz_code[how % FUZZ_CODES].bytes, insn->length);
        if (insn->bytes[0] == 0xc1) /* shl's immediate */
            insn->bytes[insn->length++] = fuzz_byte(in);
        return;
    }
    insn->length = (uint8_t)(1 + fuzz_byte(in) % TRACE_MAX_INSN_LENGTH);
    for (int i = 0; i < insn->length; i++)
        insn->bytes[i] = fuzz_byte(in);
}

static inline void fuzz_instruction(struct fuzz_input *in, struct fuzz_trace *t)
{
    struct trace_insn insn;
    memset(&insn, 0, offsetof(struct trace_insn, accesses));
    fuzz_code_bytes(in, &insn);
    uint8_t where = fuzz_byte(in);
    insn.address = where < 192 ? t->next : fuzz_address(in, t->next);
    uint8_t branch = fuzz_byte(in);
    insn.branch = branch < 160 ? TRACE_NOT_BRANCH
                  : branch < 208 ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
    insn.thread = t->thread;
    insn.cpl = t->cpl;
    fuzz_accesses(in, t, &insn);
    if (t->header.registers && fuzz_byte(in) < 224)
        fuzz_registers(in, t, &insn);
    trace_write_insn(t->writer, &insn);
    t->next = insn.address + insn.length;
}

/* A record: mostly an instruction; a region marker, a thread or CPL
 * change. */
static inline void fuzz_record(struct fuzz_input *in, struct fuzz_trace *t)
{
    uint8_t what = fuzz_byte(in);
    if (what < 216)
        fuzz_instruction(in, t);
    else if (what < 236)
        trace_write_region(t->writer, what & 1, fuzz_byte(in) % 4);
    else if (what < 246)
        t->thread ^= 1;
    else
        t->cpl = fuzz_byte(in) % 4;
}

/* A trace from the input up to a zero byte after at least one record, or
 * to its end, into the memory file `fd`; false when it cannot be made. */
static inline bool fuzz_trace_write(struct fuzz_input *in, int fd, struct fuzz_bound bound)
{
    FILE *out = fdopen(dup(fd), "wb");
    if (!out)
        return false;
    uint8_t flags = fuzz_byte(in);
    struct fuzz_trace t = {.header = {.isa = flags & 1 ? TRACE_ISA_64 : TRACE_ISA_32,
                                      .lengths_known = !(flags & 2),
                                      .registers = (flags & 4) != 0},
                           .next = 0x401000, .last_data = 0x600000,
                           .budget = bound.access_bytes, .cpl = 3};
    char error[256];
    t.writer = trace_writer_open(out, &t.header, error, sizeof error);
    bool ok = t.writer != NULL;
    for (int n = 0; ok && n < bound.records && !fuzz_done(in); n++) {
        fuzz_record(in, &t);
        if (in->at < in->size && in->data[in->at] == 0) {
            in->at++;
            break;
        }
    }
    if (ok) {
        uint8_t status = fuzz_byte(in);
        struct trace_end end = {trace_writer_instructions(t.writer), status & 1, status >> 1};
        ok = trace_write_end(t.writer, &end);
        ok = trace_writer_close(t.writer) && ok;
    }
    return fclose(out) == 0 && ok;
}

/* ---- the NetBurst model's configuration */

static const char *const fuzz_presets[] = {"netburst-willamette0", "netburst-willamette",
                                           "netburst-northwood", "netburst-prescott",
                                           "netburst-prescott4"};

/* Parameters and values to try: the structures at their smallest, and
 * latencies a few times the presets' (every cycle costs a tick). */
static const struct {
    const char *name;
    const char *values[3];
} fuzz_parameters[] = {
    {"memory_latency", {"0", "200", "400"}}, {"page_walk_latency", {"0", "20", "200"}},
    {"l1d_load_misses", {"1", "4", "64"}},   {"rob", {"1", "2", "126"}},
    {"uop_queue", {"1", "2", "12"}},         {"store_buffers", {"1", "2", "24"}},
    {"load_buffers", {"1", "2", "48"}},      {"alloc_width", {"1", "3", "16"}},
    {"retire_width", {"1", "3", "16"}},      {"deliver_width", {"1", "3", "16"}},
    {"tc_line_uops", {"1", "6", "64"}},      {"l2_latency", {"0", "7", "100"}},
    {"alloc_to_exec", {"0", "11", "100"}},   {"pmi_latency", {"0", "1", "18"}},
    {"bus_ratio", {"1", "15", "18"}},        {"dtlb_entries", {"1", "4", "64"}},
    {"tc_uops", {"1", "64", "12288"}},
};

/* A NetBurst preset and up to three parameters, chosen by the input; the
 * bound of the traces.  One input in 64 takes a memory latency beyond the
 * ring of cycles ahead (sim/netburst/nbm_occurrences.h), whose events wait in
 * the heap, and the small bound. */
static inline bool fuzz_netburst(struct fuzz_input *in, struct machine_config *model,
                                 struct fuzz_bound *bound)
{
    char error[256];
    enum { PRESETS = sizeof fuzz_presets / sizeof fuzz_presets[0] };
    enum { PARAMETERS = sizeof fuzz_parameters / sizeof fuzz_parameters[0] };
    uint8_t preset = fuzz_byte(in);
    if (!machine_config_choose(fuzz_presets[preset % PRESETS], model, error, sizeof error))
        return false;
    for (int n = fuzz_byte(in) % 4; n > 0; n--) {
        int p = fuzz_byte(in) % PARAMETERS, v = fuzz_byte(in) % 3;
        machine_config_set(model, fuzz_parameters[p].name, fuzz_parameters[p].values[v], error,
                       sizeof error);
    }
    *bound = preset >= 252 ? fuzz_slow : fuzz_usual;
    return preset < 252 || machine_config_set(model, "memory_latency", "17000", error, sizeof error);
}

/* Eighteen events the model generates, one run of all 18 counters on
 * Northwood (tests/perf/bench_netburst.c's): tagging, thresholds and edges
 * among them. */
static const char *const fuzz_nb_events[] = {
    "global_power_events:RUNNING", "BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_MISS",
    "BPU_fetch_request:TCMISS", "BSQ_allocation:REQ_LEN0:REQ_LEN1", "TC_deliver_mode:DD:DB:DI",
    "uop_queue_writes:FROM_TC_DELIVER:FROM_TC_BUILD:thr=2", "retired_branch_type:CONDITIONAL",
    "retired_mispred_branch_type:CONDITIONAL", "x87_SIMD_moves_uop:ALLP2", "scalar_SP_uop:ALL",
    "memory_complete:LSC", "load_port_replay:SPLIT_LD:e=1", "instr_retired:NBOGUSNTAG:NBOGUSTAG",
    "uops_retired:NBOGUS:thr=2", "branch_retired:MMTP:MMNP:MMTM:MMNM", "memory_loads",
    "resource_stall:SBFULL", "resource_stall:SBFULL:e=1",
};
enum { FUZZ_NB_EVENTS = sizeof fuzz_nb_events / sizeof fuzz_nb_events[0] };

/* The plan of fuzz_nb_events on the model (with Hyper-Threading for two
 * traces): one run, or more on a model with fewer ESCRs. */
static inline bool fuzz_nb_plan(const struct machine_config *model, bool ht,
                                struct alloc_request requests[FUZZ_NB_EVENTS],
                                struct alloc_plan *plan)
{
    struct nb_pmu_config config = {model->netburst.model, ht};
    char text[256], error[512];
    for (int i = 0; i < FUZZ_NB_EVENTS; i++) {
        snprintf(text, sizeof text, "netburst::%s", fuzz_nb_events[i]);
        requests[i].group = ALLOC_NO_GROUP;
        if (!event_spec_parse(text, &config, &requests[i].spec, error, sizeof error))
            return false;
    }
    struct alloc_error why;
    return alloc_plan_make(requests, FUZZ_NB_EVENTS, &config, plan, &why);
}

/* Counts fuzz_nb_events over `n_traces` traces (two: the logical
 * processors of a Hyper-Threading core) through stat's library path; the
 * counts themselves are not kept. */
static inline void fuzz_nb_count(const char *const *traces, int n_traces,
                                 const struct machine_config *model, long region)
{
    struct alloc_request requests[FUZZ_NB_EVENTS];
    struct alloc_plan plan;
    if (!fuzz_nb_plan(model, n_traces == 2, requests, &plan))
        return;
    uint64_t counts[FUZZ_NB_EVENTS];
    struct stat_totals totals;
    char error[1024];
    stat_simulate(traces, n_traces, model, &plan, STAT_RUNS_ONE, region, NULL, counts, &totals,
                  error, sizeof error);
    alloc_plan_free(&plan);
}

/* An empty in-memory file and its path; -1 when there is none. */
static inline int fuzz_memory_file(char *path, size_t size)
{
    int fd = memfd_create("fuzz.trace", 0);
    if (fd >= 0)
        snprintf(path, size, "/proc/self/fd/%d", fd);
    return fd;
}

#endif

/* pmubench sample: event-based sampling on the simulated NetBurst, PEBS
 * (the records the PEBS assist writes into the DS save area) or IEBS (the
 * EIPs the model samples when it takes a counter-overflow PMI).  The event
 * is planned by the allocator and programmed through the programming
 * library, as `pmubench stat` does; the DS save area is set up in the
 * simulated PMU's memory.  The sampled addresses are named by the traced
 * program's symbols (traces/elf_symbols.h) when it has them (docs/sample.md;
 * docs/netburst-model.md, "Sampling"; README, Commands). */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/atomic_file.h"
#include "bench/file_identity.h"
#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "text.h"
#include "pmu/alloc.h"
#include "pmu/netburst_msrs.h"
#include "pmu/netburst_pmu.h"
#include "pmu/number.h"
#include "pmu/program.h"
#include "sim/netburst/nb_model.h"
#include "sim/stat/stat_model.h"
#include "traces/elf_symbols.h"
#include "traces/input_file.h"
#include "traces/trace.h"

static const char sample_usage[] =
    "usage: pmubench sample [-m netburst[-PRESET]] (--pebs METRIC | -e EVENT) --period N\n"
    "                       [--region N] [--symbols FILE | --no-symbols] [-o FILE] --trace FILE\n"
    "  --pebs METRIC  precise sampling on IQ_COUNTER4 (a replay-tagging metric, e.g.\n"
    "                 1stL_cache_load_miss_retired): one line per PEBS record,\n"
    "                 'pebs eip=0x... <SYMBOL+0xOFFSET> eflags=... eax=... ...'\n"
    "  -e EVENT       imprecise sampling: a PMI to thread 0 on each overflow; one line\n"
    "                 per PMI the model takes,\n"
    "                 'sample thread T cycle C eip 0x... <SYMBOL+0xOFFSET> precise 0'\n"
    "  --period N     events between samples (1 to 2^39)\n"
    "  --region N     count only inside region N (docs/traces.md, \"Regions\")\n"
    "  --symbols FILE name addresses with FILE's ELF symbols (default: the traced\n"
    "                 program's file, as the trace names it, when it can be read)\n"
    "  --no-symbols   leave addresses raw (so does a trace whose program cannot be read)\n"
    "The output starts with 'symbols FILE base 0x...' or 'symbols none (WHY)'; with\n"
    "symbols, 'by-symbol COUNT PERCENT SYMBOL' lines count the samples per symbol\n"
    "before the closing 'samples N instructions N cycles N'.  A position-independent\n"
    "program's load base is where the trace runs its entry point's code; without it,\n"
    "addresses stay raw (docs/sample.md).\n";

enum { PEBS_DS_AREA = 0x10000, PEBS_BUFFER = 0x100000, PEBS_MAX_RECORDS = 1 << 20 };
#define COUNTER_LIMIT (1ull << 40)

struct sample_args {
    const char *model, *event, *trace, *output, *symbols;
    bool pebs, no_symbols;
    uint64_t period;
    long region;
};

struct symbol_count {
    const char *name;
    uint64_t count;
};

/* The symbols that name sampled addresses, and the samples per symbol. */
struct symbolizer {
    struct elf_symbols *elf;     /* NULL: addresses stay raw */
    uint64_t base;               /* runtime address = file address + base */
    struct symbol_count *counts; /* by symbol index; the last, "[unknown]": no symbol */
};

struct sampler {
    struct program *program;
    struct msr_backend *backend;
    long region;
    bool running;
    uint64_t preset;
    msr_status status;
    FILE *out;
    uint64_t samples;
    struct symbolizer *symbols;
};

/* The value of `option`, a number (pmu/number.h) from `min` to `max`;
 * -1, or EXIT_BAD_INPUT with the message printed. */
static int number_option(const char *option, const char *text, uint64_t min, uint64_t max,
                         uint64_t *value)
{
    char error[1024];
    if (number_read(option, text, min, max, value, error, sizeof error))
        return -1;
    return usage_error("sample", "%s", error);
}

static int parse_args(int argc, char **argv, struct sample_args *args)
{
    *args = (struct sample_args){.model = "netburst", .region = -1};
    struct options_given given = {0};
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            fputs(sample_usage, stdout);
            return 0;
        }
        if (!option_once(&given, "sample", opt))
            return EXIT_BAD_INPUT;
        if (strcmp(opt, "--no-symbols") == 0) {
            args->no_symbols = true;
            continue;
        }
        static const char *const with_value[] = {"-m",      "--pebs", "-e", "--period",
                                                 "--region", "--trace", "-o", "--symbols"};
        bool known = false;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            known |= strcmp(opt, with_value[k]) == 0;
        if (!known)
            return usage_error("sample", "unknown option '%s'", opt);
        if (i + 1 >= argc)
            return usage_error("sample", "%s needs a value", opt);
        const char *value = argv[++i];
        uint64_t number;
        if (strcmp(opt, "-m") == 0) {
            args->model = value;
        } else if (strcmp(opt, "--pebs") == 0 || strcmp(opt, "-e") == 0) {
            if (args->event)
                return usage_error("sample", "%s: one event only (--pebs or -e, once)", opt);
            args->event = value;
            args->pebs = strcmp(opt, "--pebs") == 0;
        } else if (strcmp(opt, "--period") == 0) {
            int rc = number_option(opt, value, 1, COUNTER_LIMIT / 2, &args->period);
            if (rc >= 0)
                return rc;
        } else if (strcmp(opt, "--region") == 0) {
            int rc = number_option(opt, value, 0, UINT32_MAX, &number);
            if (rc >= 0)
                return rc;
            args->region = (long)number;
        } else if (strcmp(opt, "--trace") == 0) {
            if (args->trace)
                return usage_error("sample", "%s: one trace only", opt);
            args->trace = value;
        } else if (strcmp(opt, "--symbols") == 0) {
            args->symbols = value;
        } else {
            args->output = value;
        }
    }
    if (!args->event)
        return usage_error("sample", "no event (--pebs METRIC or -e EVENT)");
    if (!args->period)
        return usage_error("sample", "no --period");
    if (!args->trace)
        return usage_error("sample", "no --trace");
    if (args->symbols && args->no_symbols)
        return usage_error("sample", "--symbols and --no-symbols: one or the other");
    return -1;
}

/* The trace's header: its ISA, for the DS save area's layout, and its
 * program, for the symbols. */
static bool read_trace_header(const char *path, struct trace_header *header, char *error,
                              size_t size)
{
    FILE *in = input_open(path, error, size);
    if (!in)
        return false;
    struct trace_reader *reader = trace_reader_open(in, path, error, size);
    if (reader) {
        *header = *trace_reader_header(reader);
        trace_reader_close(reader);
    }
    fclose(in);
    return reader != NULL;
}

/* No output over the trace or the file the symbols come from (--symbols,
 * or the program the trace names); 0 or 2. */
static int check_files(const struct sample_args *args)
{
    struct trace_header header;
    char error[2200];
    bool traced = !args->symbols && !args->no_symbols &&
                  read_trace_header(args->trace, &header, error, sizeof error);
    const struct named_file files[] = {
        {"--trace", args->trace, FILE_READ},
        {"--symbols", args->symbols, FILE_READ},
        {"the traced program", traced ? header.program : NULL, FILE_READ},
        {"-o", args->output, FILE_WRITE},
    };
    if (files_distinct(files, sizeof files / sizeof files[0], error, sizeof error))
        return 0;
    return command_error(EXIT_BAD_INPUT, "sample", "%s", error);
}

/* Where the trace runs the program's entry point: the first instruction
 * at the entry's address (ET_EXEC) or at one a whole number of 4 KB pages
 * from it (ET_DYN, loaded at a page boundary), whose bytes and those of
 * the instructions that follow it straight on are the file's code at the
 * entry for its first 16 bytes, or up to a taken branch. */
enum entry_search { ENTRY_FOUND, ENTRY_NOT_RUN, ENTRY_OTHER_CODE, ENTRY_TRACE_ERROR };

struct entry_run {
    const uint8_t *code;
    size_t code_size, wanted;
    uint64_t entry, start, matched;
    bool position_independent;
};

static bool starts_entry_run(const struct entry_run *run, uint64_t address)
{
    return run->position_independent ? ((address - run->entry) & 0xfff) == 0
                                     : address == run->entry;
}

static bool continues_entry_code(const struct entry_run *run, const struct trace_insn *insn)
{
    return insn->has_bytes && insn->length <= run->code_size - run->matched &&
           memcmp(insn->bytes, run->code + run->matched, insn->length) == 0;
}

/* One instruction of the trace against the entry code. */
static enum entry_search match_entry(struct entry_run *run, const struct trace_insn *insn)
{
    if (run->matched > 0 && insn->address != run->start + run->matched)
        run->matched = 0;
    if (run->matched == 0) {
        if (!starts_entry_run(run, insn->address))
            return ENTRY_NOT_RUN;
        run->start = insn->address;
    }
    if (!continues_entry_code(run, insn)) {
        run->matched = 0;
        return run->position_independent || !insn->has_bytes ? ENTRY_NOT_RUN : ENTRY_OTHER_CODE;
    }
    run->matched += insn->length;
    return run->matched >= run->wanted || insn->branch == TRACE_BRANCH_TAKEN ? ENTRY_FOUND
                                                                             : ENTRY_NOT_RUN;
}

/* Reads the trace up to the entry point's code; ENTRY_TRACE_ERROR with
 * the reader's message in `error`. */
static enum entry_search find_entry(const char *trace, const struct elf_symbols *elf,
                                    uint64_t *start, char *error, size_t error_size)
{
    struct entry_run run = {.entry = elf_symbols_entry(elf),
                            .position_independent = elf_symbols_position_independent(elf)};
    run.code_size = elf_symbols_entry_code(elf, &run.code);
    run.wanted = run.code_size < 16 ? run.code_size : 16;
    if (run.code_size == 0)
        return ENTRY_NOT_RUN;
    FILE *in = input_open(trace, error, error_size);
    if (!in)
        return ENTRY_TRACE_ERROR;
    struct trace_reader *reader = trace_reader_open(in, trace, error, error_size);
    enum entry_search result = ENTRY_TRACE_ERROR;
    const struct trace_record *record;
    while (reader) {
        if (trace_next(reader, &record) != TRACE_OK) {
            snprintf(error, error_size, "%s", trace_reader_error(reader));
            break;
        }
        if (record->kind == TRACE_RECORD_END) {
            result = ENTRY_NOT_RUN;
            break;
        }
        if (record->kind == TRACE_RECORD_INSN &&
            (result = match_entry(&run, &record->insn)) != ENTRY_NOT_RUN)
            break;
    }
    if (reader)
        trace_reader_close(reader);
    fclose(in);
    *start = run.start;
    return result;
}

/* The load base: 0 for ET_EXEC (checked against the trace's code at the
 * entry point when both have it), the entry's runtime address minus
 * e_entry for ET_DYN.  False with the reason in `why`; *trace_failed when
 * the trace itself could not be read. */
static bool load_base(const char *path, const char *trace, const struct elf_symbols *elf,
                      uint64_t *base, bool *trace_failed, char *why, size_t why_size)
{
    uint64_t entry = elf_symbols_entry(elf), start = 0;
    enum entry_search found = find_entry(trace, elf, &start, why, why_size);
    *trace_failed = found == ENTRY_TRACE_ERROR;
    *base = 0;
    if (found == ENTRY_OTHER_CODE) {
        snprintf(why, why_size, "%s: the trace runs other code at its entry point 0x%llx: not "
                 "the program traced", path, (unsigned long long)entry);
        return false;
    }
    if (!elf_symbols_position_independent(elf))
        return !*trace_failed;
    if (found == ENTRY_FOUND) {
        *base = start - entry;
        return true;
    }
    if (!*trace_failed)
        snprintf(why, why_size, "%s: position-independent (ET_DYN), and the trace does not run "
                 "the code at its entry point 0x%llx: its load base is unknown",
                 path, (unsigned long long)entry);
    return false;
}

/* FILE's symbols and load base into *symbols; false with the reason. */
static bool load_symbols(const char *path, const char *trace, struct symbolizer *symbols,
                         bool *trace_failed, char *why, size_t why_size)
{
    *trace_failed = false;
    struct elf_symbols *elf = elf_symbols_load(path, why, why_size);
    if (!elf)
        return false;
    size_t count = elf_symbols_count(elf);
    if (count == 0) {
        snprintf(why, why_size, "%s: no function or object symbols (%s)", path,
                 *elf_symbols_table(elf) ? elf_symbols_table(elf) : "no .symtab or .dynsym");
    } else if (load_base(path, trace, elf, &symbols->base, trace_failed, why, why_size)) {
        symbols->counts = calloc(count + 1, sizeof *symbols->counts);
        if (symbols->counts) {
            for (size_t k = 0; k < count; k++)
                symbols->counts[k].name = elf_symbols_name(elf, k);
            symbols->counts[count].name = "[unknown]";
            symbols->elf = elf;
            return true;
        }
        snprintf(why, why_size, "%s: out of memory", path);
    }
    elf_symbols_free(elf);
    return false;
}

/* The symbols to use (--symbols FILE, else the trace's program unless
 * --no-symbols), and the output's first line saying which.  A file given
 * with --symbols must load; the traced program need not. */
static int open_symbols(const struct sample_args *args, const char *program,
                        struct symbolizer *symbols, FILE *out)
{
    char why[TRACE_MAX_TEXT + 1024];
    const char *path = args->symbols ? args->symbols : program;
    bool trace_failed = false;
    errno = 0;
    if (args->no_symbols) {
        snprintf(why, sizeof why, "--no-symbols");
    } else if (!*path) {
        snprintf(why, sizeof why, "the trace names no program");
    } else if (load_symbols(path, args->trace, symbols, &trace_failed, why, sizeof why)) {
        fputs("symbols ", out);
        text_print_escaped(out, path);
        fprintf(out, " base 0x%llx\n", (unsigned long long)symbols->base);
        return EXIT_OK;
    }
    if (args->symbols || trace_failed)
        return command_error(failure_status(errno), "sample", "%s", why);
    fputs("symbols none (", out);
    text_print_escaped(out, why);
    fputs(")\n", out);
    return EXIT_OK;
}

static void close_symbols(struct symbolizer *symbols)
{
    elf_symbols_free(symbols->elf);
    free(symbols->counts);
}

/* " <SYMBOL+0xOFFSET>" after a sampled address, counted for the
 * histogram; nothing without symbols or without a symbol there. */
static void print_symbol(FILE *out, struct symbolizer *symbols, uint64_t address)
{
    if (!symbols->elf)
        return;
    struct elf_symbol_match match;
    if (!elf_symbols_lookup(symbols->elf, address - symbols->base, &match)) {
        symbols->counts[elf_symbols_count(symbols->elf)].count++;
        return;
    }
    symbols->counts[match.index].count++;
    fputs(" <", out);
    text_print_escaped(out, match.name); /* the ELF file's bytes */
    if (match.offset)
        fprintf(out, "+0x%llx", (unsigned long long)match.offset);
    fputc('>', out);
}

static int by_count(const void *a, const void *b)
{
    const struct symbol_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* 'by-symbol COUNT PERCENT SYMBOL' per symbol sampled, most sampled
 * first, then by name; "[unknown]" counts the samples no symbol covers.
 * Symbols of one name (locals of several files) are counted apart.  The
 * counts are sorted in place: the last use of the symbolizer's counts. */
static void print_histogram(FILE *out, struct symbolizer *symbols, uint64_t samples)
{
    if (!symbols->elf || samples == 0)
        return;
    size_t rows = elf_symbols_count(symbols->elf) + 1;
    qsort(symbols->counts, rows, sizeof *symbols->counts, by_count);
    for (size_t k = 0; k < rows && symbols->counts[k].count > 0; k++) {
        fprintf(out, "by-symbol %llu %.1f%% ", (unsigned long long)symbols->counts[k].count,
                100.0 * (double)symbols->counts[k].count / (double)samples);
        text_print_escaped(out, symbols->counts[k].name);
        fputc('\n', out);
    }
}

static void gate(void *context, int thread, bool begin, uint32_t region)
{
    (void)thread;
    struct sampler *s = context;
    if ((long)region != s->region || s->status != MSR_OK)
        return;
    s->running = begin;
    s->status = begin ? program_start(s->program) : program_stop(s->program);
}

/* IEBS: the handler's work: print the sample, reload the counter with the
 * period and clear the CCCR's OVF (writing it as planned, with ENABLE only
 * while counting). */
static void take_sample(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise)
{
    struct sampler *s = context;
    s->samples++;
    fprintf(s->out, "sample thread %d cycle %llu eip 0x%llx", thread, (unsigned long long)cycle,
            (unsigned long long)eip);
    print_symbol(s->out, s->symbols, eip);
    fprintf(s->out, " precise %d\n", precise ? 1 : 0);
    if (precise || s->status != MSR_OK)
        return;
    const struct alloc_assignment *a = &s->program->run->assignments[0];
    uint64_t cccr = a->cccr_value;
    if (!s->running)
        cccr &= ~(1ull << 12); /* ENABLE */
    s->status = msr_write(s->backend, 0, NB_COUNTER_BASE + (uint32_t)a->counter, s->preset);
    if (s->status == MSR_OK)
        s->status = msr_write(s->backend, 0, NB_CCCR_BASE + (uint32_t)a->counter, cccr);
}

static int plan_event(const struct sample_args *args, const struct nbm_config *config,
                      struct alloc_request *request, struct alloc_plan *plan)
{
    struct nb_pmu_config nb = {config->model, false};
    char error[1024], text[1024];
    const char *prefix = strstr(args->event, "::") ? "" : nb_model_prefix(config->model);
    /* PEBS: ENABLE_PEBS, and OVF_PMI_T0 so that an overflow arms the
     * assist (docs/semantics.md, "PEBS", Arming); IEBS: the PMI. */
    snprintf(text, sizeof text, "%s%s%s%s", prefix, args->event, args->pebs ? ":pebs" : "",
             strstr(args->event, ":ovf_pmi=") ? "" : ":ovf_pmi=t0");
    request->group = ALLOC_NO_GROUP;
    if (!event_spec_parse(text, &nb, &request->spec, error, sizeof error))
        return command_error(EXIT_BAD_INPUT, "sample", "%s", error);
    if (request->spec.pmu != PMU_NETBURST)
        return command_error(EXIT_BAD_INPUT, "sample", "'%s': not a NetBurst event",
                             args->event);
    struct alloc_error why;
    errno = 0;
    if (!alloc_plan_make(request, 1, &nb, plan, &why))
        return command_error(why.request >= 0 ? EXIT_BAD_INPUT : failure_status(errno), "sample",
                             "%s: %s", args->event, why.message);
    return EXIT_OK;
}

/* The DS save area (SDM "DS Save Area", the PEBS fields; the layout of
 * pmu/netburst_sampling.c): the buffer base and index, the absolute
 * maximum, an interrupt threshold past it (no PMI: the records are read
 * back at the end) and the counter reset. */
static bool setup_ds(struct msr_backend *backend, bool ia32e, uint64_t preset)
{
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    unsigned field = ia32e ? 8 : 4;
    uint64_t record = ia32e ? 144 : 40;
    uint64_t base = ia32e ? 0x20 : 0x10;
    uint64_t maximum = PEBS_BUFFER + record * PEBS_MAX_RECORDS;
    return msr_write(backend, 0, MSR_IA32_DS_AREA, PEBS_DS_AREA) == MSR_OK &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base, field, PEBS_BUFFER) &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base + field, field, PEBS_BUFFER) &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base + 2 * field, field, maximum) &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base + 3 * field, field,
                            maximum + record) &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base + 4 * field, 8, preset);
}

/* One line per PEBS record between the buffer base and the index. */
static uint64_t print_records(FILE *out, struct msr_backend *backend, bool ia32e,
                              struct symbolizer *symbols)
{
    static const char *const names32[] = {"eflags", "eip", "eax", "ebx", "ecx",
                                          "edx",    "esi", "edi", "ebp", "esp"};
    static const char *const names64[] = {"rflags", "rip", "rax", "rbx", "rcx", "rdx",
                                          "rsi",    "rdi", "rbp", "rsp", "r8",  "r9",
                                          "r10",    "r11", "r12", "r13", "r14", "r15"};
    const struct nb_pmu *pmu = nb_backend_pmu(backend);
    unsigned field = ia32e ? 8 : 4, slots = ia32e ? 18 : 10;
    uint64_t index = sim_memory_read(&pmu->memory, PEBS_DS_AREA + (ia32e ? 0x28 : 0x14), field);
    uint64_t n = 0;
    for (uint64_t at = PEBS_BUFFER; at + (uint64_t)slots * field <= index;
         at += (uint64_t)slots * field, n++) {
        uint64_t eip = sim_memory_read(&pmu->memory, at + field, field);
        fprintf(out, "pebs %s=0x%llx", (ia32e ? names64 : names32)[1], (unsigned long long)eip);
        print_symbol(out, symbols, eip);
        for (unsigned k = 0; k < slots; k++)
            if (k != 1)
                fprintf(out, " %s=0x%llx", (ia32e ? names64 : names32)[k],
                        (unsigned long long)sim_memory_read(&pmu->memory, at + k * field, field));
        fputc('\n', out);
    }
    return n;
}

/* Programs the PMU, runs the model on the trace and prints the samples,
 * the histogram and the closing line. */
static int sample_trace(const struct sample_args *args, const struct nbm_config *config,
                        const struct alloc_plan *plan, bool ia32e, struct symbolizer *symbols,
                        FILE *out)
{
    char error[1024];
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){config->model, false});
    if (!backend)
        return command_error(EXIT_RUNTIME, "sample", "out of memory");
    struct program program;
    program_init(&program, backend, 0, &plan->runs[0]);
    uint64_t preset = COUNTER_LIMIT - args->period;
    struct sampler s = {.program = &program, .backend = backend, .region = args->region,
                        .preset = preset, .status = MSR_OK, .out = out, .symbols = symbols};
    bool ok = program_setup(&program, &preset) == MSR_OK && (!args->pebs || setup_ds(backend, ia32e, preset));
    if (ok && args->region < 0) {
        s.running = true;
        ok = program_start(&program) == MSR_OK;
    }
    if (!ok) { /* the simulated PMU refused its own plan */
        msr_backend_destroy(backend);
        return command_error(EXIT_RUNTIME, "sample", "programming the PMU failed (MSR 0x%x)",
                             program.failed_msr);
    }
    struct nbm_hooks hooks = {.region = gate, .sample = take_sample, .context = &s};
    struct nbm_result result;
    memset(&result, 0, sizeof result);
    const char *traces[1] = {args->trace};
    errno = 0;
    ok = nbm_simulate(traces, 1, config, backend, &hooks, &result, error, sizeof error);
    int failure = ok ? EXIT_RUNTIME : failure_status(errno);
    if (ok && s.status != MSR_OK)
        snprintf(error, sizeof error, "an MSR access in a region or sample hook failed");
    if (ok && s.status == MSR_OK) {
        if (args->pebs)
            s.samples = print_records(out, backend, ia32e, symbols);
        print_histogram(out, symbols, s.samples);
        fprintf(out, "samples %llu instructions %llu cycles %llu\n",
                (unsigned long long)s.samples, (unsigned long long)result.instructions[0],
                (unsigned long long)result.cycles);
    }
    msr_backend_destroy(backend);
    if (!ok || s.status != MSR_OK)
        return command_error(failure, "sample", "%s", error);
    return EXIT_OK;
}

static int run_sampling(const struct sample_args *args, const struct stat_model *model,
                        const struct alloc_plan *plan, FILE *out)
{
    char error[1024];
    struct trace_header header;
    errno = 0;
    if (!read_trace_header(args->trace, &header, error, sizeof error))
        return command_error(failure_status(errno), "sample", "%s", error);
    if (stat_model_isa_warning(model, args->trace, args->trace, error, sizeof error))
        command_error(EXIT_OK, "sample", "warning: %s", error);
    const struct nbm_config *config = &model->netburst;
    bool ia32e = header.isa == TRACE_ISA_64 && stat_model_runs(model, TRACE_ISA_64);
    struct symbolizer symbols = {0};
    int rc = open_symbols(args, header.program, &symbols, out);
    if (rc == EXIT_OK)
        rc = sample_trace(args, config, plan, ia32e, &symbols, out);
    close_symbols(&symbols);
    return rc;
}

int cmd_sample(int argc, char **argv)
{
    struct sample_args args;
    int rc = parse_args(argc, argv, &args);
    if (rc >= 0)
        return rc;
    if ((rc = check_files(&args)))
        return rc;
    struct stat_model model;
    char error[1024];
    if (strcmp(args.model, "netburst") != 0 && strncmp(args.model, "netburst-", 9) != 0)
        return usage_error("sample", "unknown model '%s' (expected netburst or netburst-PRESET)",
                           args.model);
    if (!stat_model_choose_for(args.model, &args.event, 1, &model, error, sizeof error))
        return usage_error("sample", "-m: %s", error);
    const struct nbm_config *config = &model.netburst;
    struct alloc_request request;
    struct alloc_plan plan;
    if ((rc = plan_event(&args, config, &request, &plan)))
        return rc;
    struct atomic_file file;
    FILE *out = stdout;
    if (args.output) {
        if (!atomic_open(&file, args.output, error, sizeof error)) {
            alloc_plan_free(&plan);
            return command_error(EXIT_RUNTIME, "sample", "%s", error);
        }
        out = file.stream;
    }
    rc = run_sampling(&args, &model, &plan, out);
    alloc_plan_free(&plan);
    if (args.output) {
        if (rc != 0) {
            atomic_abort(&file);
        } else if (!atomic_commit(&file, error, sizeof error)) {
            rc = command_error(EXIT_RUNTIME, "sample", "%s", error);
        }
    }
    return rc;
}

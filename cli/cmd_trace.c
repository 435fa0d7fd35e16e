/* pmubench trace import (--lackey FILE | --dinero FILE) -o OUT
 * pmubench trace convert FILE OUT
 * pmubench trace info [--json] FILE
 * pmubench trace dump FILE */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/atomic_file.h"
#include "util/file_identity.h"
#include "commands.h"
#include "exit_status.h"
#include "util/json.h"
#include "util/suggest.h"
#include "util/text.h"
#include "traces/import.h"
#include "util/input_file.h"
#include "traces/trace.h"
#include "traces/trace_copy.h"
#include "traces/trace_info.h"

static const char trace_usage[] =
    "usage: pmubench trace import (--lackey FILE | --dinero FILE) -o OUT\n"
    "       pmubench trace convert FILE OUT\n"
    "       pmubench trace info [--json] FILE\n"
    "       pmubench trace dump FILE\n"
    "  import  converts valgrind lackey --trace-mem=yes output or a Dinero IV din\n"
    "          trace into a pmubench trace ('-' reads standard input)\n"
    "  convert rewrites a trace of an older format version in the current one\n"
    "  info    summarises a trace: instructions, branches, loads, stores, regions, size\n"
    "  dump    prints a trace's records, one line each\n"
    "  see docs/traces.md\n";

/* The options of 'pmubench trace' (cli/option_table.h); --help and -h besides. */
static const struct cli_option trace_option_list[] = {
    {"--lackey", true}, {"--dinero", true}, {"-o", true}, {"--json", false}, {NULL, false}
};
const struct option_table trace_option_table = {trace_option_list, false};

/* Each subcommand's own, for "did you mean" (option_table_nearest). */
static const struct cli_option import_option_list[] = {
    {"--lackey", true}, {"--dinero", true}, {"-o", true}, {NULL, false}
};
static const struct option_table import_options = {import_option_list, false};
static const struct cli_option info_option_list[] = {{"--json", false}, {NULL, false}};
static const struct option_table info_options = {info_option_list, false};
static const struct cli_option no_option_list[] = {{NULL, false}};
static const struct option_table no_options = {no_option_list, false};

/* ---- import */

struct import_args {
    enum trace_import_format format;
    const char *input;
    const char *output;
};

static int parse_import_args(int argc, char **argv, struct import_args *args)
{
    memset(args, 0, sizeof *args);
    for (int i = 1; i < argc; i++) {
        bool lackey = strcmp(argv[i], "--lackey") == 0;
        bool dinero = strcmp(argv[i], "--dinero") == 0;
        bool output = strcmp(argv[i], "-o") == 0;
        if (!lackey && !dinero && !output) {
            const char *near = option_table_nearest(&import_options, argv[i]);
            if (near)
                return usage_error("trace import", "unknown argument '%s' (did you mean '%s'?)",
                                   argv[i], near);
            return usage_error("trace import", "unknown argument '%s' (expected --lackey FILE, "
                               "--dinero FILE and -o OUT)", argv[i]);
        }
        if (i + 1 == argc)
            return usage_error("trace import", "%s needs a value", argv[i]);
        const char **slot = output ? &args->output : &args->input;
        if (*slot && output)
            return usage_error("trace import", "one output file at a time (-o once)");
        if (*slot)
            return usage_error("trace import",
                               "one input file at a time (--lackey or --dinero, once)");
        *slot = argv[++i];
        if (!output)
            args->format = lackey ? TRACE_IMPORT_LACKEY : TRACE_IMPORT_DINERO;
    }
    if (!args->input)
        return usage_error("trace import", "no input (--lackey FILE or --dinero FILE)");
    if (!args->output)
        return usage_error("trace import", "no output (-o OUT)");
    const struct named_file files[] = {
        {args->format == TRACE_IMPORT_LACKEY ? "--lackey" : "--dinero", args->input,
         strcmp(args->input, "-") == 0 ? FILE_READ_STDIN : FILE_READ},
        {"-o", args->output, FILE_WRITE},
    };
    char error[MESSAGE_SIZE];
    if (!files_distinct(files, 2, error, sizeof error))
        return command_error(EXIT_BAD_INPUT, "trace import", "%s", error);
    return 0;
}

/* The input, or NULL with the message printed (the status in *status). */
static FILE *open_input(const char *path, const char **name, int *status)
{
    bool from_stdin = strcmp(path, "-") == 0;
    char error[8192];
    *name = from_stdin ? "<stdin>" : path;
    FILE *in = from_stdin ? stdin : input_open(path, error, sizeof error);
    if (!in)
        *status = file_error(failure_status(errno), "%s", error);
    return in;
}

static int trace_import_command(int argc, char **argv)
{
    struct import_args args;
    int rc = parse_import_args(argc, argv, &args);
    if (rc)
        return rc;
    const char *name;
    FILE *in = open_input(args.input, &name, &rc);
    if (!in)
        return rc;
    char error[MESSAGE_SIZE];
    struct atomic_file out;
    if (!atomic_open(&out, args.output, error, sizeof error)) {
        rc = file_error(EXIT_RUNTIME, "%s", error);
    } else if (!trace_import(args.format, in, name, out.stream, args.output, error,
                             sizeof error)) {
        rc = file_error(failure_status(errno), "%s", error);
        atomic_abort(&out);
    } else if (!atomic_commit(&out, error, sizeof error)) {
        rc = file_error(EXIT_RUNTIME, "%s", error);
    }
    if (in != stdin)
        fclose(in);
    return rc;
}

/* ---- reading a trace: errors are printed, functions return the exit
 * status. */

struct open_trace {
    const char *path;
    FILE *file;
    struct trace_reader *reader;
};

static int open_trace(const char *path, struct open_trace *trace)
{
    char error[8192];
    trace->path = path;
    trace->file = input_open(path, error, sizeof error);
    if (!trace->file)
        return file_error(failure_status(errno), "%s", error);
    trace->reader = trace_reader_open(trace->file, path, error, sizeof error);
    if (trace->reader)
        return EXIT_OK;
    int status = file_error(errno ? failure_status(errno) : EXIT_BAD_INPUT, "%s", error);
    fclose(trace->file);
    return status;
}

/* The failure of a read: the file's, or the trace's. */
static int read_error(struct open_trace *trace)
{
    int error_number = trace_reader_error_number(trace->reader);
    return file_error(error_number ? failure_status(error_number) : EXIT_BAD_INPUT, "%s",
                      trace_reader_error(trace->reader));
}

static int next_record(struct open_trace *trace, struct trace_record *record)
{
    if (trace_read(trace->reader, record) == TRACE_OK)
        return EXIT_OK;
    return read_error(trace);
}

static void close_trace(struct open_trace *trace)
{
    trace_reader_close(trace->reader);
    fclose(trace->file);
}

/* The single FILE argument of info and dump, after --json if allowed. */
static int parse_trace_arg(int argc, char **argv, bool *json, const char **path)
{
    const char *command = json ? "trace info" : "trace dump";
    *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (json && strcmp(argv[i], "--json") == 0)
            *json = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return option_table_unknown(json ? &info_options : &no_options, command, argv[i]);
        else if (*path)
            return usage_error(command, "one trace at a time ('%s' and '%s')", *path, argv[i]);
        else
            *path = argv[i];
    }
    return *path ? EXIT_OK : usage_error(command, "no trace given");
}

/* ---- info */

/* Summarises the open trace (traces/trace_info.h); the exit status, with
 * the failure printed. */
static int summarise(struct open_trace *trace, struct trace_info *info)
{
    switch (trace_info_read(trace->file, trace->reader, info)) {
    case TRACE_INFO_OK:
        return EXIT_OK;
    case TRACE_INFO_READ_ERROR:
        return read_error(trace);
    case TRACE_INFO_NO_MEMORY:
        break;
    }
    return file_error(EXIT_RUNTIME, "%s: out of memory", trace->path);
}

/* "NAME          VALUE", the header's text escaped (util/text.h). */
static void print_text_field(const char *name, const char *value)
{
    printf("%-14s", name);
    text_print_escaped(stdout, value);
    putchar('\n');
}

static void print_json_field(const char *name, const char *value)
{
    printf(", \"%s\": ", name);
    json_print_string(value);
}

/* "0x00000001.*" or "0x00000007.0": a leaf and its subleaf. */
static void format_leaf(const struct cpuid_leaf *l, char *out, size_t size)
{
    if (l->subleaf == CPUID_ANY_SUBLEAF)
        snprintf(out, size, "0x%08" PRIx32 ".*", l->leaf);
    else
        snprintf(out, size, "0x%08" PRIx32 ".%" PRIu32, l->leaf, l->subleaf);
}

/* The CPU view the program saw (traces/cpu_view.h): its name and
 * identity, then a line per leaf. */
static void print_cpu_text(const struct cpu_view *view)
{
    if (!view->n) {
        printf("cpu           (not recorded)\n");
        return;
    }
    struct cpu_view_identity id;
    cpu_view_identify(view, &id);
    printf("cpu           ");
    text_print_escaped(stdout, view->name);
    printf(": ");
    text_print_escaped(stdout, id.vendor);
    printf(" family %u model %u stepping %u", id.family, id.model, id.stepping);
    if (id.brand[0]) {
        printf(", \"");
        text_print_escaped(stdout, id.brand);
        putchar('"');
    }
    putchar('\n');
    for (uint32_t i = 0; i < view->n; i++) {
        const struct cpuid_leaf *l = &view->leaves[i];
        char leaf[32];
        format_leaf(l, leaf, sizeof leaf);
        printf("  cpuid %-13s eax 0x%08" PRIx32 " ebx 0x%08" PRIx32 " ecx 0x%08" PRIx32
               " edx 0x%08" PRIx32 "\n",
               leaf, l->regs.eax, l->regs.ebx, l->regs.ecx, l->regs.edx);
    }
}

static void print_cpu_json(const struct cpu_view *view)
{
    if (!view->n) {
        printf(", \"cpu\": null");
        return;
    }
    struct cpu_view_identity id;
    cpu_view_identify(view, &id);
    printf(", \"cpu\": {\"name\": ");
    json_print_string(view->name);
    print_json_field("vendor", id.vendor);
    printf(", \"family\": %u, \"model\": %u, \"stepping\": %u", id.family, id.model,
           id.stepping);
    print_json_field("brand", id.brand);
    printf(", \"leaves\": [");
    for (uint32_t i = 0; i < view->n; i++) {
        const struct cpuid_leaf *l = &view->leaves[i];
        printf("%s{\"leaf\": %" PRIu32 ", \"subleaf\": ", i ? ", " : "", l->leaf);
        if (l->subleaf == CPUID_ANY_SUBLEAF)
            printf("null");
        else
            printf("%" PRIu32, l->subleaf);
        printf(", \"eax\": %" PRIu32 ", \"ebx\": %" PRIu32 ", \"ecx\": %" PRIu32
               ", \"edx\": %" PRIu32 "}",
               l->regs.eax, l->regs.ebx, l->regs.ecx, l->regs.edx);
    }
    printf("]}");
}

static void print_info_text(const struct trace_header *header,
                            const struct trace_info *s)
{
    print_text_field("program", header->program[0] ? header->program : "(unknown)");
    print_text_field("arguments", header->args);
    print_text_field("recorder", header->recorder);
    printf("isa           %d-bit\n", (int)header->isa);
    printf("lengths       %s\n", header->lengths_known ? "known" : "unknown");
    printf("registers     %s\n", header->registers ? "recorded" : "no");
    printf("instructions  %" PRIu64 "\n", s->instructions);
    printf("branches      %" PRIu64 " (%" PRIu64 " taken)\n", s->branches, s->taken);
    printf("loads         %" PRIu64 "\n", s->loads);
    printf("stores        %" PRIu64 "\n", s->stores);
    printf("regions       %" PRIu64 "\n", s->regions);
    if (s->end.status == TRACE_KILLED)
        printf("end           killed by signal %" PRIu32 "\n", s->end.code);
    else
        printf("end           exited with status %" PRIu32 "\n", s->end.code);
    printf("size          %lld bytes (%.2f per instruction)\n", s->bytes,
           trace_info_bytes_per_instruction(s));
    print_cpu_text(&header->cpu);
}

static void print_info_json(const char *path, const struct trace_header *header,
                            const struct trace_info *s)
{
    printf("{\"file\": ");
    json_print_string(path);
    print_json_field("program", header->program);
    print_json_field("args", header->args);
    print_json_field("recorder", header->recorder);
    printf(", \"isa\": %d, \"lengths_known\": %s, \"registers\": %s", (int)header->isa,
           header->lengths_known ? "true" : "false", header->registers ? "true" : "false");
    printf(", \"instructions\": %" PRIu64 ", \"branches\": %" PRIu64
           ", \"taken_branches\": %" PRIu64 ", \"loads\": %" PRIu64 ", \"stores\": %" PRIu64
           ", \"regions\": %" PRIu64,
           s->instructions, s->branches, s->taken, s->loads, s->stores, s->regions);
    printf(", \"end\": \"%s\", \"code\": %" PRIu32,
           s->end.status == TRACE_KILLED ? "killed" : "exited", s->end.code);
    printf(", \"bytes\": %lld, \"bytes_per_instruction\": %.2f", s->bytes,
           trace_info_bytes_per_instruction(s));
    print_cpu_json(&header->cpu);
    printf("}\n");
}

static int trace_info_command(int argc, char **argv)
{
    bool json = false;
    const char *path;
    struct open_trace trace;
    struct trace_info info;
    int rc = parse_trace_arg(argc, argv, &json, &path);
    if (rc || (rc = open_trace(path, &trace)))
        return rc;
    rc = summarise(&trace, &info);
    if (!rc && json)
        print_info_json(path, trace_reader_header(trace.reader), &info);
    else if (!rc)
        print_info_text(trace_reader_header(trace.reader), &info);
    close_trace(&trace);
    return rc;
}

/* ---- dump */

static const char *const access_names[] = {
    [TRACE_LOAD] = "load", [TRACE_STORE] = "store", [TRACE_MODIFY] = "modify"};

/* Names of trace_insn.regs[] (TRACE_REG_*) by ISA. */
static const char *const reg_names_64[TRACE_MAX_REGS] = {
    "flags", "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
    "r8",    "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
static const char *const reg_names_32[TRACE_REGS_32] = {"flags", "eax", "ecx", "edx", "ebx",
                                                        "esp",   "ebp", "esi", "edi"};

static void dump_registers(const struct trace_insn *insn, enum trace_isa isa)
{
    int n = isa == TRACE_ISA_64 ? TRACE_MAX_REGS : TRACE_REGS_32;
    const char *const *names = isa == TRACE_ISA_64 ? reg_names_64 : reg_names_32;
    printf(" regs");
    for (int i = 0; i < n; i++)
        printf(" %s=0x%" PRIx64, names[i], insn->regs[i]);
}

static void dump_insn(const struct trace_insn *insn, enum trace_isa isa)
{
    printf("insn 0x%" PRIx64 " len %u", insn->address, insn->length);
    if (insn->has_bytes) {
        printf(" bytes");
        for (int i = 0; i < insn->length; i++)
            printf(" %02x", insn->bytes[i]);
    }
    printf(" thread %u cpl %u", insn->thread, insn->cpl);
    if (insn->branch == TRACE_BRANCH_TAKEN)
        printf(" taken 0x%" PRIx64, insn->target);
    else if (insn->branch == TRACE_BRANCH_NOT_TAKEN)
        printf(" not-taken");
    for (int i = 0; i < insn->n_accesses; i++)
        printf(" %s 0x%" PRIx64 ",%" PRIu32, access_names[insn->accesses[i].kind],
               insn->accesses[i].address, insn->accesses[i].size);
    if (insn->has_registers)
        dump_registers(insn, isa);
    printf("\n");
}

static void dump_msr(const struct trace_msr *msr)
{
    if (msr->op == TRACE_MSR_RDTSC)
        printf("rdtsc cpu %u\n", msr->cpu);
    else if (msr->op == TRACE_MSR_READ)
        printf("msr read cpu %u 0x%" PRIx32 "\n", msr->cpu, msr->msr);
    else
        printf("msr write cpu %u 0x%" PRIx32 " 0x%" PRIx64 "\n", msr->cpu, msr->msr,
               msr->value);
}

/* One record as a line; *isa that of the code after it. */
static void dump_record(const struct trace_record *record, enum trace_isa *isa)
{
    switch (record->kind) {
    case TRACE_RECORD_ISA:
        *isa = record->isa;
        printf("isa %d-bit\n", (int)record->isa);
        break;
    case TRACE_RECORD_INSN:
        dump_insn(&record->insn, *isa);
        break;
    case TRACE_RECORD_REGION_BEGIN:
    case TRACE_RECORD_REGION_END:
        printf("region %s %" PRIu32 "\n",
               record->kind == TRACE_RECORD_REGION_BEGIN ? "begin" : "end", record->region);
        break;
    case TRACE_RECORD_MSR:
        dump_msr(&record->msr);
        break;
    case TRACE_RECORD_END:
        printf("end %s %" PRIu32 ", %" PRIu64 " instructions\n",
               record->end.status == TRACE_KILLED ? "killed by signal" : "exited with status",
               record->end.code, record->end.instructions);
        break;
    }
}

static int trace_dump_command(int argc, char **argv)
{
    const char *path;
    struct open_trace trace;
    int rc = parse_trace_arg(argc, argv, NULL, &path);
    if (rc || (rc = open_trace(path, &trace)))
        return rc;
    struct trace_record record;
    enum trace_isa isa = trace_reader_header(trace.reader)->isa;
    do {
        rc = next_record(&trace, &record);
        if (!rc)
            dump_record(&record, &isa);
    } while (!rc && record.kind != TRACE_RECORD_END);
    close_trace(&trace);
    return rc;
}

/* ---- convert */

static int parse_convert_args(int argc, char **argv, const char **input, const char **output)
{
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return option_table_unknown(&no_options, "trace convert", argv[i]);
    if (argc != 3)
        return usage_error("trace convert", "expected a trace and an output file");
    *input = argv[1];
    *output = argv[2];
    const struct named_file files[] = {{"FILE", *input, FILE_READ}, {"OUT", *output, FILE_WRITE}};
    char error[MESSAGE_SIZE];
    if (!files_distinct(files, 2, error, sizeof error))
        return command_error(EXIT_BAD_INPUT, "trace convert", "%s", error);
    return EXIT_OK;
}

/* Copies the open trace's records into `out` (traces/trace_copy.h); the
 * exit status. */
static int convert_to(struct open_trace *trace, const char *output, struct atomic_file *out)
{
    char error[MESSAGE_SIZE];
    struct trace_writer *writer =
        trace_writer_open(out->stream, trace_reader_header(trace->reader), error, sizeof error);
    if (!writer)
        return file_error(EXIT_RUNTIME, "%s: %s", output, error);
    enum trace_copy_status copied = trace_copy(trace->reader, writer);
    int rc = copied == TRACE_COPY_READ_FAILED ? read_error(trace)
             : copied == TRACE_COPY_WRITE_FAILED
                 ? file_error(EXIT_RUNTIME, "%s: cannot write", output)
             : copied == TRACE_COPY_TWO_ISAS
                 ? file_error(EXIT_BAD_INPUT,
                              "%s: programs of both instruction sets (an emulated run's "
                              "processes): one trace of one instruction set cannot hold them",
                              trace->path)
                 : EXIT_OK;
    if (!trace_writer_close(writer) && !rc)
        rc = file_error(EXIT_RUNTIME, "%s: cannot write", output);
    return rc;
}

static int trace_convert_command(int argc, char **argv)
{
    const char *input = NULL, *output = NULL;
    struct open_trace trace;
    int rc = parse_convert_args(argc, argv, &input, &output);
    if (rc || (rc = open_trace(input, &trace)))
        return rc;
    char error[MESSAGE_SIZE];
    struct atomic_file out;
    if (!atomic_open(&out, output, error, sizeof error)) {
        rc = file_error(EXIT_RUNTIME, "%s", error);
    } else {
        rc = convert_to(&trace, output, &out);
        if (rc)
            atomic_abort(&out);
        else if (!atomic_commit(&out, error, sizeof error))
            rc = file_error(EXIT_RUNTIME, "%s", error);
    }
    close_trace(&trace);
    return rc;
}

/* ---- the command */

int cmd_trace(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } subcommands[] = {{"import", trace_import_command},
                       {"convert", trace_convert_command},
                       {"info", trace_info_command},
                       {"dump", trace_dump_command}};
    if (argc < 2) {
        fputs(trace_usage, stderr);
        return EXIT_BAD_INPUT;
    }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0) {
            fputs(trace_usage, stdout);
            return 0;
        }
    struct suggestion near;
    suggestion_start(&near, argv[1]);
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++) {
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);
        suggestion_consider(&near, subcommands[i].name);
    }
    if (near.best)
        return usage_error("trace", "unknown subcommand '%s' (did you mean '%s'?)", argv[1],
                           near.best);
    return usage_error("trace", "unknown subcommand '%s'", argv[1]);
}

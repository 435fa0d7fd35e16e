/* pmubench trace import (--lackey FILE | --dinero FILE) -o OUT
 * pmubench trace info [--json] FILE
 * pmubench trace dump FILE */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/atomic_file.h"
#include "bench/file_identity.h"
#include "commands.h"
#include "exit_status.h"
#include "json.h"
#include "text.h"
#include "traces/import.h"
#include "traces/input_file.h"
#include "traces/trace.h"

static const char trace_usage[] =
    "usage: pmubench trace import (--lackey FILE | --dinero FILE) -o OUT\n"
    "       pmubench trace info [--json] FILE\n"
    "       pmubench trace dump FILE\n"
    "  import  converts valgrind lackey --trace-mem=yes output or a Dinero IV din\n"
    "          trace into a pmubench trace ('-' reads standard input)\n"
    "  info    summarises a trace: instructions, branches, loads, stores, regions, size\n"
    "  dump    prints a trace's records, one line each\n"
    "  see docs/traces.md\n";

static bool is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

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
        if (!lackey && !dinero && !output)
            return usage_error("trace import", "unknown argument '%s' (expected --lackey FILE, "
                               "--dinero FILE and -o OUT)", argv[i]);
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
    char error[2200];
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

static bool import_into(const struct import_args *args, FILE *in, const char *name,
                        struct trace_writer *writer, char *error, size_t size)
{
    if (args->format == TRACE_IMPORT_LACKEY)
        return trace_import_lackey(in, name, writer, error, size);
    return trace_import_dinero(in, name, writer, error, size);
}

/* Imports into the open output; the exit status. */
static int import_to(const struct import_args *args, FILE *in, const char *name,
                     struct atomic_file *out)
{
    char error[1024];
    struct trace_header header;
    trace_import_header(&header, args->format);
    struct trace_writer *writer = trace_writer_open(out->stream, &header, error, sizeof error);
    if (!writer)
        return file_error(EXIT_RUNTIME, "%s: %s", args->output, error);
    bool imported = import_into(args, in, name, writer, error, sizeof error);
    bool closed = trace_writer_close(writer);
    if (ferror(out->stream) || (imported && !closed))
        return file_error(EXIT_RUNTIME, "%s: cannot write", args->output);
    if (imported)
        return EXIT_OK;
    return file_error(ferror(in) ? EXIT_RUNTIME : EXIT_BAD_INPUT, "%s", error);
}

static int trace_import(int argc, char **argv)
{
    struct import_args args;
    int rc = parse_import_args(argc, argv, &args);
    if (rc)
        return rc;
    const char *name;
    FILE *in = open_input(args.input, &name, &rc);
    if (!in)
        return rc;
    char error[1024];
    struct atomic_file out;
    if (!atomic_open(&out, args.output, error, sizeof error)) {
        rc = file_error(EXIT_RUNTIME, "%s", error);
    } else {
        rc = import_to(&args, in, name, &out);
        if (rc)
            atomic_abort(&out);
        else if (!atomic_commit(&out, error, sizeof error))
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
    int status = ferror(trace->file) ? file_error(EXIT_RUNTIME, "%s: cannot read: %s", path,
                                                  strerror(errno))
                                     : file_error(EXIT_BAD_INPUT, "%s", error);
    fclose(trace->file);
    return status;
}

static int next_record(struct open_trace *trace, struct trace_record *record)
{
    if (trace_read(trace->reader, record) == TRACE_OK)
        return EXIT_OK;
    if (ferror(trace->file))
        return file_error(EXIT_RUNTIME, "%s: cannot read: %s", trace->path, strerror(errno));
    return file_error(EXIT_BAD_INPUT, "%s", trace_reader_error(trace->reader));
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
            return usage_error(command, "unknown option '%s'", argv[i]);
        else if (*path)
            return usage_error(command, "one trace at a time ('%s' and '%s')", *path, argv[i]);
        else
            *path = argv[i];
    }
    return *path ? EXIT_OK : usage_error(command, "no trace given");
}

/* ---- info */

struct trace_summary {
    uint64_t instructions, branches, taken, loads, stores, regions;
    struct trace_end end;
    long long bytes;
};

static void count_insn(struct trace_summary *summary, const struct trace_insn *insn)
{
    summary->instructions++;
    summary->branches += insn->branch != TRACE_NOT_BRANCH;
    summary->taken += insn->branch == TRACE_BRANCH_TAKEN;
    /* a modify (TRACE_LOAD | TRACE_STORE) is a load and a store */
    for (int i = 0; i < insn->n_accesses; i++) {
        summary->loads += (insn->accesses[i].kind & TRACE_LOAD) != 0;
        summary->stores += (insn->accesses[i].kind & TRACE_STORE) != 0;
    }
}

static int summarise(struct open_trace *trace, struct trace_summary *summary)
{
    memset(summary, 0, sizeof *summary);
    struct trace_record record;
    do {
        int rc = next_record(trace, &record);
        if (rc)
            return rc;
        if (record.kind == TRACE_RECORD_INSN)
            count_insn(summary, &record.insn);
        summary->regions += record.kind == TRACE_RECORD_REGION_BEGIN;
    } while (record.kind != TRACE_RECORD_END);
    summary->end = record.end;
    struct stat st;
    summary->bytes = fstat(fileno(trace->file), &st) == 0 ? (long long)st.st_size : 0;
    return 0;
}

static double bytes_per_instruction(const struct trace_summary *summary)
{
    return summary->instructions ? (double)summary->bytes / (double)summary->instructions : 0;
}

/* "NAME          VALUE", the header's text escaped (cli/text.h). */
static void print_text_field(const char *name, const char *value)
{
    printf("%-14s", name);
    text_print_escaped(stdout, value);
    putchar('\n');
}

static void print_info_text(const struct trace_header *header,
                            const struct trace_summary *s)
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
           bytes_per_instruction(s));
}

static void print_json_field(const char *name, const char *value)
{
    printf(", \"%s\": ", name);
    json_print_string(value);
}

static void print_info_json(const char *path, const struct trace_header *header,
                            const struct trace_summary *s)
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
    printf(", \"bytes\": %lld, \"bytes_per_instruction\": %.2f}\n", s->bytes,
           bytes_per_instruction(s));
}

static int trace_info(int argc, char **argv)
{
    bool json = false;
    const char *path;
    struct open_trace trace;
    struct trace_summary summary;
    int rc = parse_trace_arg(argc, argv, &json, &path);
    if (rc || (rc = open_trace(path, &trace)))
        return rc;
    rc = summarise(&trace, &summary);
    if (!rc && json)
        print_info_json(path, trace_reader_header(trace.reader), &summary);
    else if (!rc)
        print_info_text(trace_reader_header(trace.reader), &summary);
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

static void dump_record(const struct trace_record *record, enum trace_isa isa)
{
    switch (record->kind) {
    case TRACE_RECORD_INSN:
        dump_insn(&record->insn, isa);
        break;
    case TRACE_RECORD_REGION_BEGIN:
    case TRACE_RECORD_REGION_END:
        printf("region %s %" PRIu32 "\n",
               record->kind == TRACE_RECORD_REGION_BEGIN ? "begin" : "end", record->region);
        break;
    case TRACE_RECORD_END:
        printf("end %s %" PRIu32 ", %" PRIu64 " instructions\n",
               record->end.status == TRACE_KILLED ? "killed by signal" : "exited with status",
               record->end.code, record->end.instructions);
        break;
    }
}

static int trace_dump(int argc, char **argv)
{
    const char *path;
    struct open_trace trace;
    int rc = parse_trace_arg(argc, argv, NULL, &path);
    if (rc || (rc = open_trace(path, &trace)))
        return rc;
    struct trace_record record;
    do {
        rc = next_record(&trace, &record);
        if (!rc)
            dump_record(&record, trace_reader_header(trace.reader)->isa);
    } while (!rc && record.kind != TRACE_RECORD_END);
    close_trace(&trace);
    return rc;
}

/* ---- the command */

int cmd_trace(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } subcommands[] = {{"import", trace_import}, {"info", trace_info}, {"dump", trace_dump}};
    if (argc < 2) {
        fputs(trace_usage, stderr);
        return EXIT_BAD_INPUT;
    }
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            fputs(trace_usage, stdout);
            return 0;
        }
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);
    return usage_error("trace", "unknown subcommand '%s'", argv[1]);
}

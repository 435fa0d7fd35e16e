/* pmubench plot [--ipc] [-o FILE] RESULT
 *
 * Draws a `pmubench stat --json` result as SVG (docs/plot.md): with
 * intervals (stat -I N) each event's count per interval over the trace, or
 * with --ipc instructions (and uops) per cycle per interval; without
 * intervals the counts as bars.  The result is read by
 * apps/compare/intervals.h, drawn by apps/compare/stat_plot.h; this file parses
 * the arguments and writes the picture whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/atomic_file.h"
#include "util/file_identity.h"
#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "apps/compare/stat_plot.h"

static const char plot_usage[] =
    "usage: pmubench plot [--ipc] [-o FILE] RESULT\n"
    "  RESULT    'pmubench stat --json' output (- is standard input)\n"
    "  --ipc     instructions per cycle in each interval (and uops per cycle on the\n"
    "            NetBurst); needs a result of 'pmubench stat -I N --json'\n"
    "  -o FILE   write the SVG to FILE (whole or not at all), not standard output\n"
    "With intervals: one panel per event, its count in each interval drawn over\n"
    "the interval (x: instructions or cycles from the start).  Without: the counts\n"
    "as bars.\n";

/* The options of 'pmubench plot' (cli/option_table.h); --help and -h besides. */
static const struct cli_option plot_option_list[] = {
    {"--ipc", false}, {"-o", true}, {NULL, false}
};
const struct option_table plot_option_table = {plot_option_list, false};

struct plot_options {
    bool ipc;
    const char *output;  /* -o's file, or NULL: standard output */
    const char *input;
};

/* 0, or the exit status of a usage error (its message printed). */
static int parse_options(int argc, char **argv, struct plot_options *o)
{
    *o = (struct plot_options){0};
    struct options_given given = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool option = arg[0] == '-' && arg[1] != '\0';
        if (option && !option_once(&given, "plot", arg))
            return EXIT_BAD_INPUT;
        if (strcmp(arg, "--ipc") == 0) {
            o->ipc = true;
        } else if (strcmp(arg, "-o") == 0) {
            if (++i == argc)
                return usage_error("plot", "-o needs a value");
            o->output = argv[i];
        } else if (option) {
            return option_table_unknown(&plot_option_table, "plot", arg);
        } else if (o->input) {
            return usage_error("plot", "one RESULT at a time ('%s' and '%s')", o->input, arg);
        } else {
            o->input = arg;
        }
    }
    if (!o->input)
        return usage_error("plot", "needs a RESULT (pmubench stat --json output)");
    return 0;
}

/* No -o over the result (util/file_identity.h); 0 or 2. */
static int check_files(const struct plot_options *o)
{
    bool stdin_input = strcmp(o->input, "-") == 0;
    struct named_file files[2] = {{"-o", o->output, FILE_WRITE},
                                  {"RESULT", o->input, stdin_input ? FILE_READ_STDIN : FILE_READ}};
    char error[MESSAGE_SIZE];
    if (files_distinct(files, 2, error, sizeof error))
        return 0;
    return command_error(EXIT_BAD_INPUT, "plot", "%s", error);
}

/* The picture to -o's file, whole or not at all; 0, or 1 with the message. */
static int write_file(const struct plot_options *o, const struct stat_plot *plot)
{
    char error[MESSAGE_SIZE];
    if (atomic_write(o->output, stat_plot_draw, plot, "out of memory", error, sizeof error))
        return EXIT_OK;
    return command_error(EXIT_RUNTIME, "plot", "%s", error);
}

static int write_stdout(const struct stat_plot *plot)
{
    char *text = NULL;
    size_t size = 0;
    FILE *memory = open_memstream(&text, &size);
    bool ok = memory && stat_plot_draw(memory, plot);
    ok = memory && fclose(memory) == 0 && ok;
    if (ok)
        fwrite(text, 1, size, stdout);
    free(text);
    return ok ? EXIT_OK : command_error(EXIT_RUNTIME, "plot", "out of memory");
}

int cmd_plot(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0) {
            fputs(plot_usage, stdout);
            return EXIT_OK;
        }
    struct plot_options o;
    int status = parse_options(argc, argv, &o);
    if (status == 0)
        status = check_files(&o);
    if (status != 0)
        return status;
    struct count_set set;
    struct interval_series series;
    char error[MESSAGE_SIZE];
    errno = 0;
    if (!stat_result_read_file(o.input, &set, &series, error, sizeof error))
        return file_error(failure_status(errno), "%s", error);
    struct stat_plot plot = {&set, &series, o.ipc};
    if (o.ipc && !series.present)
        status = command_error(EXIT_BAD_INPUT, "plot",
                               "--ipc needs intervals, and %s has none (pmubench stat -I N --json)",
                               strcmp(o.input, "-") == 0 ? "<stdin>" : o.input);
    else
        status = o.output ? write_file(&o, &plot) : write_stdout(&plot);
    interval_series_free(&series);
    count_set_free(&set);
    return status;
}

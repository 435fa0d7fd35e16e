/* run_p5mon's parameters (Safford 1997, section 4.3, Table C.1) read from an
 * IMPACT PARMS file (Figure C.1) and from -F name=value overrides, plus
 * pmubench's own (trace, model, model_NAME, interval).  docs/p5mon.md has
 * the syntax and every message.
 *
 *   struct p5mon_parms parms;
 *   p5mon_parms_defaults(&parms);
 *   p5mon_parms_read(file, "STD_PARMS", &parms, error, sizeof error);
 *   p5mon_parms_override(&parms, "repetitions=5", 1, error, sizeof error);
 *   p5mon_parms_check(&parms, "STD_PARMS", error, sizeof error);
 *
 * or all four at once, with the model it names:
 *
 *   p5mon_parms_load("STD_PARMS", overrides, n, &parms, error, sizeof error);
 *   p5mon_parms_model(&parms, &config, error, sizeof error);
 */
#ifndef APPS_P5MON_PARMS_H
#define APPS_P5MON_PARMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pmu/emulated/p5_pmu.h"
#include "sim/machine/machine.h"
#include "util/line_stream.h"

enum {
    P5MON_MAX_REGIONS = 100,       /* run_p5mon's limit (Safford 1997, section 4.2.2) */
    P5MON_MAX_REPETITIONS = 1000,
    P5MON_MAX_MODEL_PARMS = 32,
    P5MON_MAX_LINE = TEXT_MAX_LINE + 1, /* a PARMS line and its NUL */
    P5MON_WHERE_SIZE = 4096 + 16,  /* "FILE:LINE" or "-F:N" */
};

/* How the confidence interval is computed (apps/p5mon/stats.h). */
enum p5mon_interval {
    P5MON_INTERVAL_RUN_P5MON, /* what run_p5mon printed: t(df = n), population SD */
    P5MON_INTERVAL_STUDENT,   /* the textbook one: t(df = n - 1), sample SD */
};

/* A value and where it was set, for messages about it later. */
struct p5mon_setting {
    char value[P5MON_MAX_LINE];
    char where[P5MON_WHERE_SIZE];
};

struct p5mon_model_parm {
    char name[64];             /* without the "model_" prefix */
    struct p5mon_setting setting;
};

struct p5mon_parms {
    struct p5mon_setting command;   /* value "" when not set */
    struct p5mon_setting trace;     /* pmubench: the trace to simulate */
    struct p5mon_setting model;     /* pmubench: a P5 preset name */
    struct p5mon_setting output_file;
    int repetitions;
    bool user_events, kernel_events;
    bool output_all_results;
    bool confidence_99;
    bool use_assembly_regions;
    int max_regions;
    bool skip_initialization_run;
    int verbose_level;
    enum p5mon_interval interval;
    bool events[P5_NUM_CODES];      /* by event code */
    bool count_clocks;
    int n_model_parms;
    struct p5mon_model_parm model_parms[P5MON_MAX_MODEL_PARMS];
};

/* Table C.1's defaults (max_regions 100), model "p5", interval run_p5mon. */
void p5mon_parms_defaults(struct p5mon_parms *parms);

/* Reads the "(p5mon" section of a PARMS file; other sections are checked
 * for syntax and skipped; lines have at most TEXT_MAX_LINE characters
 * (util/line_stream.h).  False with "NAME:LINE: ..." in `error`, errno
 * EIO or ENOMEM when reading failed. */
bool p5mon_parms_read(FILE *in, const char *name, struct p5mon_parms *parms, char *error,
                      size_t error_size);

/* Applies the `index`th (from 1) -F argument, "name=value"; it replaces a
 * value from the file or an earlier -F.  False with "-F:INDEX: ...". */
bool p5mon_parms_override(struct p5mon_parms *parms, const char *argument, int index,
                          char *error, size_t error_size);

/* What no single line can tell: the program or trace is given, an event is
 * selected.  False with "NAME: ..." in `error`. */
bool p5mon_parms_check(const struct p5mon_parms *parms, const char *name, char *error,
                       size_t error_size);

/* The parameters of `p5mon [PATH] -F OVERRIDE...`: the defaults, the
 * PARMS file at `path` (NULL: none; opened as util/input_file.h opens
 * inputs, its message in `error`), then the `n_overrides` -F arguments in
 * order, checked (p5mon_parms_check, named `path` or "-F").  False with
 * the first failure's line in `error` and errno as the step that failed
 * left it. */
bool p5mon_parms_load(const char *path, char *const *overrides, int n_overrides,
                      struct p5mon_parms *parms, char *error, size_t error_size);

/* The P5 machine the parameters name (sim/machine/machine.h): the P5
 * preset of `model`, then each model_NAME setting in order.  False with "WHERE:
 * message" in `error`, WHERE the file line or -F argument that set the
 * refused value. */
bool p5mon_parms_model(const struct p5mon_parms *parms, struct machine_config *config,
                       char *error, size_t error_size);

/* The selected events in report order (Table C.1's order, count_clocks
 * last): codes, with P5MON_CLOCKS for count_clocks.  Returns how many. */
enum { P5MON_CLOCKS = -1, P5MON_MAX_EVENTS = 39 };
int p5mon_parms_events(const struct p5mon_parms *parms, int events[P5MON_MAX_EVENTS]);

#endif

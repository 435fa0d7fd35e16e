/* p5mon's PARMS `command` when no trace is given (docs/p5mon.md): a
 * program, its arguments and < > redirections, without shell syntax,
 * recorded as `pmubench record` records it into a temporary trace with
 * the program's standard input and output redirected meanwhile. */
#ifndef APPS_P5MON_COMMAND_H
#define APPS_P5MON_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cleanup.h"
#include "parms.h"
#include "traces/progress.h"
#include "traces/record.h"

enum { P5MON_MAX_WORDS = 256 };

/* `command` split for recording. */
struct p5mon_command {
    char *copy;                       /* the words point into it */
    char *words[P5MON_MAX_WORDS];     /* NULL-terminated */
    const char *input, *output;       /* < and > files, or NULL */
};

/* Splits the setting's value; false with one line in `error` (what was
 * expected, at the setting's place; out of memory with errno ENOMEM).
 * p5mon_command_free after, either way. */
bool p5mon_command_parse(const struct p5mon_setting *setting, struct p5mon_command *command,
                         char *error, size_t error_size);

void p5mon_command_free(struct p5mon_command *command);

enum p5mon_record_status {
    P5MON_RECORDED,     /* the trace is written */
    P5MON_NO_INPUT,     /* the < file cannot be read: util/input_file.h's line, errno */
    P5MON_NO_OUTPUT,    /* the > file cannot be created: "FILE: cannot create: REASON" */
    P5MON_NOT_RECORDED, /* the temporary trace cannot be made (RECORD_FAILED), or the
                         * recording failed: *recorded says how, `error` why */
};

/* Records `command` as `pmubench record` does, the program seeing the CPU
 * of the p5 model `model` names (cpu_view_for_model), into a new temporary
 * trace "$TMPDIR/pmubench-p5mon-XXXXXX" listed under `temporary`, its path
 * in `trace` (util/cleanup.h: the caller removes it after use; nothing is
 * left on failure).  The temporary file is made first, then this process's
 * standard input and output are the command's < and > files while it
 * records, and restored after.  `result` as record_run gives it. */
enum p5mon_record_status p5mon_record_command(const struct p5mon_command *command,
                                              const char *model,
                                              const struct progress_hook *progress,
                                              struct cleanup_file *temporary, char *trace,
                                              size_t size, enum record_status *recorded,
                                              struct record_result *result, char *error,
                                              size_t error_size);

#endif

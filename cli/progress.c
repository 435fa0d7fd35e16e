/* The progress line (cli/progress.h, docs/stat.md "Progress"). */
#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exit_status.h"
#include "util/number.h"

static double monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

void cli_progress_format(char *line, size_t size, const char *command,
                         const struct progress_point *point, double seconds,
                         uint64_t total_bytes)
{
    double millions = (double)point->instructions / 1e6;
    int n = snprintf(line, size, "%s: %.1fM instructions, %.1fM/s", command, millions,
                     seconds > 0 ? millions / seconds : 0.0);
    if (total_bytes && point->bytes && n >= 0 && (size_t)n < size) {
        uint64_t share = point->bytes >= total_bytes ? 100 : point->bytes * 100 / total_bytes;
        n += snprintf(line + n, size - (size_t)n, ", %u%% of the trace", (unsigned)share);
    }
    if (point->passes > 1 && n >= 0 && (size_t)n < size)
        snprintf(line + n, size - (size_t)n, ", pass %d of %d", point->pass, point->passes);
}

static void report(void *context, const struct progress_point *point)
{
    struct cli_progress *p = context;
    double now = p->clock();
    if (now - p->start < p->after || now < p->next)
        return;
    p->next = now + PROGRESS_LINE_EVERY;
    char line[160];
    cli_progress_format(line, sizeof line, p->command, point, now - p->start, p->total_bytes);
    size_t length = strlen(line);
    /* Spaces over what is left of a longer line before. */
    fprintf(p->out, "\r%s%*s", line, p->shown > length ? (int)(p->shown - length) : 0, "");
    fflush(p->out);
    p->shown = length;
}

void cli_progress_init(struct cli_progress *p, const char *command, FILE *out,
                       double (*clock)(void), double after, uint64_t total_bytes)
{
    *p = (struct cli_progress){command, out, false, clock, clock(), after, 0, total_bytes, 0,
                               {report, p}};
}

/* The longest wait $PMUBENCH_PROGRESS_AFTER_MS may ask for: a day. */
#define PROGRESS_AFTER_MS_MAX 86400000u

/* The seconds before the first line: $PMUBENCH_PROGRESS_AFTER_MS (tests),
 * else one; a value that is not a number of milliseconds (util/number.h)
 * is named in a warning, and the second kept. */
static double first_line_after(const char *command)
{
    const char *ms = getenv("PMUBENCH_PROGRESS_AFTER_MS");
    if (!ms)
        return 1.0;
    uint64_t value;
    char error[256];
    if (!number_read("PMUBENCH_PROGRESS_AFTER_MS", ms, 0, PROGRESS_AFTER_MS_MAX, &value, error,
                     sizeof error)) {
        command_error(EXIT_OK, command, "warning: %s; the progress line waits a second", error);
        return 1.0;
    }
    return (double)value / 1000;
}

void cli_progress_start(struct cli_progress *p, const char *command, const char *const paths[],
                        int n)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0 || !S_ISREG(st.st_mode)) {
            total = 0;
            break;
        }
        total += (uint64_t)st.st_size;
    }
    cli_progress_init(p, command, isatty(STDERR_FILENO) ? stderr : NULL, monotonic_seconds,
                      first_line_after(command), total);
}

/* The controlling terminal, when neither stdout nor stderr is a terminal
 * (a terminal there is taken to be that one: /dev/tty names no device to
 * compare with); NULL otherwise, or when there is none. */
static FILE *terminal_apart(void)
{
    if (isatty(STDOUT_FILENO) || isatty(STDERR_FILENO))
        return NULL;
    FILE *tty = fopen("/dev/tty", "w");
    if (tty)
        fcntl(fileno(tty), F_SETFD, FD_CLOEXEC); /* not the recorded program's */
    return tty;
}

void cli_progress_start_recording(struct cli_progress *p)
{
    FILE *tty = terminal_apart();
    cli_progress_init(p, "record", tty, monotonic_seconds, first_line_after("record"), 0);
    p->own_out = tty != NULL;
}

const struct progress_hook *cli_progress_hook(struct cli_progress *p)
{
    return p->out ? &p->hook : NULL;
}

void cli_progress_end(struct cli_progress *p)
{
    if (p->shown) {
        fprintf(p->out, "\r%*s\r", (int)p->shown, "");
        fflush(p->out);
        p->shown = 0;
    }
    if (p->own_out)
        fclose(p->out);
    p->out = NULL;
    p->own_out = false;
}

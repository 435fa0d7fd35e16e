#include "gtkw.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool gtkw_path_for(const char *vcd_path, char *out, size_t size)
{
    size_t length = strlen(vcd_path);
    if (length > 4 && strcmp(vcd_path + length - 4, ".vcd") == 0)
        length -= 4;
    int n = snprintf(out, size, "%.*s.gtkw", (int)length, vcd_path);
    return n >= 0 && (size_t)n < size;
}

bool gtkw_absolute_path(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    char folder[PATH_MAX];
    int n = slash ? snprintf(folder, sizeof folder, "%.*s", (int)(slash - path + 1), path)
                  : snprintf(folder, sizeof folder, ".");
    char *real = n >= 0 && (size_t)n < sizeof folder ? realpath(folder, NULL) : NULL;
    if (!real)
        return false;
    const char *name = slash ? slash + 1 : path;
    n = snprintf(out, size, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", name);
    free(real);
    return n >= 0 && (size_t)n < size;
}

static void group_line(FILE *out, uint64_t flags, const char *scope)
{
    fprintf(out, "@%llx\n-%s\n", (unsigned long long)(flags | GTKW_TR_BLANK), scope);
}

static void signal_line(FILE *out, const struct gtkw_signal *signal)
{
    fprintf(out, "%s.%s", signal->scope, signal->name);
    if (signal->width > 1)
        fprintf(out, "[%d:0]", signal->width - 1);
    fputc('\n', out);
}

void gtkw_write(FILE *out, const char *dumpfile, const char *savefile,
                const struct gtkw_signal *signals, int n)
{
    fprintf(out, "[*] pmubench bench waveform: the detector buses, then each counter\n"
                 "[dumpfile] \"%s\"\n[savefile] \"%s\"\n[timestart] 0\n", dumpfile, savefile);
    for (int i = 0; i < n; i++) {
        const char *scope = signals[i].scope;
        bool first = i == 0 || strcmp(signals[i - 1].scope, scope) != 0;
        bool last = i + 1 == n || strcmp(signals[i + 1].scope, scope) != 0;
        if (first) {
            group_line(out, GTKW_TR_GRP_BEGIN, scope);
            fprintf(out, "@%llx\n", (unsigned long long)(GTKW_TR_DEC | GTKW_TR_RJUSTIFY));
        }
        signal_line(out, &signals[i]);
        if (last)
            group_line(out, GTKW_TR_GRP_END, scope);
    }
}

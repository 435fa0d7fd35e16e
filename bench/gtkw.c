#include "gtkw.h"

#include <stdint.h>
#include <string.h>

bool gtkw_path_for(const char *vcd_path, char *out, size_t size)
{
    size_t length = strlen(vcd_path);
    if (length > 4 && strcmp(vcd_path + length - 4, ".vcd") == 0)
        length -= 4;
    int n = snprintf(out, size, "%.*s.gtkw", (int)length, vcd_path);
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

void gtkw_write(FILE *out, const char *dumpfile, const struct gtkw_signal *signals, int n)
{
    fprintf(out, "[*] pmubench bench waveform: the detector buses, then each counter\n"
                 "[dumpfile] \"%s\"\n[timestart] 0\n", dumpfile);
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
